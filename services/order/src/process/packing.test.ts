import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PACKING_MESSAGES } from '@dme/contracts';
import type { Caller, Json } from '@dme/testing';
import { chairRentalPreparing, place, startOrdering, toPreparing, type OrderHarness } from '../test/harness';

/**
 * Packing kept on the server (issue 22): each scan is checked and saved at once per order line, a
 * reload or another packer continues, 'To Ship Order' packs the saved codes, and the order leaving
 * PREPARING clears them. Real catalog and order services over PostgreSQL and NATS.
 */

let h: OrderHarness;
beforeAll(async () => {
  h = await startOrdering();
});
afterAll(() => h?.close());

const scan = (order: Json, lineId: string, serialCode: string, as: Caller = h.staff) =>
  h.order.post(`/api/orders/${order.id}/packing/${lineId}/serials`, { serialCode }, { as });
const unscan = (order: Json, lineId: string, serialCode: string, as: Caller = h.staff) =>
  h.order.del(`/api/orders/${order.id}/packing/${lineId}/serials/${encodeURIComponent(serialCode)}`, { as });
const progress = (order: Json, as: Caller = h.staff) => h.order.get(`/api/orders/${order.id}/packing`, { as });
const move = (order: Json, to: string, as: Caller, packing?: unknown) => h.order.post(`/api/orders/${order.id}/transitions`, { to, ...(packing ? { packing } : {}) }, { as });
const staffRead = async (order: Json) => (await h.order.get(`/api/orders/${order.id}`, { as: h.staff })).body.order;
/** The codes each line keeps, as the progress shows them. */
const kept = (packing: Json) => packing.lines.map((l: { serialCodes: Array<{ serialCode: string }> }) => l.serialCodes.map((s) => s.serialCode));
const savedRows = async (orderId: string) =>
  (await h.orderOrm.em.fork().execute<Array<{ n: number }>>('select count(*)::int as n from ordering.packing_scans where order_id = ?', [orderId]))[0]!.n;
async function items(codes: string[]) {
  return h.catalogOrm.em
    .fork()
    .execute<Array<{ serial_code: string; status: string; inventory_type: string; order_id: string | null }>>(
      `select serial_code, status, inventory_type, order_id from catalog.stock_items where serial_code = any(?::text[]) order by serial_code`,
      [`{${codes.join(',')}}`],
    );
}
const binName = async () => (await h.catalog.get(`/api/warehouse-bins/${h.binId}`, { as: h.staff })).body.bin.name as string;

/** A purchase of `quantity` units of a product, taken to PREPARING. */
async function preparingPurchase(product: Json, quantity: number): Promise<Json> {
  const placed = await place(h, h.customer(), { type: 'BUY', typeOfOrder: 'BULK', lines: [{ productID: product.id, quantity }] });
  expect(placed.status).toBe(201);
  return toPreparing(h, placed.body.order);
}
const thermometer = () => h.product({ brand: 'Braun', name: `Thermo ${randomUUID().slice(0, 6)}`, type: 'FOR_SALE', price: '9.99', damageCharges: '0.00' });

