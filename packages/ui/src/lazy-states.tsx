import { lazy } from 'react';

/** Result-based states are rare: their code is fetched only when one is shown. */
export const LazyErrorState = lazy(() => import('./results').then((m) => ({ default: m.ErrorState })));
export const LazyNotAvailable = lazy(() => import('./results').then((m) => ({ default: m.NotAvailable })));
export const LazyPageNotFound = lazy(() => import('./results').then((m) => ({ default: m.PageNotFound })));
export const LazyInfoResult = lazy(() => import('./results').then((m) => ({ default: m.InfoResult })));
