import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PACKING_MESSAGES, type Product } from '@dme/contracts';
import { HttpProblem } from '@dme/platform';
import { simpleProduct, startCatalog, wheelchair, type CatalogHarness } from '../../test/harness';
import { leaf as counted, ledger, nonZero, recount } from '@dme/testing/ledger';
import { confirm, release, reserve } from '../reservations/reservation.service';
import { assignSerials, checkSerial, PACKING_CATALOG_MESSAGES } from './packing.service';
import { countsFor } from './counts';

let h: CatalogHarness;
let binId: string;
beforeAll(async () => {
  h = await startCatalog();
  binId = (await h.api.post('/api/warehouse-bins', { name: 'Packing', description: 'bin' }, { as: h.staff })).body.bin.id;
});
afterAll(() => h?.close());

const em = () => h.orm.em.fork();
const product = async (body: Record<string, unknown>): Promise<Product> => {
  const res = await h.api.post('/api/products', body, { as: h.staff });
  expect(res.status).toBe(201);
  return res.body.product;
};
/** Adds stock and answers the new serial codes. */
const addStock = async (body: Record<string, unknown>): Promise<string[]> => {
  const res = await h.api.post('/api/stocks', { warehouseBinID: binId, ...body }, { as: h.staff });
  expect(res.status).toBe(201);
  return res.body.items.map((i: { serialCode: string }) => i.serialCode);
};

interface Leaf {
  productID: string;
  productVariantID: string | null;
  productSubVariantID: string | null;
  name: string;
}
type Line = Parameters<typeof assignSerials>[1]['lines'][number];

/** An order placed and confirmed in the catalog: its reservation, CONFIRMED, and its lines to pack. */
async function order(orderType: 'RENT' | 'BUY', wants: Array<[Leaf, number]>) {
  const orderId = randomUUID();
  await reserve(em(), {
    orderId,
    orderType,
    lines: wants.map(([leaf, quantity], ref) => ({ ref, productID: leaf.productID, productVariantID: leaf.productVariantID, productSubVariantID: leaf.productSubVariantID, quantity })),
  });
  await confirm(em(), orderId);
  const lineIds = wants.map(() => randomUUID());
  const lines = (codes: string[][]): Line[] =>
    wants.map(([leaf, quantity], i) => ({
      lineId: lineIds[i]!,
      productID: leaf.productID,
      productVariantID: leaf.productVariantID,
      productSubVariantID: leaf.productSubVariantID,
      productName: leaf.name,
      quantity,
      serialCodes: codes[i] ?? [],
    }));
  return { orderId, orderType, pack: (codes: string[][]) => assignSerials(em(), { orderId, orderType, lines: lines(codes) }) };
}

async function refusal(p: Promise<unknown>) {
  try {
    await p;
  } catch (err) {
    if (err instanceof HttpProblem) return { status: err.status, detail: err.detail, errors: err.errors };
    throw err;
  }
  throw new Error('expected a refusal');
}

async function items(codes: string[]) {
  return em().execute<Array<{ serial_code: string; status: string; inventory_type: string; order_id: string | null }>>(
    `select serial_code, status, inventory_type, order_id from catalog.stock_items where serial_code = any(?::text[]) order by serial_code`,
    [`{${codes.join(',')}}`],
  );
}
async function reservations(orderId: string) {
  return em().execute<Array<{ leaf_id: string; quantity: number; status: string }>>(`select leaf_id, quantity, status from catalog.reservations where order_id = ? order by leaf_id`, [orderId]);
}
async function expectLedgerMatchesRecount(productIds: string[]) {
  expect(nonZero(await ledger(em(), productIds))).toEqual(nonZero(await recount(em(), productIds)));
  const [neg] = await em().execute<Array<{ n: number }>>(`select count(*)::int as n from catalog.stock_levels where available - reserved < 0`);
  expect(neg!.n).toBe(0);
}
/**
 * What each leaf (a sub-variant) of a product can still be ordered today, as the shop counts it
 * (countsFor: available − reserved − units booked today; a rental holds its units by bookings, issue 25).
 */
