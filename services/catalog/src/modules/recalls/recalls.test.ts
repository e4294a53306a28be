import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays, EVENTS, manilaDate, PACKING_MESSAGES, RECALL_MESSAGES } from '@dme/contracts';
import type { Json } from '@dme/testing';
import { simpleProduct, startCatalog, type CatalogHarness } from '../../test/harness';
import { packable, rentOut } from '../../test/units';
import { returnSerial } from '../stock/returns.service';
import { rememberOrders } from '../custody/custody';

let h: CatalogHarness;
let binId: string;
beforeAll(async () => {
  h = await startCatalog();
  binId = (await h.api.post('/api/warehouse-bins', { name: 'Recall', description: 'bin' }, { as: h.staff })).body.bin.id;
});
afterAll(() => h?.close());

const em = () => h.orm.em.fork();
const staff = { userId: randomUUID(), username: 'wendy' };
const open = (body: Json) => h.api.post('/api/recalls', body, { as: h.admin });
const step = (code: string, body: Json) => h.api.post(`/api/units/${code}/steps`, body, { as: h.staff });

async function product(n: number) {
  const p = (await h.api.post('/api/products', simpleProduct({ type: 'FOR_RENT' }), { as: h.staff })).body.product;
  const codes = (await h.api.post('/api/stocks', { productID: p.id, warehouseBinID: binId, quantity: n }, { as: h.staff })).body.items.map((i: Json) => i.serialCode as string);
  return { p, codes: codes as string[] };
}

/** `codes` rented out to a customer on a placed order (known to the catalog); answers the order and the customer. */
async function rentedOut(p: Json, codes: string[]) {
  const orderId = randomUUID();
  const customerId = randomUUID();
  await rememberOrders(em(), [{ orderId, orderNumber: `ORD-RCL-${orderId.slice(0, 6)}`, type: 'RENT', customerId, customerName: 'Jose Rizal' }]);
  await rentOut(em, p as { id: string; name: string }, codes, staff, orderId);
  return { orderId, customerId, orderNumber: `ORD-RCL-${orderId.slice(0, 6)}` };
}

