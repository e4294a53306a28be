import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { useNavigate, type NavigateFunction } from 'react-router-dom';
import { MESSAGES, USER_TYPES } from '@dme/contracts';
import { AppLayout } from './AppLayout';
import { makeUser, mockApi, on, renderWithShell, storeUser } from '../test/utils';

// The side menus of SPEC §2, written out here (not derived from the code under test).
const SPEC_MENUS: Record<string, Array<string | [string, string[]]>> = {
  CUSTOMER: ['Products', 'Cart', 'Create Bulk Purchased Order', 'Create Bulk Rental Order', ['Orders', ['Purchased', 'Rentals']]],
  SUPERADMIN: ['Users', 'Employees', 'Warehouse Bins', 'Products', ['Orders', ['Purchased', 'Rentals']], 'For Delivery', 'For Pickup', 'Ongoing Rentals', 'Calendar', 'Units', 'Recalls', 'Payments', 'Reconciliation', 'Reports', 'Messages'],
  WAREHOUSE_ADMIN: ['Warehouse Bins', 'Products', ['Orders', ['Purchased', 'Rentals']], 'Ongoing Rentals', 'Calendar', 'Units'],
  WAREHOUSE_STAFF: ['Warehouse Bins', 'Products', ['Orders', ['Purchased', 'Rentals']], 'Ongoing Rentals', 'Calendar', 'Units'],
  ACCOUNTING_ADMIN: ['Payments', 'Reconciliation'],
  DRIVER: ['Today', 'For Delivery', 'For Pickup'],
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
  'SUPERADMIN Messages': '/admin/messages',
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

  it('staff find a unit from the top bar: a typed code or a scanned label opens its page; others have no such box (issue 26)', () => {
    for (const t of ['CUSTOMER', 'DRIVER', 'ACCOUNTING_ADMIN']) {
      const { unmount } = renderLayout(t);
      expect(screen.queryByRole('search', { name: 'Find unit' }), t).toBeNull();
      unmount();
    }
    renderLayout('WAREHOUSE_STAFF');
    const find = within(screen.getByRole('search', { name: 'Find unit' }));
    const input = find.getByRole('textbox', { name: 'Serial code' });
    fireEvent.change(input, { target: { value: ' oxy-0000042 ' } });
    fireEvent.click(find.getByRole('button', { name: 'Find' }));
    expect(screen.getByTestId('location')).toHaveTextContent('/admin/units/OXY-0000042');
    // A scanner types the label's QR (SPEC §3) and Enter.
    fireEvent.change(input, { target: { value: '{"productID":"6f1c3a9e-2b7d-4c1e-9a55-0d3f7b2e8c41","serialCode":"WHE-0000007"}' } });
    fireEvent.submit(input.closest('form')!);
    expect(screen.getByTestId('location')).toHaveTextContent('/admin/units/WHE-0000007');
    // Not a code: the box says so and stays.
    fireEvent.change(input, { target: { value: 'hello world' } });
    fireEvent.submit(input.closest('form')!);
    expect(screen.getByTestId('location')).toHaveTextContent('/admin/units/WHE-0000007');
    expect((input as HTMLInputElement).validationMessage).toBe('Scan a unit label or type its serial code.');
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
  it('on a wide screen shows the side menu and no menu button', () => {
    renderLayout('CUSTOMER', '/dashboard');
    expect(screen.queryByRole('button', { name: 'Open menu' })).toBeNull();
    expect(mainMenu().getByRole('menuitem', { name: 'Cart' })).toBeVisible();
  });

  describe('on a phone: the menu is a drawer behind the menu button', () => {
    // happy-dom applies the frame's CSS and its media queries: a phone-sized window shows the menu button.
    const viewport = (width: number, height: number) => (window as unknown as { happyDOM: { setViewport(v: { width: number; height: number }): void } }).happyDOM.setViewport({ width, height });
    beforeEach(() => viewport(390, 844));
    afterEach(() => viewport(1024, 768));
    const menuButton = () => screen.getByRole('button', { name: 'Open menu' });
    const drawer = () => document.getElementById(menuButton().getAttribute('aria-controls')!)!;

    it('opens and closes with the buttons; aria-expanded, the dialog role and focus follow', () => {
      renderLayout('CUSTOMER', '/dashboard');
      const button = menuButton();
      expect(button).toHaveAttribute('aria-expanded', 'false');
      expect(drawer()).not.toHaveAttribute('role');
      // The drawer is the side menu itself (the same items, the same roles), out of sight until opened.
      expect(drawer().querySelector('nav[aria-label="Main menu"]')).not.toBeNull();
      expect(screen.queryByRole('menuitem', { name: 'Cart' })).toBeNull();

      fireEvent.click(button);
      expect(button).toHaveAttribute('aria-expanded', 'true');
      const dialog = screen.getByRole('dialog', { name: 'Menu' });
      expect(dialog).toBe(drawer());
      expect(dialog).toHaveAttribute('aria-modal', 'true');
      expect(dialog).toHaveClass('dme-open');
      const close = within(dialog).getByRole('button', { name: 'Close menu' });
      expect(close).toHaveFocus();
      expect(within(dialog).getByRole('menuitem', { name: 'Cart' })).toHaveAttribute('href', '/cart');
      // The rest of the page is inert while the drawer is open.
      expect(screen.getByRole('main', { hidden: true }).closest('.dme-body')).toHaveAttribute('inert');

      fireEvent.click(close);
      expect(button).toHaveAttribute('aria-expanded', 'false');
      expect(screen.queryByRole('dialog')).toBeNull();
      expect(drawer()).not.toHaveClass('dme-open');
      expect(button).toHaveFocus();
      expect(screen.getByRole('main').closest('.dme-body')).not.toHaveAttribute('inert');
    });

    it('closes on Escape and on a click on the backdrop', () => {
      renderLayout('CUSTOMER', '/dashboard');
      fireEvent.click(menuButton());
      expect(menuButton()).toHaveAttribute('aria-expanded', 'true');
      fireEvent.keyDown(document.activeElement!, { key: 'Escape' });
      expect(menuButton()).toHaveAttribute('aria-expanded', 'false');
      expect(screen.queryByRole('dialog')).toBeNull();
      expect(menuButton()).toHaveFocus();

      fireEvent.click(menuButton());
      fireEvent.click(screen.getByTestId('menu-backdrop'));
      expect(menuButton()).toHaveAttribute('aria-expanded', 'false');
      expect(screen.queryByTestId('menu-backdrop')).toBeNull();
    });

    it('closes when a menu item is chosen, and the page changes', () => {
      renderLayout('CUSTOMER', '/dashboard');
      fireEvent.click(menuButton());
      const dialog = screen.getByRole('dialog', { name: 'Menu' });
      // A group toggle keeps it open.
      fireEvent.click(within(dialog).getByRole('menuitem', { name: 'Orders' }));
      expect(menuButton()).toHaveAttribute('aria-expanded', 'true');
      fireEvent.click(within(dialog).getByRole('menuitem', { name: 'Rentals' }));
      expect(screen.getByTestId('location')).toHaveTextContent('/orders/rentals');
      expect(menuButton()).toHaveAttribute('aria-expanded', 'false');
      expect(screen.queryByRole('dialog')).toBeNull();
      expect(drawer().querySelector('[aria-current=page]')).toHaveTextContent('Rentals');
      expect(menuButton()).toHaveFocus();
    });

    it('closes when the page changes otherwise (back, a link), but not when the page that was loading as it was opened arrives', () => {
      let go: NavigateFunction = () => undefined;
      const Grab = () => {
        go = useNavigate();
        return null;
      };
      const user = makeUser('CUSTOMER');
      storeUser(user);
      renderWithShell(
        <AppLayout user={user}>
          <Grab />
        </AppLayout>,
        '/cart',
      );
      const address = window.location.pathname;
      try {
        // Opened on the cart, then the page changes (the back button, say): it closes.
        window.history.replaceState(null, '', '/cart');
        fireEvent.click(menuButton());
        expect(menuButton()).toHaveAttribute('aria-expanded', 'true');
        act(() => go('/dashboard'));
        expect(screen.getByTestId('location')).toHaveTextContent('/dashboard');
        expect(menuButton()).toHaveAttribute('aria-expanded', 'false');

        // The address already names the next page while the last one is still shown (the
        // router's transition on a slow phone): opened then, it stays open when that page arrives.
        window.history.replaceState(null, '', '/orders/purchased');
        fireEvent.click(menuButton());
        act(() => go('/orders/purchased'));
        expect(screen.getByTestId('location')).toHaveTextContent('/orders/purchased');
        expect(menuButton()).toHaveAttribute('aria-expanded', 'true');
        expect(screen.getByRole('dialog', { name: 'Menu' })).toBeVisible();
      } finally {
        window.history.replaceState(null, '', address);
      }
    });

    it('closes when the page already shown is chosen again', () => {
      renderLayout('CUSTOMER', '/cart');
      fireEvent.click(menuButton());
      fireEvent.click(within(screen.getByRole('dialog', { name: 'Menu' })).getByRole('menuitem', { name: 'Cart' }));
      expect(screen.getByTestId('location')).toHaveTextContent('/cart');
      expect(menuButton()).toHaveAttribute('aria-expanded', 'false');
    });
  });
});
