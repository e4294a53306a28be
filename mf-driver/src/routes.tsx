import { Suspense } from 'react';
import { Route, Routes } from 'react-router-dom';
import { LazyPageNotFound, Loading } from '@dme/ui';
import { ForDeliveryPage } from './features/deliveries/ForDeliveryPage';
import { ForPickupPage } from './features/pickups/ForPickupPage';

/** The driver's screens (SPEC §2): absolute paths inside the shell's router. */
export function AppRoutes() {
  return (
    <Suspense fallback={<Loading />}>
      <Routes>
        <Route path="/admin/for-delivery" element={<ForDeliveryPage />} />
        <Route path="/admin/for-pickup" element={<ForPickupPage />} />
        <Route path="*" element={<LazyPageNotFound />} />
      </Routes>
    </Suspense>
  );
}
