import { Route, Routes } from 'react-router-dom';
import { PageNotFound, type RemoteAppProps } from '@dme/ui';
import { BinsPage } from './features/bins/BinsPage';

export function AppRoutes(_props: RemoteAppProps) {
  return (
    <Routes>
      <Route path="/admin/warehouse-bins" element={<BinsPage />} />
      <Route path="*" element={<PageNotFound />} />
    </Routes>
  );
}
