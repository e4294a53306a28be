import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays, manilaDate, type Product } from '@dme/contracts';
import { HttpProblem } from '@dme/platform';
import { simpleProduct, startCatalog, type CatalogHarness } from '../../test/harness';
import { ledger, nonZero, recount } from '@dme/testing/ledger';
import { confirm, release, reserve } from '../reservations/reservation.service';
import { assignSerials } from '../stock/packing.service';
import { returnSerial } from '../stock/returns.service';
import { endBookingsEarly, extendBookings } from './extend';

/**
 * Issue 25: random bookings, downtime, cancellations, extensions, early ends and early returns on a few units, all at once
 * against the real database. Afterwards no two active intervals of a unit overlap (SQL), and
 * every answer agrees with the final state: an accepted booking holds exactly its units for its
 * days (or is cancelled, if it was cancelled; with its extra days when its extension was accepted; up to its
 * return day when it was ended early), a refused one holds nothing; an accepted downtime
 * is there, a refused one is not.
 */
let h: CatalogHarness;
let binId: string;
beforeAll(async () => {
  h = await startCatalog();
  binId = (await h.api.post('/api/warehouse-bins', { name: 'Property', description: 'bin' }, { as: h.staff })).body.bin.id;
});
afterAll(() => h?.close());

const em = () => h.orm.em.fork();
const UNITS = 3;

const bookArb = fc.record({
  kind: fc.constant('book' as const),
  quantity: fc.integer({ min: 1, max: 2 }),
  offset: fc.integer({ min: 0, max: 8 }),
  days: fc.integer({ min: 1, max: 4 }),
  /**
   * Afterwards: cancelled, or (a rental from today) packed and returned today, or given `extra` more
   * days (asked twice: a retry), or ended early `extra` days after its start (asked twice; nothing ends
   * when that is its due date or later), or kept.
   */
  then: fc.constantFrom('keep' as const, 'cancel' as const, 'return' as const, 'extend' as const, 'end-early' as const),
  extra: fc.integer({ min: 1, max: 3 }),
});
const downArb = fc.record({
  kind: fc.constant('down' as const),
  unit: fc.integer({ min: 0, max: UNITS - 1 }),
  offset: fc.integer({ min: 0, max: 8 }),
  length: fc.integer({ min: 1, max: 3 }),
});
const opArb = fc.oneof(bookArb, bookArb, downArb);

