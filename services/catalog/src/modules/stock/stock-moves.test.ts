import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findStockMove, STOCK_STATUS_INVENTORY, STOCK_STATUSES, STOCK_TRIGGERS, type StockTrigger } from '@dme/contracts';
import { HttpProblem } from '@dme/platform';
import { simpleProduct, startCatalog, type CatalogHarness } from '../../test/harness';
import { moveStockItems, STOCK_MOVE_MESSAGES } from './stock-moves';

let h: CatalogHarness;
beforeAll(async () => {
  h = await startCatalog();
});
afterAll(() => h?.close());

const em = () => h.orm.em.fork();
const triggers = Object.keys(STOCK_TRIGGERS) as StockTrigger[];

/** Adds `quantity` units of a new product and answers their ids. */
async function units(quantity: number): Promise<string[]> {
  const bin = (await h.api.post('/api/warehouse-bins', { name: `Moves ${Math.random()}`, description: 'bin' }, { as: h.staff })).body.bin.id;
  const product = (await h.api.post('/api/products', simpleProduct(), { as: h.staff })).body.product.id;
  const res = await h.api.post('/api/stocks', { productID: product, warehouseBinID: bin, quantity }, { as: h.staff });
  expect(res.status).toBe(201);
  return res.body.items.map((i: { id: string }) => i.id);
}

const itemState = async (id: string) =>
  (await em().execute<Array<{ status: string; inventory_type: string }>>(`select status, inventory_type from catalog.stock_items where id = ?`, [id]))[0]!;

/** Puts a unit in a state directly (test setup: the state another path could have left it in). */
const putIn = (id: string, status: string, inventoryType: string) =>
  em().execute(`update catalog.stock_items set status = ?, inventory_type = ? where id = ?`, [status, inventoryType, id]);

async function move(trigger: StockTrigger, ids: string[]) {
  try {
    return { ok: true as const, to: await em().transactional((tem) => moveStockItems(tem, trigger, ids)) };
  } catch (err) {
    if (err instanceof HttpProblem) return { ok: false as const, status: err.status, detail: err.detail };
    throw err;
  }
}

describe('stock-item status writes go through the table', () => {
  it('from every status, every trigger either makes the row of the table or is a 409 that changes nothing', async () => {
    const pairs = STOCK_STATUSES.flatMap((from) => triggers.map((trigger) => ({ from, trigger })));
    const ids = await units(pairs.length);
    for (const [k, { from, trigger }] of pairs.entries()) {
      const id = ids[k]!;
      await putIn(id, from, STOCK_STATUS_INVENTORY[from]);
      const row = findStockMove(from, trigger);
      const out = await move(trigger, [id]);
      if (row) {
        expect(out, `${from} on ${trigger}`).toEqual({ ok: true, to: row.to });
        expect(await itemState(id)).toEqual({ status: row.to, inventory_type: STOCK_STATUS_INVENTORY[row.to] });
      } else {
        expect(out, `${from} on ${trigger}`).toMatchObject({ ok: false, status: 409 });
        expect(await itemState(id)).toEqual({ status: from, inventory_type: STOCK_STATUS_INVENTORY[from] });
      }
    }
  });

  it('a batch with one unit that may not move is refused whole (409), and one out of its place is refused too', async () => {
    const [a, b, c] = await units(3);
    await putIn(b!, 'SOLD', 'OUT');
    expect(await move('packedForRental', [a!, b!])).toEqual({ ok: false, status: 409, detail: STOCK_MOVE_MESSAGES.refused('packedForRental', 'RENTED') });
    expect(await itemState(a!)).toEqual({ status: 'AVAILABLE', inventory_type: 'IN' });
    await putIn(c!, 'AVAILABLE', 'OUT');
    expect(await move('packedForSale', [c!])).toMatchObject({ ok: false, status: 409 });
    expect(await itemState(c!)).toEqual({ status: 'AVAILABLE', inventory_type: 'OUT' });
  });

  it('no catalog code but moveStockItems writes a stock item status in SQL, and new items start as the table says', () => {
    const src = fileURLToPath(new URL('../../', import.meta.url));
    const files = (function walk(dir: string): string[] {
      return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walk(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : []));
    })(src).filter((f) => !f.endsWith('.test.ts') && !f.includes('/migrations/') && !f.includes('/test/'));
    const writers = files.filter((f) => /update\s+\$\{[^}]*stock_items[^}]*\}[^`]*?\bset\b[^`]*?\bstatus\s*=/.test(readFileSync(f, 'utf8')));
    expect(writers.map((f) => relative(src, f))).toEqual(['modules/stock/stock-moves.ts']);
    const creators = files.filter((f) => readFileSync(f, 'utf8').includes('create(StockItemEntity'));
    for (const f of creators) expect(readFileSync(f, 'utf8'), relative(src, f)).toMatch(/status: STOCK_ITEM_START\.status/);
    // Nor sets an item's status on an entity (`item.status = ...`) or in other SQL (`i.status = ...`).
    const others = files.filter((f) => !f.endsWith('stock-moves.ts'));
    expect(others.filter((f) => /\.status\s*=[^=]/.test(readFileSync(f, 'utf8'))).map((f) => relative(src, f))).toEqual([]);
  });
});