const free = async (productId: string) => {
  const index = await countsFor(em(), [productId]);
  return new Map([...(await ledger(em(), [productId])).keys()].map((leaf) => [leaf, index.subVariant(leaf).availableQuantity]));
};
/** The serial codes of the units an order's ACTIVE bookings hold (a rental's reservation, issue 25). */
async function booked(orderId: string): Promise<string[]> {
  const rows = await em().execute<Array<{ serial_code: string }>>(
    `select i.serial_code from catalog.bookings b join catalog.stock_items i on i.id = b.stock_item_id where b.order_id = ? and b.status = 'ACTIVE' order by i.serial_code`,
    [orderId],
  );
  return rows.map((r) => r.serial_code);
}

describe('assign serials (packing)', () => {
  it('refuses a code of another product, variant or sub-variant, a repeat, an unknown code, one not available and too many — nothing changes', async () => {
    const chair = await product(wheelchair());
    const thermo = await product(simpleProduct());
    const [std, heavy] = chair.variants;
    const s16: Leaf = { productID: chair.id, productVariantID: std!.id, productSubVariantID: std!.subVariants[0]!.id, name: `${chair.name} / Standard / 16 in` };
    const s18: Leaf = { productID: chair.id, productVariantID: std!.id, productSubVariantID: std!.subVariants[1]!.id, name: `${chair.name} / Standard / 18 in` };
    const h20: Leaf = { productID: chair.id, productVariantID: heavy!.id, productSubVariantID: heavy!.subVariants[0]!.id, name: `${chair.name} / Heavy-duty / 20 in` };
    const c16 = await addStock({ productID: chair.id, productVariantID: s16.productVariantID, productSubVariantID: s16.productSubVariantID, quantity: 4 });
    const c18 = await addStock({ productID: chair.id, productVariantID: s18.productVariantID, productSubVariantID: s18.productSubVariantID, quantity: 2 });
    const c20 = await addStock({ productID: chair.id, productVariantID: h20.productVariantID, productSubVariantID: h20.productSubVariantID, quantity: 1 });
    const cThermo = await addStock({ productID: thermo.id, quantity: 1 });
    // One unit of 16 in is damaged in the warehouse.
    await em().execute(`update catalog.stock_items set status = 'DAMAGED' where serial_code = ?`, [c16[3]]);
    const o = await order('RENT', [[s16, 2], [s18, 1]]);
    const ledgerBefore = await ledger(em(), [chair.id, thermo.id]);
    const before = await items([...c16, ...c18, ...c20, ...cThermo]);

    const cases: Array<[string[][], string, string]> = [
      [[[c16[0]!, cThermo[0]!], [c18[0]!]], PACKING_MESSAGES.wrongProduct(s16.name), 'lines.0.serialCodes.1'], // another product
      [[[c16[0]!, c20[0]!], [c18[0]!]], PACKING_MESSAGES.wrongProduct(s16.name), 'lines.0.serialCodes.1'], // another variant
      [[[c16[0]!, c18[1]!], [c18[0]!]], PACKING_MESSAGES.wrongProduct(s16.name), 'lines.0.serialCodes.1'], // another sub-variant
      [[[c16[0]!, c16[1]!], [c16[0]!]], PACKING_MESSAGES.alreadyScanned, 'lines.1.serialCodes.0'], // a repeat
      [[[c16[0]!, 'ZZZ-9999999'], [c18[0]!]], PACKING_MESSAGES.unknownCode('ZZZ-9999999'), 'lines.0.serialCodes.1'],
      [[[c16[0]!, c16[3]!], [c18[0]!]], PACKING_MESSAGES.notAvailable(c16[3]!, 'DAMAGED'), 'lines.0.serialCodes.1'], // damaged
      [[[c16[0]!, c16[1]!, c16[2]!], [c18[0]!]], PACKING_MESSAGES.tooMany(s16.name), 'lines.0.serialCodes'],
      [[[c16[0]!], [c18[0]!]], PACKING_MESSAGES.scanEveryLine, 'lines.0.serialCodes'],
    ];
    for (const [codes, message, field] of cases) {
      expect(await refusal(o.pack(codes)), message).toEqual({ status: 409, detail: message, errors: [{ field, message }] });
    }
    // Every bad code is named, the first in the detail.
    const many = await refusal(o.pack([['NOPE-1', cThermo[0]!], [c16[3]!]]));
    expect(many.errors).toEqual([
      { field: 'lines.0.serialCodes.0', message: PACKING_MESSAGES.unknownCode('NOPE-1') },
      { field: 'lines.0.serialCodes.1', message: PACKING_MESSAGES.wrongProduct(s16.name) },
      { field: 'lines.1.serialCodes.0', message: PACKING_MESSAGES.wrongProduct(s18.name) },
    ]);
    expect(await items([...c16, ...c18, ...c20, ...cThermo])).toEqual(before);
    expect(await ledger(em(), [chair.id, thermo.id])).toEqual(ledgerBefore);
    expect((await reservations(o.orderId)).map((r) => r.status)).toEqual(['CONFIRMED', 'CONFIRMED']);
  });

  it('assigns the codes (RENTED, OUT, the order remembered) and consumes the reservation: levels right, free units of others unchanged; a retry answers the same', async () => {
    const chair = await product(wheelchair());
    const [std] = chair.variants;
    const s16: Leaf = { productID: chair.id, productVariantID: std!.id, productSubVariantID: std!.subVariants[0]!.id, name: 's16' };
    const s18: Leaf = { productID: chair.id, productVariantID: std!.id, productSubVariantID: std!.subVariants[1]!.id, name: 's18' };
    const c16 = await addStock({ productID: chair.id, productVariantID: s16.productVariantID, productSubVariantID: s16.productSubVariantID, quantity: 5 });
    const c18 = await addStock({ productID: chair.id, productVariantID: s18.productVariantID, productSubVariantID: s18.productSubVariantID, quantity: 3 });
    const o = await order('RENT', [[s16, 2], [s18, 1]]);
    // Another customer's order holds units of the same leaves.
    const other = await order('RENT', [[s16, 1], [s18, 1]]);
    // A rental holds its units by bookings (in serial-code order), not by the ledger's `reserved`.
    expect(await booked(o.orderId)).toEqual([c16[0]!, c16[1]!, c18[0]!].sort());
    expect(await booked(other.orderId)).toEqual([c16[2]!, c18[1]!].sort());
    expect((await ledger(em(), [chair.id])).get(s16.productSubVariantID!)).toMatchObject({ available: 5, reserved: 0 });
    const freeBefore = await free(chair.id);
    expect(freeBefore.get(s16.productSubVariantID!)).toBe(2);

    // Codes are matched whatever their case.
    const reply = await o.pack([[c16[0]!.toLowerCase(), c16[1]!], [c18[0]!]]);
    // Per unit what the order keeps of it (issue 22): the stock item's id and the bin's name.
    const idOf = new Map((await em().execute<Array<{ id: string; serial_code: string }>>('select id, serial_code from catalog.stock_items where warehouse_bin_id = ?', [binId])).map((r) => [r.serial_code, r.id]));
    const unit = (serialCode: string) => ({ serialCode, status: 'RENTED', stockItemId: idOf.get(serialCode), warehouseBin: 'Packing' });
    expect(reply.lines.map((l) => l.serialCodes)).toEqual([[unit(c16[0]!), unit(c16[1]!)], [unit(c18[0]!)]]);
    expect(await items([c16[0]!, c16[1]!, c18[0]!])).toEqual(
      [c16[0]!, c16[1]!, c18[0]!].sort().map((serial_code) => ({ serial_code, status: 'RENTED', inventory_type: 'OUT', order_id: o.orderId })),
    );
    expect((await reservations(o.orderId)).map((r) => r.status)).toEqual(['CONSUMED', 'CONSUMED']);
    expect((await reservations(other.orderId)).map((r) => r.status)).toEqual(['CONFIRMED', 'CONFIRMED']);
    const after = await ledger(em(), [chair.id]);
    expect(after.get(s16.productSubVariantID!)).toEqual(counted({ quantity: 5, available: 3, rented: 2, damaged: 0, lost: 0, sold: 0, reserved: 0 }));
    expect(after.get(s18.productSubVariantID!)).toEqual(counted({ quantity: 3, available: 2, rented: 1, damaged: 0, lost: 0, sold: 0, reserved: 0 }));
    // The packed order's bookings stay on its units (now out); the other order's are untouched.
    expect(await booked(o.orderId)).toEqual([c16[0]!, c16[1]!, c18[0]!].sort());
    expect(await booked(other.orderId)).toEqual([c16[2]!, c18[1]!].sort());
    expect(await free(chair.id)).toEqual(freeBefore);
    await expectLedgerMatchesRecount([chair.id]);

    // A retry after a lost reply: the same answer, nothing more changes; other codes are refused.
    expect(await o.pack([[c16[0]!, c16[1]!], [c18[0]!]])).toEqual(reply);
    expect(await refusal(o.pack([[c16[2]!, c16[1]!], [c18[0]!]]))).toMatchObject({ status: 409, detail: PACKING_CATALOG_MESSAGES.packedOtherwise });
    expect(await ledger(em(), [chair.id])).toEqual(after);
    // A later release of the packed order gives nothing back (the reservation was consumed).
    expect(await release(em(), o.orderId)).toBe(0);
    expect(await booked(o.orderId)).toEqual([c16[0]!, c16[1]!, c18[0]!].sort());
    expect(await ledger(em(), [chair.id])).toEqual(after);
    await expectLedgerMatchesRecount([chair.id]);
  });

  it('a purchase is packed as SOLD', async () => {
    const thermo = await product(simpleProduct());
    const codes = await addStock({ productID: thermo.id, quantity: 3 });
    const leaf: Leaf = { productID: thermo.id, productVariantID: null, productSubVariantID: null, name: thermo.name };
    const o = await order('BUY', [[leaf, 2]]);
    await o.pack([[codes[2]!, codes[0]!]]);
    expect((await items(codes)).map((i) => [i.status, i.inventory_type])).toEqual([
      ['SOLD', 'OUT'],
      ['AVAILABLE', 'IN'],
      ['SOLD', 'OUT'],
    ]);
    expect((await ledger(em(), [thermo.id])).get(thermo.id)).toEqual(counted({ quantity: 3, available: 1, rented: 0, damaged: 0, lost: 0, sold: 2, reserved: 0 }));
    await expectLedgerMatchesRecount([thermo.id]);
  });

  it('two orders packed at once with the same serial for the last units: one wins, the other is refused and packs with another code — 10 times over', async () => {
    for (let round = 0; round < 10; round++) {
      const thermo = await product(simpleProduct({ type: 'FOR_RENT' }));
      // Each rental books a unit (serial order: a the first, b the second); both scan the last unit,
      // booked by neither, to which the winner's booking moves.
      const codes = await addStock({ productID: thermo.id, quantity: 3 });
      const leaf: Leaf = { productID: thermo.id, productVariantID: null, productSubVariantID: null, name: thermo.name };
      const a = await order('RENT', [[leaf, 1]]);
      const b = await order('RENT', [[leaf, 1]]);
      expect([await booked(a.orderId), await booked(b.orderId)], `round ${round}`).toEqual([[codes[0]!], [codes[1]!]]);
      const results = await Promise.allSettled([a.pack([[codes[2]!]]), b.pack([[codes[2]!]])]);
      const won = results.filter((r) => r.status === 'fulfilled');
      expect(won, `round ${round}`).toHaveLength(1);
      const lost = results.find((r) => r.status === 'rejected') as PromiseRejectedResult;
      expect(lost.reason).toMatchObject({ status: 409, detail: PACKING_MESSAGES.notAvailable(codes[2]!, 'RENTED') });
      const [winner, loser] = results[0]!.status === 'rejected' ? [b, a] : [a, b];
      expect(await booked(winner.orderId), `round ${round}`).toEqual([codes[2]!]);
      // codes[1] is the loser's own booking (b), or free since b's booking moved to codes[2] (a).
      await loser.pack([[codes[1]!]]);
      expect(await booked(loser.orderId), `round ${round}`).toEqual([codes[1]!]);
      const assigned = await items([codes[1]!, codes[2]!]);
      expect(new Set(assigned.map((i) => i.order_id)), `round ${round}`).toEqual(new Set([a.orderId, b.orderId]));
      expect(await items([codes[0]!]), `round ${round}`).toEqual([{ serial_code: codes[0], status: 'AVAILABLE', inventory_type: 'IN', order_id: null }]);
      expect((await ledger(em(), [thermo.id])).get(thermo.id)).toEqual(counted({ quantity: 3, available: 1, rented: 2, damaged: 0, lost: 0, sold: 0, reserved: 0 }));
      await expectLedgerMatchesRecount([thermo.id]);
    }
  }, 120_000);

  it('packings racing checkouts and releases on the same leaves, in any line order: no deadlock, the ledger equals a recount', async () => {
    const chair = await product(wheelchair());
    const cane = await product(simpleProduct({ type: 'FOR_RENT' }));
    const sub = chair.variants[1]!.subVariants[1]!;
    const a: Leaf = { productID: chair.id, productVariantID: chair.variants[1]!.id, productSubVariantID: sub.id, name: 'a' };
    const b: Leaf = { productID: cane.id, productVariantID: null, productSubVariantID: null, name: 'b' };
    const codesA = await addStock({ productID: chair.id, productVariantID: a.productVariantID, productSubVariantID: a.productSubVariantID, quantity: 40 });
    const codesB = await addStock({ productID: cane.id, quantity: 40 });
    const orders = await Promise.all(Array.from({ length: 12 }, (_, i) => order('RENT', i % 2 ? [[a, 1], [b, 1]] : [[b, 1], [a, 1]])));
    // The rentals booked the first 12 units of each leaf (serial order), and the checkouts below book
    // the first free ones; the orders are packed with units from the 29th on, which no one books
    // (at most 24 of the first 28 are ever booked): their bookings move there.
    const work: Array<Promise<unknown>> = orders.map((o, i) => (i % 2 ? o.pack([[codesA[28 + i]!], [codesB[28 + i]!]]) : o.pack([[codesB[28 + i]!], [codesA[28 + i]!]])));
    const checkouts: string[] = [];
    for (let i = 0; i < 12; i++) {
      const id = randomUUID();
      checkouts.push(id);
      const lines = [
        { ref: 0, productID: a.productID, productVariantID: a.productVariantID, productSubVariantID: a.productSubVariantID, quantity: 1 },
        { ref: 1, productID: b.productID, productVariantID: null, productSubVariantID: null, quantity: 1 },
      ];
      work.push(reserve(em(), { orderId: id, orderType: 'RENT', lines: i % 2 ? lines : lines.reverse() }).then(() => (i % 3 === 0 ? release(em(), id) : undefined)));
    }
    const results = await Promise.allSettled(work);
    expect(results.filter((r) => r.status === 'rejected').map((r) => String((r as PromiseRejectedResult).reason))).toEqual([]);
    const l = await ledger(em(), [chair.id, cane.id]);
    // Dated rentals hold by bookings, not `reserved`: the 8 checkouts not released hold a unit of
    // each leaf, the 12 packed orders keep theirs on the units they took out.
    expect(l.get(sub.id)).toMatchObject({ rented: 12, available: 28, reserved: 0 });
    expect(l.get(cane.id)).toMatchObject({ rented: 12, available: 28, reserved: 0 });
    const [held] = await em().execute<Array<{ a: number; b: number }>>(
      `select count(*) filter (where leaf_id = ?)::int as a, count(*) filter (where leaf_id = ?)::int as b
         from catalog.bookings where order_id = any(?::uuid[]) and status = 'ACTIVE'`,
      [sub.id, cane.id, `{${checkouts.join(',')}}`],
    );
    expect(held).toEqual({ a: 8, b: 8 });
    for (const [i, o] of orders.entries()) expect(await booked(o.orderId)).toEqual([codesA[28 + i]!, codesB[28 + i]!].sort());
    expect(await items([...codesA.slice(28), ...codesB.slice(28)])).toEqual(
      orders.flatMap((o, i) => [codesA[28 + i]!, codesB[28 + i]!].map((serial_code) => ({ serial_code, status: 'RENTED', inventory_type: 'OUT', order_id: o.orderId }))).sort((x, y) => (x.serial_code < y.serial_code ? -1 : 1)),
    );
    await expectLedgerMatchesRecount([chair.id, cane.id]);
  });
});

