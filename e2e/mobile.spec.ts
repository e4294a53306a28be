import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { animationsEnded, openedDialog, registerByApi, signInAs } from './helpers';

/*
 * Issue #13, a real mobile layout: on a phone the side menu is a drawer behind the top bar's menu
 * button, the products start above the fold, and no shop page scrolls sideways.
 */
const PHONE = { width: 390, height: 844 };
test.use({ viewport: PHONE, isMobile: true, hasTouch: true });

/** Screenshots for a person to look at (MOBILE_SHOTS=/tmp, say); none by default. */
const SHOTS = process.env.MOBILE_SHOTS;
async function shot(page: Page, name: string): Promise<void> {
  if (!SHOTS) return;
  // Let the drawer's slide (and any other finite animation) end first; spinners never do.
  await animationsEnded(page);
  await page.screenshot({ path: `${SHOTS}/mobile-${name}.png` });
}

/** The page fits the phone's width: nothing makes the document scroll sideways. */
async function expectNoSidewaysScroll(page: Page, where: string): Promise<void> {
  const overflow = () => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  await expect.poll(overflow, { message: `${where} scrolls sideways (px wider than the window)` }).toBeLessThanOrEqual(0);
  // And no single element sticks out to the right (a clipped one would hide content).
  const wide = await page.evaluate(() =>
    [...document.querySelectorAll('main *')]
      .filter((el) => el.getBoundingClientRect().right > window.innerWidth + 1 && !el.closest('.dme-table-scroll, .ant-descriptions-view, .ant-tabs-nav, [role="tablist"]'))
      .map((el) => `${el.tagName.toLowerCase()}.${el.className}`.slice(0, 80))
      .slice(0, 5),
  );
  expect(wide, `${where}: elements wider than the window`).toEqual([]);
}

/** Opens the drawer with the top bar's menu button and chooses an entry (the groups' entries by their group). */
async function viaMenu(page: Page, item: string, group?: string): Promise<void> {
  const button = page.getByRole('button', { name: 'Open menu' });
  await button.click();
  await expect(button).toHaveAttribute('aria-expanded', 'true');
  const drawer = page.getByRole('dialog', { name: 'Menu' });
  await expect(drawer).toBeVisible();
  if (group) {
    const toggle = drawer.getByRole('menuitem', { name: group, exact: true });
    if ((await toggle.getAttribute('aria-expanded')) !== 'true') await toggle.click();
  }
  await drawer.getByRole('menuitem', { name: item, exact: true }).click();
  await expect(drawer).toHaveCount(0);
  await expect(button).toHaveAttribute('aria-expanded', 'false');
}

