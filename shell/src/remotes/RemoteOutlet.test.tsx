import { describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen } from '@testing-library/react';
import type { User } from '@dme/contracts';
import { createFeedback, FeedbackProvider } from '@dme/ui';
import { RemoteOutlet } from './RemoteOutlet';
import { loadRemoteApp, type FederationRuntime } from './loader';

const user = { id: 'u1', firstName: 'Jun', lastName: 'Cruz', username: 'driver', userType: 'DRIVER' } as User;

describe('RemoteOutlet', () => {
  it('shows an error with Retry when the remote fails, and Retry loads it again', async () => {
    const load = vi
      .fn()
      .mockRejectedValueOnce(new Error('network down'))
      .mockResolvedValueOnce(() => <p>driver screens</p>);
    render(
      <FeedbackProvider value={createFeedback()}>
        <RemoteOutlet remote="mf-driver" user={user} load={load} />
      </FeedbackProvider>,
    );
    expect(await screen.findByText('This page could not be loaded')).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Retry' }));
    expect(await screen.findByText('driver screens')).toBeInTheDocument();
    expect(load).toHaveBeenCalledTimes(2);
    expect(load).toHaveBeenCalledWith('mf-driver');
  });
});

describe('loadRemoteApp', () => {
  it('registers only the asked remote from its manifest on this origin, and loads its ./app', async () => {
    const App = () => null;
    const runtime: FederationRuntime = { registerRemotes: vi.fn(), loadRemote: vi.fn().mockResolvedValue({ default: App }) };
    await expect(loadRemoteApp('mf-shop', runtime)).resolves.toBe(App);
    expect(runtime.registerRemotes).toHaveBeenCalledWith([{ name: 'mf_shop', entry: `${window.location.origin}/remotes/mf-shop/mf-manifest.json` }], undefined);
    expect(runtime.loadRemote).toHaveBeenCalledWith('mf_shop/app');
    // A retry registers it again (forced), so a failed entry is fetched anew.
    await loadRemoteApp('mf-shop', runtime);
    expect(runtime.registerRemotes).toHaveBeenLastCalledWith(expect.any(Array), { force: true });
  });

  it('fails clearly when the remote exposes no app', async () => {
    const runtime: FederationRuntime = { registerRemotes: vi.fn(), loadRemote: vi.fn().mockResolvedValue(null) };
    await expect(loadRemoteApp('mf-warehouse', runtime)).rejects.toThrow('could not be loaded');
  });
});
