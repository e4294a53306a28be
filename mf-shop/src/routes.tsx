import { lazy, Suspense } from 'react';
import { Route, Routes } from 'react-router-dom';
import { LazyPageNotFound, Loading } from '@dme/ui';
import { DashboardPage } from './features/products/DashboardPage';

const ProductPage = lazy(() => import('./features/products/ProductPage'));
const CartPage = lazy(() => import('./features/cart/CartPage'));
const BulkOrderPage = lazy(() => import('./features/bulk/BulkOrderPage'));
const OrdersPage = lazy(() => import('./features/orders/OrdersPage'));
const OrderDetailPage = lazy(() => import('./features/orders/OrderDetailPage'));

/** The customer's screens (SPEC §2). */
export function AppRoutes() {
  return (
    <Suspense fallback={<Loading />}>
      <Routes>
        <Route path="/dashboard" element={<DashboardPage />} />
        <Route path="/product-description/:id" element={<ProductPage />} />
        <Route path="/cart" element={<CartPage />} />
        <Route path="/bulk-order-rental" element={<BulkOrderPage key="RENT" type="RENT" />} />
        <Route path="/bulk-order-purchased" element={<BulkOrderPage key="BUY" type="BUY" />} />
        <Route path="/orders/purchased" element={<OrdersPage type="BUY" />} />
        <Route path="/orders/purchased/:id" element={<OrderDetailPage type="BUY" />} />
        <Route path="/orders/rentals" element={<OrdersPage type="RENT" />} />
        <Route path="/orders/rentals/:id" element={<OrderDetailPage type="RENT" />} />
        <Route path="*" element={<LazyPageNotFound />} />
      </Routes>
    </Suspense>
  );
}
