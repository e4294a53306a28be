/**
 * The legacy .php API (issue 12, SPEC §7) against the running stack: one contract test per old
 * call (envelope, status code, the fields the old client reads), the same RBAC and IDOR answers as
 * the REST routes, what old clients send but must not decide (totalAmount, overallTotal...), the
 * process table behind a generic order update, and sign-in by login.php's cookie alone.
 */
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { beforeAll, describe, expect, it } from 'vitest';
import { addDays, HANDOVER_MESSAGES, manilaDate, ORDER_MESSAGES } from '@dme/contracts';
import { handoverBody } from '@dme/testing/handover';
import { validPerson, type Json } from '@dme/testing';
import { env, TINY_PNG } from './lib/env';
import { call, expectError, expectOk, legacyLogin, sessionCookie, until, type Answer } from './lib/legacy';

interface Who {
  cookie: string;
  user: { id: string; userType: string };
}

let admin: Who;
let warehouse: Who;
let accounting: Who;
let driver: Who;
let a: Who;
let b: Who;
let image = '';
let bin: { id: string };
let sale: { id: string };
let rent: { id: string };
let saleSerials: string[] = [];
let rentSerials: string[] = [];

const pngForm = () => {
  const form = new FormData();
  form.append('image', new Blob([new Uint8Array(TINY_PNG)], { type: 'image/png' }), 'a.png');
  return form;
};
const tag = () => randomUUID().slice(0, 8);
const address = { deliveryAddress: '12 Rizal St', deliveryCity: 'Makati', deliveryState: 'Metro Manila', deliveryZipcode: '121000' };

/** A customer registered through /users/create.php and signed in through /users/login.php. */
async function newCustomer(): Promise<Who & { username: string }> {
  const person = validPerson({ username: `leg_${tag()}`, image, userType: 'CUSTOMER', status: 'ACTIVE', position: '' });
  const r = await call('POST', '/users/create.php', { body: person });
  const created = expectOk(r, 200, 'users/create.php (anonymous)');
  expect(r.body.status).toBe(200);
  expect(created).toMatchObject({ username: person.username, userType: 'CUSTOMER', status: 'ACTIVE' });
  return { ...(await legacyLogin(person.username, person.password)), username: person.username };
}

async function placeOrder(who: Who, body: Record<string, unknown>): Promise<Json> {
  return expectOk(await call('POST', '/orders/create.php', { cookie: who.cookie, body: { typeOfOrder: 'BULK', ...address, note: '', ...body } }), 200, 'orders/create.php');
}

/** Moves an order from PENDING to DELIVERED through the legacy calls only (warehouse, accounting, driver). */
async function deliver(order: { id: string }, serials: string[]): Promise<void> {
  expect(expectOk(await call('PATCH', `/orders/update.php?id=${order.id}`, { cookie: warehouse.cookie, body: { status: 'FOR_PAYMENT' } }), 201, 'confirm').status).toBe('FOR_PAYMENT');
  const payment = await until('the payment becomes payable', async () => {
    const p = expectOk(await call('GET', `/payments/get.php?orderID=${order.id}`, { cookie: accounting.cookie }), 200, 'payments/get.php?orderID');
    return p.nextAction ? p : undefined;
  });
  const paid = expectOk(
    await call('PATCH', `/payments/update.php?id=${payment.id}`, {
      cookie: accounting.cookie,
      body: { invoiceNumber: `INV-${tag()}`, receiptNumber: `OR-${tag()}`, note: '', status: 'PAID', type: 'FULL', overallTotal: '0.01', accommodatedBy: a.user.id, orderStatus: 'COMPLETED', extraCharge: '999.00', dueDate: '2000-01-01' },
    }),
    201,
    'payments/update.php',
  );
  expect(paid.records).toHaveLength(1);
  const preparing = await until('the order reaches PREPARING', async () => {
    const o = expectOk(await call('GET', `/orders/get.php?id=${order.id}`, { cookie: warehouse.cookie }), 200, 'orders/get.php (staff)');
    return o.status === 'PREPARING' ? o : undefined;
  });
  const products = preparing.products.map((l: { id: string; quantity: number }, i: number) => ({ id: l.id, serialCodes: serials.slice(i, i + l.quantity) }));
  expect(expectOk(await call('PATCH', `/orders/update.php?id=${order.id}`, { cookie: warehouse.cookie, body: { status: 'TO_SHIP', products, customerID: b.user.id, totalAmount: '0.01' } }), 201, 'pack').status).toBe('TO_SHIP');
  expect(expectOk(await call('PATCH', `/orders/update.php?id=${order.id}`, { cookie: driver.cookie, body: { status: 'OUT_FOR_DELIVERY', driverID: driver.user.id } }), 201, 'take out').status).toBe('OUT_FOR_DELIVERY');
  const mine = expectOk(await call('GET', '/orders/get_all.php?status=OUT_FOR_DELIVERY', { cookie: driver.cookie }), 200, 'orders/get_all.php (driver)');
  expect(mine.map((o: { id: string }) => o.id)).toContain(order.id);
  expect(expectOk(await call('GET', `/orders/get.php?id=${order.id}`, { cookie: driver.cookie }), 200, 'orders/get.php (driver)').id).toBe(order.id);
  await handOverRest(order, 'DELIVERY');
}

/**
 * The hand-over at the door (issue 28): the legacy API has no call for it, and a driver's status
 * update alone (DELIVERED, FOR_PICK_UP) is refused with 409 naming it; the driver records it
 * through the REST route, which takes the step.
 */
async function handOverRest(order: { id: string }, leg: 'DELIVERY' | 'PICKUP'): Promise<void> {
  const to = leg === 'DELIVERY' ? 'DELIVERED' : 'FOR_PICK_UP';
  const bare = expectError(await call('PATCH', `/orders/update.php?id=${order.id}`, { cookie: driver.cookie, body: { status: to, driverID: driver.user.id } }), 409, `${to} without a hand-over`);
  expect(bare.detail).toBe(HANDOVER_MESSAGES.needsHandover);
  const read = await call('GET', `/api/driver/orders/${order.id}`, { cookie: driver.cookie });
  expect(read.status).toBe(200);
  const done = await call('POST', `/api/driver/orders/${order.id}/handover`, { cookie: driver.cookie, body: handoverBody((read.body as { order: Parameters<typeof handoverBody>[0] }).order, leg) });
  expect(done.status, JSON.stringify(done.body)).toBe(200);
  expect(expectOk(await call('GET', `/orders/get.php?id=${order.id}`, { cookie: driver.cookie }), 200, 'orders/get.php (driver)').status).toBe(to);
}

