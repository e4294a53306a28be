import { createContext, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';
import { useDispatch } from 'react-redux';
import { useNavigate } from 'react-router-dom';
import type { User } from '@dme/contracts';
import { baseApi, UNAUTHORIZED_EVENT } from '@dme/api-client';
import { clearUserStore, readUserStore, writeUserStore } from './storage';
import { forgetOfflineCopies } from './offline';

interface Session {
  user: User | undefined;
  signedIn: (user: User) => void;
  /** Forget the session in this browser (after logout or when the server says it ended). */
  forget: () => void;
}

const SessionContext = createContext<Session | undefined>(undefined);

export function SessionProvider({ children }: { children: ReactNode }) {
  const [user, setUser] = useState<User | undefined>(() => readUserStore()?.user);
  const dispatch = useDispatch();
  const navigate = useNavigate();

  const signedIn = useCallback((u: User) => {
    writeUserStore(u);
    setUser(u);
  }, []);

  const forget = useCallback(() => {
    clearUserStore();
    setUser(undefined);
    dispatch(baseApi.util.resetApiState());
    // The driver's pages and answers kept for offline use, and the worker keeping them.
    void forgetOfflineCopies();
  }, [dispatch]);

  // Any 401 from any app (shell or remote) means the session is gone: back to sign-in.
  useEffect(() => {
    const onUnauthorized = () => {
      if (!readUserStore()) return;
      forget();
      navigate('/login', { replace: true });
    };
    window.addEventListener(UNAUTHORIZED_EVENT, onUnauthorized);
    return () => window.removeEventListener(UNAUTHORIZED_EVENT, onUnauthorized);
  }, [forget, navigate]);

  const value = useMemo(() => ({ user, signedIn, forget }), [user, signedIn, forget]);
  return <SessionContext.Provider value={value}>{children}</SessionContext.Provider>;
}

export function useSession(): Session {
  const s = useContext(SessionContext);
  if (!s) throw new Error('useSession outside SessionProvider');
  return s;
}
