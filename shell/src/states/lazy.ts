import { lazy } from 'react';

const load = () => import('./ThemedResults');

/** The shell's Result screens, fetched only when one is shown (render inside Suspense). */
export const NotAvailablePage = lazy(() => load().then((m) => ({ default: m.NotAvailablePage })));
export const NoRoutesPage = lazy(() => load().then((m) => ({ default: m.NoRoutesPage })));
export const RemoteErrorPage = lazy(() => load().then((m) => ({ default: m.RemoteErrorPage })));