beforeAll(async () => {
  [admin, warehouse, accounting, driver] = await Promise.all([legacyLogin('superadmin'), legacyLogin('warehousestaff'), legacyLogin('accounting'), legacyLogin('driver')]);
  // Upload: anonymous, as the registration form does.
  const up = await call('POST', '/upload/upload.php', { form: pngForm() });
  image = expectOk(up, 200, 'upload/upload.php').imagePath;
  expect(image).toMatch(/^\/api\/uploads\/[0-9a-f]{32}\.png$/);
  [a, b] = await Promise.all([newCustomer(), newCustomer()]);
  bin = expectOk(await call('POST', '/warehousebins/create.php', { cookie: warehouse.cookie, body: { name: `Legacy ${tag()}`, description: 'legacy suite' } }), 200, 'warehousebins/create.php');
  sale = expectOk(
    await call('POST', '/products/create.php', { cookie: warehouse.cookie, body: { brand: 'Omron', name: `Legacy BP ${tag()}`, description: 'Upper arm', type: 'FOR_SALE', image, price: '45.50', damageCharges: '0.00' } }),
    200,
    'products/create.php',
  );
  rent = expectOk(
    await call('POST', '/products/create.php', { cookie: warehouse.cookie, body: { brand: 'Drive', name: `Legacy Bed ${tag()}`, description: 'Hospital bed', type: 'FOR_RENT', image, price: '10.00', damageCharges: '50.00' } }),
    200,
    'products/create.php (rent)',
  );
  for (const [p, set] of [[sale, (s: string[]) => (saleSerials = s)], [rent, (s: string[]) => (rentSerials = s)]] as const) {
    const added = expectOk(await call('POST', '/stocks/create.php', { cookie: warehouse.cookie, body: { productID: p.id, warehouseBinID: bin.id, quantity: 6 } }), 200, 'stocks/create.php');
    expect(added.items).toHaveLength(6);
    set(added.items.map((i: { serialCode: string }) => i.serialCode));
  }
}, 120_000);

describe('legacy: sign-in and users', () => {
  it('login.php sets the session cookie; a following call with only that cookie works', async () => {
    const r = await call('POST', '/users/login.php', { body: { username: 'customer', password: env.demoPassword } });
    const data = expectOk(r, 200, 'users/login.php');
    expect(data).toMatchObject({ username: 'customer', userType: 'CUSTOMER', status: 'ACTIVE' });
    expect(data).toHaveProperty('firstName');
    const cookie = sessionCookie(r)!;
    expect(r.headers.getSetCookie().join(';')).toMatch(/HttpOnly/i);
    expect(expectOk(await call('GET', '/orders/get_all.php', { cookie }), 200, 'orders with the cookie')).toBeInstanceOf(Array);
    expect((await call('GET', '/api/auth/me', { cookie })).status).toBe(200);
    expectError(await call('POST', '/users/login.php', { body: { username: (a as Who & { username: string }).username, password: 'wrong-password-1' } }), 401, 'a wrong password');
    expectError(await call('POST', '/users/login.php', { body: { username: 'customer' } }), 400, 'no password');
  });

  it('create.php: a customer when anonymous, 409 with a message on a taken username; an employee by the superadmin only', async () => {
    const taken = expectError(await call('POST', '/users/create.php', { body: validPerson({ username: (a as Who & { username: string }).username, image }) }), 409, 'taken username');
    expect(taken.message.length).toBeGreaterThan(0);
    const staff = validPerson({ username: `legst_${tag()}`, image, userType: 'WAREHOUSE_STAFF', position: 'Packer' });
    expectError(await call('POST', '/users/create.php', { cookie: a.cookie, body: staff }), 403, 'a customer creating staff');
    expectError(await call('POST', '/users/create.php', { body: staff }), 401, 'anonymous creating staff');
    const created = expectOk(await call('POST', '/users/create.php', { cookie: admin.cookie, body: staff }), 200, 'the superadmin creating staff');
    expect(created).toMatchObject({ username: staff.username, userType: 'WAREHOUSE_STAFF', position: 'Packer' });
  });

  it('get_all.php, get.php, update.php (profile, own profile, status toggle) and delete.php', async () => {
    const everyone = expectOk(await call('GET', '/users/get_all.php', { cookie: admin.cookie }), 200, 'users/get_all.php');
    expect(everyone.map((u: { id: string }) => u.id)).toContain(a.user.id);
    const drivers = expectOk(await call('GET', '/users/get_all.php?userType=DRIVER', { cookie: admin.cookie }), 200, 'users/get_all.php?userType=DRIVER');
    expect(drivers.length).toBeGreaterThan(0);
    expect(drivers.every((u: { userType: string }) => u.userType === 'DRIVER')).toBe(true);
    const customers = expectOk(await call('GET', '/users/get_all.php?userType=CUSTOMER', { cookie: admin.cookie }), 200, 'customers');
    expect(customers.every((u: { userType: string }) => u.userType === 'CUSTOMER')).toBe(true);
    const one = expectOk(await call('GET', `/users/get.php?id=${a.user.id}`, { cookie: admin.cookie }), 200, 'users/get.php');
    expect(one).toMatchObject({ id: a.user.id, userType: 'CUSTOMER' });
    expectError(await call('GET', '/users/get_all.php', { cookie: a.cookie }), 403, 'a customer listing users');

    // The superadmin edits a customer (the full user sent, as the old client does).
    const edited = expectOk(await call('PATCH', `/users/update.php?id=${a.user.id}`, { cookie: admin.cookie, body: { ...one, city: 'Pasig' } }), 201, 'users/update.php (superadmin)');
    expect(edited.city).toBe('Pasig');
    // The customer edits their own profile; another's is refused as in REST.
    const own = expectOk(await call('PATCH', `/users/update.php?id=${a.user.id}`, { cookie: a.cookie, body: { ...one, city: 'Taguig' } }), 201, 'users/update.php (own)');
    expect(own.city).toBe('Taguig');
    expectError(await call('PATCH', `/users/update.php?id=${b.user.id}`, { cookie: a.cookie, body: { city: 'Taguig' } }), 403, 'another customer');
    expect((await call('GET', `/api/users/${b.user.id}`, { cookie: a.cookie })).status).toBe(403);

    // Status toggle, then delete, on a customer of its own.
    const c = await newCustomer();
    const full = expectOk(await call('GET', `/users/get.php?id=${c.user.id}`, { cookie: admin.cookie }), 200, 'get');
    expect(expectOk(await call('PATCH', `/users/update.php?id=${c.user.id}`, { cookie: admin.cookie, body: { ...full, status: 'DEACTIVATED' } }), 201, 'deactivate').status).toBe('DEACTIVATED');
    expectError(await call('GET', '/orders/get_all.php', { cookie: c.cookie }), 401, 'a deactivated customer');
    expect(expectOk(await call('PATCH', `/users/update.php?id=${c.user.id}`, { cookie: admin.cookie, body: { ...full, status: 'ACTIVE' } }), 201, 'activate').status).toBe('ACTIVE');
    expectError(await call('DELETE', `/users/delete.php?id=${c.user.id}`, { cookie: a.cookie }), 403, 'a customer deleting');
    expect(expectOk(await call('DELETE', `/users/delete.php?id=${c.user.id}`, { cookie: admin.cookie }), 200, 'users/delete.php')).toEqual({ id: c.user.id });
  });
});

