import { Route, Routes } from 'react-router-dom';
import { PageNotFound, type RemoteAppProps } from '@dme/ui';
import { PaymentsPage } from './features/payments/PaymentsPage';

export function AppRoutes(_props: RemoteAppProps) {
  return (
    <Routes>
      <Route path="/admin/payments" element={<PaymentsPage />} />
      <Route path="*" element={<PageNotFound />} />
    </Routes>
  );
}
