import { Route, Routes } from 'react-router-dom';
import { PageNotFound, type RemoteAppProps } from '@dme/ui';
import { DashboardPage } from './features/products/DashboardPage';

export function AppRoutes(_props: RemoteAppProps) {
  return (
    <Routes>
      <Route path="/dashboard" element={<DashboardPage />} />
      <Route path="*" element={<PageNotFound />} />
    </Routes>
  );
}