describe('legacy: upload, warehouse bins, products, stocks', () => {
  it('upload.php refuses what is not an image, as /api/uploads does', async () => {
    const form = new FormData();
    form.append('image', new Blob(['not an image'], { type: 'image/png' }), 'a.png');
    const legacy = await call('POST', '/upload/upload.php', { form });
    const rest = await call('POST', '/api/uploads', { form: (() => { const f = new FormData(); f.append('image', new Blob(['not an image'], { type: 'image/png' }), 'a.png'); return f; })() });
    expect(legacy.status).toBe(rest.status);
    expectError(legacy, rest.status, 'upload of text');
  });

  it('warehousebins: get_all, get, update (201), delete', async () => {
    const list = expectOk(await call('GET', '/warehousebins/get_all.php', { cookie: warehouse.cookie }), 200, 'bins get_all');
    expect(list.map((x: { id: string }) => x.id)).toContain(bin.id);
    expect(expectOk(await call('GET', `/warehousebins/get.php?id=${bin.id}`, { cookie: warehouse.cookie }), 200, 'bins get')).toMatchObject({ id: bin.id, stockCount: 12 });
    const extra = expectOk(await call('POST', '/warehousebins/create.php', { cookie: warehouse.cookie, body: { name: `Legacy x ${tag()}`, description: 'x' } }), 200, 'bins create');
    expect(expectOk(await call('PATCH', `/warehousebins/update.php?id=${extra.id}`, { cookie: warehouse.cookie, body: { name: extra.name, description: 'changed' } }), 201, 'bins update').description).toBe('changed');
    expectError(await call('DELETE', `/warehousebins/delete.php?id=${bin.id}`, { cookie: warehouse.cookie }), 409, 'a bin with stock');
    expect(expectOk(await call('DELETE', `/warehousebins/delete.php?id=${extra.id}`, { cookie: warehouse.cookie }), 200, 'bins delete')).toEqual({ id: extra.id });
    expectError(await call('GET', `/warehousebins/get.php?id=${extra.id}`, { cookie: warehouse.cookie }), 404, 'a deleted bin');
    expectError(await call('POST', '/warehousebins/create.php', { cookie: warehouse.cookie, body: { description: 'x' } }), 400, 'no name');
  });

  it('products: the shop list for everyone, the staff list for staff; get, update (201), delete', async () => {
    const shop = expectOk(await call('GET', '/products/get_all.php?type=FOR_SALE'), 200, 'products get_all (anonymous)');
    const card = shop.find((p: { id: string }) => p.id === sale.id);
    expect(card).toMatchObject({ type: 'FOR_SALE', availableQuantity: 6 });
    expect(shop.every((p: { type: string }) => p.type === 'FOR_SALE')).toBe(true);
    const staff = expectOk(await call('GET', '/products/get_all.php?type=FOR_RENT', { cookie: warehouse.cookie }), 200, 'products get_all (staff)');
    expect(staff.find((p: { id: string }) => p.id === rent.id)).toMatchObject({ price: '10.00', damageCharges: '50.00', variants: [] });
    expect(expectOk(await call('GET', `/products/get.php?id=${sale.id}`), 200, 'products get')).toMatchObject({ id: sale.id, price: '45.50' });
    const updated = expectOk(
      await call('PATCH', `/products/update.php?id=${sale.id}`, { cookie: warehouse.cookie, body: { brand: 'Omron', name: (await call('GET', `/products/get.php?id=${sale.id}`)).body.data.name, description: 'Changed', type: 'FOR_SALE', image, price: '45.50', damageCharges: '0.00' } }),
      201,
      'products update',
    );
    expect(updated.description).toBe('Changed');
    expectError(await call('PATCH', `/products/update.php?id=${sale.id}`, { cookie: a.cookie, body: { brand: 'x' } }), 403, 'a customer editing a product');
    const doomed = expectOk(await call('POST', '/products/create.php', { cookie: warehouse.cookie, body: { brand: 'X', name: `Doomed ${tag()}`, description: 'x', type: 'FOR_SALE', image, price: '1.00', damageCharges: '0.00' } }), 200, 'create');
    expect(expectOk(await call('DELETE', `/products/delete.php?id=${doomed.id}`, { cookie: warehouse.cookie }), 200, 'products delete')).toMatchObject({ result: 'deleted' });
  });

  it('stocks: get_all by product, get, and update/delete → 409 saying why (after the permission check)', async () => {
    const items = expectOk(await call('GET', `/stocks/get_all.php?productID=${sale.id}`, { cookie: warehouse.cookie }), 200, 'stocks get_all');
    expect(items).toHaveLength(6);
    const byBin = expectOk(await call('GET', `/stocks/get_all.php?warehouseBinID=${bin.id}`, { cookie: warehouse.cookie }), 200, 'stocks by bin');
    expect(byBin).toHaveLength(12);
    const one = expectOk(await call('GET', `/stocks/get.php?id=${items[0].id}`, { cookie: warehouse.cookie }), 200, 'stocks get');
    expect(one).toMatchObject({ id: items[0].id, productID: sale.id, warehouseBinID: bin.id, status: 'AVAILABLE', serialCode: items[0].serialCode });
    for (const [method, path] of [['PATCH', '/stocks/update.php'], ['DELETE', '/stocks/delete.php']] as const) {
      const body = method === 'PATCH' ? { quantity: 1 } : undefined;
      const refused = expectError(await call(method, `${path}?id=${one.id}`, { cookie: warehouse.cookie, body }), 409, `${path} (staff)`);
      expect(refused.message).toMatch(/cannot be deleted or modified after submission/);
      expectError(await call(method, `${path}?id=${one.id}`, { cookie: a.cookie, body }), 403, `${path} (customer)`);
      expectError(await call(method, `${path}?id=${one.id}`, { body }), 401, `${path} (anonymous)`);
      expectError(await call(method, `${path}?id=${randomUUID()}`, { cookie: warehouse.cookie, body }), 404, `${path} (unknown)`);
    }
    expect(expectOk(await call('GET', `/stocks/get.php?id=${one.id}`, { cookie: warehouse.cookie }), 200, 'still there').status).toBe('AVAILABLE');
  });
});

