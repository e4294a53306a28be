import { Suspense } from 'react';
import { Outlet } from 'react-router-dom';
import { FeedbackProvider, PlainLoading } from '@dme/ui';

/**
 * The visitor's pages (landing, login, register) share one feedback root, so a toast shown on
 * one (e.g. 'User created successfully!') stays while the next opens. No antd here: the login
 * page is plain, and the landing and register pages bring antd and its theme (themedLazy).
 */
export default function PublicArea() {
  return (
    <FeedbackProvider>
      <Suspense fallback={<PlainLoading />}>
        <Outlet />
      </Suspense>
    </FeedbackProvider>
  );
}