describe('check one scan (packing kept in the order service, issue 22)', () => {
  it('answers the unit and its bin for a code of the line that is AVAILABLE; refuses as packing does, naming the code; changes nothing', async () => {
    const chair = await product(wheelchair());
    const thermo = await product(simpleProduct());
    const [std] = chair.variants;
    const line = { productID: chair.id, productVariantID: std!.id, productSubVariantID: std!.subVariants[0]!.id, productName: `${chair.name} / Standard / 16 in` };
    const c16 = await addStock({ productID: chair.id, productVariantID: line.productVariantID, productSubVariantID: line.productSubVariantID, quantity: 2 });
    const c18 = await addStock({ productID: chair.id, productVariantID: std!.id, productSubVariantID: std!.subVariants[1]!.id, quantity: 1 });
    const cThermo = await addStock({ productID: thermo.id, quantity: 1 });
    await em().execute(`update catalog.stock_items set status = 'RENTED', inventory_type = 'OUT' where serial_code = ?`, [c16[1]]);
    const before = await items([...c16, ...c18, ...cThermo]);
    const [{ id }] = (await em().execute<Array<{ id: string }>>('select id from catalog.stock_items where serial_code = ?', [c16[0]])) as [{ id: string }];
    expect(await checkSerial(em(), { ...line, serialCode: c16[0]!.toLowerCase() })).toEqual({ stockItemId: id, serialCode: c16[0], warehouseBin: 'Packing' });
    const cases: Array<[string, string]> = [
      [cThermo[0]!, PACKING_MESSAGES.wrongProduct(line.productName)],
      [c18[0]!, PACKING_MESSAGES.wrongProduct(line.productName)],
      ['ZZZ-9999999', PACKING_MESSAGES.unknownCode('ZZZ-9999999')],
      [c16[1]!, PACKING_MESSAGES.notAvailable(c16[1]!, 'RENTED')],
    ];
    for (const [code, message] of cases) {
      expect(await refusal(checkSerial(em(), { ...line, serialCode: code })), message).toEqual({ status: 409, detail: message, errors: [{ field: 'serialCode', message }] });
    }
    expect(await items([...c16, ...c18, ...cThermo])).toEqual(before);
  });
});

