import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays, DRIVER_DAY_MESSAGES, EVENTS, manilaDate, type EventEnvelope } from '@dme/contracts';
import type { Caller, Json } from '@dme/testing';
import { handOver, place, startOrdering, toPreparing, type OrderHarness } from '../../test/harness';
import { applyIdentityEvent } from '../readmodels/readmodels';

let h: OrderHarness;
let chair: Json;
beforeAll(async () => {
  h = await startOrdering();
  chair = await h.product({ brand: 'Drive', name: `Chair ${randomUUID().slice(0, 6)}`, type: 'FOR_SALE', price: '120.00', damageCharges: '0.00' });
});
afterAll(() => h?.close());

const today = () => manilaDate();
let people = 0;

/** A person as identity announces them, applied to the order service's read model of people. */
async function person(userType: 'DRIVER' | 'CUSTOMER', firstName: string, status = 'ACTIVE'): Promise<Caller & { name: string; idNumber: string }> {
  const id = randomUUID();
  people += 1;
  const idNumber = `${userType === 'DRIVER' ? 'EMP' : 'CUS'}-${String(900000 + people)}`;
  const event: EventEnvelope = {
    id: randomUUID(),
    type: userType === 'DRIVER' ? EVENTS.identity.employeeCreated : EVENTS.identity.userRegistered,
    occurredAt: new Date().toISOString(),
    source: 'identity',
    aggregateId: id,
    version: 1,
    data: { id, idNumber, username: `u_${id.slice(0, 8)}`, firstName, middleName: '', lastName: 'Cruz', suffix: '', email: `${id.slice(0, 8)}@example.com`, contactNumber: '+63 917 555 0101', userType, status },
  };
  await applyIdentityEvent(h.orderOrm.em.fork(), event);
  return { userId: id, userType, name: `${firstName} Cruz`, idNumber };
}

/** A purchase of one chair by `customer` to `city`, packed: TO_SHIP, waiting for a driver. */
async function toShip(customer: Caller, city = 'Makati') {
  const [serial] = await h.addStock({ productID: chair.id, quantity: 1 });
  const placed = await place(h, customer, { type: 'BUY', typeOfOrder: 'BULK', lines: [{ productID: chair.id, quantity: 1 }], deliveryCity: city, note: 'Gate code 4412' });
  expect(placed.status).toBe(201);
  const order = await toPreparing(h, placed.body.order);
  const packed = await h.order.post(`/api/orders/${order.id}/transitions`, { to: 'TO_SHIP', packing: [{ lineID: order.products[0].id, serialCodes: [serial] }] }, { as: h.staff });
  expect(packed.status).toBe(200);
  return packed.body.order as Json;
}

const assign = (order: Json, body: unknown, as: Caller = h.staff) => h.order.call('PUT', `/api/orders/${order.id}/assignment`, { body, as });
const day = async (as: Caller) => {
  const res = await h.order.get('/api/driver/today', { as });
  expect(res.status).toBe(200);
  return res.body;
};
const scan = (as: Caller, code: string) => h.order.post('/api/driver/scan', { purpose: 'DELIVERY', code }, { as });

