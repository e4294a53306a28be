import { expect, test } from './fixtures';
import { registerByApi, signInAs } from './helpers';

/**
 * Issue 27: the shop's search (ranked, typo-tolerant full text) and filters, kept in the URL; the
 * grid's phone layout; the product page's line total.
 */
test.describe('shop search and filters (issue 27)', () => {
  test('a typo finds the wheelchair; filters combine and survive a reload; an empty result says so and clears', async ({ page }) => {
    const c = await registerByApi(page.request);
    await signInAs(page, c.username, c.password, '/dashboard');
    await expect(page.getByRole('heading', { name: 'For Rental Items' })).toBeVisible();

    // A typo, and a word only the description has.
    await page.getByLabel('Search products').fill('weelchair');
    await page.getByRole('button', { name: 'Search' }).click();
    const rentals = page.getByRole('region', { name: 'For Rental Items' });
    await expect(rentals.getByTestId('product-card').first()).toContainText('Wheelchair');
    await expect(page.getByRole('region', { name: 'For Sale Items' })).toContainText('No sale items match “weelchair”.');
    await page.getByLabel('Search products').fill('trunks');
    await page.getByRole('button', { name: 'Search' }).click();
    await expect(rentals.getByTestId('product-card')).toHaveCount(1);
    await expect(rentals.getByTestId('product-card')).toContainText('Wheelchair');

    // Filters combine: rentals in stock from 10.00 to 20.00 a day (the wheelchair's 15.00–24.00 overlaps).
    await page.getByLabel('Search products').fill('weelchair');
    await page.getByLabel('Price from').fill('10');
    await page.getByLabel('to', { exact: true }).fill('20');
    await page.getByRole('button', { name: 'Search' }).click();
    // The box follows the address (?available=true), which a busy browser may render a moment
    // after the click: click, then wait for it to show checked.
    await page.getByRole('checkbox', { name: 'In stock only' }).click();
    await expect(page.getByRole('checkbox', { name: 'In stock only' })).toBeChecked();
    await page.getByRole('group', { name: 'Type' }).getByRole('button', { name: 'For Rent' }).click();
    await expect(page).toHaveURL(/\/dashboard\?search=weelchair&type=FOR_RENT&minPrice=10&maxPrice=20&available=true$/);
    await expect(rentals.getByTestId('product-card').first()).toContainText('Wheelchair');
    await expect(page.getByRole('region', { name: 'For Sale Items' })).toHaveCount(0);

    // A reload keeps them all.
    await page.reload();
    await expect(page.getByLabel('Search products')).toHaveValue('weelchair');
    await expect(page.getByLabel('Price from')).toHaveValue('10');
    await expect(page.getByRole('checkbox', { name: 'In stock only' })).toBeChecked();
    await expect(page.getByRole('region', { name: 'For Rental Items' }).getByTestId('product-card').first()).toContainText('Wheelchair');

    // Nothing in range: said so, with a way out.
    await page.getByLabel('Price from').fill('900');
    await page.getByLabel('to', { exact: true }).fill('');
    await page.getByRole('button', { name: 'Search' }).click();
    const empty = page.getByRole('region', { name: 'For Rental Items' });
    await expect(empty).toContainText('No rental items match “weelchair” with these filters.');
    await empty.getByRole('button', { name: 'Show all products' }).click();
    await expect(page).toHaveURL(/\/dashboard$/);
    await expect(page.getByRole('heading', { name: 'For Sale Items' })).toBeVisible();
    await expect(page.getByLabel('Search products')).toHaveValue('');

    // Back returns to the previous search.
    await page.goBack();
    await expect(page.getByLabel('Price from')).toHaveValue('900');
  });

  test('on a phone: two cards a row, For Rent / For Sale one tap apart; the product page shows the line total', async ({ page }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    const c = await registerByApi(page.request);
    await signInAs(page, c.username, c.password, '/dashboard');
    const cards = page.getByRole('region', { name: 'For Rental Items' }).getByTestId('product-card');
    await expect(cards.nth(1)).toBeVisible();
    const [a, b] = [await cards.nth(0).boundingBox(), await cards.nth(1).boundingBox()];
    expect(b!.y).toBe(a!.y);
    expect(b!.x).toBeGreaterThan(a!.x + a!.width - 1);
    expect(b!.x + b!.width).toBeLessThanOrEqual(390);

    const bar = page.getByRole('navigation', { name: 'Sections' });
    await expect(bar).toBeVisible();
    await bar.getByRole('button', { name: 'For Sale' }).click();
    await expect(page.getByRole('heading', { name: 'For Sale Items' })).toBeInViewport();
    await expect(page.getByRole('heading', { name: 'For Sale Items' })).toBeFocused();
    await bar.getByRole('button', { name: 'For Rent' }).click();
    await expect(page.getByRole('heading', { name: 'For Rental Items' })).toBeInViewport();

    // The line total: quantity × price × days, by the rule in contracts.
    await page.getByRole('region', { name: 'For Rental Items' }).getByRole('link', { name: 'Wheelchair' }).click();
    await page.getByText('Standard', { exact: true }).click();
    await page.getByText('18 in seat', { exact: true }).click();
    await expect(page.getByTestId('line-total')).toHaveText('$16.00');
    await page.getByRole('button', { name: 'Increase quantity' }).click();
    await page.getByRole('button', { name: 'Increase rental days' }).click();
    await page.getByRole('button', { name: 'Increase rental days' }).click();
    await expect(page.getByTestId('line-total')).toHaveText('$96.00');
    await expect(page.getByText('2 × $16.00 × 3 days')).toBeVisible();
  });
});
