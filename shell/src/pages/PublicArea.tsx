import { Suspense } from 'react';
import { Outlet } from 'react-router-dom';
import { PlainLoading, ThemeProvider } from '@dme/ui';

/**
 * The visitor's pages (landing, login, register) share one themed antd App, so a toast shown on
 * one (e.g. 'User created successfully!') stays while the next opens.
 */
export default function PublicArea() {
  return (
    <ThemeProvider>
      <Suspense fallback={<PlainLoading />}>
        <Outlet />
      </Suspense>
    </ThemeProvider>
  );
}
