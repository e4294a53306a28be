import { createContext, useContext, type ReactNode } from 'react';
import type { User } from '@dme/contracts';
import type { RemoteAppProps } from './remote';
import { FeedbackProvider } from './feedback';

const UserContext = createContext<User | undefined>(undefined);

/** Inside a remote: the signed-in user, and the shell's toasts and confirms via useFeedback(). */
export function ShellContextProvider({ user, shell, children }: RemoteAppProps & { children: ReactNode }) {
  return (
    <UserContext.Provider value={user}>
      <FeedbackProvider value={shell}>{children}</FeedbackProvider>
    </UserContext.Provider>
  );
}

export function useCurrentUser(): User {
  const v = useContext(UserContext);
  if (!v) throw new Error('useCurrentUser outside ShellContextProvider');
  return v;
}
