import { lazy, Suspense, useEffect } from 'react';
import { Navigate, Route, Routes, useLocation } from 'react-router-dom';
import { homeOf, isSuperadminShellPath, remoteFor } from '@dme/contracts';
import { PlainLoading, themedLazy } from '@dme/ui';
import { useSession } from './session/session';
import { useMeQuery } from './api';
import { AppLayout } from './layout/AppLayout';
import { NeedsMe } from './layout/NeedsMe';
import { VerifyEmailBanner } from './layout/VerifyEmailBanner';
import { RemoteOutlet } from './remotes/RemoteOutlet';
import { NoRoutesPage, NotAvailablePage } from './states/lazy';
import { ChunkBoundary } from './states/ChunkBoundary';
import { firstScreenPath, handOver } from './first-screen';

// Each is a chunk of its own. The login page is plain (every user downloads it); the landing and
// register pages bring antd and its theme.
const PublicArea = lazy(() => import('./pages/PublicArea'));
const LandingPage = themedLazy(() => import('./pages/landing/LandingPage'));
const LoginPage = lazy(() => import('./pages/auth/LoginPage'));
const RegisterPage = themedLazy(() => import('./pages/auth/RegisterPage'));
// E-mail links and "forgot password" (issue 24).
const ForgotPasswordPage = themedLazy(() => import('./pages/auth/ForgotPasswordPage'));
const ResetPasswordPage = themedLazy(() => import('./pages/auth/ResetPasswordPage'));
const VerifyEmailPage = themedLazy(() => import('./pages/auth/VerifyEmailPage'));
const UnsubscribePage = themedLazy(() => import('./pages/auth/UnsubscribePage'));
const AccountPage = lazy(() => import('./pages/account/AccountPage'));
// The user and employee screens are a chunk only the superadmin downloads.
const AdminRoutes = lazy(() => import('./admin/AdminRoutes'));

export function App() {
  const { pathname } = useLocation();
  // The server-rendered first screen shows one path: on any other, the app's screen is the one.
  useEffect(() => {
    const shown = firstScreenPath();
    if (shown !== undefined && shown !== pathname) void handOver();
  }, [pathname]);
  return (
    <ChunkBoundary resetKey={pathname}>
      <Suspense fallback={<PlainLoading />}>
        <Routes>
          <Route element={<PublicArea />}>
            <Route path="/" element={<LandingPage />} />
            <Route path="/about" element={<LandingPage />} />
            <Route path="/login" element={<LoginPage />} />
            <Route path="/register" element={<RegisterPage />} />
            <Route path="/forgot-password" element={<ForgotPasswordPage />} />
            <Route path="/reset-password" element={<ResetPasswordPage />} />
            <Route path="/verify-email" element={<VerifyEmailPage />} />
            <Route path="/unsubscribe" element={<UnsubscribePage />} />
          </Route>
          <Route path="*" element={<SignedInArea />} />
        </Routes>
      </Suspense>
    </ChunkBoundary>
  );
}

/** Everything behind sign-in: the layout of the user's role and the screen for the path. */
export function SignedInArea() {
  const { user } = useSession();
  const { pathname } = useLocation();
  if (!user) return <Navigate to="/login" replace state={{ from: pathname }} />;
  return (
    <AppLayout user={user}>
      <SessionCheck />
      <VerifyEmailBanner />
      <NeedsMe userType={user.userType} />
      <Suspense fallback={<PlainLoading />}>
        <RoleContent />
      </Suspense>
    </AppLayout>
  );
}

/**
 * Confirms with the server that the stored session is still alive: a 401 sends us to /login
 * (through `dme:unauthorized`); a changed profile replaces the stored one.
 */
function SessionCheck() {
  const { user, signedIn } = useSession();
  const { data } = useMeQuery(undefined, { refetchOnMountOrArgChange: true });
  useEffect(() => {
    if (data?.user && user && JSON.stringify(data.user) !== JSON.stringify(user)) signedIn(data.user);
  }, [data, user, signedIn]);
  return null;
}

/** The screen for the path: the shell's admin screens, the role's remote, or 'not available'. */
export function RoleContent() {
  const { user } = useSession();
  const { pathname } = useLocation();
  const userType = user?.userType;
  const home = homeOf(userType);

  useEffect(() => {
    window.scrollTo?.(0, 0);
  }, [pathname]);

  if (!user) return null;
  if (!home) return <NoRoutesPage />;
  if (pathname === '/home') return <Navigate to={home} replace />;
  if (pathname === '/account') return <AccountPage />;
  if (userType === 'SUPERADMIN' && isSuperadminShellPath(pathname)) return <AdminRoutes />;
  const remote = remoteFor(userType, pathname);
  if (remote) return <RemoteOutlet key={remote} remote={remote} user={user} />;
  return <NotAvailablePage />;
}
