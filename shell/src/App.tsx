import { lazy, Suspense, useEffect } from 'react';
import { Navigate, Route, Routes, useLocation } from 'react-router-dom';
import { homeOf, isSuperadminShellPath, remoteFor } from '@dme/contracts';
import { LazyInfoResult, LazyNotAvailable, Loading } from '@dme/ui';
import { useSession } from './session/session';
import { useMeQuery } from './api';
import { AppLayout } from './layout/AppLayout';
import { RemoteOutlet } from './remotes/RemoteOutlet';

const LandingPage = lazy(() => import('./pages/landing/LandingPage'));
const LoginPage = lazy(() => import('./pages/auth/LoginPage'));
const RegisterPage = lazy(() => import('./pages/auth/RegisterPage'));
// The user and employee screens are a chunk only the superadmin downloads.
const AdminRoutes = lazy(() => import('./admin/AdminRoutes'));

export function App() {
  return (
    <Suspense fallback={<Loading />}>
      <Routes>
        <Route path="/" element={<LandingPage />} />
        <Route path="/about" element={<LandingPage />} />
        <Route path="/login" element={<LoginPage />} />
        <Route path="/register" element={<RegisterPage />} />
        <Route path="*" element={<SignedInArea />} />
      </Routes>
    </Suspense>
  );
}

/** Everything behind sign-in: the layout of the user's role and the screen for the path. */
function SignedInArea() {
  const { user } = useSession();
  const { pathname } = useLocation();
  if (!user) return <Navigate to="/login" replace state={{ from: pathname }} />;
  return (
    <AppLayout user={user}>
      <SessionCheck />
      <RoleContent />
    </AppLayout>
  );
}

/** Confirms with the server that the stored session is still alive (a 401 sends us to /login). */
function SessionCheck() {
  useMeQuery(undefined, { refetchOnMountOrArgChange: true });
  return null;
}

export function RoleContent() {
  const { user } = useSession();
  const { pathname } = useLocation();
  const userType = user?.userType;
  const home = homeOf(userType);

  useEffect(() => {
    window.scrollTo?.(0, 0);
  }, [pathname]);

  if (!user) return null;
  if (pathname === '/home') {
    return home ? <Navigate to={home} replace /> : <NoRoutes />;
  }
  if (!home) return <NoRoutes />;
  if (userType === 'SUPERADMIN' && isSuperadminShellPath(pathname)) return <AdminRoutes />;
  const remote = remoteFor(userType, pathname);
  if (remote) return <RemoteOutlet key={remote} remote={remote} user={user} />;
  return <LazyNotAvailable />;
}

function NoRoutes() {
  return <LazyInfoResult title="No pages are available for your account yet." subTitle="Please contact your administrator." />;
}
