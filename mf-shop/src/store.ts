import { createRemoteStore } from '@dme/ui/remote';

/** The shop's own store (its RTK Query cache), given to its app; tests dispatch to it. */
export const store = createRemoteStore();
