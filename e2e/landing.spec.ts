import { expect, test } from './fixtures';

test.describe('landing page (SPEC §1)', () => {
  for (const path of ['/', '/about']) {
    test(`shows the company, the order steps and the kit at ${path}`, async ({ page }) => {
      await page.goto(path);
      await expect(page.getByRole('heading', { name: 'Our Vision' })).toBeVisible();
      await expect(page.getByRole('heading', { name: 'Our Mission' })).toBeVisible();
      await expect(page.getByRole('heading', { name: 'Order online' })).toBeVisible();
      for (const step of ['Order Placement', 'Sorting', 'Packing', 'Shipping']) {
        await expect(page.getByRole('heading', { name: step, exact: true })).toBeVisible();
      }
      await expect(page.getByRole('heading', { name: 'Self-protection kit' })).toBeVisible();
      for (const item of ['Gloves', 'Sphygmomanometer', 'Digital Stethoscope', 'Thermometer', 'Non-contact Thermometer', 'Glass Mask']) {
        await expect(page.getByText(item, { exact: true })).toBeVisible();
      }
      await expect(page.getByRole('heading', { name: 'About the Company' })).toBeVisible();
      await expect(page.getByText(/rent.*purchase/i).first()).toBeVisible();
      await expect(page.getByText(/Bay Area/)).toBeVisible();
      await expect(page.getByText(/© 2023/)).toBeVisible();
      const nav = page.getByRole('navigation', { name: 'Site' });
      await expect(nav.getByRole('link', { name: 'About' })).toBeVisible();
      await expect(nav.getByRole('link', { name: 'Sign-In' })).toBeVisible();
    });
  }

  test('the navigation turns white after 80 px of scroll', async ({ page }) => {
    await page.goto('/');
    const header = page.getByTestId('landing-nav');
    await expect(header).toHaveAttribute('data-scrolled', 'false');
    const bg = () => header.evaluate((el) => getComputedStyle(el).backgroundColor);
    expect(await bg()).toBe('rgba(0, 0, 0, 0)');
    await page.evaluate(() => window.scrollTo(0, 70));
    await expect(header).toHaveAttribute('data-scrolled', 'false');
    await page.evaluate(() => window.scrollTo(0, 200));
    await expect(header).toHaveAttribute('data-scrolled', 'true');
    await expect.poll(bg).toBe('rgb(255, 255, 255)');
  });

  test('Sign-In leads to the login form', async ({ page }) => {
    await page.goto('/');
    await page.getByRole('navigation', { name: 'Site' }).getByRole('link', { name: 'Sign-In' }).click();
    await expect(page).toHaveURL(/\/login$/);
    await expect(page.getByLabel('Username')).toBeVisible();
  });
});
