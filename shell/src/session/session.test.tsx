import { beforeEach, describe, expect, it, vi } from 'vitest';
import { act, screen, waitFor } from '@testing-library/react';
import { UNAUTHORIZED_EVENT } from '@dme/api-client';
import { App } from '../App';
import { resetRemoteCache } from '../remotes/RemoteOutlet';
import { makeUser, mockApi, on, renderWithShell, storeUser } from '../test/utils';

vi.mock('../remotes/loader', () => ({
  loadRemoteApp: async (remote: string) => () => <p>{`remote ${remote}`}</p>,
}));

const unauthorized = { status: 401, body: { type: 'about:blank', title: 'Unauthorized', status: 401, detail: 'Please sign in.' } };

beforeEach(() => resetRemoteCache());

describe('the session ends (401 → dme:unauthorized → /login)', () => {
  it('checks a stored session with GET /api/auth/me at start and keeps it when alive', async () => {
    const user = makeUser('CUSTOMER');
    storeUser(user);
    const { calls } = mockApi(on('GET', '/api/auth/me', { status: 200, body: { user, permissions: [] } }));
    renderWithShell(<App />, '/dashboard');
    expect(await screen.findByText('remote mf-shop')).toBeInTheDocument();
    await waitFor(() => expect(calls.map((c) => c.url)).toContain('/api/auth/me'));
    expect(screen.getByTestId('location')).toHaveTextContent('/dashboard');
    expect(localStorage.getItem('userStore')).not.toBeNull();
  });

  it('clears userStore and goes to /login when the stored session is over (me answers 401)', async () => {
    storeUser(makeUser('CUSTOMER'));
    mockApi(on('GET', '/api/auth/me', unauthorized));
    renderWithShell(<App />, '/dashboard');
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/login'));
    expect(await screen.findByRole('heading', { name: 'Sign in' })).toBeInTheDocument();
    expect(localStorage.getItem('userStore')).toBeNull();
  });

  it('does the same for a 401 from any later call, e.g. the account was deactivated', async () => {
    const user = makeUser('SUPERADMIN');
    storeUser(user);
    let alive = true;
    mockApi(
      on('GET', '/api/auth/me', { status: 200, body: { user, permissions: [] } }),
      on('GET', '/api/users', () => (alive ? { status: 200, body: { items: [], total: 0 } } : unauthorized)),
      on('GET', '/api/employees', () => (alive ? { status: 200, body: { items: [], total: 0 } } : unauthorized)),
    );
    const { store } = renderWithShell(<App />, '/admin/users');
    expect(await screen.findByText('No users of this type yet.')).toBeInTheDocument();
    alive = false;
    const { shellApi } = await import('../api');
    await act(async () => {
      await store.dispatch(shellApi.endpoints.employees.initiate({ limit: 20, offset: 0 }));
    });
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/login'));
    expect(localStorage.getItem('userStore')).toBeNull();
  });

  it('a remote’s 401 (the window event) signs the shell out too', async () => {
    const user = makeUser('DRIVER');
    storeUser(user);
    mockApi(on('GET', '/api/auth/me', { status: 200, body: { user, permissions: [] } }));
    renderWithShell(<App />, '/admin/for-delivery');
    expect(await screen.findByText('remote mf-driver')).toBeInTheDocument();
    act(() => {
      window.dispatchEvent(new CustomEvent(UNAUTHORIZED_EVENT));
    });
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/login'));
    expect(localStorage.getItem('userStore')).toBeNull();
  });

  it('sends a visitor without a stored session from a signed-in page to /login, calling nothing', async () => {
    const { calls } = mockApi();
    renderWithShell(<App />, '/admin/payments');
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/login'));
    expect(calls.filter((c) => c.url !== '/api/auth/me')).toEqual([]);
  });

  it("shows 'not available' (not a crash) when a customer opens an admin path", async () => {
    const user = makeUser('CUSTOMER');
    storeUser(user);
    mockApi(on('GET', '/api/auth/me', { status: 200, body: { user, permissions: [] } }));
    renderWithShell(<App />, '/admin/users');
    expect(await screen.findByText('Not available')).toBeInTheDocument();
    expect(screen.getByText('This page is not available for your account.')).toBeInTheDocument();
  });
});
