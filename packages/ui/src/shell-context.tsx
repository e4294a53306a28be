import { createContext, useContext, type ReactNode } from 'react';
import type { User } from '@dme/contracts';

const UserContext = createContext<User | undefined>(undefined);

/** Inside a remote: the signed-in user the shell passed to `./app`. */
export function CurrentUserProvider({ user, children }: { user: User; children: ReactNode }) {
  return <UserContext.Provider value={user}>{children}</UserContext.Provider>;
}

export function useCurrentUser(): User {
  const v = useContext(UserContext);
  if (!v) throw new Error('useCurrentUser outside CurrentUserProvider');
  return v;
}