describe('GET /api/stocks/by-serial/:serialCode', () => {
  it('answers the stock item (whatever the case typed), 404 for an unknown or malformed code; warehouse roles only', async () => {
    const thermo = await product(simpleProduct());
    const [code] = await addStock({ productID: thermo.id, quantity: 1 });
    const res = await h.api.get(`/api/stocks/by-serial/${code!.toLowerCase()}`, { as: h.staff });
    expect(res.status).toBe(200);
    expect(res.body.item).toMatchObject({ serialCode: code, productID: thermo.id, productName: thermo.name, status: 'AVAILABLE', inventoryType: 'IN', warehouseBinID: binId });
    expect((await h.api.get('/api/stocks/by-serial/NOPE-0000001', { as: h.staff })).status).toBe(404);
    expect((await h.api.get('/api/stocks/by-serial/a%20b', { as: h.staff })).status).toBe(404);
    expect((await h.api.get(`/api/stocks/by-serial/${code}`, { as: h.customer })).status).toBe(403);
    expect((await h.api.get(`/api/stocks/by-serial/${code}`, { as: h.accounting })).status).toBe(403);
  });
});

describe('GET /api/stocks/:id', () => {
  it('answers one stock item by id as the list shows it; 404 for an unknown or malformed id; warehouse roles only', async () => {
    const thermo = await product(simpleProduct());
    const [code] = await addStock({ productID: thermo.id, quantity: 1 });
    const { item } = (await h.api.get(`/api/stocks/by-serial/${code}`, { as: h.staff })).body;
    const res = await h.api.get(`/api/stocks/${item.id}`, { as: h.staff });
    expect(res.status).toBe(200);
    expect(res.body.item).toEqual(item);
    expect((await h.api.get('/api/stocks/7f1a1f40-0000-4000-8000-000000000000', { as: h.staff })).status).toBe(404);
    expect((await h.api.get('/api/stocks/not-a-uuid', { as: h.staff })).status).toBe(404);
    expect((await h.api.get(`/api/stocks/${item.id}`, { as: h.customer })).status).toBe(403);
  });
});