describe('legacy: cart', () => {
  it('create (createdBy ignored), get_all of the caller only, delete', async () => {
    const added = expectOk(
      await call('POST', '/cart/create.php', { cookie: a.cookie, body: { productID: sale.id, productVariantID: null, productSubVariantID: null, quantity: 1, noOfRentalDays: null, type: 'BUY', createdBy: b.user.id } }),
      200,
      'cart/create.php',
    );
    expect(added).toMatchObject({ productID: sale.id, quantity: 1, type: 'BUY', price: '45.50' });
    // More than the catalog has available (SPEC §5): refused by the REST route it maps onto, the line unchanged.
    const over = { productID: sale.id, productVariantID: null, productSubVariantID: null, quantity: 500, noOfRentalDays: null, type: 'BUY' };
    expect(expectError(await call('POST', '/cart/create.php', { cookie: a.cookie, body: over }), 409, 'cart/create.php over the stock').detail).toBe(ORDER_MESSAGES.maxStock);
    const mine = expectOk(await call('GET', `/cart/get_all.php?userID=${a.user.id}&type=BUY`, { cookie: a.cookie }), 200, 'cart/get_all.php');
    expect(mine.map((i: { id: string }) => i.id)).toContain(added.id);
    expect(mine.find((i: { id: string }) => i.id === added.id).quantity).toBe(1);
    // B never sees A's cart: naming A is refused, B's own does not hold A's line.
    expectError(await call('GET', `/cart/get_all.php?userID=${a.user.id}&type=BUY`, { cookie: b.cookie }), 403, "another's cart");
    const theirs = expectOk(await call('GET', `/cart/get_all.php?userID=${b.user.id}&type=BUY`, { cookie: b.cookie }), 200, 'own cart');
    expect(theirs.map((i: { id: string }) => i.id)).not.toContain(added.id);
    // Removing another's line: the same status as REST.
    const restOther = await call('DELETE', `/api/cart/${added.id}`, { cookie: b.cookie });
    expectError(await call('DELETE', `/cart/delete.php?id=${added.id}`, { cookie: b.cookie }), restOther.status, "deleting another's cart line");
    expectError(await call('GET', '/cart/get_all.php?type=BUY', { cookie: warehouse.cookie }), 403, 'staff have no cart');
    expect(expectOk(await call('DELETE', `/cart/delete.php?id=${added.id}`, { cookie: a.cookie }), 200, 'cart/delete.php')).toEqual({ id: added.id });
  });
});

