import { Suspense } from 'react';
import { Route, Routes } from 'react-router-dom';
import { LazyPageNotFound, Loading } from '@dme/ui';
import { DashboardPage } from './features/products/DashboardPage';

export function AppRoutes() {
  return (
    <Suspense fallback={<Loading />}>
      <Routes>
        <Route path="/dashboard" element={<DashboardPage />} />
        <Route path="*" element={<LazyPageNotFound />} />
      </Routes>
    </Suspense>
  );
}