describe("the driver's day (issue 28)", () => {
  it('staff assign an order to a driver for today: it is on their day with the customer number, phone, address, items and note; theirs to read; not on another driver\'s day', async () => {
    const driver = await person('DRIVER', 'Jun');
    const other = await person('DRIVER', 'Ben');
    const customer = await person('CUSTOMER', 'Lorna');
    const order = await toShip(customer);
    const res = await assign(order, { driverId: driver.userId, day: today() });
    expect(res.status).toBe(200);
    expect(res.body.order.assignment).toEqual({ driverId: driver.userId, driverName: driver.name, day: today() });
    expect(res.body.order.orderTracker.at(-1)).toMatchObject({ status: 'TO_SHIP', title: DRIVER_DAY_MESSAGES.assigned(order.orderNumber, driver.name, today()) });

    const mine = await day(driver);
    expect(mine.day).toBe(today());
    expect(mine.stops).toEqual([
      {
        id: order.id,
        orderNumber: order.orderNumber,
        type: 'BUY',
        status: 'TO_SHIP',
        leg: 'DELIVERY',
        stage: 'TO_TAKE_OUT',
        day: today(),
        customerName: customer.name,
        customerNumber: customer.idNumber,
        contactNumber: '+63 917 555 0101',
        address: order.deliveryAddress,
        city: 'Makati',
        state: order.deliveryState,
        zipcode: order.deliveryZipcode,
        note: 'Gate code 4412',
        items: [{ name: chair.name, quantity: 1 }],
      },
    ]);
    // Never an internal id of the customer.
    expect(JSON.stringify(mine)).not.toContain(customer.userId);
    expect((await h.order.get(`/api/driver/orders/${order.id}`, { as: driver })).status).toBe(200);
    expect((await day(other)).stops.map((s: Json) => s.id)).not.toContain(order.id);
    expect((await h.order.get(`/api/driver/orders/${order.id}`, { as: other })).status).toBe(404);
    // The driver's list shows the customer's number, not their id.
    expect((await scan(driver, order.orderNumber)).status).toBe(200);
    const list = await h.order.get('/api/driver/orders?purpose=DELIVERY', { as: driver });
    expect(list.body.items[0]).toMatchObject({ id: order.id, customerNumber: customer.idNumber });
    // Out with them: still on their day, now out for delivery; delivered: off it.
    expect((await day(driver)).stops).toEqual([expect.objectContaining({ id: order.id, stage: 'OUT_FOR_DELIVERY' })]);
    expect((await handOver(h, driver, order)).status).toBe(200);
    expect((await day(driver)).stops).toEqual([]);
  });

  it('work no driver has is a count per city with no customer details; work planned for tomorrow is not on today', async () => {
    const customer = await person('CUSTOMER', 'Rosa');
    const city = `Pasig ${randomUUID().slice(0, 4)}`;
    const a = await toShip(customer, city);
    await toShip(customer, city);
    const driver = await person('DRIVER', 'Tess');
    const before = await day(driver);
    expect(before.waiting).toContainEqual({ city, deliveries: 2, pickups: 0 });
    expect(JSON.stringify(before)).not.toContain(customer.name.split(' ')[0]!);
    expect(JSON.stringify(before)).not.toContain(a.orderNumber);
    expect((await assign(a, { driverId: driver.userId, day: addDays(today(), 1) })).status).toBe(200);
    const after = await day(driver);
    expect(after.stops).toEqual([]);
    expect(after.waiting).toContainEqual({ city, deliveries: 1, pickups: 0 });
    // Back to any driver: waiting again, and the planned driver no longer reads it.
    const back = await assign(a, { driverId: null });
    expect(back.body.order.assignment).toBeNull();
    expect((await day(driver)).waiting).toContainEqual({ city, deliveries: 2, pickups: 0 });
    expect((await h.order.get(`/api/driver/orders/${a.id}`, { as: driver })).status).toBe(404);
  });

  it('the driver reorders their stops (each once, only theirs); another driver taking one out by scan makes it theirs', async () => {
    const driver = await person('DRIVER', 'Ana');
    const customer = await person('CUSTOMER', 'Mila');
    const [a, b, c] = [await toShip(customer), await toShip(customer), await toShip(customer)];
    for (const o of [a, b, c]) expect((await assign(o, { driverId: driver.userId, day: today() })).status).toBe(200);
    expect((await day(driver)).stops.map((s: Json) => s.id)).toEqual([a.id, b.id, c.id]);
    const put = (orderIds: string[]) => h.order.call('PUT', '/api/driver/today/stops', { body: { orderIds }, as: driver });
    const moved = await put([c.id, a.id, b.id]);
    expect(moved.status).toBe(200);
    expect(moved.body.stops.map((s: Json) => s.id)).toEqual([c.id, a.id, b.id]);
    expect((await day(driver)).stops.map((s: Json) => s.id)).toEqual([c.id, a.id, b.id]);
    const stranger = await toShip(customer);
    for (const ids of [[c.id, a.id], [c.id, a.id, b.id, stranger.id], [c.id, c.id, a.id, b.id], [c.id, a.id, randomUUID()]]) {
      const refused = await put(ids);
      expect(refused.status, JSON.stringify(ids)).toBe(400);
      expect(refused.body.detail).toBe(DRIVER_DAY_MESSAGES.notYourStops);
    }
    expect((await day(driver)).stops.map((s: Json) => s.id)).toEqual([c.id, a.id, b.id]);
    const taker = await person('DRIVER', 'Leo');
    expect((await scan(taker, a.orderNumber)).status).toBe(200);
    expect((await day(driver)).stops.map((s: Json) => s.id)).toEqual([c.id, b.id]);
    expect((await day(taker)).stops.map((s: Json) => s.id)).toEqual([a.id]);
  });

  it('assigning is refused with a clear answer and changes nothing: not waiting for a driver, not an active driver, a past day, not staff', async () => {
    const customer = await person('CUSTOMER', 'Nora');
    const driver = await person('DRIVER', 'Dan');
    const gone = await person('DRIVER', 'Old', 'DEACTIVATED');
    const order = await toShip(customer);
    const cases: Array<[string, unknown, number, string]> = [
      ['a customer as driver', { driverId: customer.userId, day: today() }, 400, DRIVER_DAY_MESSAGES.chooseDriver],
      ['a deactivated driver', { driverId: gone.userId, day: today() }, 400, DRIVER_DAY_MESSAGES.chooseDriver],
      ['an unknown driver', { driverId: randomUUID(), day: today() }, 400, DRIVER_DAY_MESSAGES.chooseDriver],
      ['yesterday', { driverId: driver.userId, day: addDays(today(), -1) }, 400, DRIVER_DAY_MESSAGES.dayInvalid],
      ['not a date', { driverId: driver.userId, day: '2026-02-30' }, 400, DRIVER_DAY_MESSAGES.dayInvalid],
    ];
    for (const [name, body, status, detail] of cases) {
      const res = await assign(order, body);
      expect(res.status, name).toBe(status);
      expect(res.body.errors?.[0]?.message ?? res.body.detail, name).toBe(detail);
    }
    for (const role of ['DRIVER', 'CUSTOMER', 'ACCOUNTING_ADMIN'] as const) expect((await assign(order, { driverId: driver.userId }, h.as(role))).status, role).toBe(403);
    expect((await h.order.get(`/api/orders/${order.id}`, { as: h.staff })).body.order.assignment).toBeNull();
    // Out for delivery: no longer waiting for a driver.
    expect((await scan(driver, order.orderNumber)).status).toBe(200);
    const late = await assign(order, { driverId: driver.userId, day: today() });
    expect(late).toMatchObject({ status: 409, body: { detail: DRIVER_DAY_MESSAGES.notWaiting(order.orderNumber, 'OUT_FOR_DELIVERY') } });
    // The drivers staff can choose from: active drivers only.
    const drivers = (await h.order.get('/api/assignable-drivers', { as: h.staff })).body.items.map((d: Json) => d.id);
    expect(drivers).toContain(driver.userId);
    expect(drivers).not.toContain(gone.userId);
    expect(drivers).not.toContain(customer.userId);
    expect((await h.order.get('/api/assignable-drivers', { as: h.as('DRIVER') })).status).toBe(403);
  });
});
