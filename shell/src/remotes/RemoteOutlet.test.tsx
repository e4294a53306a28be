import { Suspense, type ReactElement } from 'react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen } from '@testing-library/react';
import { allowedRemotes, remoteFor, REMOTE_PATHS, REMOTES, ROLE_REMOTE, USER_TYPES } from '@dme/contracts';
import { makeUser } from '../test/utils';
import { RemoteOutlet, resetRemoteCache } from './RemoteOutlet';
import { loadRemoteApp, manifestUrl, type FederationRuntime } from './loader';

const user = makeUser('DRIVER');

beforeEach(() => resetRemoteCache());

describe('RemoteOutlet', () => {
  it('shows an error with Retry when the remote fails, and Retry really loads it again', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const load = vi
      .fn()
      .mockRejectedValueOnce(new Error('network down'))
      .mockRejectedValueOnce(new Error('still down'))
      .mockResolvedValueOnce(({ user: u }: { user: { username: string } }) => <p>driver screens for {u.username}</p>);
    render(
      <Suspense fallback="...">
        <RemoteOutlet remote="mf-driver" user={user} load={load} />
      </Suspense>,
    );
    expect(await screen.findByText('This page could not be loaded')).toBeInTheDocument();
    expect(load).toHaveBeenCalledTimes(1);
    fireEvent.click(screen.getByRole('button', { name: 'Retry' }));
    expect(await screen.findByText('This page could not be loaded')).toBeInTheDocument();
    await vi.waitFor(() => expect(load).toHaveBeenCalledTimes(2));
    fireEvent.click(screen.getByRole('button', { name: 'Retry' }));
    expect(await screen.findByText(`driver screens for ${user.username}`)).toBeInTheDocument();
    expect(load).toHaveBeenCalledTimes(3);
    expect(load.mock.calls.every(([r]) => r === 'mf-driver')).toBe(true);
  });

  it('shows a loading state while the remote comes', async () => {
    let resolve!: (c: () => ReactElement) => void;
    const load = vi.fn(() => new Promise<() => ReactElement>((r) => (resolve = r)));
    render(<RemoteOutlet remote="mf-shop" user={user} load={load as never} />);
    expect(screen.getByRole('status')).toHaveTextContent('Loading the page...');
    resolve(() => <p>shop</p>);
    expect(await screen.findByText('shop')).toBeInTheDocument();
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

  it('serves each remote from /remotes/<name>/mf-manifest.json', () => {
    for (const r of REMOTES) expect(manifestUrl(r, 'https://shop.example')).toBe(`https://shop.example/remotes/${r}/mf-manifest.json`);
  });
});

describe('which remote a role may load (remoteFor)', () => {
  const everyPath = Object.values(REMOTE_PATHS).flatMap((prefixes) => prefixes.flatMap((p) => [p, `${p}/some-id`, `${p}/some-id/edit`]));
  const extraTypes = ['UNKNOWN_TYPE', ''];

  it.each([...USER_TYPES, ...extraTypes])('%s never gets another role’s remote, whatever the path', (userType) => {
    const allowed = userType === 'SUPERADMIN' ? ['mf-warehouse', 'mf-accounting', 'mf-driver'] : ROLE_REMOTE[userType as keyof typeof ROLE_REMOTE] ? [ROLE_REMOTE[userType as keyof typeof ROLE_REMOTE]] : [];
    expect(allowedRemotes(userType)).toEqual(allowed);
    for (const path of [...everyPath, '/', '/admin/users', '/admin/employees/1', '/nothing-here']) {
      const chosen = remoteFor(userType, path);
      if (chosen !== undefined) expect(allowed).toContain(chosen);
    }
  });

  it('gives each role its home remote, the superadmin none for its own screens and never the shop', () => {
    expect(remoteFor('CUSTOMER', '/dashboard')).toBe('mf-shop');
    expect(remoteFor('CUSTOMER', '/admin/warehouse-bins')).toBeUndefined();
    expect(remoteFor('WAREHOUSE_STAFF', '/admin/warehouse-bins/3/stocks')).toBe('mf-warehouse');
    expect(remoteFor('WAREHOUSE_ADMIN', '/admin/payments')).toBeUndefined();
    expect(remoteFor('ACCOUNTING_ADMIN', '/admin/payments/9')).toBe('mf-accounting');
    expect(remoteFor('ACCOUNTING_ADMIN', '/dashboard')).toBeUndefined();
    expect(remoteFor('DRIVER', '/admin/for-pickup')).toBe('mf-driver');
    expect(remoteFor('DRIVER', '/cart')).toBeUndefined();
    expect(remoteFor('SUPERADMIN', '/admin/users')).toBeUndefined();
    expect(remoteFor('SUPERADMIN', '/admin/for-delivery')).toBe('mf-driver');
    expect(remoteFor('SUPERADMIN', '/dashboard')).toBeUndefined();
    expect(remoteFor('SUPPORT', '/admin/payments')).toBeUndefined();
  });
});