describe('legacy: orders, payments, serial codes', () => {
  it('a purchase: the server computes the total (0.01 sent), a skipped step is 409, then paid, packed and delivered through .php calls', async () => {
    const order = await placeOrder(a, { type: 'BUY', totalAmount: '0.01', createdBy: b.user.id, customerID: b.user.id, products: [{ productID: sale.id, quantity: 2 }] });
    expect(order).toMatchObject({ type: 'BUY', typeOfOrder: 'BULK', status: 'PENDING', totalAmount: '91.00', customerID: a.user.id });

    // Reads: the customer's own, staff, and the same IDOR answer as REST for another customer.
    expect(expectOk(await call('GET', '/orders/get_all.php?type=BUY', { cookie: a.cookie }), 200, 'mine').map((o: { id: string }) => o.id)).toContain(order.id);
    expect(expectOk(await call('GET', `/orders/get_all.php?userID=${a.user.id}&type=BUY&status=PENDING`, { cookie: a.cookie }), 200, 'mine filtered').map((o: { id: string }) => o.id)).toContain(order.id);
    expectError(await call('GET', `/orders/get_all.php?userID=${a.user.id}`, { cookie: b.cookie }), 403, "another's orders");
    expect(expectOk(await call('GET', '/orders/get_all.php', { cookie: b.cookie }), 200, "b's").map((o: { id: string }) => o.id)).not.toContain(order.id);
    const restIdor = await call('GET', `/api/my/orders/${order.id}`, { cookie: b.cookie });
    expect(restIdor.status).toBe(404);
    expectError(await call('GET', `/orders/get.php?id=${order.id}`, { cookie: b.cookie }), 404, "another's order");
    expect(expectOk(await call('GET', `/orders/get.php?id=${order.id}`, { cookie: a.cookie }), 200, 'own order')).toMatchObject({ id: order.id, totalAmount: '91.00' });
    const staffList = expectOk(await call('GET', `/orders/get_all.php?type=BUY&status=PENDING&userID=${a.user.id}`, { cookie: warehouse.cookie }), 200, 'staff list');
    expect(staffList.map((o: { id: string }) => o.id)).toEqual([order.id]);
    expectError(await call('GET', `/orders/get.php?id=${order.id}`, { cookie: accounting.cookie }), 403, 'accounting reads no orders');

    // The process table decides: a skipped step is 409, a customer confirming is 403 (as REST).
    const skip = expectError(await call('PATCH', `/orders/update.php?id=${order.id}`, { cookie: warehouse.cookie, body: { status: 'TO_SHIP', totalAmount: '0.01' } }), 409, 'skipping a step');
    expect(skip.message.length).toBeGreaterThan(0);
    expect((await call('POST', `/api/orders/${order.id}/transitions`, { cookie: warehouse.cookie, body: { to: 'TO_SHIP' } })).status).toBe(409);
    const restCustomer = await call('POST', `/api/orders/${order.id}/transitions`, { cookie: a.cookie, body: { to: 'FOR_PAYMENT' } });
    expectError(await call('PATCH', `/orders/update.php?id=${order.id}`, { cookie: a.cookie, body: { status: 'FOR_PAYMENT' } }), restCustomer.status, 'a customer confirming');
    expectError(await call('PATCH', `/orders/update.php?id=${order.id}`, { cookie: warehouse.cookie, body: { status: 'SHIPPED' } }), 400, 'an unknown status');

    // Payments: lists, by order, records; accounting's answer ignores the amounts sent.
    await call('PATCH', `/orders/update.php?id=${order.id}`, { cookie: warehouse.cookie, body: { status: 'FOR_PAYMENT' } });
    const payment = await until('payment listed', async () => {
      const list = expectOk(await call('GET', '/payments/get_all.php?status=PENDING', { cookie: accounting.cookie }), 200, 'payments/get_all.php');
      return list.find((p: { orderID: string; nextAction: string | null }) => p.orderID === order.id && p.nextAction === 'MARK_AS_PAID');
    });
    expect(payment).toMatchObject({ status: 'PENDING', totalOrderPayment: '91.00' });
    expect(expectOk(await call('GET', `/payments/get.php?id=${payment.id}`, { cookie: accounting.cookie }), 200, 'payments/get.php')).toMatchObject({ id: payment.id, orderID: order.id });
    expect(expectOk(await call('GET', `/payment_records/get_all.php?paymentID=${payment.id}`, { cookie: accounting.cookie }), 200, 'records')).toEqual([]);
    expectError(await call('GET', '/payments/get_all.php', { cookie: a.cookie }), 403, 'a customer listing payments');
    expectError(await call('PATCH', `/payments/update.php?id=${payment.id}`, { cookie: warehouse.cookie, body: { invoiceNumber: 'X', receiptNumber: 'Y' } }), 403, 'warehouse confirming a payment');
    expectError(await call('PATCH', `/payments/update.php?id=${payment.id}`, { cookie: accounting.cookie, body: { receiptNumber: 'Y' } }), 400, 'no invoice number');
    const invoice = `INV-${tag()}`;
    const paid = expectOk(
      await call('PATCH', `/payments/update.php?id=${payment.id}`, {
        cookie: accounting.cookie,
        body: { invoiceNumber: invoice, receiptNumber: 'OR-1', note: 'cash', status: 'PAID', type: 'PARTIAL', overallTotal: '0.01', accommodatedBy: a.user.id, orderStatus: 'DELIVERED', orderType: 'BUY', orderID: order.id },
      }),
      201,
      'payments/update.php',
    );
    expect(paid).toMatchObject({ status: 'PAID', type: 'FULL', overallTotal: '91.00' });
    expect(paid.records[0]).toMatchObject({ invoiceNumber: invoice, accommodatedBy: accounting.user.id });
    const records = expectOk(await call('GET', `/payment_records/get_all.php?paymentID=${payment.id}`, { cookie: admin.cookie }), 200, 'records after');
    expect(records.map((r: { invoiceNumber: string }) => r.invoiceNumber)).toEqual([invoice]);
    expect(expectOk(await call('GET', `/payments/get.php?orderID=${order.id}`, { cookie: admin.cookie }), 200, 'by order').id).toBe(payment.id);

    // Packing by the products' serial codes, then the driver.
    const preparing = await until('PREPARING', async () => {
      const o = expectOk(await call('GET', `/orders/get.php?id=${order.id}`, { cookie: warehouse.cookie }), 200, 'get');
      return o.status === 'PREPARING' ? o : undefined;
    });
    const lineID = preparing.products[0].id;
    expectError(await call('DELETE', `/orders/delete.php?id=${order.id}`, { cookie: a.cookie }), 409, 'cancelling a paid order');
    const packed = expectOk(
      await call('PATCH', `/orders/update.php?id=${order.id}`, { cookie: warehouse.cookie, body: { status: 'TO_SHIP', customerID: a.user.id, totalAmount: '0.01', products: [{ id: lineID, serialCodes: saleSerials.slice(0, 2) }] } }),
      201,
      'pack',
    );
    expect(packed.products[0].serialCodes.map((s: { serialCode: string }) => s.serialCode).sort()).toEqual(saleSerials.slice(0, 2).sort());
    // orders/get.php: each serial code is a SPEC §3 serial code entry (issue 22), for the customer too.
    const got = expectOk(await call('GET', `/orders/get.php?id=${order.id}`, { cookie: a.cookie }), 200, 'packed order');
    expect(got.products[0].serialCodes).toHaveLength(2);
    for (const entry of got.products[0].serialCodes) {
      expect(entry).toEqual({
        id: expect.stringMatching(/^[0-9a-f-]{36}$/),
        serialCode: expect.any(String),
        productID: got.products[0].productID,
        status: null,
        updatedAt: null,
        returnedAt: null,
        inventoryType: 'OUT',
        warehouseBin: { name: expect.any(String) },
        createdAt: expect.any(String),
      });
    }
    const restTakeOut = await call('POST', `/api/orders/${order.id}/transitions`, { cookie: a.cookie, body: { to: 'OUT_FOR_DELIVERY' } });
    expect(restTakeOut.status).toBeGreaterThanOrEqual(400);
    expectError(await call('PATCH', `/orders/update.php?id=${order.id}`, { cookie: a.cookie, body: { status: 'OUT_FOR_DELIVERY' } }), restTakeOut.status, 'a customer taking it out');
    expect(expectOk(await call('PATCH', `/orders/update.php?id=${order.id}`, { cookie: driver.cookie, body: { status: 'OUT_FOR_DELIVERY', driverID: b.user.id } }), 201, 'out').driverID).toBe(driver.user.id);
    expectError(await call('GET', `/orders/get_all.php?driverID=${admin.user.id}`, { cookie: driver.cookie }), 403, "another driver's list");
    expect(expectOk(await call('GET', '/orders/get_all.php?status=OUT_FOR_DELIVERY', { cookie: driver.cookie }), 200, 'driver list').map((o: { id: string }) => o.id)).toContain(order.id);
    await handOverRest(order, 'DELIVERY');

    // Serial-code return: only while FOR_PICK_UP (409 as REST), only staff (403 as REST).
    const restSerial = await call('POST', `/api/orders/${order.id}/serials/${saleSerials[0]}/return`, { cookie: warehouse.cookie, body: { status: 'OK' } });
    const serialPath = `/orders_product_serial_code/update.php?id=${order.id}&serialCode=${saleSerials[0]}&productID=${sale.id}`;
    expectError(await call('PATCH', serialPath, { cookie: warehouse.cookie, body: { status: 'OK' } }), restSerial.status, 'serial return outside pick-up');
    expect(restSerial.status).toBeGreaterThanOrEqual(400);
    expectError(await call('PATCH', serialPath, { cookie: a.cookie, body: { status: 'OK' } }), 403, 'a customer marking returns');
  }, 150_000);

  it('delete.php cancels while the table allows it; another customer gets the REST answer', async () => {
    const order = await placeOrder(a, { type: 'BUY', totalAmount: '1000.00', products: [{ id: sale.id, quantity: 1 }] });
    expect(order.totalAmount).toBe('45.50');
    const rest = await call('POST', `/api/orders/${order.id}/transitions`, { cookie: b.cookie, body: { to: 'CANCELLED' } });
    expect(rest.status).toBeGreaterThanOrEqual(400);
    expectError(await call('DELETE', `/orders/delete.php?id=${order.id}`, { cookie: b.cookie }), rest.status, "cancelling another's order");
    expect(expectOk(await call('DELETE', `/orders/delete.php?id=${order.id}`, { cookie: a.cookie }), 200, 'orders/delete.php').status).toBe('CANCELLED');
    expectError(await call('DELETE', `/orders/delete.php?id=${order.id}`, { cookie: a.cookie }), 409, 'cancelling twice');
  });

  it('an order with nothing valid in it is refused, nothing is placed', async () => {
    expectError(await call('POST', '/orders/create.php', { cookie: a.cookie, body: { type: 'BUY', ...address, products: [] } }), 400, 'no products');
    expectError(await call('POST', '/orders/create.php', { cookie: a.cookie, body: { typeOfOrder: 'BULK', type: 'RENT', ...address, products: [{ productID: rent.id, quantity: 1 }] } }), 400, 'a bulk rental without days');
    expectError(await call('POST', '/orders/create.php', { cookie: a.cookie, body: { typeOfOrder: 'bulk', type: 'BUY', ...address, products: [{ productID: sale.id, quantity: 1 }] } }), 400, 'an unknown typeOfOrder');
    expectError(await call('POST', '/orders/create.php', { cookie: warehouse.cookie, body: { type: 'BUY', ...address, products: [{ productID: sale.id, quantity: 1 }] } }), 403, 'staff placing an order');
  });
});

