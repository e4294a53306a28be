import { Suspense, useCallback, useEffect, useState, type ComponentType } from 'react';
import type { RemoteName, User } from '@dme/contracts';
import { LazyErrorState, Loading, useFeedback, type RemoteAppProps } from '@dme/ui';
import { loadRemoteApp } from './loader';

type State =
  | { status: 'loading' }
  | { status: 'ready'; App: ComponentType<RemoteAppProps> }
  | { status: 'error'; message: string };

const cache = new Map<RemoteName, ComponentType<RemoteAppProps>>();

/** Renders a remote's app; a remote that fails to load shows an error with Retry, not a blank page. */
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
        if (alive) setState({ status: 'error', message: err instanceof Error ? err.message : String(err) });
      });
    return () => {
      alive = false;
    };
  }, [remote, attempt, load]);

  const retry = useCallback(() => setAttempt((n) => n + 1), []);
  const shell = useFeedback();

  if (state.status === 'loading') return <Loading label="Loading the page..." />;
  if (state.status === 'error') {
    return (
      <Suspense fallback={<Loading />}>
        <LazyErrorState title="This page could not be loaded" message="Check your connection and try again." onRetry={retry} />
      </Suspense>
    );
  }
  return <state.App user={user} shell={shell} />;
}