test.describe('mobile layout at 390×844 (issue #13)', () => {

  test("the shop's first screen comes with preload hints, and each hinted request is made once (the page uses what was preloaded)", async ({ page: signedIn, request }) => {
    let page = signedIn;
    const customer = await registerByApi(request);
    await signInAs(page, customer.username, customer.password, '/dashboard');
    await expect(page.getByTestId('product-card').first()).toBeVisible();
    // A new tab of the signed-in customer (the first tab's own requests are not counted).
    // The picture's hint is best effort: the gateway waits at most 300 ms for the list behind it
    // (gateway/src/app.ts readApi). On a machine busy with other tests that read can miss, so a
    // new tab opens the page again (at most three tabs) until its hints name the picture.
    // The live stream is kept shut: each time it opens the screen is read again (api-client
    // useLiveUpdates), a second request that is not a hint's, and on a busy machine it opens
    // before the page is counted.
    await page.context().route('**/api/events', (route) => route.abort());
    let urls: string[] = [];
    let hinted: string[] = [];
    for (let attempt = 0; attempt < 3 && !hinted.some((u) => u.startsWith('/api/uploads/')); attempt++) {
      const tab = await page.context().newPage();
      await page.close();
      page = tab;
      const seen: string[] = [];
      urls = seen;
      page.on('request', (r) => seen.push(new URL(r.url()).pathname + new URL(r.url()).search));
      const response = await page.goto('/dashboard');
      hinted = (response!.headers()['link'] ?? '').split(', ').map((l) => /^<([^>]+)>/.exec(l)?.[1]).filter((u): u is string => !!u);
    }
    // The scripts, the session, the dashboard's reads, its first picture and the shop remote.
    expect(hinted).toEqual(expect.arrayContaining(['/api/auth/me', '/api/products?type=FOR_RENT&limit=100&offset=0', '/api/products?type=FOR_SALE&limit=100&offset=0', '/api/my/notices', '/remotes/mf-shop/mf-manifest.json', '/remotes/mf-shop/remoteEntry.js']));
    expect(hinted.some((u) => /^\/main\.[0-9a-f]+\.js$/.test(u))).toBe(true);
    const picture = hinted.find((u) => u.startsWith('/api/uploads/'));
    expect(picture).toBeTruthy();
    const first = page.getByTestId('product-card').first().locator('img');
    await expect(first).toHaveAttribute('src', picture!);
    await expect.poll(() => first.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
    await expect(page.getByRole('heading', { name: 'For Sale Items' })).toBeVisible();
    // A hint the page did not use exactly as preloaded (another URL, CORS mode or kind) would be
    // fetched a second time.
    for (const url of hinted) expect(urls.filter((u) => u === url), `${url} requested`).toHaveLength(1);
  });
  test("the shop's first screen comes drawn by the server: on screen before the app's script runs, then the app's own takes its place at the same spot, without a shift", async ({ page: signedIn, request }) => {
    const customer = await registerByApi(request);
    await signInAs(signedIn, customer.username, customer.password, '/dashboard');
    await expect(signedIn.getByTestId('product-card').first()).toBeVisible();
    const page = await signedIn.context().newPage();
    await signedIn.close();
    // Layout shifts over the whole visit, from before the page's first paint.
    await page.addInitScript(() => {
      const w = window as unknown as { shifts: number };
      w.shifts = 0;
      new PerformanceObserver((list) => {
        for (const e of list.getEntries() as Array<PerformanceEntry & { value: number; hadRecentInput: boolean }>) if (!e.hadRecentInput) w.shifts += e.value;
      }).observe({ type: 'layout-shift', buffered: true });
    });
    // The app's script is held back until the server's copy has been looked at.
    let release = () => {};
    let held = Promise.resolve();
    await page.route(/\/main\.[0-9a-f]+\.js$/, async (route) => {
      await held;
      await route.continue();
    });
    const boxes = (root: string) =>
      page.evaluate((sel) => {
        const box = (el: Element | null | undefined) => {
          const r = el?.getBoundingClientRect();
          return r ? [Math.round(r.x), Math.round(r.y), Math.round(r.width), Math.round(r.height)] : null;
        };
        const scope = document.querySelector(sel);
        const cards = [...(scope?.querySelectorAll('[data-testid="product-card"]') ?? [])];
        return {
          heading: box(scope?.querySelector('h1')),
          search: box(scope?.querySelector('input[type="search"]')),
          firstPicture: box(cards[0]?.querySelector('img')),
          cards: cards.slice(0, 6).map(box),
          sale: box(scope?.querySelector('#FOR_SALE-title')),
          menuButton: box(scope?.querySelector('.dme-menu-btn')),
          user: box(scope?.querySelector('[data-testid="current-user"]')),
        };
      }, root);

    for (const viewport of [PHONE, { width: 1280, height: 800 }]) {
      await page.setViewportSize(viewport);
      held = new Promise<void>((resolve) => (release = resolve));
      // The gateway draws the copy only when its reads answer within 300 ms, and serves the page
      // without it otherwise (by design: never a reason to wait). On a machine busy with the other
      // worker's journey that can happen; the page is then asked for again, at most three times.
      const copy = page.locator('#ssr');
      for (let attempt = 1; ; attempt++) {
        await page.goto('/dashboard', { waitUntil: 'commit' });
        const drawnByServer = await copy.waitFor({ state: 'attached', timeout: 5000 }).then(() => true, () => false);
        if (drawnByServer || attempt === 3) break;
      }
      // The copy: the products, the customer's name, the first picture loaded, the app still hidden.
      await expect(copy.getByTestId('product-card').first()).toBeVisible();
      await expect(copy.getByTestId('current-user')).toContainText(`${customer.firstName} ${customer.lastName}`);
      await expect(copy).toHaveAttribute('inert', '');
      await expect.poll(() => copy.locator('img[fetchpriority="high"]').evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
      await expect(page.locator('#root')).toBeHidden();
      const drawn = await boxes('#ssr');
      expect(drawn.cards.length, `${viewport.width} px: cards in the copy`).toBeGreaterThan(1);

      release();
      // The hand-over: the copy is gone, the app's own screen is where the copy was.
      await expect(page.locator('#ssr')).toHaveCount(0);
      await expect(page.getByRole('heading', { level: 1, name: 'Products' })).toBeVisible();
      expect(await boxes('#root'), `${viewport.width} px: the app's screen at the copy's place`).toEqual(drawn);
      expect(await page.evaluate(() => (window as unknown as { shifts: number }).shifts), 'layout shift').toBe(0);
      // And it is the app: the search works.
      await page.getByLabel('Search products').fill('thermometer');
      await page.getByRole('button', { name: 'Search' }).click();
      await expect(page.getByRole('region', { name: 'For Sale Items' }).getByRole('link', { name: 'Thermometer', exact: true })).toBeVisible();
    }
  });

  test('a customer finds a product, adds it to the cart, checks out and finds the order, all through the drawer menu, with no sideways scrolling', async ({ page }) => {
    const c = await registerByApi(page.request);
    await signInAs(page, c.username, c.password, '/dashboard');

    // The dashboard: a top bar with the menu button, no side menu in the way, products above the fold.
    await expect(page.getByRole('heading', { name: 'For Rental Items' })).toBeVisible();
    const menuButton = page.getByRole('button', { name: 'Open menu' });
    await expect(menuButton).toBeVisible();
    await expect(page.getByRole('navigation', { name: 'Main menu' })).toBeHidden();
    await expect(page.getByRole('button', { name: 'Logout' })).toBeInViewport({ ratio: 1 });
    const first = page.getByTestId('product-card').first();
    await expect(first).toBeVisible();
    expect((await first.boundingBox())!.y, 'the first product starts above the fold').toBeLessThan(PHONE.height);
    await expectNoSidewaysScroll(page, 'the dashboard');
    await shot(page, 'dashboard');

    // The drawer: a modal dialog; Escape and the backdrop close it, focus comes back to the button.
    await menuButton.click();
    const drawer = page.getByRole('dialog', { name: 'Menu' });
    await expect(drawer).toBeVisible();
    await expect(drawer.getByRole('button', { name: 'Close menu' })).toBeFocused();
    await expect(drawer.getByRole('menuitem', { name: 'Cart' })).toBeInViewport();
    await expectNoSidewaysScroll(page, 'the dashboard with the menu open');
    await shot(page, 'dashboard-menu');
    await page.keyboard.press('Escape');
    await expect(drawer).toHaveCount(0);
    await expect(menuButton).toBeFocused();
    await menuButton.click();
    await expect(drawer).toBeVisible();
    await page.mouse.click(PHONE.width - 20, PHONE.height / 2); // the backdrop, right of the drawer
    await expect(drawer).toHaveCount(0);

    // Find a product through the menu and the search, open it, add it to the cart.
    await viaMenu(page, 'Products');
    await page.getByLabel('Search products').fill('braun');
    await page.getByRole('button', { name: 'Search' }).click();
    await expectNoSidewaysScroll(page, 'the search results');
    await page.getByRole('region', { name: 'For Sale Items' }).getByRole('link', { name: 'Thermometer', exact: true }).click();
    await expect(page.getByRole('heading', { name: 'Thermometer' })).toBeVisible();
    await expect(page.getByText('For Sale', { exact: true })).toBeVisible();
    await expectNoSidewaysScroll(page, 'the product page');
    await shot(page, 'product');
    await page.getByRole('button', { name: 'Add to Cart' }).click();
    await expect(page.getByText('Added to cart!')).toBeVisible();

    // And a rental, found by browsing the menu's Products page again.
    await viaMenu(page, 'Products');
    await page.getByLabel('Search products').fill('patient lift');
    await page.getByRole('button', { name: 'Search' }).click();
    await page.getByRole('region', { name: 'For Rental Items' }).getByRole('link', { name: 'Patient Lift', exact: true }).click();
    await expect(page.getByRole('heading', { name: 'Patient Lift' })).toBeVisible();
    await expect(page.getByText('For Rent', { exact: true })).toBeVisible();
    await expectNoSidewaysScroll(page, 'the rental product page');
    await page.getByRole('button', { name: 'Add to Cart' }).click();
    await expect(page.getByText('Added to cart!').last()).toBeVisible();

    // The cart, through the drawer: its tables scroll in their own box, the page does not.
    await viaMenu(page, 'Cart');
    await page.waitForURL('**/cart');
    const toBuy = page.getByRole('region', { name: 'To Purchase Products' });
    await expect(toBuy.getByRole('row', { name: /Thermometer/ })).toBeVisible();
    await expect(page.getByTestId('BUY-total')).toHaveText('$19.99');
    await expectNoSidewaysScroll(page, 'the cart');
    await shot(page, 'cart');
    if (SHOTS) await page.screenshot({ path: `${SHOTS}/mobile-cart-full.png`, fullPage: true });

    // Check out: the address dialog fits the phone too.
    await toBuy.getByRole('button', { name: 'Buy Now' }).click();
    const dialog = page.getByRole('dialog', { name: 'Review Address' });
    await expect(dialog.getByLabel('Address')).toHaveValue('5 Mabini St');
    await expectNoSidewaysScroll(page, 'the checkout dialog');
    const box = (await dialog.boundingBox())!;
    expect(box.x).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width).toBeLessThanOrEqual(PHONE.width);
    await shot(page, 'checkout');
    await dialog.getByRole('button', { name: 'Confirm Order' }).click();
    await expect(page.getByText('Order submitted successfully!')).toBeVisible();
    await page.waitForURL('**/orders/purchased');

    // My orders, reached through the drawer from another page.
    await viaMenu(page, 'Products');
    await page.waitForURL('**/dashboard');
    await viaMenu(page, 'Purchased', 'Orders');
    await page.waitForURL('**/orders/purchased');
    const row = page.getByRole('row').filter({ hasText: /ORD-\d{8}-\d{6}/ });
    await expect(row).toHaveCount(1);
    await expect(row).toContainText('PENDING');
    await expectNoSidewaysScroll(page, 'my purchased orders');
    await shot(page, 'orders');
    await row.getByRole('link', { name: 'View' }).click();
    await expect(page.getByRole('heading', { name: /^Order ORD-/ })).toBeVisible();
    await expect(page.getByTestId('order-total')).toHaveText('$19.99');
    await expect(page.getByRole('button', { name: 'Cancel Order' })).toBeInViewport();
    await expectNoSidewaysScroll(page, 'the order');
    await shot(page, 'order');
    if (SHOTS) await page.screenshot({ path: `${SHOTS}/mobile-order-full.png`, fullPage: true });
    await menuButton.click();
    await expect(drawer).toBeVisible();
    await expect(drawer.getByRole('menuitem', { name: 'Purchased', exact: true })).toHaveAttribute('aria-current', 'page');
    await shot(page, 'order-menu');
    await drawer.getByRole('button', { name: 'Close menu' }).click();
    await expect(drawer).toHaveCount(0);

    // The rental: checked out from the cart, its page (with its requests) fits the phone too.
    await viaMenu(page, 'Cart');
    await expect(page.getByRole('region', { name: 'To Rent Products' }).getByRole('row', { name: /Patient Lift/ })).toBeVisible();
    await page.getByRole('region', { name: 'To Rent Products' }).getByRole('button', { name: 'Rent Now' }).click();
    await (await openedDialog(page, 'Review Address')).getByRole('button', { name: 'Confirm Order' }).click();
    await expect(page.getByText('Order submitted successfully!').last()).toBeVisible();
    await page.waitForURL('**/orders/rentals');
    await viaMenu(page, 'Purchased', 'Orders');
    await page.waitForURL('**/orders/purchased');
    await viaMenu(page, 'Rentals', 'Orders');
    await page.waitForURL('**/orders/rentals');
    const rental = page.getByRole('row').filter({ hasText: /ORD-\d{8}-\d{6}/ });
    await expect(rental).toHaveCount(1);
    await expectNoSidewaysScroll(page, 'my rental orders');
    await rental.getByRole('link', { name: 'View' }).click();
    await expect(page.getByRole('region', { name: 'Requests' })).toBeVisible();
    await expectNoSidewaysScroll(page, 'the rental order');
    if (SHOTS) await page.screenshot({ path: `${SHOTS}/mobile-rental-full.png`, fullPage: true });

    // The other shop pages of the menu fit the phone as well.
    for (const [item, group, heading] of [
      ['Create Bulk Purchased Order', undefined, 'Create Bulk Purchased Order'],
      ['Create Bulk Rental Order', undefined, 'Create Bulk Rental Order'],
    ] as const) {
      await viaMenu(page, item, group);
      await expect(page.getByRole('heading', { name: heading })).toBeVisible();
      await expectNoSidewaysScroll(page, heading);
    }
  });
});
