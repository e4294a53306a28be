import type { User } from '@dme/contracts';

/** What the shell passes to a remote's exposed `./app`. */
export interface RemoteAppProps {
  user: User;
}
