import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EVENTS, HANDOVER_LIMITS, HANDOVER_MESSAGES, RENTAL_MESSAGES, TICKET_FILE } from '@dme/contracts';
import { IDENTITY_HEADERS } from '@dme/platform';
import { TEST_INTERNAL_TOKEN, type Caller, type Json } from '@dme/testing';
import { handoverBody, SIGNATURE } from '@dme/testing/handover';
import { pdfText } from '@dme/testing/pdf';
import { handOver, place, startOrdering, toPreparing, type OrderHarness } from '../../test/harness';

let h: OrderHarness;
let bed: Json;
beforeAll(async () => {
  h = await startOrdering();
  bed = await h.product({ brand: 'Invacare', name: `Bed ${randomUUID().slice(0, 6)}`, type: 'FOR_RENT', price: '50.00', damageCharges: '900.10' });
});
afterAll(() => h?.close());

const exec = <T>(q: string, params: unknown[]) => h.orderOrm.em.fork().execute<T[]>(q, params);
const staffRead = async (order: Json) => (await h.order.get(`/api/orders/${order.id}`, { as: h.staff })).body.order;
const scan = (as: Caller, code: string, purpose: 'DELIVERY' | 'PICKUP' = 'DELIVERY') => h.order.post('/api/driver/scan', { purpose, code }, { as });
const post = (as: Caller, order: Json, body: unknown) => h.order.post(`/api/driver/orders/${order.id}/handover`, body, { as });

/** A binary answer of the order service (a ticket, an image). */
async function download(path: string, as: Caller) {
  const res = await fetch(`${h.orderUrl}${path}`, {
    headers: { [IDENTITY_HEADERS.internalToken]: TEST_INTERNAL_TOKEN, [IDENTITY_HEADERS.userId]: as.userId, [IDENTITY_HEADERS.userType]: as.userType },
  });
  return { status: res.status, headers: res.headers, bytes: Buffer.from(await res.arrayBuffer()) };
}

/** A rental of two beds by `customer`, packed and taken out by a new driver (OUT_FOR_DELIVERY). */
async function outForDelivery(customer = h.customer()) {
  const beds = await h.addStock({ productID: bed.id, quantity: 2 });
  const placed = await place(h, customer, { type: 'RENT', typeOfOrder: 'BULK', lines: [{ productID: bed.id, quantity: 2, noOfRentalDays: 5 }] });
  expect(placed.status).toBe(201);
  const order = await toPreparing(h, placed.body.order);
  const packed = await h.order.post(`/api/orders/${order.id}/transitions`, { to: 'TO_SHIP', packing: [{ lineID: order.products[0].id, serialCodes: beds }] }, { as: h.staff });
  expect(packed.status).toBe(200);
  const driver = h.as('DRIVER');
  expect((await scan(driver, order.orderNumber)).body.order.status).toBe('OUT_FOR_DELIVERY');
  return { order: packed.body.order as Json, beds, driver, customer };
}

/** What a refused hand-over must leave unchanged: status, driver, hand-overs, tracker, events. */
async function snapshot(order: Json) {
  const read = await staffRead(order);
  const [events] = await exec<{ n: number }>(`select count(*)::int as n from ordering.outbox where payload->>'aggregateId' = ?`, [order.id]);
  return { status: read.status, driver: read.driverID, handovers: read.handovers, tracker: read.orderTracker.length, events: events!.n };
}