describe('recalls (issue 26)', () => {
  it('opening holds the units in the warehouse at once and lists those with customers; closing needs every unit resolved', async () => {
    const { p, codes } = await product(3);
    const [shelf, out, dirty] = codes as [string, string, string];
    const holder = await rentedOut(p, [out, dirty]);
    await returnSerial(em(), { orderId: holder.orderId, serialCode: dirty, status: 'OK', by: staff });

    const res = await open({ title: 'Battery may overheat', reason: 'Manufacturer notice 2026-14', productID: p.id });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const recall = res.body.recall;
    expect(res.body.message).toBe(RECALL_MESSAGES.opened(recall.number, 2, 1));
    expect(recall).toMatchObject({ status: 'OPEN', productName: p.name, counts: { total: 3, onHold: 2, withCustomer: 1, resolved: 0, other: 0 } });
    expect(recall.units.map((u: Json) => [u.serialCode, u.state, u.orderNumber, u.customerName])).toEqual([
      [shelf, 'ON_HOLD', null, null],
      [out, 'WITH_CUSTOMER', holder.orderNumber, 'Jose Rizal'],
      [dirty, 'ON_HOLD', null, null],
    ].sort((a, b) => String(a[0]).localeCompare(String(b[0]))));
    // Held: not packable, its history says why.
    expect(await packable(em, p as { id: string; name: string }, shelf)).toBe(PACKING_MESSAGES.notAvailable(shelf, 'ON_HOLD'));
    const history = (await h.api.get(`/api/units/${shelf}`, { as: h.staff })).body.history as Json[];
    expect(history.at(-1)).toMatchObject({ kind: 'HELD', status: 'ON_HOLD', note: RECALL_MESSAGES.holdNote(recall.number, 'Battery may overheat') });
    const outHistory = (await h.api.get(`/api/units/${out}`, { as: h.staff })).body.history as Json[];
    expect(outHistory.at(-1)).toMatchObject({ kind: 'RECALLED', orderNumber: holder.orderNumber, party: 'Jose Rizal' });
    // The customers who have a unit of it are told (the event), and see a notice.
    const [event] = await em().execute<Array<{ payload: Json }>>(`select payload from catalog.outbox where subject = ? and payload->>'aggregateId' = ?`, [EVENTS.catalog.recallOpened, recall.id]);
    expect(event!.payload.data).toMatchObject({ number: recall.number, holders: [{ orderId: holder.orderId, customerId: holder.customerId, orderType: 'RENT', serialCodes: [out] }] });
    const notices = (await h.api.get('/api/my/booking-notices', { as: { userId: holder.customerId, userType: 'CUSTOMER' } })).body.items;
    expect(notices).toEqual([{ kind: 'RECALL', message: RECALL_MESSAGES.customerNotice(p.name, holder.orderNumber), orderID: holder.orderId, orderNumber: holder.orderNumber, orderType: 'RENT' }]);

    const early = await h.api.post(`/api/recalls/${recall.id}/close`, undefined, { as: h.admin });
    expect(early.status).toBe(409);
    expect(early.body.detail).toBe(RECALL_MESSAGES.notAllResolved(3));

    // Resolved as staff work the units: released (to be cleaned again), scrapped; the rented one comes back held.
    expect((await step(shelf, { step: 'RELEASE' })).body.unit.status).toBe('RETURNED');
    expect((await step(dirty, { step: 'SCRAP', note: 'Cells swollen' })).status).toBe(200);
    await returnSerial(em(), { orderId: holder.orderId, serialCode: out, status: 'OK', by: staff });
    const back = (await h.api.get(`/api/units/${out}`, { as: h.staff })).body;
    expect(back.unit.status).toBe('ON_HOLD');
    expect(back.history.slice(-2).map((e: Json) => e.kind)).toEqual(['RETURNED', 'HELD']);
    // A retry of that return answers the same.
    await expect(returnSerial(em(), { orderId: holder.orderId, serialCode: out, status: 'OK', by: staff })).resolves.toMatchObject({ serialCode: out });
    expect((await step(out, { step: 'SCRAP', note: 'Recalled' })).status).toBe(200);

    const done = (await h.api.get(`/api/recalls/${recall.id}`, { as: h.admin })).body.recall;
    expect(done.units.map((u: Json) => [u.serialCode, u.resolution])).toEqual(
      [[shelf, 'RELEASED'], [out, 'SCRAPPED'], [dirty, 'SCRAPPED']].sort((a, b) => String(a[0]).localeCompare(String(b[0]))),
    );
    const closed = await h.api.post(`/api/recalls/${recall.id}/close`, undefined, { as: h.admin });
    expect(closed.status).toBe(200);
    expect(closed.body.recall).toMatchObject({ status: 'CLOSED', closedAt: expect.any(String), counts: { resolved: 3 } });
    expect((await h.api.get('/api/my/booking-notices', { as: { userId: holder.customerId, userType: 'CUSTOMER' } })).body.items).toEqual([]);
    const late = await h.api.post(`/api/recalls/${recall.id}/units/${shelf}/settle`, { note: 'x' }, { as: h.admin });
    expect(late.status, JSON.stringify(late.body)).toBe(409);
  });

  it('a unit with a customer is settled by staff with a note; a serial list and received days narrow a recall; nothing matching is 400', async () => {
    const { p, codes } = await product(3);
    await rentedOut(p, [codes[0]!]);
    const res = await open({ title: 'Label misprint', productID: p.id, serialCodes: [codes[0]!.toLowerCase(), codes[1]!] });
    expect(res.body.recall.units.map((u: Json) => u.serialCode)).toEqual([codes[0], codes[1]]);
    const id = res.body.recall.id;
    expect((await h.api.post(`/api/recalls/${id}/units/${codes[0]}/settle`, { note: '' }, { as: h.admin })).status).toBe(400);
    const settled = await h.api.post(`/api/recalls/${id}/units/${codes[0]}/settle`, { note: 'Replaced at home on request' }, { as: h.admin });
    expect(settled.body.recall.units[0]).toMatchObject({ serialCode: codes[0], state: 'RESOLVED', resolution: 'SETTLED', note: 'Replaced at home on request', resolvedBy: 'tester' });
    expect((await h.api.post(`/api/recalls/${id}/units/${codes[0]}/settle`, { note: 'again' }, { as: h.admin })).body.detail).toBe(RECALL_MESSAGES.alreadyResolved);
    expect((await h.api.post(`/api/recalls/${id}/units/${codes[2]}/settle`, { note: 'x' }, { as: h.admin })).status).toBe(404);

    const today = manilaDate();
    expect((await open({ title: 'Old lot', productID: p.id, receivedFrom: addDays(today, -30), receivedTo: addDays(today, -1) })).status).toBe(400);
    expect((await open({ title: 'Today', productID: p.id, receivedFrom: today, serialCodes: [codes[2]!] })).body.recall.units.map((u: Json) => u.serialCode)).toEqual([codes[2]]);
    expect((await open({ title: 'Bad range', productID: p.id, receivedFrom: today, receivedTo: addDays(today, -1) })).status).toBe(400);
    expect((await h.api.post('/api/recalls', { title: 'x', productID: p.id }, { as: h.staff })).status).toBe(403);
    expect((await h.api.get(`/api/recalls/${randomUUID()}`, { as: h.admin })).status).toBe(404);
    const list = (await h.api.get('/api/recalls?status=OPEN', { as: h.admin })).body;
    expect(list.items.map((r: Json) => r.title)).toEqual(expect.arrayContaining(['Label misprint', 'Today']));
  });
});
