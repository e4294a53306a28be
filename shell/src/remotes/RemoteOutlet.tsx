import { useCallback, useEffect, useState, type ComponentType } from 'react';
import type { RemoteName, User } from '@dme/contracts';
import { announceScreenReady, PlainLoading, type RemoteAppProps } from '@dme/ui';
import { RemoteErrorPage } from '../states/lazy';
import { loadRemoteApp } from './loader';

type State =
  | { status: 'loading' }
  | { status: 'ready'; App: ComponentType<RemoteAppProps> }
  | { status: 'error'; message: string };

const cache = new Map<RemoteName, ComponentType<RemoteAppProps>>();

/** Forgets the remotes loaded so far (tests). */
export function resetRemoteCache(): void {
  cache.clear();
}

/**
 * Renders a remote's app. A remote that fails to load shows an error with Retry (which really
 * loads it again), not a blank page. Render inside Suspense (the error screen is lazy).
 */
export function RemoteOutlet({ remote, user, load = loadRemoteApp }: { remote: RemoteName; user: User; load?: typeof loadRemoteApp }) {
  const cached = cache.get(remote);
  const [state, setState] = useState<State>(cached ? { status: 'ready', App: cached } : { status: 'loading' });
  const [attempt, setAttempt] = useState(0);

  useEffect(() => {
    const hit = cache.get(remote);
    if (hit) {
      setState({ status: 'ready', App: hit });
      return;
    }
    let alive = true;
    setState({ status: 'loading' });
    load(remote)
      .then((App) => {
        cache.set(remote, App);
        if (alive) setState({ status: 'ready', App });
      })
      .catch((err: unknown) => {
        console.error(`Loading ${remote} failed`, err);
        if (alive) setState({ status: 'error', message: err instanceof Error ? err.message : String(err) });
      });
    return () => {
      alive = false;
    };
  }, [remote, attempt, load]);

  const retry = useCallback(() => setAttempt((n) => n + 1), []);
  // A remote that failed has its screen: the error (in place of a server-rendered first screen).
  useEffect(() => {
    if (state.status === 'error') announceScreenReady();
  }, [state.status]);

  if (state.status === 'loading') return <PlainLoading label="Loading the page..." />;
  if (state.status === 'error') return <RemoteErrorPage onRetry={retry} />;
  return <state.App user={user} />;
}
