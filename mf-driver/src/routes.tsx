import { Route, Routes } from 'react-router-dom';
import { PageNotFound, type RemoteAppProps } from '@dme/ui';
import { ForDeliveryPage } from './features/deliveries/ForDeliveryPage';

export function AppRoutes(_props: RemoteAppProps) {
  return (
    <Routes>
      <Route path="/admin/for-delivery" element={<ForDeliveryPage />} />
      <Route path="*" element={<PageNotFound />} />
    </Routes>
  );
}
