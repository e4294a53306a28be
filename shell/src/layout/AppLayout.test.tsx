import { describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { MESSAGES, USER_TYPES } from '@dme/contracts';
import { AppLayout } from './AppLayout';
import { makeUser, mockApi, on, renderWithShell, storeUser } from '../test/utils';

// The side menus of SPEC §2, written out here (not derived from the code under test).
const SPEC_MENUS: Record<string, Array<string | [string, string[]]>> = {
  CUSTOMER: ['Products', 'Cart', 'Create Bulk Purchased Order', 'Create Bulk Rental Order', ['Orders', ['Purchased', 'Rentals']]],
  SUPERADMIN: ['Users', 'Employees', 'Warehouse Bins', 'Products', ['Orders', ['Purchased', 'Rentals']], 'For Delivery', 'For Pickup', 'Ongoing Rentals', 'Payments', 'Reports'],
  WAREHOUSE_ADMIN: ['Warehouse Bins', 'Products', ['Orders', ['Purchased', 'Rentals']], 'Ongoing Rentals'],
  WAREHOUSE_STAFF: ['Warehouse Bins', 'Products', ['Orders', ['Purchased', 'Rentals']], 'Ongoing Rentals'],
  ACCOUNTING_ADMIN: ['Payments'],
  DRIVER: ['For Delivery', 'For Pickup'],
  SUPPORT: [],
  UNKNOWN_TYPE: [],
};

// Where the entries lead (SPEC §2 routes).
const LINKS: Record<string, string> = {
  'CUSTOMER Products': '/dashboard',
  'CUSTOMER Cart': '/cart',
  'CUSTOMER Create Bulk Purchased Order': '/bulk-order-purchased',
  'CUSTOMER Create Bulk Rental Order': '/bulk-order-rental',
  'SUPERADMIN Users': '/admin/users',
  'SUPERADMIN Employees': '/admin/employees',
  'SUPERADMIN Products': '/admin/products',
  'SUPERADMIN Reports': '/admin/reports',
  'WAREHOUSE_STAFF Warehouse Bins': '/admin/warehouse-bins',
  'ACCOUNTING_ADMIN Payments': '/admin/payments',
  'DRIVER For Delivery': '/admin/for-delivery',
  'DRIVER For Pickup': '/admin/for-pickup',
};

function renderLayout(userType: string, path = '/somewhere') {
  const user = makeUser(userType);
  storeUser(user);
  return { user, ...renderWithShell(<AppLayout user={user}>page content</AppLayout>, path) };
}

const mainMenu = () => within(screen.getByRole('navigation', { name: 'Main menu' }));
const visibleLabels = () => mainMenu().queryAllByRole('menuitem').map((m) => m.textContent!.replace('▼', '').trim());

describe('signed-in layout', () => {
  it('covers every user type of the contracts', () => {
    for (const t of USER_TYPES) expect(SPEC_MENUS).toHaveProperty(t);
  });

  it.each(Object.entries(SPEC_MENUS))('%s: the side menu of SPEC §2', (userType, expected) => {
    renderLayout(userType);
    expect(visibleLabels()).toEqual(expected.map((e) => (typeof e === 'string' ? e : e[0])));
    for (const entry of expected) {
      if (typeof entry === 'string') {
        const href = LINKS[`${userType} ${entry}`];
        if (href) expect(mainMenu().getByRole('menuitem', { name: entry })).toHaveAttribute('href', href);
        continue;
      }
      const [group, children] = entry;
      const toggle = mainMenu().getByRole('menuitem', { name: group });
      expect(toggle).toHaveAttribute('aria-expanded', 'false');
      fireEvent.click(toggle);
      expect(toggle).toHaveAttribute('aria-expanded', 'true');
      const sub = within(screen.getByRole('menu', { name: group }));
      expect(sub.getAllByRole('menuitem').map((m) => m.textContent)).toEqual(children);
      const base = userType === 'CUSTOMER' ? '/orders' : '/admin/orders';
      expect(sub.getByRole('menuitem', { name: 'Purchased' })).toHaveAttribute('href', `${base}/purchased`);
      expect(sub.getByRole('menuitem', { name: 'Rentals' })).toHaveAttribute('href', `${base}/rentals`);
    }
  });

  it('marks the current page and opens its group', () => {
    renderLayout('CUSTOMER', '/orders/rentals/42');
    expect(mainMenu().getByRole('menuitem', { name: 'Rentals' })).toHaveAttribute('aria-current', 'page');
    expect(mainMenu().getByRole('menuitem', { name: 'Orders' })).toHaveAttribute('aria-expanded', 'true');
    expect(mainMenu().getByRole('menuitem', { name: 'Products' })).not.toHaveAttribute('aria-current');
  });

  it('shows first and last name and @username in the top bar, and the page', () => {
    const { user } = renderLayout('DRIVER');
    const who = screen.getByTestId('current-user');
    expect(who).toHaveTextContent(`${user.firstName} ${user.lastName}`);
    expect(who).toHaveTextContent(`@${user.username}`);
    expect(screen.getByRole('main')).toHaveTextContent('page content');
  });

  it("asks 'Are you sure you want to logout?'; No keeps everything, Yes logs out, clears userStore and goes to /login", async () => {
    const { calls } = mockApi(on('POST', '/api/auth/logout', { status: 204 }));
    renderLayout('ACCOUNTING_ADMIN', '/admin/payments');

    fireEvent.click(screen.getByRole('button', { name: 'Logout' }));
    const dialog = await screen.findByRole('dialog');
    expect(dialog).toHaveTextContent(MESSAGES.logout.confirm);
    fireEvent.click(within(dialog).getByRole('button', { name: 'No' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(localStorage.getItem('userStore')).not.toBeNull();
    expect(calls).toHaveLength(0);
    expect(screen.getByTestId('location')).toHaveTextContent('/admin/payments');

    fireEvent.click(screen.getByRole('button', { name: 'Logout' }));
    fireEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Yes' }));
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/login'), { timeout: 5000 });
    expect(localStorage.getItem('userStore')).toBeNull();
    expect(calls.map((c) => `${c.method} ${c.url}`)).toEqual(['POST /api/auth/logout']);
  });

  it('still signs out in this browser when the server session was already gone', async () => {
    mockApi(on('POST', '/api/auth/logout', { status: 401, body: { type: 'about:blank', title: 'Unauthorized', status: 401 } }));
    renderLayout('CUSTOMER', '/cart');
    fireEvent.click(screen.getByRole('button', { name: 'Logout' }));
    fireEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Yes' }));
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/login'), { timeout: 5000 });
    expect(localStorage.getItem('userStore')).toBeNull();
  });
});
