import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays, EVENTS, LATE_FEE_MESSAGES, manilaDate, manilaInstant } from '@dme/contracts';
import { candidates, writeDueReminders } from './reminders';
import { eventually, type Caller, type Json } from '@dme/testing';
import { handOver, paymentConfirmed, place, toPreparing, type OrderHarness, startOrdering } from '../../test/harness';

/**
 * Rental money at the order (issue 29): the terms snapshotted on the line at checkout, the
 * deposit asked with the first payment, the late fees growing while a rental is kept past its
 * due date, and at the return the charges (damage, late fees) settled against the deposit.
 */
let h: OrderHarness;
let lift: Json;
const TERMS = { deposit: { kind: 'FIXED', amount: '1000.00' }, lateFeePerDay: '100.00', graceDays: 1, lateFeeCap: { kind: 'DAYS', days: 10 } };
beforeAll(async () => {
  h = await startOrdering();
  lift = await h.product({ brand: 'Hoyer', name: `Lift ${randomUUID().slice(0, 6)}`, type: 'FOR_RENT', price: '40.00', damageCharges: '1500.00', rentalTerms: TERMS });
});
afterAll(() => h?.close());

const exec = <T>(q: string, params: unknown[]) => h.orderOrm.em.fork().execute<T[]>(q, params);
const move = (order: Json, to: string, as: Caller = h.staff) => h.order.post(`/api/orders/${order.id}/transitions`, { to }, { as });
const staffRead = async (order: Json) => (await h.order.get(`/api/orders/${order.id}`, { as: h.staff })).body.order;
const ret = (order: Json, code: string, status: string) => h.order.post(`/api/orders/${order.id}/serials/${encodeURIComponent(code)}/return`, { status }, { as: h.staff });

/** Two lifts for 3 days (₱240.00, first day ₱80.00, deposit 2 × ₱1,000.00), placed by the customer. */
async function placeLifts(customer: Caller = h.customer()) {
  const serials = await h.addStock({ productID: lift.id, quantity: 2 });
  const placed = await place(h, customer, { type: 'RENT', typeOfOrder: 'BULK', lines: [{ productID: lift.id, quantity: 2, noOfRentalDays: 3 }] });
  expect(placed.status).toBe(201);
  return { order: placed.body.order, serials, customer };
}

/** Placed, paid, packed and delivered; then moved back in time: delivered 9 days ago, so due 6 days ago. */
async function deliveredLongAgo() {
  const { order, serials, customer } = await placeLifts();
  const preparing = await toPreparing(h, order);
  expect((await h.order.post(`/api/orders/${order.id}/transitions`, { to: 'TO_SHIP', packing: [{ lineID: preparing.products[0].id, serialCodes: serials }] }, { as: h.staff })).status).toBe(200);
  const driver = h.as('DRIVER');
  expect((await h.order.post('/api/driver/scan', { purpose: 'DELIVERY', code: order.orderNumber }, { as: driver })).status).toBe(200);
  expect((await handOver(h, driver, order)).status).toBe(200);
  await exec(`update ordering.orders set delivered_at = delivered_at - interval '9 days' where id = ?`, [order.id]);
  return { order, serials, customer, driver };
}

/** Picked up by a driver, its hand-over signed yesterday: the units came back 5 days after they were due. */
async function pickedUpYesterday(order: Json) {
  expect((await move(order, 'FOR_RETURN')).status).toBe(200);
  expect((await handOver(h, h.as('DRIVER'), order, 'PICKUP')).status).toBe(200);
  await exec(`update ordering.order_handovers set signed_at = signed_at - interval '1 day' where order_id = ? and leg = 'PICKUP'`, [order.id]);
}

