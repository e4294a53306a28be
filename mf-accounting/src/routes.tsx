import { lazy, Suspense } from 'react';
import { Route, Routes } from 'react-router-dom';
import { LazyPageNotFound, Loading } from '@dme/ui';
import { PaymentsPage } from './features/payments/PaymentsPage';

const PaymentDetailPage = lazy(() => import('./features/payments/PaymentDetailPage'));
const ReportsPage = lazy(() => import('./features/reports/ReportsPage'));
const ReconciliationPage = lazy(() => import('./features/reconciliation/ReconciliationPage'));

/** Payments and the reconciliation (accounting admin and superadmin) and reports (superadmin): SPEC §2, issue 29. */
export function AppRoutes() {
  return (
    <Suspense fallback={<Loading />}>
      <Routes>
        <Route path="/admin/payments" element={<PaymentsPage />} />
        <Route path="/admin/payments/:id" element={<PaymentDetailPage />} />
        <Route path="/admin/reconciliation" element={<ReconciliationPage />} />
        <Route path="/admin/reports" element={<ReportsPage />} />
        <Route path="*" element={<LazyPageNotFound />} />
      </Routes>
    </Suspense>
  );
}