describe('packing progress kept on the server', () => {
  let chair: Json;
  let std: string[];
  let h20: string[];
  let h22: string[];
  let canes: string[];
  let order: Json;
  let a: string;
  let b: string;
  beforeAll(async () => {
    ({ chair, std, h20, h22, canes, order } = await chairRentalPreparing(h, h.customer()));
    [a, b] = order.products.map((l: { id: string }) => l.id);
  });

  it('each scan is checked at once (the spec\'s messages) and kept; another packer continues; To Ship Order packs the kept codes and clears them', async () => {
    const standardName = `${chair.name} / Standard`;
    const heavyName = `${chair.name} / Heavy / 20 in`;
    await h.catalogOrm.em.fork().execute(`update catalog.stock_items set status = 'DAMAGED' where serial_code = ?`, [std[3]]);
    const empty = await progress(order);
    expect(empty.status).toBe(200);
    expect(empty.body.packing).toEqual({
      orderID: order.id,
      lines: [
        { lineID: a, quantity: 2, serialCodes: [] },
        { lineID: b, quantity: 1, serialCodes: [] },
      ],
      complete: false,
    });

    // A code typed in lower case is kept as the catalog has it, with the bin it lies in.
    const first = await scan(order, a, std[0]!.toLowerCase());
    expect(first.status, first.text).toBe(200);
    expect(first.body.packing.lines[0].serialCodes).toEqual([{ serialCode: std[0], warehouseBin: await binName(), scannedAt: expect.any(String) }]);

    const refusals: Array<[string, string, string]> = [
      [a, canes[0]!, PACKING_MESSAGES.wrongProduct(standardName)], // another product
      [a, h20[0]!, PACKING_MESSAGES.wrongProduct(standardName)], // another variant
      [b, h22[0]!, PACKING_MESSAGES.wrongProduct(heavyName)], // another sub-variant
      [a, std[0]!, PACKING_MESSAGES.alreadyScanned], // a repeat
      [b, std[0]!.toLowerCase(), PACKING_MESSAGES.alreadyScanned], // a repeat on another line, in another case
      [a, 'ZZZ-0000000', PACKING_MESSAGES.unknownCode('ZZZ-0000000')],
      [a, std[3]!, PACKING_MESSAGES.notAvailable(std[3]!, 'DAMAGED')], // damaged in the warehouse
    ];
    for (const [line, code, message] of refusals) {
      const res = await scan(order, line, code);
      expect(res.status, message).toBe(409);
      expect(res.headers.get('content-type')).toContain('application/problem+json');
      expect(res.body.detail, message).toBe(message);
      expect(res.body.errors).toEqual([{ field: 'serialCode', message }]);
    }
    expect((await scan(order, a, std[1]!)).status).toBe(200);
    const full = await scan(order, a, std[2]!);
    expect(full.status).toBe(409);
    expect(full.body.detail).toBe(PACKING_MESSAGES.tooMany(standardName));

    // Another packer (or the same one after a reload) sees the same progress and may take a code off.
    const other = h.as('WAREHOUSE_ADMIN');
    expect(kept((await progress(order, other)).body.packing)).toEqual([[std[0], std[1]], []]);
    const removed = await unscan(order, a, std[1]!, other);
    expect(removed.status).toBe(200);
    expect(kept(removed.body.packing)).toEqual([[std[0]], []]);
    const again = await unscan(order, a, std[1]!, other);
    expect(again.status).toBe(404);
    expect(again.body.detail).toBe(PACKING_MESSAGES.notScanned);

    // Not every line is scanned yet: To Ship Order is refused, and what was kept stays.
    const early = await move(order, 'TO_SHIP', h.staff);
    expect(early.status).toBe(409);
    expect(early.body.detail).toBe(PACKING_MESSAGES.scanEveryLine);
    expect(kept((await progress(order)).body.packing)).toEqual([[std[0]], []]);

    expect((await scan(order, a, std[1]!, other)).status).toBe(200);
    const done = await scan(order, b, h20[0]!);
    expect(done.status).toBe(200);
    expect(done.body.packing.complete).toBe(true);
    // Nothing is taken in the catalog while scanning.
    expect((await items([std[0]!, std[1]!, h20[0]!])).map((i) => i.status)).toEqual(['AVAILABLE', 'AVAILABLE', 'AVAILABLE']);

    // 'To Ship Order' with no codes in the body packs the kept ones.
    const shipped = await move(order, 'TO_SHIP', h.staff);
    expect(shipped.status, shipped.text).toBe(200);
    expect(shipped.body.order.status).toBe('TO_SHIP');
    expect(shipped.body.order.products.map((l: { serialCodes: Array<{ serialCode: string; warehouseBin: { name: string } }> }) => l.serialCodes.map((s) => [s.serialCode, s.warehouseBin.name]))).toEqual([
      [
        [std[0], await binName()],
        [std[1], await binName()],
      ],
      [[h20[0], await binName()]],
    ]);
    expect((await items([std[0]!, std[1]!, h20[0]!])).map((i) => [i.status, i.inventory_type, i.order_id])).toEqual([
      ['RENTED', 'OUT', order.id],
      ['RENTED', 'OUT', order.id],
      ['RENTED', 'OUT', order.id],
    ]);
    // Leaving PREPARING cleared the progress; scanning is over for this order.
    expect(await savedRows(order.id)).toBe(0);
    expect(kept((await progress(order)).body.packing)).toEqual([[], []]);
    const late = await scan(order, b, h20[1]!);
    expect(late.status).toBe(409);
    expect(late.body.detail).toBe(PACKING_MESSAGES.notPreparing);
    expect((await unscan(order, a, std[0]!)).status).toBe(409);
  });

  it('who may pack, and bad input: 403 for other roles, 404 for unknown orders and lines, 400 for a malformed code — never a 500', async () => {
    const thermo = await thermometer();
    const codes = await h.addStock({ productID: thermo.id, quantity: 1 });
    const o = await preparingPurchase(thermo, 1);
    const line = o.products[0].id;
    for (const role of ['CUSTOMER', 'ACCOUNTING_ADMIN', 'DRIVER'] as const) {
      expect((await progress(o, h.as(role))).status, role).toBe(403);
      expect((await scan(o, line, codes[0]!, h.as(role))).status, role).toBe(403);
      expect((await unscan(o, line, codes[0]!, h.as(role))).status, role).toBe(403);
    }
    expect((await h.order.get(`/api/orders/${randomUUID()}/packing`, { as: h.staff })).status).toBe(404);
    expect((await scan({ id: randomUUID() }, line, codes[0]!)).status).toBe(404);
    const unknownLine = await scan(o, randomUUID(), codes[0]!);
    expect(unknownLine.status).toBe(404);
    for (const bad of ['bad code!', '', 'x'.repeat(41)]) expect((await scan(o, line, bad)).status, bad).toBe(400);
    expect((await h.order.post(`/api/orders/${o.id}/packing/not-a-uuid/serials`, { serialCode: codes[0] }, { as: h.staff })).status).toBe(404);
    expect(await savedRows(o.id)).toBe(0);
  });

  it('only while PREPARING; codes sent in the body (older clients) still pack, and leaving PREPARING clears what was kept', async () => {
    const thermo = await thermometer();
    const codes = await h.addStock({ productID: thermo.id, quantity: 3 });
    const placed = await place(h, h.customer(), { type: 'BUY', typeOfOrder: 'BULK', lines: [{ productID: thermo.id, quantity: 1 }] });
    const pending = placed.body.order;
    const early = await scan(pending, pending.products[0].id, codes[0]!);
    expect(early.status).toBe(409);
    expect(early.body.detail).toBe(PACKING_MESSAGES.notPreparing);
    const o = await toPreparing(h, pending);
    expect((await scan(o, o.products[0].id, codes[0]!)).status).toBe(200);
    // The body's codes win over the kept ones (the old client's packing).
    const shipped = await move(o, 'TO_SHIP', h.staff, [{ lineID: o.products[0].id, serialCodes: [codes[1]!] }]);
    expect(shipped.status, shipped.text).toBe(200);
    expect(shipped.body.order.products[0].serialCodes.map((s: Json) => s.serialCode)).toEqual([codes[1]]);
    expect(await savedRows(o.id)).toBe(0);
    // The unit it had kept is free for another order again.
    const next = await preparingPurchase(thermo, 1);
    expect((await scan(next, next.products[0].id, codes[0]!)).status).toBe(200);
  });

  it('two orders scanning the same units at once: each unit is kept by one order, the other is told which order has it', async () => {
    const thermo = await thermometer();
    const codes = await h.addStock({ productID: thermo.id, quantity: 6 });
    const [x, y] = [await preparingPurchase(thermo, 3), await preparingPurchase(thermo, 3)] as [Json, Json];
    const winners: Json[] = [];
    for (const code of codes.slice(0, 3)) {
      const results = await Promise.all([x, y].map((o) => scan(o, o.products[0].id, code, h.as('WAREHOUSE_STAFF'))));
      expect(results.map((r) => r.status).sort(), code).toEqual([200, 409]);
      const won = results[0]!.status === 200 ? x : y;
      const lost = results[0]!.status === 200 ? results[1]! : results[0]!;
      expect(lost.body.detail).toBe(PACKING_MESSAGES.scannedForOtherOrder(code, won.orderNumber));
      winners.push(won);
    }
    const [rows] = await h.orderOrm.em.fork().execute<Array<{ n: number; codes: number }>>(
      'select count(*)::int as n, count(distinct serial_code)::int as codes from ordering.packing_scans where order_id = any(?::uuid[])',
      [`{${x.id},${y.id}}`],
    );
    expect(rows).toEqual({ n: 3, codes: 3 });
    // Each order fills up with the rest and ships what it kept.
    for (const o of [x, y]) {
      for (const code of codes) {
        if ((await progress(o)).body.packing.complete) break;
        await scan(o, o.products[0].id, code);
      }
      const shipped = await move(o, 'TO_SHIP', h.staff);
      expect(shipped.status, shipped.text).toBe(200);
    }
    const assigned = await items(codes);
    expect(assigned.filter((i) => i.order_id === x.id)).toHaveLength(3);
    expect(assigned.filter((i) => i.order_id === y.id)).toHaveLength(3);
    expect(winners.length).toBe(3);
  });

  it('an order packed before serial code entries carried bins shows what is known: the entry, no bin', async () => {
    const thermo = await thermometer();
    const [code] = await h.addStock({ productID: thermo.id, quantity: 1 });
    const o = await preparingPurchase(thermo, 1);
    expect((await scan(o, o.products[0].id, code!)).status).toBe(200);
    expect((await move(o, 'TO_SHIP', h.staff)).status).toBe(200);
    // As migration 0006 leaves the rows of orders packed before it.
    await h.orderOrm.em.fork().execute('update ordering.order_line_serials set warehouse_bin = null, stock_item_id = null where order_id = ?', [o.id]);
    const read = await staffRead(o);
    expect(read.products[0].serialCodes).toEqual([
      {
        id: expect.any(String),
        serialCode: code,
        productID: thermo.id,
        status: null,
        updatedAt: null,
        returnedAt: null,
        inventoryType: 'OUT',
        warehouseBin: null,
        createdAt: expect.any(String),
      },
    ]);
  });

  it("packing's recovery is forward (issue 23): the order's write failing after the catalog packed leaves the order PREPARING with its scans, and packing again records it with the catalog's same answer", async () => {
    const thermo = await thermometer();
    const [code] = await h.addStock({ productID: thermo.id, quantity: 1 });
    const o = await preparingPurchase(thermo, 1);
    expect((await scan(o, o.products[0].id, code!)).status).toBe(200);
    // The order's transaction fails after the catalog's command answered (here: writing the serial rows).
    const em = () => h.orderOrm.em.fork();
    await em().execute(`create or replace function ordering.test_fail_packing() returns trigger language plpgsql as $$ begin raise exception 'test: the order write fails'; end $$`);
    await em().execute(`create trigger test_fail_packing before insert on ordering.order_line_serials for each row when (new.order_id = '${o.id}') execute function ordering.test_fail_packing()`);
    try {
      const failed = await move(o, 'TO_SHIP', h.staff);
      expect(failed.status).toBeGreaterThanOrEqual(500);
    } finally {
      await em().execute('drop trigger test_fail_packing on ordering.order_line_serials');
    }
    // Nothing recorded on the order; the codes are still kept; the catalog holds the unit for it.
    expect((await staffRead(o)).status).toBe('PREPARING');
    expect(kept((await progress(o)).body.packing)).toEqual([[code]]);
    expect(await items([code!])).toEqual([{ serial_code: code, status: 'SOLD', inventory_type: 'OUT', order_id: o.id }]);
    // Packing again (the kept codes): the catalog answers the same, the order is packed.
    const again = await move(o, 'TO_SHIP', h.staff);
    expect(again.status).toBe(200);
    expect(again.body.order.status).toBe('TO_SHIP');
    expect(again.body.order.products[0].serialCodes.map((c: Json) => c.serialCode)).toEqual([code]);
    expect(await items([code!])).toEqual([{ serial_code: code, status: 'SOLD', inventory_type: 'OUT', order_id: o.id }]);
  });
});