describe('bookings under concurrency (fast-check)', () => {
  it('random concurrent bookings, downtime, cancellations, extensions, early ends and early returns: no overlap per unit, and every answer agrees with the final state', async () => {
    const seed = Number(process.env.BOOKING_SEED ?? Math.floor(Math.random() * 2 ** 31));
    console.log(`bookings property: seed ${seed} (replay with BOOKING_SEED=${seed}, and BOOKING_PATH=<path> for fast-check's counterexample)`);
    const seen = new Map<string, number>();
    const saw = (what: string) => seen.set(what, (seen.get(what) ?? 0) + 1);
    await fc.assert(
      fc.asyncProperty(fc.array(opArb, { minLength: 6, maxLength: 14 }), async (ops) => {
        const product = (await h.api.post('/api/products', simpleProduct({ type: 'FOR_RENT', turnaroundDays: 1 }), { as: h.staff })).body.product as Product;
        const stock = await h.api.post('/api/stocks', { warehouseBinID: binId, productID: product.id, quantity: UNITS }, { as: h.staff });
        const units: Array<{ id: string; serialCode: string }> = stock.body.items;
        const today = manilaDate();

        const results = await Promise.all(
          ops.map(async (op) => {
            if (op.kind === 'down') {
              const note = randomUUID();
              const res = await h.api.post(
                '/api/downtime',
                { stockItemID: units[op.unit]!.id, from: addDays(today, op.offset), to: addDays(today, op.offset + op.length - 1), reason: 'REPAIR', note },
                { as: h.staff },
              );
              expect([201, 409], JSON.stringify(res.body)).toContain(res.status);
              return { op, note, ok: res.status === 201 };
            }
            const orderId = randomUUID();
            const start = op.then === 'return' ? today : addDays(today, op.offset);
            try {
              await reserve(em(), {
                orderId,
                orderType: 'RENT',
                lines: [{ ref: 0, productID: product.id, productVariantID: null, productSubVariantID: null, quantity: op.quantity, startDate: start, noOfRentalDays: op.days }],
              });
            } catch (err) {
              if (!(err instanceof HttpProblem) || err.status !== 409) throw err;
              return { op, orderId, start, ok: false, returned: false, extended: false };
            }
            await confirm(em(), orderId);
            if (op.then === 'cancel') await release(em(), orderId);
            let extended = false;
            if (op.then === 'extend') {
              const first = await extendBookings(em(), { orderId, seq: 1, days: op.extra });
              // A retry of an accepted extension is accepted and never adds the days twice (the
              // final state below holds them once). A refused one records nothing: the order
              // service asks again with the same change number, so its retry is accepted when a
              // concurrent cancellation, early end or return freed the days in between; the final
              // state then holds them, once.
              const again = await extendBookings(em(), { orderId, seq: 1, days: op.extra });
              if (first.ok) expect(again.ok, 'a retried accepted extension is accepted again').toBe(true);
              extended = first.ok || again.ok;
              saw(first.ok ? 'extension accepted' : again.ok ? 'extension refused, then accepted once freed' : 'extension refused');
            }
            if (op.then === 'end-early') {
              const returnOn = addDays(start, op.extra);
              const first = await endBookingsEarly(em(), { orderId, returnOn });
              expect(first.units, 'an early end shortens every unit of the order due later').toBe(op.extra < op.days ? op.quantity : 0);
              expect((await endBookingsEarly(em(), { orderId, returnOn })).units, 'asked again, nothing more changes').toBe(0);
              saw(op.extra < op.days ? 'booking ended early' : 'early end changed nothing');
            }
            let returned = false;
            if (op.then === 'return') {
              const codes = await em().execute<Array<{ serial_code: string }>>(
                `select i.serial_code from catalog.bookings b join catalog.stock_items i on i.id = b.stock_item_id where b.order_id = ? and b.status = 'ACTIVE'`,
                [orderId],
              );
              await assignSerials(em(), {
                orderId,
                orderType: 'RENT',
                lines: [{ lineId: randomUUID(), productID: product.id, productVariantID: null, productSubVariantID: null, productName: product.name, quantity: op.quantity, serialCodes: codes.map((c) => c.serial_code) }],
              });
              for (const c of codes) await returnSerial(em(), { orderId, serialCode: c.serial_code, status: 'OK' });
              returned = true;
            }
            return { op, orderId, start, ok: true, returned, extended };
          }),
        );

        const [overlaps] = await em().execute<Array<{ n: number }>>(
          `select count(*)::int as n from catalog.bookings a join catalog.bookings b
             on a.stock_item_id = b.stock_item_id and a.id < b.id and a.status = 'ACTIVE' and b.status = 'ACTIVE' and a.period && b.period
           where a.product_id = ?`,
          [product.id],
        );
        expect(overlaps!.n, 'no two active intervals of a unit overlap').toBe(0);

        for (const r of results) {
          if (r.op.kind === 'down') {
            const rows = await em().execute<Array<{ status: string }>>(`select status from catalog.bookings where note = ?`, [r.note]);
            expect(rows.map((x) => x.status), 'a downtime is there exactly when it was accepted').toEqual(r.ok ? ['ACTIVE'] : []);
            saw(r.ok ? 'downtime accepted' : 'downtime refused');
            continue;
          }
          const op = r.op;
          const rows = await em().execute<Array<{ status: string; start: string; end: string }>>(
            `select status, to_char(lower(period), 'YYYY-MM-DD') as start, to_char(upper(period), 'YYYY-MM-DD') as end from catalog.bookings where order_id = ?`,
            [r.orderId],
          );
          if (!r.ok) {
            expect(rows, 'a refused order holds nothing').toEqual([]);
            saw('booking refused');
          } else if (op.then === 'cancel') {
            expect(rows.map((x) => x.status), 'a cancelled order holds nothing').toEqual(Array(op.quantity).fill('CANCELLED'));
            saw('booking cancelled');
          } else if (r.returned) {
            // Back today: each unit taken only today (its turnaround).
            expect(rows, 'returned units are free after their turnaround').toEqual(Array(op.quantity).fill({ status: 'ACTIVE', start: today, end: addDays(today, 1) }));
            saw('booking returned early');
          } else {
            const days = op.then === 'end-early' ? Math.min(op.days, op.extra) : op.days + (r.extended ? op.extra : 0);
            expect(rows, 'an accepted order holds its units for its days (and its accepted extension)').toEqual(Array(op.quantity).fill({ status: 'ACTIVE', start: r.start, end: addDays(r.start!, days + 1) }));
            saw('booking kept');
          }
        }
        expect(nonZero(await ledger(em(), [product.id]))).toEqual(nonZero(await recount(em(), [product.id])));
      }),
      { seed, numRuns: 15, ...(process.env.BOOKING_PATH ? { path: process.env.BOOKING_PATH } : {}) },
    );
    console.log(`bookings property: effects seen ${JSON.stringify(Object.fromEntries([...seen].sort()))}`);
  }, 300_000);
});
