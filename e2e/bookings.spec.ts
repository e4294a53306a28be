import { randomUUID } from 'node:crypto';
import type { APIRequestContext, Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { animationsEnded, openedDialog, pickOption, registerByApi, signInAs } from './helpers';
import { apiSignedIn, product, shipRental } from './journey';
import { waitForMail } from './mail';
import { bookingsDaysAgo, bookingsOf } from './db';

/** A Manila date `days` ahead of today (YYYY-MM-DD), as the shop counts days. */
function manilaDay(days: number): string {
  const now = new Date(Date.now() + 8 * 3_600_000 + days * 86_400_000);
  return now.toISOString().slice(0, 10);
}

/** The start-date picker's cell of a day (opening the picker, moving to the day's month). */
async function dayCell(page: Page, date: string) {
  await page.getByLabel('Start date').click();
  const dropdown = page.locator('.ant-picker-dropdown:visible');
  await expect(dropdown.locator('.ant-picker-header-view')).toBeVisible();
  // A click while the dropdown still slides open can miss its cell (the day stayed unchosen once).
  await animationsEnded(page);
  // The picker opens on the chosen day's month: move on, a month at a time, to the day's month.
  const month = new Date(`${date}T00:00:00Z`).toLocaleString('en-US', { month: 'short', timeZone: 'UTC' });
  const year = date.slice(0, 4);
  for (let i = 0; i < 7; i++) {
    const shown = (await dropdown.locator('.ant-picker-header-view').first().innerText()).replace(/\s+/g, ' ');
    if (shown.includes(month) && shown.includes(year)) break;
    await dropdown.locator('.ant-picker-header-next-btn').first().click();
  }
  const cell = dropdown.locator(`td[title="${date}"]`).first();
  await expect(cell).toBeVisible();
  return cell;
}

test.describe('rentals booked for dates ahead (issue 25)', () => {
  test('a customer books the only unit for next week; for a second customer those days are greyed out and the server refuses them', async ({ page, browser, baseURL, playwright }) => {
    test.setTimeout(180_000);
    const warehouse = await apiSignedIn(playwright, baseURL, 'warehouseadmin');
    const chair = await product(warehouse, 'FOR_RENT', '20.00', 1);
    const start = manilaDay(7);

    // Customer A: the product page, a start date next week, three days; the cart and the order show it.
    const a = await registerByApi(page.request);
    await signInAs(page, a.username, a.password, '/dashboard');
    await page.goto(`/product-description/${chair.id}`);
    await expect(page.getByRole('heading', { name: chair.name })).toBeVisible();
    await page.getByRole('button', { name: 'Increase rental days' }).click();
    await page.getByRole('button', { name: 'Increase rental days' }).click();
    await (await dayCell(page, start)).click();
    await expect(page.getByTestId('stock')).toContainText('1 free from');
    await expect(page.getByTestId('rental-window')).toContainText('due back');
    await page.getByRole('button', { name: 'Add to Cart' }).click();
    await expect(page.getByText('Added to cart!')).toBeVisible();
    await page.getByRole('menuitem', { name: 'Cart' }).click();
    const row = page.getByRole('region', { name: 'To Rent Products' }).getByRole('row', { name: new RegExp(chair.name) });
    await expect(row).toContainText('3 days');
    await page.getByRole('region', { name: 'To Rent Products' }).getByRole('button', { name: 'Rent Now' }).click();
    await (await openedDialog(page, 'Review Address')).getByRole('button', { name: 'Confirm Order' }).click();
    await expect(page.getByText('Order submitted successfully!')).toBeVisible();
    const orders = (await (await page.request.get('/api/my/orders?type=RENT')).json()) as { items: Array<{ id: string }> };
    const placed = (await (await page.request.get(`/api/my/orders/${orders.items[0]!.id}`)).json()) as { order: { products: Array<{ startDate: string; noOfRentalDays: number }> } };
    expect(placed.order.products[0]).toMatchObject({ startDate: start, noOfRentalDays: 3 });

    // Customer B: the same product; today is free, next week's days are greyed out (the unit is booked, then cleaned).
    const other = await browser.newContext({ baseURL });
    const pageB = await other.newPage();
    const b = await registerByApi(pageB.request);
    await signInAs(pageB, b.username, b.password, '/dashboard');
    await pageB.goto(`/product-description/${chair.id}`);
    await expect(pageB.getByRole('heading', { name: chair.name })).toBeVisible();
    await expect(pageB.getByTestId('stock')).toHaveText('1 in stock');
    for (const [day, taken] of [
      [manilaDay(6), true], // a one-day rental from the 6th runs into the 7th (turnaround)
      [start, true],
      [manilaDay(10), true], // due back on the 10th, cleaned that day
      [manilaDay(11), false],
    ] as const) {
      const cell = await dayCell(pageB, day);
      if (taken) await expect(cell, day).toHaveClass(/ant-picker-cell-disabled/);
      else await expect(cell, day).not.toHaveClass(/ant-picker-cell-disabled/);
      await pageB.keyboard.press('Escape');
    }
    // The server decides, whatever a page shows: adding the taken days is refused with the spec's message.
    const refused = await pageB.request.post('/api/cart', { data: { type: 'RENT', productID: chair.id, quantity: 1, noOfRentalDays: 1, startDate: start } });
    expect(refused.status()).toBe(409);
    expect(((await refused.json()) as { detail: string }).detail).toBe('The item has reached the maximum stock! Please adjust the quantity according to its availability.');
    await other.close();

    // Staff: the calendar shows the unit's booking (order number, customer); they block the unit
    // for two days before it, and open the order from the booking.
    const orderNumber = ((await (await page.request.get(`/api/my/orders/${orders.items[0]!.id}`)).json()) as { order: { orderNumber: string } }).order.orderNumber;
    const staff = await (await browser.newContext({ baseURL })).newPage();
    await signInAs(staff, 'warehouseadmin', undefined, '/admin/warehouse-bins');
    await staff.getByRole('menuitem', { name: 'Calendar' }).click();
    await expect(staff.getByRole('heading', { level: 1, name: 'Calendar' })).toBeVisible();
    await pickOption(staff, 'Product', chair.name, { search: true });
    await staff.getByText('Month', { exact: true }).click();
    const timeline = staff.getByTestId('calendar-timeline');
    await expect(timeline.locator('.vis-item.cal-booking')).toContainText(orderNumber);
    await expect(timeline.locator('.vis-item.cal-turnaround')).toHaveCount(1);
    const bookingRow = staff.getByRole('row', { name: new RegExp(orderNumber) });
    await expect(bookingRow).toContainText('Booked');
    await staff.getByRole('button', { name: 'Add downtime' }).click();
    const dialog = staff.getByRole('dialog', { name: 'Add downtime' });
    await dialog.getByLabel('First day').fill(manilaDay(1));
    await dialog.getByLabel('First day').press('Enter');
    await dialog.getByLabel('Last day').fill(manilaDay(2));
    await dialog.getByLabel('Last day').press('Enter');
    await pickOption(dialog, 'Reason', 'Repair');
    await dialog.getByRole('button', { name: 'Block' }).click();
    await expect(staff.getByText('1 unit blocked.')).toBeVisible();
    await expect(timeline.locator('.vis-item.cal-downtime')).toHaveCount(1);
    await expect(staff.getByRole('row', { name: /Repair/ })).toBeVisible();
    // The customer's page now greys out the blocked days too.
    await page.goto(`/product-description/${chair.id}`);
    await expect(await dayCell(page, manilaDay(1))).toHaveClass(/ant-picker-cell-disabled/);
    await page.keyboard.press('Escape');
    await bookingRow.getByRole('button', { name: `Open ${orderNumber}` }).click();
    await expect(staff.getByRole('heading', { name: `Order ${orderNumber}` })).toBeVisible();
    await warehouse.dispose();
  });
});

test.describe('extensions and the shop grid for a day (issue 25)', () => {
  test('staff extend a booked rental: refused past the next booking with until when, accepted for what fits; the customer sees the new total; the grid for a day says booked', async ({ page, browser, baseURL, playwright }) => {
    test.setTimeout(180_000);
    const warehouse = await apiSignedIn(playwright, baseURL, 'warehouseadmin');
    const chair = await product(warehouse, 'FOR_RENT', '20.00', 1);
    const rentFor = async (start: string, days: number) => {
      const who = await registerByApi(page.request);
      const api = await apiSignedIn(playwright, baseURL, who.username, who.password);
      const res = await api.post('/api/orders', {
        headers: { 'idempotency-key': `e2e-${who.username}` },
        data: {
          type: 'RENT', typeOfOrder: 'BULK', lines: [{ productID: chair.id, quantity: 1, noOfRentalDays: days, startDate: start }],
          deliveryAddress: '12 Rizal St', deliveryCity: 'Makati', deliveryState: 'Metro Manila', deliveryZipcode: '123456', note: '',
        },
      });
      expect(res.status(), await res.text()).toBe(201);
      return { who, api, order: ((await res.json()) as { order: { id: string; orderNumber: string } }).order };
    };
    // A: the only unit from the 7th for 3 days (due the 10th, cleaned that day); B: from the 13th.
    const a = await rentFor(manilaDay(7), 3);
    const b = await rentFor(manilaDay(13), 2);

    // Staff open A's order from the calendar and ask for 5 more days: B's booking is in the way.
    const staff = await (await browser.newContext({ baseURL })).newPage();
    await signInAs(staff, 'warehouseadmin', undefined, '/admin/warehouse-bins');
    await staff.getByRole('menuitem', { name: 'Calendar' }).click();
    await pickOption(staff, 'Product', chair.name, { search: true });
    await staff.getByText('Month', { exact: true }).click();
    await expect(staff.getByRole('row', { name: new RegExp(b.order.orderNumber) })).toBeVisible();
    await staff.getByRole('row', { name: new RegExp(a.order.orderNumber) }).getByRole('button', { name: `Open ${a.order.orderNumber}` }).click();
    await expect(staff.getByRole('heading', { name: `Order ${a.order.orderNumber}` })).toBeVisible();
    await staff.getByRole('button', { name: 'Extend rental' }).click();
    const dialog = staff.getByRole('dialog', { name: 'Extend rental' });
    await dialog.getByLabel('Extra days').fill('5');
    await dialog.getByRole('button', { name: 'Extend', exact: true }).click();
    await expect(dialog.getByRole('alert')).toContainText(`can be extended by at most 2 days, until ${manilaDay(12)}`);
    // Two days fit.
    await dialog.getByLabel('Extra days').fill('2');
    await dialog.getByRole('button', { name: 'Extend', exact: true }).click();
    await expect(staff.getByText(`Rental extended by 2 days: due back on ${manilaDay(12)}.`)).toBeVisible();
    await expect(dialog).toBeHidden();

    // The customer's order: five days now, re-priced with the same day rate (20.00 × 5).
    const mine = (await (await a.api.get(`/api/my/orders/${a.order.id}`)).json()) as { order: { totalAmount: string; products: Array<{ noOfRentalDays: number }>; extensions: Array<{ days: number; by: string }> } };
    expect(mine.order).toMatchObject({ totalAmount: '100.00', products: [{ noOfRentalDays: 5 }], extensions: [{ days: 2, by: 'STAFF' }] });
    // The calendar shows A's booking longer: the unit is taken up to B.
    await staff.getByRole('menuitem', { name: 'Calendar' }).click();
    await pickOption(staff, 'Product', chair.name, { search: true });
    await staff.getByText('Month', { exact: true }).click();
    const shown = new Intl.DateTimeFormat('en-PH', { timeZone: 'UTC', dateStyle: 'medium' }).format(new Date(`${manilaDay(12)}T00:00:00Z`)); // as the screen writes a day
    await expect(staff.getByRole('row', { name: new RegExp(a.order.orderNumber) })).toContainText(shown);

    // A customer browsing the rentals for the 8th: the chair is booked then, free from after B.
    await signInAs(page, a.who.username, a.who.password, '/dashboard');
    await page.getByLabel('Search products').fill(chair.name);
    await page.getByRole('button', { name: 'Search' }).click();
    const card = page.getByTestId('product-card').filter({ hasText: chair.name });
    await expect(card.getByTestId('card-stock')).toHaveText('In-Stock');
    await page.getByLabel('Free on').fill(manilaDay(8));
    await expect(card.getByTestId('card-stock')).toContainText('Booked on');
    await expect(card.getByTestId('card-stock')).toContainText('free from');
    await page.getByLabel('Free on').fill(manilaDay(3));
    await expect(card.getByTestId('card-stock')).toContainText('Free on');
    await a.api.dispose();
    await b.api.dispose();
    await warehouse.dispose();
  });
});




test.describe('ending a rental early (issue 25)', () => {
  test('staff end a delivered rental early from its page: the customer pays for the days kept, and the days freed can be booked by another customer', async ({ page, browser, baseURL, playwright }) => {
    test.setTimeout(180_000);
    const admin = await apiSignedIn(playwright, baseURL, 'superadmin');
    const chair = await product(admin, 'FOR_RENT', '20.00', 1);
    const order = async (who: { username: string }, api: APIRequestContext, start: string, days: number) =>
      api.post('/api/orders', {
        headers: { 'idempotency-key': randomUUID() },
        data: {
          type: 'RENT', typeOfOrder: 'BULK', lines: [{ productID: chair.id, quantity: 1, noOfRentalDays: days, startDate: start }],
          deliveryAddress: '12 Rizal St', deliveryCity: 'Makati', deliveryState: 'Metro Manila', deliveryZipcode: '123456', note: '',
        },
      });
    // A rents the only unit from today for 10 days; it is delivered today.
    const aWho = await registerByApi(page.request);
    const aApi = await apiSignedIn(playwright, baseURL, aWho.username, aWho.password);
    const placed = await order(aWho, aApi, manilaDay(0), 10);
    expect(placed.status(), await placed.text()).toBe(201);
    const a = ((await placed.json()) as { order: { id: string; orderNumber: string; products: Array<{ id: string }> } }).order;
    await shipRental(admin, a, chair.serials[0]!, { deliver: true });
    // B wants it from the 5th for 2 days: taken by A.
    const bWho = await registerByApi(page.request);
    const bApi = await apiSignedIn(playwright, baseURL, bWho.username, bWho.password);
    expect((await order(bWho, bApi, manilaDay(5), 2)).status()).toBe(409);

    // Staff open A's ongoing rental and end it on the 3rd.
    const staff = await (await browser.newContext({ baseURL })).newPage();
    await signInAs(staff, 'warehouseadmin', undefined, '/admin/warehouse-bins');
    await staff.goto(`/admin/ongoing-rentals/${a.id}`);
    await expect(staff.getByRole('heading', { name: `Rental ${a.orderNumber}` })).toBeVisible();
    await staff.getByRole('button', { name: 'End early' }).click();
    const dialog = staff.getByRole('dialog', { name: 'End rental early' });
    await expect(dialog.getByLabel('Return day')).toHaveValue(manilaDay(1));
    await dialog.getByLabel('Return day').fill(manilaDay(3));
    await dialog.getByLabel('Return day').press('Enter');
    // 3 days of 10 at 20.00: 140.00 off, 60.00 left.
    await expect(dialog.getByTestId('end-early-preview')).toHaveText(/Takes \$140\.00 off · new total \$60\.00/);
    await dialog.getByRole('button', { name: 'End early', exact: true }).click();
    await expect(staff.getByText(`Rental ends early: due back on ${manilaDay(3)}.`)).toBeVisible();
    await expect(dialog).toBeHidden();
    const changes = staff.getByRole('region', { name: 'Extensions' });
    await expect(changes.getByRole('row').nth(1)).toContainText(`Ended early: back on ${manilaDay(3)}`);
    await expect(changes.getByRole('row').nth(1)).toContainText('-$140.00');

    // The customer's rental: 3 days, 60.00, due on the 3rd; the payment asks for what is left.
    const mine = (await (await aApi.get(`/api/my/orders/${a.id}`)).json()) as { order: { totalAmount: string; products: Array<{ noOfRentalDays: number; dueDate: string }> } };
    expect(mine.order).toMatchObject({ totalAmount: '60.00', products: [{ noOfRentalDays: 3, dueDate: manilaDay(3) }] });
    await expect
      .poll(async () => ((await (await admin.get(`/api/payments?search=${a.orderNumber}`)).json()) as { items: Array<{ totalOrderPayment: string; balance: string | null }> }).items[0], { timeout: 60_000 })
      .toMatchObject({ totalOrderPayment: '60.00', balance: '40.00' });
    // The catalog freed the unit's days after the 3rd (and its day of cleaning).
    expect(await bookingsOf(a.id)).toEqual([{ due: manilaDay(3), end: manilaDay(4) }]);
    // A's customer is told by e-mail.
    const told = await waitForMail(aWho.email, { subject: `Your rental ${a.orderNumber} ends early` });
    expect(told.text).toContain('its total is now $60.00');
    // The unit is free from the 4th (cleaned on the 3rd): B books the 5th.
    const booked = await order(bWho, bApi, manilaDay(5), 2);
    expect(booked.status(), await booked.text()).toBe(201);
    await aApi.dispose();
    await bApi.dispose();
    await admin.dispose();
  });
});

test.describe('a booking at risk (issue 25)', () => {
  test("the unit is still out past its due date into the next customer's days: staff see it at risk, that customer gets a notice", async ({ page, browser, baseURL, playwright }) => {
    test.setTimeout(180_000);
    const admin = await apiSignedIn(playwright, baseURL, 'superadmin');
    const chair = await product(admin, 'FOR_RENT', '20.00', 1);
    const rentFor = async (start: string) => {
      const who = await registerByApi(page.request);
      const api = await apiSignedIn(playwright, baseURL, who.username, who.password);
      const res = await api.post('/api/orders', {
        headers: { 'idempotency-key': `e2e-${who.username}` },
        data: {
          type: 'RENT', typeOfOrder: 'BULK', lines: [{ productID: chair.id, quantity: 1, noOfRentalDays: 1, startDate: start }],
          deliveryAddress: '12 Rizal St', deliveryCity: 'Makati', deliveryState: 'Metro Manila', deliveryZipcode: '123456', note: '',
        },
      });
      expect(res.status(), await res.text()).toBe(201);
      return { who, api, order: ((await res.json()) as { order: { id: string; orderNumber: string; products: Array<{ id: string }> } }).order };
    };
    // A from today for a day (the unit cleaned tomorrow), B from the day after.
    const a = await rentFor(manilaDay(0));
    const b = await rentFor(manilaDay(2));
    // A is confirmed, its first day paid and its unit packed: the unit goes out with A.
    await shipRental(admin, a.order, chair.serials[0]!, { deliver: false });
    // Three days pass: A's unit was due back the day before yesterday and is still out, into B's days.
    await bookingsDaysAgo([a.order.id, b.order.id], 3);

    // Staff: the calendar's list of bookings at risk names B, with no other unit to pack.
    const staff = await (await browser.newContext({ baseURL })).newPage();
    await signInAs(staff, 'warehouseadmin', undefined, '/admin/warehouse-bins');
    await staff.getByRole('menuitem', { name: 'Calendar' }).click();
    const atRisk = staff.getByTestId('at-risk');
    await expect(atRisk.getByRole('heading', { name: 'Bookings at risk' })).toBeVisible();
    const row = atRisk.getByRole('row', { name: new RegExp(b.order.orderNumber) });
    await expect(row).toContainText(chair.name);
    await expect(row).toContainText(a.order.orderNumber);
    await expect(row).toContainText('No other unit free: call the customer');

    // B's customer: a notice on the dashboard, linking to the rental; it names neither A's order nor the unit.
    await signInAs(page, b.who.username, b.who.password, '/dashboard');
    const notice = page.getByRole('alert').filter({ hasText: 'is overdue from its previous rental' });
    await expect(notice).toContainText(chair.name);
    await expect(notice.getByRole('link', { name: `Order ${b.order.orderNumber}` })).toBeVisible();
    await expect(notice).not.toContainText(a.order.orderNumber);
    await expect(notice).not.toContainText(chair.serials[0]!);
    // A's customer has no such notice.
    expect(((await (await a.api.get('/api/my/booking-notices')).json()) as { items: unknown[] }).items).toEqual([]);
    await a.api.dispose();
    await b.api.dispose();
    await admin.dispose();
  });
});