describe('delivery needs a hand-over at the door (issue 28)', () => {
  it('a scan at the door moves nothing; DELIVERED without a hand-over is refused; the hand-over delivers, with the signer, serials and signature kept', async () => {
    const { order, beds, driver, customer } = await outForDelivery();
    const door = await scan(driver, order.orderNumber);
    expect(door.body).toMatchObject({ order: { status: 'OUT_FOR_DELIVERY' }, handover: 'DELIVERY' });
    const bare = await h.order.post(`/api/orders/${order.id}/transitions`, { to: 'DELIVERED' }, { as: driver });
    expect(bare).toMatchObject({ status: 409, body: { detail: HANDOVER_MESSAGES.needsHandover } });
    expect((await staffRead(order)).status).toBe('OUT_FOR_DELIVERY');

    const signedAt = new Date(Date.now() - 60_000).toISOString();
    const res = await post(driver, order, handoverBody(order, 'DELIVERY', { recipientName: 'Ana Reyes', relation: 'CAREGIVER', serials: beds.map((b) => b.toLowerCase()), signedAt }));
    expect(res.status).toBe(200);
    expect(res.body.message).toBe(HANDOVER_MESSAGES.delivered(order.orderNumber, 'Ana Reyes'));
    const read = await staffRead(order);
    expect(read.status).toBe('DELIVERED');
    expect(read.handovers).toEqual([
      expect.objectContaining({ leg: 'DELIVERY', outcome: 'HANDED_OVER', attempt: 1, recipientName: 'Ana Reyes', relation: 'CAREGIVER', serials: beds, signedAt, hasSignature: true, hasPhoto: false }),
    ]);
    // The customer sees it on their order, and reads the signature; another customer does not (404, like an unknown id).
    const mine = (await h.order.get(`/api/my/orders/${order.id}`, { as: customer })).body.order;
    expect(mine.handovers[0].recipientName).toBe('Ana Reyes');
    const path = `/api/my/orders/${order.id}/handovers/${mine.handovers[0].id}/signature`;
    const sig = await download(path, customer);
    expect(sig.status).toBe(200);
    expect(sig.headers.get('content-type')).toBe('image/png');
    expect(`data:image/png;base64,${sig.bytes.toString('base64')}`).toBe(SIGNATURE);
    expect((await download(path, h.customer())).status).toBe(404);
    expect((await download(`/api/my/orders/${order.id}/handovers/${mine.handovers[0].id}/photo`, customer)).status).toBe(404);
    expect((await download(`/api/orders/${order.id}/handovers/${mine.handovers[0].id}/signature`, h.staff)).status).toBe(200);
  });

  it('the same key sent again (a queued hand-over retried) answers the first result and changes nothing, also when sent twice at once', async () => {
    const { order, driver } = await outForDelivery();
    const body = handoverBody(await staffRead(order));
    const [a, b] = await Promise.all([post(driver, order, body), post(driver, order, body)]);
    expect([a.status, b.status]).toEqual([200, 200]);
    expect(b.body).toEqual(a.body);
    const after = await snapshot(order);
    const again = await post(driver, order, body);
    expect(again.body).toEqual(a.body);
    expect(await snapshot(order)).toEqual(after);
    expect(after.handovers).toHaveLength(1);
    const delivered = await exec<{ n: number }>(
      `select count(*)::int as n from ordering.outbox where subject = ? and payload->>'aggregateId' = ? and payload->'data'->>'to' = 'DELIVERED'`,
      [EVENTS.order.statusChanged, order.id],
    );
    expect(delivered[0]!.n).toBe(1);
    // The key is this hand-over's: used for another order it is refused.
    const other = await outForDelivery();
    expect((await post(driver, other.order, { ...body, serials: other.beds })).status).toBe(422);
  });

  it('a refused delivery goes back to TO_SHIP with the attempt in the tracker; the next attempt is number 2', async () => {
    const { order, driver } = await outForDelivery();
    const res = await post(driver, order, { key: randomUUID(), leg: 'DELIVERY', outcome: 'REFUSED', reason: 'Patient moved to a care home' });
    expect(res.status).toBe(200);
    expect(res.body.message).toBe(HANDOVER_MESSAGES.deliveryFailed(order.orderNumber));
    const read = await staffRead(order);
    expect(read).toMatchObject({ status: 'TO_SHIP', driverID: null });
    expect(read.orderTracker.at(-1)).toMatchObject({ status: 'TO_SHIP', title: 'Delivery attempt failed, back to ship: Refused, Patient moved to a care home' });
    expect(read.handovers).toEqual([expect.objectContaining({ outcome: 'REFUSED', attempt: 1, reason: 'Patient moved to a care home', hasSignature: false, serials: [] })]);
    // The driver no longer has it; a driver takes it out again and delivers it.
    expect((await h.order.get(`/api/driver/orders/${order.id}`, { as: driver })).status).toBe(404);
    const next = h.as('DRIVER');
    expect((await scan(next, order.orderNumber)).body.order.status).toBe('OUT_FOR_DELIVERY');
    expect((await handOver(h, next, order)).status).toBe(200);
    const done = await staffRead(order);
    expect(done.status).toBe('DELIVERED');
    expect(done.handovers.map((x: Json) => [x.outcome, x.attempt])).toEqual([
      ['REFUSED', 1],
      ['HANDED_OVER', 2],
    ]);
  });

  it('refused with a clear message and nothing changed: not an image, too large, missing fields, serials not all confirmed, another driver, the wrong status', async () => {
    const { order, beds, driver } = await outForDelivery();
    const before = await snapshot(order);
    const base = handoverBody(await staffRead(order));
    const text = `data:image/png;base64,${Buffer.from('not an image at all').toString('base64')}`;
    const big = `data:image/jpeg;base64,${Buffer.concat([Buffer.from([0xff, 0xd8, 0xff]), Buffer.alloc(HANDOVER_LIMITS.photoBytes)]).toString('base64')}`;
    const cases: Array<[string, unknown, number, string, string?]> = [
      ['signature not an image', { ...base, signature: text }, 400, HANDOVER_MESSAGES.notImage, 'signature'],
      ['signature not a data URL', { ...base, signature: 'hello' }, 400, HANDOVER_MESSAGES.notImage, 'signature'],
      ['photo not an image', { ...base, photo: text }, 400, HANDOVER_MESSAGES.notImage, 'photo'],
      ['photo too large', { ...base, photo: big }, 413, HANDOVER_MESSAGES.photoTooLarge, 'photo'],
      ['no signature', { ...base, signature: undefined }, 400, HANDOVER_MESSAGES.signatureRequired, 'signature'],
      ['no name', { ...base, recipientName: '' }, 400, HANDOVER_MESSAGES.recipientRequired, 'recipientName'],
      ['not acknowledged', { ...base, acknowledged: false }, 400, HANDOVER_MESSAGES.acknowledgeRequired, 'acknowledged'],
      ['failed without a reason', { ...base, outcome: 'NOBODY_HOME' }, 400, HANDOVER_MESSAGES.reasonRequired, 'reason'],
      ['a unit missing', { ...base, serials: [beds[0]] }, 409, HANDOVER_MESSAGES.serialsMissing([beds[1]!]), 'serials'],
      ['a unit not on the order', { ...base, serials: [...beds, 'BED-NOPE'] }, 409, HANDOVER_MESSAGES.serialsUnknown(['BED-NOPE']), 'serials'],
      ['signed in the future', { ...base, signedAt: new Date(Date.now() + 3_600_000).toISOString() }, 400, HANDOVER_MESSAGES.signedInFuture, 'signedAt'],
      ['a pick-up of an order out for delivery', { ...base, leg: 'PICKUP' }, 409, HANDOVER_MESSAGES.wrongStatus('PICKUP', order.orderNumber, 'OUT_FOR_DELIVERY')],
    ];
    for (const [name, body, status, detail, field] of cases) {
      const res = await post(driver, order, { ...(body as object), key: randomUUID() });
      expect(res.status, name).toBe(status);
      expect(res.body.detail, name).toBe(detail);
      if (field) expect(res.body.errors?.map((e: Json) => e.field), name).toContain(field);
    }
    // Another driver: the same 404 as an unknown order; a customer may not call it at all.
    const other = await post(h.as('DRIVER'), order, { ...base, key: randomUUID() });
    expect(other).toMatchObject({ status: 404 });
    expect((await post(h.customer(), order, { ...base, key: randomUUID() })).status).toBe(403);
    expect(await snapshot(order)).toEqual(before);
  });
});