describe('legacy: orders from the cart (SPEC §7: typeOfOrder BULK only where bulk)', () => {
  /** A product of its own with `stock` units, so these orders take nobody else's stock. */
  async function product(type: 'FOR_SALE' | 'FOR_RENT', price: string, stock: number): Promise<{ id: string }> {
    const p = expectOk(
      await call('POST', '/products/create.php', { cookie: warehouse.cookie, body: { brand: 'Philips', name: `Legacy cart ${tag()}`, description: 'cart checkout', type, image, price, damageCharges: type === 'FOR_RENT' ? '5.00' : '0.00' } }),
      200,
      'products/create.php',
    );
    expectOk(await call('POST', '/stocks/create.php', { cookie: warehouse.cookie, body: { productID: p.id, warehouseBinID: bin.id, quantity: stock } }), 200, 'stocks/create.php');
    return p;
  }
  const cartOf = async (who: Who, type: 'BUY' | 'RENT') =>
    (expectOk(await call('GET', `/cart/get_all.php?type=${type}`, { cookie: who.cookie }), 200, 'cart/get_all.php') as Array<{ id: string; productID: string; quantity: number }>).map((i) => [i.productID, i.quantity]);

  it('without typeOfOrder BULK: the checkout of those cart lines, which leave the cart; with BULK: a bulk order and the cart untouched', async () => {
    const c = await newCustomer();
    const [nebulizer, mask, bed] = await Promise.all([product('FOR_SALE', '12.25', 4), product('FOR_SALE', '3.00', 4), product('FOR_RENT', '10.00', 2)]);
    const add = async (p: { id: string }, type: 'BUY' | 'RENT', quantity: number, noOfRentalDays: number | null = null) =>
      expectOk(await call('POST', '/cart/create.php', { cookie: c.cookie, body: { productID: p.id, productVariantID: null, productSubVariantID: null, quantity, noOfRentalDays, type, createdBy: c.user.id } }), 200, 'cart/create.php');
    await add(nebulizer, 'BUY', 2);
    await add(mask, 'BUY', 1);
    await add(bed, 'RENT', 1, 3);

    // A product that is not in the cart: 400 naming it; nothing placed, the cart as it was.
    const missing = expectError(
      await call('POST', '/orders/create.php', { cookie: c.cookie, body: { type: 'BUY', ...address, products: [{ productID: nebulizer.id, quantity: 2 }, { productID: sale.id, quantity: 1 }] } }),
      400,
      'a product not in the cart',
    );
    expect(missing.detail).toContain(sale.id);
    expect(missing.errors).toEqual([{ field: 'products.1', message: expect.stringContaining(sale.id) }]);
    // The rental cart is another cart.
    expectError(await call('POST', '/orders/create.php', { cookie: c.cookie, body: { type: 'RENT', ...address, products: [{ productID: nebulizer.id, quantity: 2, noOfRentalDays: 1 }] } }), 400, 'a purchase line as a rental');
    // A quantity other than the cart line's: the cart changed since the client read it.
    const changed = expectError(await call('POST', '/orders/create.php', { cookie: c.cookie, body: { type: 'BUY', ...address, products: [{ productID: nebulizer.id, quantity: 3 }] } }), 409, 'another quantity');
    expect(changed.detail).toMatch(/quantity 2, not 3/);
    expect(expectOk(await call('GET', '/orders/get_all.php', { cookie: c.cookie }), 200, 'no orders yet')).toEqual([]);
    expect(await cartOf(c, 'BUY')).toEqual(expect.arrayContaining([[nebulizer.id, 2], [mask.id, 1]]));

    // The checkout of one of the two lines: an ordinary order (typeOfOrder null), that line leaves the cart.
    const order = expectOk(
      await call('POST', '/orders/create.php', {
        cookie: c.cookie,
        body: { type: 'BUY', ...address, note: '', totalAmount: '0.01', createdBy: b.user.id, products: [{ productID: nebulizer.id, productVariantID: null, productSubVariantID: null, quantity: 2, noOfRentalDays: null, variants: [] }] },
      }),
      200,
      'orders/create.php from the cart',
    );
    expect(order).toMatchObject({ type: 'BUY', typeOfOrder: null, status: 'PENDING', totalAmount: '24.50', customerID: c.user.id });
    expect(order.products.map((l: { productID: string; quantity: number }) => [l.productID, l.quantity])).toEqual([[nebulizer.id, 2]]);
    expect(await cartOf(c, 'BUY')).toEqual([[mask.id, 1]]);

    // A rental from the rental cart: its days are the cart line's.
    const rental = expectOk(await call('POST', '/orders/create.php', { cookie: c.cookie, body: { type: 'RENT', ...address, products: [{ id: bed.id, noOfRentalDays: 3, quantity: 1, variants: [] }] } }), 200, 'a rental from the cart');
    expect(rental).toMatchObject({ type: 'RENT', typeOfOrder: null, totalAmount: '30.00' });
    expect(await cartOf(c, 'RENT')).toEqual([]);

    // BULK: the products are the order; the cart keeps its line.
    const bulk = expectOk(await call('POST', '/orders/create.php', { cookie: c.cookie, body: { typeOfOrder: 'BULK', type: 'BUY', ...address, products: [{ productID: mask.id, quantity: 3 }] } }), 200, 'a bulk order');
    expect(bulk).toMatchObject({ type: 'BUY', typeOfOrder: 'BULK', totalAmount: '9.00' });
    expect(await cartOf(c, 'BUY')).toEqual([[mask.id, 1]]);

    for (const o of [order, rental, bulk]) expect(expectOk(await call('DELETE', `/orders/delete.php?id=${o.id}`, { cookie: c.cookie }), 200, 'cancel').status).toBe('CANCELLED');
  }, 60_000);
});

