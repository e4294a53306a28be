import type { User } from '@dme/contracts';

/** What the shell passes to a remote's exposed `./app` (a component rendering `<Routes>`). */
export interface RemoteAppProps {
  user: User;
}
