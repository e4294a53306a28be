import { beforeEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { MESSAGES } from '@dme/contracts';
import { App } from '../../App';
import { resetRemoteCache } from '../../remotes/RemoteOutlet';
import { makeUser, mockApi, on, problem, renderWithShell } from '../../test/utils';

// The remote loader is replaced: it records which remote was asked and renders a marker.
const loaded = vi.hoisted(() => [] as string[]);
vi.mock('../../remotes/loader', () => ({
  loadRemoteApp: async (remote: string) => {
    loaded.push(remote);
    return () => <p>{`remote ${remote}`}</p>;
  },
}));

beforeEach(() => {
  loaded.length = 0;
  resetRemoteCache();
});

async function openLogin() {
  renderWithShell(<App />, '/login');
  await screen.findByRole('heading', { name: 'Sign in' });
}

function signIn(username = 'maria', password = 'secret-pass-1') {
  fireEvent.change(screen.getByLabelText('Username'), { target: { value: username } });
  fireEvent.change(screen.getByLabelText('Password'), { target: { value: password } });
  fireEvent.click(screen.getByRole('button', { name: 'Sign in' }));
}

const menuItems = () => screen.queryAllByRole('menuitem').map((m) => m.textContent?.replace('▼', '').trim());

describe('login (SPEC §2, §5, §8)', () => {
  it('asks for both fields on an empty submit, with the spec texts', async () => {
    const { calls } = mockApi();
    await openLogin();
    fireEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(await screen.findByText(MESSAGES.login.username)).toBeInTheDocument();
    expect(await screen.findByText(MESSAGES.login.password)).toBeInTheDocument();
    expect(calls).toHaveLength(0);
  });

  it('refuses a username of only spaces, marks the invalid fields for assistive technology and focuses the first', async () => {
    const { calls } = mockApi();
    await openLogin();
    fireEvent.change(screen.getByLabelText('Username'), { target: { value: '   ' } });
    fireEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    const username = screen.getByLabelText('Username');
    const password = screen.getByLabelText('Password');
    expect(await screen.findByText(MESSAGES.login.username)).toBeInTheDocument();
    expect(username).toHaveAttribute('aria-invalid', 'true');
    expect(username).toHaveAccessibleDescription(MESSAGES.login.username);
    expect(password).toHaveAccessibleDescription(MESSAGES.login.password);
    expect(username).toHaveFocus();
    expect(calls).toHaveLength(0);
    // Checked again on every change, like antd's Form: the message goes once the field is valid.
    fireEvent.change(username, { target: { value: 'maria' } });
    expect(screen.queryByText(MESSAGES.login.username)).not.toBeInTheDocument();
    expect(username).not.toHaveAttribute('aria-invalid');
    expect(screen.getByText(MESSAGES.login.password)).toBeInTheDocument();
  });

  it("shows a 'User Login Error' notification with the server's message, and stores nothing", async () => {
    mockApi(on('POST', '/api/auth/login', problem(401, 'Invalid username or password.')));
    await openLogin();
    signIn('maria', 'wrong-pass');
    expect(await screen.findByText(MESSAGES.login.errorTitle)).toBeInTheDocument();
    expect(screen.getByText('Invalid username or password.')).toBeInTheDocument();
    expect(localStorage.getItem('userStore')).toBeNull();
    expect(screen.getByTestId('location')).toHaveTextContent('/login');
  });

  it('shows the rate-limit message of a 429 the same way', async () => {
    mockApi(on('POST', '/api/auth/login', problem(429, MESSAGES.login.tooMany)));
    await openLogin();
    signIn();
    expect(await screen.findByText(MESSAGES.login.errorTitle)).toBeInTheDocument();
    expect(screen.getByText(MESSAGES.login.tooMany)).toBeInTheDocument();
  });

  const cases = [
    ['CUSTOMER', '/dashboard', 'mf-shop', ['Products', 'Cart', 'Create Bulk Purchased Order', 'Create Bulk Rental Order', 'Orders']],
    ['SUPERADMIN', '/admin/users', undefined, ['Users', 'Employees', 'Warehouse Bins', 'Products', 'Orders', 'For Delivery', 'For Pickup', 'Ongoing Rentals', 'Calendar', 'Units', 'Recalls', 'Payments', 'Reconciliation', 'Reports', 'Messages']],
    ['WAREHOUSE_ADMIN', '/admin/warehouse-bins', 'mf-warehouse', ['Warehouse Bins', 'Products', 'Orders', 'Ongoing Rentals', 'Calendar', 'Units']],
    ['WAREHOUSE_STAFF', '/admin/warehouse-bins', 'mf-warehouse', ['Warehouse Bins', 'Products', 'Orders', 'Ongoing Rentals', 'Calendar', 'Units']],
    ['ACCOUNTING_ADMIN', '/admin/payments', 'mf-accounting', ['Payments', 'Reconciliation']],
    ['DRIVER', '/admin/for-delivery', 'mf-driver', ['Today', 'For Delivery', 'For Pickup']],
  ] as const;

  it.each(cases)('%s: stores userStore and lands on %s with only its own remote', async (userType, home, remote, menu) => {
    const user = makeUser(userType);
    const { calls } = mockApi(
      on('POST', '/api/auth/login', { status: 200, body: { user, permissions: [] } }),
      on('GET', '/api/auth/me', { status: 200, body: { user, permissions: [] } }),
      on('GET', '/api/users', { status: 200, body: { items: [], total: 0 } }),
    );
    await openLogin();
    signIn(user.username);
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(home));
    expect(JSON.parse(localStorage.getItem('userStore')!)).toEqual({ user, loginStatus: true });
    expect(calls.find((c) => c.url === '/api/auth/login')?.body).toEqual({ username: user.username, password: 'secret-pass-1' });
    await waitFor(() => expect(menuItems()).toEqual(menu));
    expect(screen.getByText(`@${user.username}`)).toBeInTheDocument();
    expect(screen.getByText('Maria Santos')).toBeInTheDocument();
    if (remote) {
      expect(await screen.findByText(`remote ${remote}`)).toBeInTheDocument();
      expect(loaded).toEqual([remote]);
    } else {
      // The superadmin's home is the shell's own users screen: no remote at all.
      expect(await screen.findByRole('heading', { name: 'Users' })).toBeInTheDocument();
      expect(loaded).toEqual([]);
    }
  });

  it.each(['SUPPORT', 'SOMETHING_NEW'])('%s (no screens): gets no routes and an empty menu', async (userType) => {
    const user = makeUser(userType);
    mockApi(
      on('POST', '/api/auth/login', { status: 200, body: { user, permissions: [] } }),
      on('GET', '/api/auth/me', { status: 200, body: { user, permissions: [] } }),
    );
    await openLogin();
    signIn(user.username);
    expect(await screen.findByText('No pages are available for your account yet.')).toBeInTheDocument();
    expect(screen.getByRole('navigation', { name: 'Main menu' })).toBeInTheDocument();
    expect(menuItems()).toEqual([]);
    expect(loaded).toEqual([]);
    expect(JSON.parse(localStorage.getItem('userStore')!).loginStatus).toBe(true);
  });
});