describe('legacy: a rental with a fix request', () => {
  it('nested products with days; requests create (matched to lines), get_all, update (201)', async () => {
    const order = await placeOrder(a, { type: 'RENT', totalAmount: '0.01', products: [{ id: rent.id, noOfRentalDays: 3, variants: [] , quantity: 2 }] });
    expect(order).toMatchObject({ type: 'RENT', totalAmount: '60.00' });
    expectError(await call('POST', `/requests/create.php?id=${order.id}`, { cookie: a.cookie, body: { type: 'FIX', orderID: order.id, products: [{ productID: rent.id }], note: '' } }), 409, 'a request before delivery');
    await deliver(order, rentSerials);

    const restOther = await call('GET', `/api/my/orders/${order.id}`, { cookie: b.cookie });
    expectError(await call('POST', `/requests/create.php?id=${order.id}`, { cookie: b.cookie, body: { type: 'FIX', products: [{ productID: rent.id }] } }), restOther.status, "a request on another's rental");
    expectError(await call('POST', `/requests/create.php?id=${order.id}`, { cookie: a.cookie, body: { type: 'FIX', products: [{ productID: sale.id }] } }), 400, 'a product not in the order');
    expectError(await call('POST', `/requests/create.php?id=${order.id}`, { cookie: a.cookie, body: { type: 'FIX', products: [] } }), 400, 'no product');
    const request = expectOk(
      await call('POST', `/requests/create.php?id=${order.id}`, { cookie: a.cookie, body: { type: 'FIX', orderID: order.id, products: [{ productID: rent.id, productVariantID: null, productSubVariantID: null }], note: 'squeaks' } }),
      200,
      'requests/create.php',
    );
    expect(request).toMatchObject({ orderID: order.id, type: 'FIX', status: 'PENDING', userNote: 'squeaks' });
    expect(request.products).toHaveLength(1);
    expect(expectOk(await call('GET', `/requests/get_all.php?id=${order.id}`, { cookie: a.cookie }), 200, 'requests (customer)').map((r: { id: string }) => r.id)).toEqual([request.id]);
    expect(expectOk(await call('GET', `/requests/get_all.php?id=${order.id}`, { cookie: warehouse.cookie }), 200, 'requests (staff)').map((r: { id: string }) => r.id)).toEqual([request.id]);
    expectError(await call('GET', `/requests/get_all.php?id=${order.id}`, { cookie: b.cookie }), 404, "another's requests");
    expectError(await call('PATCH', `/requests/update.php?id=${request.id}`, { cookie: a.cookie, body: { status: 'ON_PROGRESS', orderID: order.id } }), 403, 'a customer updating a request');
    expect(expectOk(await call('PATCH', `/requests/update.php?id=${request.id}`, { cookie: warehouse.cookie, body: { status: 'ON_PROGRESS', orderID: order.id } }), 201, 'requests/update.php').status).toBe('ON_PROGRESS');
    expect(expectOk(await call('PATCH', `/requests/update.php?id=${request.id}`, { cookie: warehouse.cookie, body: { status: 'DONE', orderID: order.id } }), 201, 'done').status).toBe('DONE');

    // Three days later (the test moves the delivered time back): for return, picked up, each serial
    // marked through orders_product_serial_code/update.php, full payment asked and taken.
    const db = new pg.Client({ connectionString: env.databaseUrl });
    await db.connect();
    try {
      await db.query(`update ordering.orders set delivered_at = delivered_at - interval '3 days' where id = $1`, [order.id]);
    } finally {
      await db.end();
    }
    expect(expectOk(await call('PATCH', `/orders/update.php?id=${order.id}`, { cookie: warehouse.cookie, body: { status: 'FOR_RETURN' } }), 201, 'for return').status).toBe('FOR_RETURN');
    expect((await call('POST', '/api/driver/scan', { cookie: driver.cookie, body: { purpose: 'PICKUP', code: order.orderNumber } })).status).toBe(200);
    await handOverRest(order, 'PICKUP');
    const packed = expectOk(await call('GET', `/orders/get.php?id=${order.id}`, { cookie: warehouse.cookie }), 200, 'orders/get.php (staff)');
    const [first, second] = packed.products[0].serialCodes.map((s: { serialCode: string }) => s.serialCode) as [string, string];
    const mark = (code: string, status: string, who: Who = warehouse) =>
      call('PATCH', `/orders_product_serial_code/update.php?id=${order.id}&serialCode=${code}&productID=${rent.id}`, { cookie: who.cookie, body: { status } });
    expectError(await mark(first, 'OK', a), 403, 'a customer marking a return');
    const ok = expectOk(await mark(first, 'OK'), 201, 'orders_product_serial_code/update.php');
    expect(ok.products[0].serialCodes.find((s: { serialCode: string }) => s.serialCode === first)).toMatchObject({ status: 'OK', updatedAt: expect.any(String), returnedAt: expect.any(String), inventoryType: 'IN' });
    expectError(await mark(first, 'DAMAGED'), 409, 'a serial marked twice');
    expectOk(await mark(second, 'DAMAGED'), 201, 'damaged');
    const asked = expectOk(await call('PATCH', `/orders/update.php?id=${order.id}`, { cookie: warehouse.cookie, body: { status: 'FOR_FULL_PAYMENT', extraCharge: '0.01' } }), 201, 'for full payment');
    // The extra charge is the server's: one damaged unit's fee (50.00); 60.00 − 20.00 first day + 50.00.
    expect(asked.payment).toMatchObject({ status: 'FOR_FULL_PAYMENT', extraCharge: '50.00', balance: '90.00' });
    const full = await until('the full payment becomes payable', async () => {
      const p = expectOk(await call('GET', `/payments/get.php?orderID=${order.id}`, { cookie: accounting.cookie }), 200, 'payments/get.php?orderID');
      return p.nextAction === 'COMPLETE_PAYMENT' ? p : undefined;
    });
    const done = expectOk(
      await call('PATCH', `/payments/update.php?id=${full.id}`, {
        cookie: accounting.cookie,
        body: { invoiceNumber: `INV-${tag()}`, receiptNumber: `OR-${tag()}`, noteForFull: 'paid at pick-up', status: 'PAID', overallTotal: '0.01', extraCharge: '0.01' },
      }),
      201,
      'payments/update.php (full)',
    );
    expect(done).toMatchObject({ status: 'PAID', extraCharge: '50.00' });
    await until('the rental completes', async () =>
      expectOk(await call('GET', `/orders/get.php?id=${order.id}`, { cookie: a.cookie }), 200, 'orders/get.php (customer)').status === 'COMPLETED' ? true : undefined,
    );
    const records = expectOk(await call('GET', `/payment_records/get_all.php?paymentID=${full.id}`, { cookie: accounting.cookie }), 200, 'payment_records/get_all.php');
    expect(records).toHaveLength(2);
  }, 150_000);
});