describe('a scan queued offline (issue 28): its Idempotency-Key makes a retry harmless', () => {
  it('the same key and code answer the first answer and move nothing twice; the key with another code is 422', async () => {
    const beds = await h.addStock({ productID: bed.id, quantity: 1 });
    const placed = await place(h, h.customer(), { type: 'RENT', typeOfOrder: 'BULK', lines: [{ productID: bed.id, quantity: 1, noOfRentalDays: 5 }] });
    const order = await toPreparing(h, placed.body.order);
    expect((await h.order.post(`/api/orders/${order.id}/transitions`, { to: 'TO_SHIP', packing: [{ lineID: order.products[0].id, serialCodes: beds }] }, { as: h.staff })).status).toBe(200);
    const driver = h.as('DRIVER');
    const key = randomUUID();
    const send = (code: string) => h.order.post('/api/driver/scan', { purpose: 'DELIVERY', code }, { as: driver, headers: { 'idempotency-key': key } });
    const [a, b] = await Promise.all([send(order.orderNumber), send(order.orderNumber)]);
    const first = a.status === 200 ? a : b;
    expect(first.body).toMatchObject({ order: { status: 'OUT_FOR_DELIVERY' } });
    // The other was either the same answer or "still being handled" (409) while the first ran.
    const other = first === a ? b : a;
    expect([200, 409]).toContain(other.status);
    const again = await send(order.orderNumber);
    expect(again.status).toBe(200);
    expect(again.body).toEqual(first.body);
    const read = await staffRead(order);
    expect(read.status).toBe('OUT_FOR_DELIVERY');
    expect(read.orderTracker.filter((t: Json) => t.status === 'OUT_FOR_DELIVERY')).toHaveLength(1);
    expect((await send('ORD-19990101-000001')).status).toBe(422);
    // Without a key, a scan at the door of the same order asks for the hand-over as always.
    expect((await scan(driver, order.orderNumber)).body.handover).toBe('DELIVERY');
  });
});

