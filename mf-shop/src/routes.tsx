import { Suspense } from 'react';
import { Route, Routes } from 'react-router-dom';
import { LazyPageNotFound, PlainLoading, themedLazy } from '@dme/ui';
import { DashboardPage } from './features/products/DashboardPage';

// The antd screens: each fetched (with antd's theme) when first opened; /dashboard needs no antd.
const ProductPage = themedLazy(() => import('./features/products/ProductPage'));
const CartPage = themedLazy(() => import('./features/cart/CartPage'));
const BulkOrderPage = themedLazy(() => import('./features/bulk/BulkOrderPage'));
const OrdersPage = themedLazy(() => import('./features/orders/OrdersPage'));
const OrderDetailPage = themedLazy(() => import('./features/orders/OrderDetailPage'));

/** The customer's screens (SPEC §2). */
export function AppRoutes() {
  return (
    <Suspense fallback={<PlainLoading />}>
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
