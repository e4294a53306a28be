import { DEMO, expect, remotesRequested, test } from './fixtures';
import { signInAs } from './helpers';

const MENUS: Record<string, string[]> = {
  customer: ['Products', 'Cart', 'Create Bulk Purchased Order', 'Create Bulk Rental Order', 'Orders'],
  superadmin: ['Users', 'Employees', 'Warehouse Bins', 'Products', 'Orders', 'For Delivery', 'For Pickup', 'Ongoing Rentals', 'Calendar', 'Units', 'Recalls', 'Payments', 'Reconciliation', 'Reports', 'Messages'],
  warehouseadmin: ['Warehouse Bins', 'Products', 'Orders', 'Ongoing Rentals', 'Calendar', 'Units'],
  warehousestaff: ['Warehouse Bins', 'Products', 'Orders', 'Ongoing Rentals', 'Calendar', 'Units'],
  accounting: ['Payments', 'Reconciliation'],
  driver: ['Today', 'For Delivery', 'For Pickup'],
};

const HOME_TITLES: Record<string, string> = {
  customer: 'Products',
  superadmin: 'Users',
  warehouseadmin: 'Warehouse Bins',
  warehousestaff: 'Warehouse Bins',
  accounting: 'Payments',
  driver: 'For Delivery',
};

test.describe('each role lands on its home and downloads only its own remote (SPEC §2, DESIGN §10)', () => {
  for (const [key, role] of Object.entries(DEMO)) {
    test(`${role.username} → ${role.home}`, async ({ page, requests }) => {
      await signInAs(page, role.username, undefined, role.home);
      await expect(page.getByRole('heading', { level: 1, name: HOME_TITLES[key]! })).toBeVisible();
      const menu = page.getByRole('navigation', { name: 'Main menu' }).getByRole('menuitem');
      await expect(menu).toHaveText(MENUS[key]!.map((m) => new RegExp(`^${m}`)));
      await page.waitForLoadState('networkidle');
      const loaded = remotesRequested(requests);
      expect(loaded).toEqual(role.remote ? [role.remote] : []);
    });
  }

  test('the superadmin loads a remote only when opening one of its screens, and only that one', async ({ page, requests }) => {
    await signInAs(page, 'superadmin', undefined, '/admin/users');
    await page.waitForLoadState('networkidle');
    expect(remotesRequested(requests)).toEqual([]);
    await page.getByRole('menuitem', { name: 'Warehouse Bins' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Warehouse Bins' })).toBeVisible();
    await page.waitForLoadState('networkidle');
    expect(remotesRequested(requests)).toEqual(['mf-warehouse']);
    await page.getByRole('menuitem', { name: 'Payments' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Payments' })).toBeVisible();
    await page.waitForLoadState('networkidle');
    expect(remotesRequested(requests)).toEqual(['mf-accounting', 'mf-warehouse']);
  });

  test("a customer who opens a staff page gets 'Not available' and no staff code", async ({ page, requests }) => {
    await signInAs(page, 'customer', undefined, '/dashboard');
    await expect(page.getByRole('heading', { level: 1, name: 'Products' })).toBeVisible();
    await page.goto('/admin/users');
    await expect(page.getByText('Not available', { exact: true })).toBeVisible();
    await page.goto('/admin/warehouse-bins');
    await expect(page.getByText('Not available', { exact: true })).toBeVisible();
    await page.waitForLoadState('networkidle');
    expect(remotesRequested(requests)).toEqual(['mf-shop']);
  });

  test('a remote that fails to load shows an error with Retry, and Retry loads it', async ({ page }) => {
    let fail = true;
    await page.route('**/remotes/mf-driver/**', (route) => (fail ? route.abort() : route.continue()));
    await signInAs(page, 'driver', undefined, '/admin/for-delivery');
    await expect(page.getByText('This page could not be loaded')).toBeVisible();
    fail = false;
    await page.getByRole('button', { name: 'Retry' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'For Delivery' })).toBeVisible();
  });
});