describe('pick-up hand-over and tickets', () => {
  it('nobody home at pick-up: the rental stays FOR_RETURN with the attempt; then picked up with a signature; tickets read back with the signer', async () => {
    const { order, driver, customer } = await outForDelivery();
    // No ticket before the hand-over.
    expect((await download(`/api/orders/${order.id}/tickets/delivery`, h.staff)).status).toBe(404);
    expect((await handOver(h, driver, order, 'DELIVERY', { recipientName: 'Ana Reyes', photo: SIGNATURE })).status).toBe(200);
    await exec(`update ordering.orders set delivered_at = delivered_at - interval '6 days' where id = ?`, [order.id]);
    expect((await h.order.post(`/api/orders/${order.id}/transitions`, { to: 'FOR_RETURN' }, { as: h.staff })).status).toBe(200);

    const picker = h.as('DRIVER');
    expect((await scan(picker, order.orderNumber, 'PICKUP')).body.handover).toBe('PICKUP');
    const missed = await post(picker, order, { key: randomUUID(), leg: 'PICKUP', outcome: 'NOBODY_HOME', reason: 'Gate locked, no answer on the phone' });
    expect(missed.status).toBe(200);
    expect(missed.body.message).toBe(HANDOVER_MESSAGES.pickupFailed(order.orderNumber));
    let read = await staffRead(order);
    expect(read.status).toBe('FOR_RETURN');
    expect(read.orderTracker.at(-1)).toMatchObject({ status: 'FOR_RETURN', title: 'Pick-up attempt failed: Nobody home, Gate locked, no answer on the phone' });
    // Still the picker's: another driver's scan is told so, and may not record an attempt.
    expect((await scan(h.as('DRIVER'), order.orderNumber, 'PICKUP')).body.detail).toBe(RENTAL_MESSAGES.otherDriver(order.orderNumber));
    expect((await post(h.as('DRIVER'), order, { key: randomUUID(), leg: 'PICKUP', outcome: 'REFUSED', reason: 'x' })).status).toBe(403);

    expect((await handOver(h, picker, order, 'PICKUP', { recipientName: 'Jose Reyes', relation: 'FAMILY' })).status).toBe(200);
    read = await staffRead(order);
    expect(read.status).toBe('FOR_PICK_UP');
    expect(read.handovers.map((x: Json) => [x.leg, x.outcome, x.attempt])).toEqual([
      ['DELIVERY', 'HANDED_OVER', 1],
      ['PICKUP', 'NOBODY_HOME', 1],
      ['PICKUP', 'HANDED_OVER', 2],
    ]);

    for (const [leg, name] of [
      ['delivery', 'Ana Reyes'],
      ['pickup', 'Jose Reyes'],
    ] as const) {
      const staff = await download(`/api/orders/${order.id}/tickets/${leg}`, h.staff);
      expect(staff.status, leg).toBe(200);
      expect(staff.headers.get('content-type')).toBe('application/pdf');
      expect(staff.headers.get('content-disposition')).toBe(`attachment; filename="${TICKET_FILE[leg === 'delivery' ? 'DELIVERY' : 'PICKUP']}"`);
      const text = await pdfText(staff.bytes);
      expect(text, leg).toContain(name);
      expect(text).toContain(order.orderNumber);
      for (const code of read.products[0].serialCodes.map((s: Json) => s.serialCode)) expect(text).toContain(code);
      const mine = await download(`/api/my/orders/${order.id}/tickets/${leg}`, customer);
      expect(mine.status).toBe(200);
      expect(await pdfText(mine.bytes)).toContain(name);
      // Another customer: 404, exactly as for an order that does not exist.
      const theirs = await download(`/api/my/orders/${order.id}/tickets/${leg}`, h.customer());
      const none = await download(`/api/my/orders/${randomUUID()}/tickets/${leg}`, h.customer());
      const problem = (r: { bytes: Buffer }) => ({ ...JSON.parse(r.bytes.toString()), instance: null });
      expect(theirs.status).toBe(404);
      expect(problem(theirs)).toEqual(problem(none));
    }
    // Drivers and accounting read no tickets.
    expect((await download(`/api/orders/${order.id}/tickets/delivery`, picker)).status).toBe(403);
  });
});
