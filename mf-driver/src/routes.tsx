import { lazy, Suspense } from 'react';
import { Route, Routes } from 'react-router-dom';
import { LazyPageNotFound, Loading } from '@dme/ui';
import { DriverOrdersPage } from './features/orders/DriverOrdersPage';
import { OutboxPanel, OutboxRunner } from './features/orders/Outbox';

const DriverOrderDetailPage = lazy(() => import('./features/orders/DriverOrderDetailPage'));
// The hand-over at the door (issue 28): its own chunk, with signature_pad.
const HandoverPage = lazy(() => import('./features/orders/HandoverPage'));
// The driver's day (issue 28): the stops in the driver's order.
const TodayPage = lazy(() => import('./features/orders/TodayPage'));

/**
 * The driver's screens (SPEC §2 DRIVER): absolute paths inside the shell's router. Above every
 * screen, what waits on this phone to be sent (issue 28: the outbox, sent in turn when online).
 */
export function AppRoutes() {
  return (
    <Suspense fallback={<Loading />}>
      <OutboxRunner />
      <OutboxPanel />
      <Routes>
        <Route path="/admin/today" element={<TodayPage />} />
        <Route path="/admin/for-delivery" element={<DriverOrdersPage key="DELIVERY" purpose="DELIVERY" />} />
        <Route path="/admin/for-delivery/:id" element={<DriverOrderDetailPage purpose="DELIVERY" />} />
        <Route path="/admin/for-delivery/:id/handover" element={<HandoverPage key="DELIVERY" leg="DELIVERY" />} />
        <Route path="/admin/for-pickup" element={<DriverOrdersPage key="PICKUP" purpose="PICKUP" />} />
        <Route path="/admin/for-pickup/:id" element={<DriverOrderDetailPage purpose="PICKUP" />} />
        <Route path="/admin/for-pickup/:id/handover" element={<HandoverPage key="PICKUP" leg="PICKUP" />} />
        <Route path="*" element={<LazyPageNotFound />} />
      </Routes>
    </Suspense>
  );
}
