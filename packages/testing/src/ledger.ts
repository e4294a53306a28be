import type { EntityManager } from '@mikro-orm/postgresql';

/*
 * The catalog's stock ledger read for tests, and a recount of the same numbers from the facts
 * (catalog tests, and the order service's tests of packing, which check the catalog's counts).
 */

/** The ledger's counted columns, one per stock-item status (issue 26 added the last eight). */
const STATUS_KEYS = ['available', 'rented', 'damaged', 'lost', 'sold', 'returned', 'cleaned', 'inspected', 'in_repair', 'found', 'on_hold', 'scrapped', 'written_off'] as const;
type StatusKey = (typeof STATUS_KEYS)[number];

/** A leaf's counts as the ledger keeps them (or as a recount from the facts finds them). */
export type LeafCounts = { quantity: number; reserved: number } & Record<StatusKey, number>;

const ZERO = (): LeafCounts => ({ quantity: 0, reserved: 0, ...(Object.fromEntries(STATUS_KEYS.map((k) => [k, 0])) as Record<StatusKey, number>) });

/** The ledger rows of some products, by leaf (leaves without a row are absent; a column a database does not have yet reads 0). */
export async function ledger(em: EntityManager, productIds: string[]): Promise<Map<string, LeafCounts>> {
  const rows = await em.execute<Array<{ leaf_id: string; j: Record<string, number> }>>(
    `select leaf_id, to_jsonb(sl) as j from catalog.stock_levels sl where product_id = any(?::uuid[])`,
    [`{${productIds.join(',')}}`],
  );
  return new Map(
    rows.map(({ leaf_id, j }) => {
      const c = ZERO();
      for (const k of ['quantity', 'reserved', ...STATUS_KEYS] as const) c[k] = Number(j[k] ?? 0);
      return [leaf_id, c];
    }),
  );
}

/**
 * Test-only recount of the same numbers from the facts: stock items per leaf and status, and what
 * active (HELD, CONFIRMED) undated reservations hold (a rental's dated rows hold units by their
 * bookings, issue 25). The ledger must always equal it.
 */
export async function recount(em: EntityManager, productIds: string[]): Promise<Map<string, LeafCounts>> {
  const ids = `{${productIds.join(',')}}`;
  const items = await em.execute<Array<{ leaf_id: string; status: string; n: number }>>(
    `select coalesce(sub_variant_id, variant_id, product_id) as leaf_id, status, count(*)::int as n
       from catalog.stock_items where product_id = any(?::uuid[]) group by 1, 2`,
    [ids],
  );
  const held = await em.execute<Array<{ leaf_id: string; n: number }>>(
    // (to_jsonb: also on a database migrated only up to before the `dated` column, 0008_bookings)
    `select r.leaf_id, sum(r.quantity)::int as n from catalog.reservations r
      where r.product_id = any(?::uuid[]) and r.status in ('HELD','CONFIRMED') and not coalesce((to_jsonb(r) ->> 'dated')::boolean, false) group by 1`,
    [ids],
  );
  const out = new Map<string, LeafCounts>();
  const at = (leaf: string) => out.get(leaf) ?? out.set(leaf, ZERO()).get(leaf)!;
  for (const r of items) {
    const c = at(r.leaf_id);
    c.quantity += r.n;
    c[r.status.toLowerCase() as StatusKey] += r.n;
  }
  for (const r of held) at(r.leaf_id).reserved += r.n;
  return out;
}

/** Leaves whose counts are all zero are the same as no row. */
export function nonZero(m: Map<string, LeafCounts>): Record<string, LeafCounts> {
  return Object.fromEntries([...m].filter(([, c]) => Object.values(c).some((v) => v !== 0)).sort(([a], [b]) => a.localeCompare(b)));
}

/** A leaf with nothing counted. */
export const emptyLeaf = ZERO;

/** The counts of several leaves added up (a variant's or a product's, as the API sums them). */
export function sumLeaves(list: readonly LeafCounts[]): LeafCounts {
  const total = ZERO();
  for (const c of list) for (const k of Object.keys(total) as Array<keyof LeafCounts>) total[k] += c[k];
  return total;
}

/** A leaf's counts as the API shows them (contracts StockCounts: what can be ordered is available − reserved). */
export function apiCounts(c: LeafCounts) {
  return {
    quantity: c.quantity,
    availableQuantity: c.available - c.reserved,
    rentedQuantity: c.rented,
    damagedQuantity: c.damaged,
    lostQuantity: c.lost,
    soldQuantity: c.sold,
    servicingQuantity: c.returned + c.cleaned + c.inspected + c.found,
    repairQuantity: c.in_repair,
    heldQuantity: c.on_hold,
    retiredQuantity: c.scrapped + c.written_off,
  };
}

/** A leaf's counts, the ones not given zero (expected values in tests). */
export const leaf = (counts: Partial<LeafCounts>): LeafCounts => ({ ...ZERO(), ...counts });