describe('rental money at the order (issue 29)', () => {
  it('the line keeps the terms it was placed with and its deposit; the order asks the deposit with the first payment; later edits change nothing', async () => {
    const { order, customer } = await placeLifts();
    const snapshot = { deposit: { kind: 'FIXED', amount: '1000.00' }, lateFeePerDay: '100.00', graceDays: 1, lateFeeCap: { kind: 'DAYS', days: 10 } };
    expect(order.products[0]).toMatchObject({ rentalTerms: snapshot, deposit: '2000.00', lineTotal: '240.00' });
    expect(order.payment).toMatchObject({ status: 'UNPAID', totalOrderPayment: '240.00', totalPartialPayment: '80.00', deposit: '2000.00' });
    const [placed] = await exec<{ payload: Json }>(`select payload from ordering.outbox where subject = ? and payload->>'aggregateId' = ?`, [EVENTS.order.placed, order.id]);
    expect(placed!.payload.data).toMatchObject({ partialPayment: '80.00', deposit: '2000.00', lines: [{ deposit: '2000.00' }] });

    // The product's terms change: the order placed keeps its own.
    const edited = await h.catalog.patch(`/api/products/${lift.id}`, { brand: lift.brand, name: lift.name, description: 'x', type: 'FOR_RENT', image: lift.image, price: '40.00', damageCharges: '1500.00', rentalTerms: { ...TERMS, lateFeePerDay: '500.00' } }, { as: h.staff });
    expect(edited.body.product.rentalTerms.lateFeePerDay).toBe('500.00');
    const mine = (await h.order.get(`/api/my/orders/${order.id}`, { as: customer })).body.order;
    expect(mine.products[0].rentalTerms).toEqual(snapshot);
    expect(mine.payment.deposit).toBe('2000.00');
    expect((await h.catalog.patch(`/api/products/${lift.id}`, { brand: lift.brand, name: lift.name, description: 'x', type: 'FOR_RENT', image: lift.image, price: '40.00', damageCharges: '1500.00', rentalTerms: TERMS }, { as: h.staff })).status).toBe(200);
  });

  it('returned 5 days late with one unit damaged: the late fees grow day by day, then damage and late fees are charged once against the deposit, the shortfall in the balance', async () => {
    const { order, serials, customer } = await deliveredLongAgo();
    // Due 6 days ago, a grace day: 5 days late so far, 2 units × ₱100.00 × 5 = ₱1,000.00, the customer and staff alike.
    const soFar = { amount: '1000.00', days: 5, charged: '1000.00', waived: '0.00' };
    expect((await staffRead(order)).lateFees).toEqual(soFar);
    expect((await h.order.get(`/api/my/orders/${order.id}`, { as: customer })).body.order.lateFees).toEqual(soFar);

    await pickedUpYesterday(order);
    // Back yesterday: 4 days charged, whatever day the warehouse marks them.
    expect((await staffRead(order)).lateFees).toEqual({ amount: '800.00', days: 4, charged: '800.00', waived: '0.00' });
    expect((await ret(order, serials[0]!, 'OK')).status).toBe(200);
    expect((await ret(order, serials[1]!, 'DAMAGED')).status).toBe(200);
    // Damage ₱1,500.00 + late fees ₱800.00 = ₱2,300.00 against the ₱2,000.00 deposit: nothing back, ₱300.00 more to pay besides the rent left (₱160.00).
    const want = { extraCharge: '2300.00', lateFees: '800.00', depositApplied: '2000.00', depositRefund: '0.00', balance: '460.00', dueDate: addDays(manilaDate(), 1) };
    expect((await staffRead(order)).fullPaymentPreview).toMatchObject(want);
    const asked = await move(order, 'FOR_FULL_PAYMENT');
    expect(asked.status).toBe(200);
    expect(asked.body.order.payment).toMatchObject({ status: 'FOR_FULL_PAYMENT', extraCharge: '2300.00', overallTotal: '2540.00', balance: '460.00', deposit: '2000.00', lateFees: '800.00', depositApplied: '2000.00', depositRefund: '0.00' });
    // Charged: no more growing late fees on the order.
    expect(asked.body.order.lateFees).toBeNull();
    const events = await exec<{ payload: Json }>(`select payload from ordering.outbox where subject = ? and payload->>'aggregateId' = ? and payload->'data'->>'to' = 'FOR_FULL_PAYMENT'`, [EVENTS.order.statusChanged, order.id]);
    expect(events).toHaveLength(1);
    expect(events[0]!.payload.data).toMatchObject({ extraCharge: '2300.00', lateFees: '800.00', depositApplied: '2000.00', depositRefund: '0.00', balance: '460.00', lateFeesWaived: '0.00' });
    // Asked once: a second try is refused and changes nothing.
    expect((await move(order, 'FOR_FULL_PAYMENT')).status).toBe(409);
    expect((await staffRead(order)).payment).toMatchObject({ extraCharge: '2300.00', balance: '460.00' });
  });

  it('returned late with both units fine: the late fees come from the deposit and the rest of it is refunded; the balance is the rent left', async () => {
    const { order, serials } = await deliveredLongAgo();
    await pickedUpYesterday(order);
    for (const s of serials) expect((await ret(order, s, 'OK')).status).toBe(200);
    const asked = await move(order, 'FOR_FULL_PAYMENT');
    expect(asked.body.order.payment).toMatchObject({ extraCharge: '800.00', lateFees: '800.00', depositApplied: '800.00', depositRefund: '1200.00', balance: '160.00', overallTotal: '1040.00' });
  });

  it('back within the grace day: no late fee, the whole deposit refunded', async () => {
    const { order, serials } = await deliveredLongAgo();
    // Delivered 4 days ago instead (due yesterday), picked up yesterday: on time.
    await exec(`update ordering.orders set delivered_at = delivered_at + interval '5 days' where id = ?`, [order.id]);
    expect((await staffRead(order)).lateFees).toBeNull();
    await pickedUpYesterday(order);
    for (const s of serials) expect((await ret(order, s, 'OK')).status).toBe(200);
    const asked = await move(order, 'FOR_FULL_PAYMENT');
    expect(asked.body.order.payment).toMatchObject({ extraCharge: '0.00', lateFees: '0.00', depositApplied: '0.00', depositRefund: '2000.00', balance: '160.00' });
  });

  it('staff waive part of the late fees with a reason (who and when kept): the rest is charged once at the return; never more than is charged, nor after the return', async () => {
    const { order, serials, customer } = await deliveredLongAgo();
    const waive = (body: Json, as: Caller = h.staff) => h.order.post(`/api/orders/${order.id}/late-fee-waivers`, body, { as });
    // 5 days late so far: ₱1,000.00.
    const missing = await waive({ amount: '300.00' });
    expect(missing.status).toBe(400);
    expect(missing.body.errors).toContainEqual({ field: 'reason', message: LATE_FEE_MESSAGES.reason });
    expect((await waive({ amount: '300.00', reason: 'x' }, customer)).status).toBe(403);
    const tooMuch = await waive({ amount: '1000.01', reason: 'Hospital stay' });
    expect(tooMuch.status).toBe(400);
    expect(tooMuch.body.errors).toContainEqual({ field: 'amount', message: LATE_FEE_MESSAGES.tooMuch });
    const waived = await waive({ amount: '300.00', reason: 'Patient was in hospital for 3 days' });
    expect(waived.status).toBe(201);
    expect(waived.body.order.lateFees).toEqual({ amount: '700.00', days: 5, charged: '1000.00', waived: '300.00' });
    expect(waived.body.order.lateFeeWaivers).toEqual([{ amount: '300.00', reason: 'Patient was in hospital for 3 days', byName: expect.any(String), createdAt: expect.any(String) }]);
    // The customer sees the same.
    expect((await h.order.get(`/api/my/orders/${order.id}`, { as: customer })).body.order.lateFees).toMatchObject({ amount: '700.00', waived: '300.00' });
    // What is left to waive: ₱700.00 at most.
    expect((await waive({ amount: '700.01', reason: 'More' })).status).toBe(400);

    await pickedUpYesterday(order);
    // Back yesterday: ₱800.00 charged, ₱300.00 of it waived.
    expect((await staffRead(order)).lateFees).toEqual({ amount: '500.00', days: 4, charged: '800.00', waived: '300.00' });
    expect((await ret(order, serials[0]!, 'OK')).status).toBe(200);
    expect((await ret(order, serials[1]!, 'DAMAGED')).status).toBe(200);
    // Damage ₱1,500.00 + late fees ₱500.00 = ₱2,000.00: the whole deposit, nothing back, the rent left (₱160.00) to pay.
    const asked = await move(order, 'FOR_FULL_PAYMENT');
    expect(asked.body.order.payment).toMatchObject({ extraCharge: '2000.00', lateFees: '500.00', depositApplied: '2000.00', depositRefund: '0.00', balance: '160.00' });
    // The status event tells reporting what was waived of the late fees counted (₱800.00 − ₱500.00).
    const events = await exec<{ payload: Json }>(`select payload from ordering.outbox where subject = ? and payload->>'aggregateId' = ? and payload->'data'->>'to' = 'FOR_FULL_PAYMENT'`, [EVENTS.order.statusChanged, order.id]);
    expect(events.map((e) => e.payload.data)).toMatchObject([{ lateFees: '500.00', lateFeesWaived: '300.00' }]);
    // The late fees are fixed now: nothing more can be waived.
    const after = await waive({ amount: '10.00', reason: 'Late' });
    expect(after.status).toBe(409);
    expect(after.body.detail).toBe(LATE_FEE_MESSAGES.notNow);
  });

  it('billing cycles (issue 29): a 60-day rental of a product billed by cycles says so; once delivered its cycles are due, paid by the cycle payments, counted on the ongoing list', async () => {
    const bed = await h.product({ brand: 'Joerns', name: `Bed ${randomUUID().slice(0, 6)}`, type: 'FOR_RENT', price: '100.00', damageCharges: '900.00', rentalTerms: { lateFeePerDay: '0.00', billing: 'CYCLES' } });
    const serials = await h.addStock({ productID: bed.id, quantity: 1 });
    await h.addStock({ productID: bed.id, quantity: 1 });
    const customer = h.customer();
    const placed = await place(h, customer, { type: 'RENT', typeOfOrder: 'BULK', lines: [{ productID: bed.id, quantity: 1, noOfRentalDays: 60 }] });
    expect(placed.status).toBe(201);
    const order = placed.body.order;
    expect(order).toMatchObject({ billing: 'CYCLES', cycles: [] });
    const [event] = await exec<{ payload: Json }>(`select payload from ordering.outbox where subject = ? and payload->>'aggregateId' = ?`, [EVENTS.order.placed, order.id]);
    expect(event!.payload.data.billing).toBe('CYCLES');
    // A rental of 30 days of the same product is billed as SPEC §4.
    const short = await place(h, h.customer(), { type: 'RENT', typeOfOrder: 'BULK', lines: [{ productID: bed.id, quantity: 1, noOfRentalDays: 30 }] });
    expect(short.status).toBe(201);
    expect(short.body.order.billing).toBe('UPFRONT');

    const preparing = await toPreparing(h, order);
    expect((await h.order.post(`/api/orders/${order.id}/transitions`, { to: 'TO_SHIP', packing: [{ lineID: preparing.products[0].id, serialCodes: serials }] }, { as: h.staff })).status).toBe(200);
    const driver = h.as('DRIVER');
    expect((await h.order.post('/api/driver/scan', { purpose: 'DELIVERY', code: order.orderNumber }, { as: driver })).status).toBe(200);
    expect((await handOver(h, driver, order)).status).toBe(200);
    const today = manilaDate();
    const mine = (await h.order.get(`/api/my/orders/${order.id}`, { as: customer })).body.order;
    expect(mine.cycles).toEqual([
      { n: 1, from: today, to: addDays(today, 29), dueOn: today, days: 30, amount: '3000.00', state: 'DUE' },
      { n: 2, from: addDays(today, 30), to: addDays(today, 59), dueOn: addDays(today, 30), days: 30, amount: '3000.00', state: 'UPCOMING' },
    ]);
    const listed = async () => {
      const res = await h.order.get(`/api/ongoing-rentals?tab=ONGOING&search=${encodeURIComponent(order.orderNumber)}`, { as: h.staff });
      expect(res.status).toBe(200);
      return res.body.items[0].cycles;
    };
    expect(await listed()).toEqual({ paid: 0, due: 1, count: 2 });
    // The reminders' round reads a rental billed by cycles while a cycle after the last one paid is due (issue 30).
    const readByRound = async (day: string) => (await candidates(h.orderOrm.em.fork(), day)).some((c) => c.id === order.id);
    expect(await readByRound(addDays(today, 1))).toBe(true);
    // Accounting takes cycle 1 (its 30 days less the first day paid).
    const cycle = paymentConfirmed(order, 'first', { type: 'CYCLE', status: 'INITIAL_PAYMENT', cycle: 1, amount: '2900.00', recordId: randomUUID() });
    await h.publish(cycle);
    await eventually(async () => (await exec('select 1 from ordering.inbox where event_id = ?', [cycle.id])).length > 0, 10_000);
    expect((await staffRead(order)).cycles.map((c: Json) => c.state)).toEqual(['PAID', 'UPCOMING']);
    expect(await listed()).toEqual({ paid: 1, due: 0, count: 2 });
    // Paid up to cycle 2's day (today + 30, its first day): not read until then.
    expect(await readByRound(addDays(today, 1))).toBe(false);
    expect(await readByRound(addDays(today, 29))).toBe(false);
    expect(await readByRound(addDays(today, 30))).toBe(true);
    // Thirty days later cycle 2 is due: the 09:00 round reminds the customer that day, and each week after while it is not paid.
    await exec(`update ordering.orders set delivered_at = delivered_at - interval '30 days' where id = ?`, [order.id]);
    expect((await staffRead(order)).cycles.map((c: Json) => c.state)).toEqual(['PAID', 'DUE']);
    expect(await listed()).toEqual({ paid: 1, due: 1, count: 2 });
    const reminders = async () =>
      (await exec<{ payload: Json }>(`select payload from ordering.outbox where subject = ? and payload->>'aggregateId' = ? order by created_at`, [EVENTS.rental.reminderDue, order.id])).map(
        (r) => r.payload.data,
      );
    for (const day of [today, addDays(today, 1), addDays(today, 7)]) await writeDueReminders(h.orderOrm.em.fork(), manilaInstant(day, '09:00'));
    const cycle2 = { n: 2, from: today, to: addDays(today, 29), amount: '3000.00' };
    expect((await reminders()).map((d) => [d.kind, d.day, d.dueDate, d.cycle])).toEqual([
      ['CYCLE_DUE', today, today, cycle2],
      ['CYCLE_DUE', addDays(today, 7), today, cycle2],
    ]);
  });

  it('rent-to-own (issue 29): once delivered, each line that offers it shows the rent its paid cycles cover, the credit and the buy-out price now', async () => {
    const terms = { lateFeePerDay: '0.00', billing: 'CYCLES', rentToOwn: { salePrice: '30000.00', creditPercent: 50, afterCycles: 12 } };
    const bed = await h.product({ brand: 'Joerns', name: `Bed ${randomUUID().slice(0, 6)}`, type: 'FOR_RENT', price: '100.00', damageCharges: '900.00', rentalTerms: terms });
    // The form refuses rent-to-own without billing by cycles.
    const refused = await h.catalog.post('/api/products', { brand: 'Joerns', name: `Bed ${randomUUID().slice(0, 6)}`, description: 'x', type: 'FOR_RENT', image: bed.image, price: '100.00', damageCharges: '900.00', rentalTerms: { ...terms, billing: 'UPFRONT' } }, { as: h.staff });
    expect(refused.status).toBe(400);
    expect(refused.body.errors).toContainEqual({ field: 'rentalTerms.rentToOwn', message: 'Rent-to-own needs billing every 30 days.' });
    const serials = await h.addStock({ productID: bed.id, quantity: 1 });
    const customer = h.customer();
    const placed = await place(h, customer, { type: 'RENT', typeOfOrder: 'BULK', lines: [{ productID: bed.id, quantity: 1, noOfRentalDays: 360 }] });
    expect(placed.status).toBe(201);
    expect(placed.body.order.rentToOwn).toEqual([]);
    const order = placed.body.order;
    const preparing = await toPreparing(h, order);
    expect((await h.order.post(`/api/orders/${order.id}/transitions`, { to: 'TO_SHIP', packing: [{ lineID: preparing.products[0].id, serialCodes: serials }] }, { as: h.staff })).status).toBe(200);
    const driver = h.as('DRIVER');
    expect((await h.order.post('/api/driver/scan', { purpose: 'DELIVERY', code: order.orderNumber }, { as: driver })).status).toBe(200);
    expect((await handOver(h, driver, order)).status).toBe(200);
    const line = { lineId: order.products[0].id, productName: bed.name, afterCycles: 12, owned: false };
    expect((await h.order.get(`/api/my/orders/${order.id}`, { as: customer })).body.order.rentToOwn).toEqual([{ ...line, rentPaid: '100.00', credited: '50.00', buyOut: '29950.00', cyclesPaid: 0 }]);
    for (const n of [1, 2]) {
      const cycle = paymentConfirmed(order, 'first', { type: 'CYCLE', status: 'INITIAL_PAYMENT', cycle: n, amount: n === 1 ? '2900.00' : '3000.00', recordId: randomUUID() });
      await h.publish(cycle);
      await eventually(async () => (await exec('select 1 from ordering.inbox where event_id = ?', [cycle.id])).length > 0, 10_000);
    }
    expect((await staffRead(order)).rentToOwn).toEqual([{ ...line, rentPaid: '6000.00', credited: '3000.00', buyOut: '27000.00', cyclesPaid: 2 }]);
    // Accounting takes the buy-out: the payment says the rental is the customer's; the order completes without coming back.
    const bought = paymentConfirmed(order, 'full', { type: 'BUYOUT', status: 'PAID', amount: '27000.00', owned: true, recordId: randomUUID(), balance: '0.00' });
    await h.publish(bought);
    await eventually(async () => (await exec('select 1 from ordering.inbox where event_id = ?', [bought.id])).length > 0, 10_000);
    const done = await staffRead(order);
    expect(done.status).toBe('COMPLETED');
    expect(done.orderTracker.at(-1)).toMatchObject({ status: 'COMPLETED', title: "Bought out: the equipment is the customer's" });
    expect(done.payment.records.map((r: Json) => r.type)).toEqual(['PARTIAL', 'CYCLE', 'CYCLE', 'BUYOUT']);
    expect(done.rentToOwn).toEqual([{ ...line, rentPaid: '6000.00', credited: '3000.00', buyOut: '27000.00', cyclesPaid: 2, owned: true }]);
    // The cycles it did not pay are no longer billed.
    expect(done.cycles.map((c: Json) => c.state)).toEqual(['PAID', 'PAID', ...Array(10).fill('CLOSED')]);
    const [completed] = await exec<{ payload: Json }>(
      `select payload from ordering.outbox where subject = ? and payload->>'aggregateId' = ? and payload->'data'->>'to' = 'COMPLETED'`,
      [EVENTS.order.statusChanged, order.id],
    );
    expect(completed!.payload.data).toMatchObject({ from: 'DELIVERED', to: 'COMPLETED', type: 'RENT' });
  });
});