describe('legacy: reports', () => {
  const files = ['purchased_products_sales', 'rental_products_sales', 'purchased_products_invoice', 'rental_products_unpaid_invoice', 'rental_products_partial_invoice'];
  it('each of the five: the last 366 days by default, or the range sent; superadmin only', async () => {
    const today = manilaDate();
    for (const f of files) {
      const d = expectOk(await call('GET', `/reports/${f}.php`, { cookie: admin.cookie }), 200, f);
      expect(d).toMatchObject({ from: addDays(today, -365), to: today });
      expect(d.rows).toBeInstanceOf(Array);
      expect(d.totals).toHaveProperty('overallSales');
      const ranged = expectOk(await call('GET', `/reports/${f}.php?from=2026-01-01&to=2026-01-31`, { cookie: admin.cookie }), 200, `${f} ranged`);
      expect(ranged).toMatchObject({ from: '2026-01-01', to: '2026-01-31' });
      expectError(await call('GET', `/reports/${f}.php`, { cookie: accounting.cookie }), 403, `${f} as accounting`);
      expectError(await call('GET', `/reports/${f}.php?from=2026-13-01`, { cookie: admin.cookie }), 400, `${f} with a bad date`);
    }
    // The paid purchase above reaches the report (built from events).
    await until('the purchase in the sales report', async () => {
      const sales = expectOk(await call('GET', '/reports/purchased_products_sales.php', { cookie: admin.cookie }), 200, 'sales');
      return sales.rows.some((r: { name: string }) => r.name.startsWith('Legacy BP')) ? true : undefined;
    });
  });
});

describe('legacy: the same RBAC as the REST routes', () => {
  it('every role gets the REST status for the same reads', async () => {
    const bad = randomUUID();
    const pairs: Array<[string, string]> = [
      ['/users/get_all.php', '/api/users'],
      [`/users/get.php?id=${a.user.id}`, `/api/users/${a.user.id}`],
      ['/warehousebins/get_all.php', '/api/warehouse-bins'],
      [`/warehousebins/get.php?id=${bin.id}`, `/api/warehouse-bins/${bin.id}`],
      ['/products/get_all.php', '/api/products'],
      [`/products/get.php?id=${sale.id}`, `/api/products/${sale.id}`],
      ['/stocks/get_all.php', '/api/stocks'],
      ['/cart/get_all.php?type=RENT', '/api/cart?type=RENT'],
      ['/payments/get_all.php', '/api/payments'],
      [`/payments/get.php?id=${bad}`, `/api/payments/${bad}`],
      [`/payment_records/get_all.php?paymentID=${bad}`, `/api/payments/${bad}`],
      ['/reports/rental_products_sales.php', `/api/reports/rental-sales?from=${addDays(manilaDate(), -365)}&to=${manilaDate()}`],
      [`/orders/get.php?id=${bad}`, `/api/my/orders/${bad}`],
    ];
    const roles: Array<[string, string | undefined]> = [['anonymous', undefined]];
    for (const u of ['superadmin', 'warehouseadmin', 'warehousestaff', 'accounting', 'driver', 'customer']) roles.push([u, (await legacyLogin(u)).cookie]);
    const mismatches: string[] = [];
    const klass = (s: number) => (s < 300 ? 'ok' : String(s));
    for (const [legacyPath, restPath] of pairs) {
      for (const [role, cookie] of roles) {
        const [l, r] = await Promise.all([call('GET', legacyPath, { cookie }), call('GET', restPath, { cookie })]);
        // An order read goes to the caller's own route: staff and drivers read through theirs (a 404 either way for an unknown id).
        if (legacyPath.startsWith('/orders/get.php') && cookie && role !== 'customer') {
          if (l.status !== 404 && l.status !== 403) mismatches.push(`${role} ${legacyPath}: ${l.status}`);
          continue;
        }
        if (klass(l.status) !== klass(r.status)) mismatches.push(`${role} ${legacyPath}: legacy ${l.status}, REST ${restPath} ${r.status}`);
        if (l.status >= 400) expectError(l, l.status, `${role} ${legacyPath}`);
      }
    }
    expect(mismatches).toEqual([]);
  });

  it('drivers, customers and accounting calling staff writes: 403 (anonymous 401), nothing written', async () => {
    const writes: Array<[string, string, unknown]> = [
      ['POST', '/warehousebins/create.php', { name: `Nope ${tag()}`, description: 'x' }],
      ['POST', '/stocks/create.php', { productID: sale.id, warehouseBinID: bin.id, quantity: 1 }],
      ['PATCH', `/warehousebins/update.php?id=${bin.id}`, { name: 'Nope', description: 'x' }],
      ['DELETE', `/products/delete.php?id=${sale.id}`, undefined],
      ['DELETE', `/users/delete.php?id=${b.user.id}`, undefined],
      ['PATCH', `/payments/update.php?id=${randomUUID()}`, { invoiceNumber: 'X', receiptNumber: 'Y' }],
    ];
    for (const [method, path, body] of writes) {
      for (const who of [driver, a, accounting]) {
        const allowed = path.startsWith('/payments/') && who === accounting;
        const r = await call(method, path, { cookie: who.cookie, body });
        if (allowed) expectError(r, 404, `${who.user.userType} ${method} ${path}`);
        else expectError(r, 403, `${who.user.userType} ${method} ${path}`);
      }
      expectError(await call(method, path, { body }), 401, `anonymous ${method} ${path}`);
    }
    expect(expectOk(await call('GET', `/stocks/get_all.php?productID=${sale.id}`, { cookie: warehouse.cookie }), 200, 'stock')).toHaveLength(6);
  });
});

describe('legacy: unknown calls, methods and the documentation', () => {
  it('an unknown .php path is 404 and a wrong method 405, in the legacy error shape', async () => {
    expectError(await call('GET', '/users/nothing.php'), 404, 'unknown .php');
    expectError(await call('GET', '/nothing.php'), 404, 'unknown root .php');
    const wrong: Answer = await call('GET', '/users/login.php');
    expectError(wrong, 405, 'GET login.php');
    expect(wrong.headers.get('allow')).toBe('POST');
    expectError(await call('PUT', '/orders/update.php?id=x'), 405, 'PUT update.php');
    expectError(await call('POST', '/users/login.php', { body: { username: 'x', password: 'y' }, headers: { 'content-type': 'text/plain' } }), 415, 'not JSON');
  });

  it('the mapping table is at /api/docs/legacy and in the OpenAPI document under the legacy tag', async () => {
    const docs = await call('GET', '/api/docs/legacy');
    expect(docs.status).toBe(200);
    expect(docs.body.calls.length).toBeGreaterThanOrEqual(43);
    expect(docs.body.calls.find((c: { path: string }) => c.path === '/orders/update.php').rest.map((r: { path: string }) => r.path)).toContain('/api/orders/:id/transitions');
    const openapi = await call('GET', '/api/openapi.json');
    expect(openapi.body.info.description).toContain('/api/docs/legacy');
    const op = openapi.body.paths['/orders/get_all.php'].get;
    expect(op.tags).toEqual(['legacy']);
    expect(op.parameters.map((p: { name: string }) => p.name).sort()).toEqual(['driverID', 'status', 'type', 'userID']);
    const legacyPaths = Object.keys(openapi.body.paths).filter((p) => p.endsWith('.php'));
    expect(legacyPaths.length).toBe(new Set(docs.body.calls.map((c: { path: string }) => c.path)).size);
  });
});
