import { Suspense } from 'react';
import { Route, Routes } from 'react-router-dom';
import { LazyPageNotFound, Loading } from '@dme/ui';
import { ForDeliveryPage } from './features/deliveries/ForDeliveryPage';

export function AppRoutes() {
  return (
    <Suspense fallback={<Loading />}>
      <Routes>
        <Route path="/admin/for-delivery" element={<ForDeliveryPage />} />
        <Route path="*" element={<LazyPageNotFound />} />
      </Routes>
    </Suspense>
  );
}
