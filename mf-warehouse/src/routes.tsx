import { lazy, Suspense } from 'react';
import { Navigate, Route, Routes } from 'react-router-dom';
import { LazyPageNotFound, Loading } from '@dme/ui';
import { BinsPage } from './features/bins/BinsPage';

const BinFormPage = lazy(() => import('./features/bins/BinFormPage'));
const BinStocksPage = lazy(() => import('./features/bins/BinStocksPage'));
const ProductsPage = lazy(() => import('./features/products/ProductsPage'));
const ProductFormPage = lazy(() => import('./features/products/ProductFormPage'));
const ProductViewPage = lazy(() => import('./features/products/ProductViewPage'));
const ProductStocksPage = lazy(() => import('./features/stock/ProductStocksPage'));
const OrdersPage = lazy(() => import('./features/orders/OrdersPage'));
const OrderDetailPage = lazy(() => import('./features/orders/OrderDetailPage'));
const OngoingRentalsPage = lazy(() => import('./features/rentals/OngoingRentalsPage'));
const OngoingRentalDetailPage = lazy(() => import('./features/orders/OngoingRentalDetailPage'));
const CalendarPage = lazy(() => import('./features/calendar/CalendarPage'));
const UnitsBoardPage = lazy(() => import('./features/units/UnitsBoardPage'));
const UnitPage = lazy(() => import('./features/units/UnitPage'));
const RecallsPage = lazy(() => import('./features/units/RecallsPage'));
const RecallPage = lazy(() => import('./features/units/RecallPage'));
const BinAuditPage = lazy(() => import('./features/units/BinAuditPage'));

/** Warehouse and staff order screens (SPEC §2). The sub-variant stock screen is for the superadmin only. */
export function AppRoutes() {
  return (
    <Suspense fallback={<Loading />}>
      <Routes>
        <Route path="/admin/warehouse-bins" element={<BinsPage />} />
        <Route path="/admin/warehouse-bins/add" element={<BinFormPage mode="add" />} />
        <Route path="/admin/warehouse-bins/:id/edit" element={<BinFormPage mode="edit" />} />
        <Route path="/admin/warehouse-bins/:id/stocks" element={<BinStocksPage />} />
        <Route path="/admin/warehouse-bins/:id/audit" element={<BinAuditPage />} />
        <Route path="/admin/products" element={<ProductsPage />} />
        <Route path="/admin/products/add" element={<ProductFormPage mode="add" />} />
        <Route path="/admin/products/:id" element={<ProductViewPage />} />
        <Route path="/admin/products/:id/edit" element={<ProductFormPage mode="edit" />} />
        <Route path="/admin/products/:id/stocks" element={<ProductStocksPage level="product" />} />
        <Route path="/admin/products/:id/stocks-variant/:variantID" element={<ProductStocksPage level="variant" />} />
        <Route path="/admin/products/:id/stocks-variant/:variantID/sub-variant/:subVariantID" element={<ProductStocksPage level="subVariant" />} />
        <Route path="/admin/orders" element={<Navigate replace to="/admin/orders/purchased" />} />
        <Route path="/admin/orders/purchased" element={<OrdersPage type="BUY" />} />
        <Route path="/admin/orders/purchased/:id" element={<OrderDetailPage type="BUY" />} />
        <Route path="/admin/orders/rentals" element={<OrdersPage type="RENT" />} />
        <Route path="/admin/orders/rentals/:id" element={<OrderDetailPage type="RENT" />} />
        <Route path="/admin/ongoing-rentals" element={<OngoingRentalsPage />} />
        <Route path="/admin/ongoing-rentals/:id" element={<OngoingRentalDetailPage />} />
        <Route path="/admin/calendar" element={<CalendarPage />} />
        <Route path="/admin/units" element={<UnitsBoardPage />} />
        <Route path="/admin/units/:serialCode" element={<UnitPage />} />
        <Route path="/admin/recalls" element={<RecallsPage />} />
        <Route path="/admin/recalls/:id" element={<RecallPage />} />
        <Route path="*" element={<LazyPageNotFound />} />
      </Routes>
    </Suspense>
  );
}
