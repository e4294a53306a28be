import type { EntityManager } from '@mikro-orm/postgresql';

/*
 * The catalog's stock ledger read for tests, and a recount of the same numbers from the facts
 * (catalog tests, and the order service's tests of packing, which check the catalog's counts).
 */

/** A leaf's counts as the ledger keeps them (or as a recount from the facts finds them). */
export interface LeafCounts {
  quantity: number;
  available: number;
  rented: number;
  damaged: number;
  lost: number;
  sold: number;
  reserved: number;
}

const ZERO: LeafCounts = { quantity: 0, available: 0, rented: 0, damaged: 0, lost: 0, sold: 0, reserved: 0 };

/** The ledger rows of some products, by leaf (leaves without a row are absent). */
export async function ledger(em: EntityManager, productIds: string[]): Promise<Map<string, LeafCounts>> {
  const rows = await em.execute<Array<LeafCounts & { leaf_id: string }>>(
    `select leaf_id, quantity, available, rented, damaged, lost, sold, reserved from catalog.stock_levels where product_id = any(?::uuid[])`,
    [`{${productIds.join(',')}}`],
  );
  return new Map(rows.map(({ leaf_id, ...c }) => [leaf_id, { ...c }]));
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
  const at = (leaf: string) => out.get(leaf) ?? out.set(leaf, { ...ZERO }).get(leaf)!;
  for (const r of items) {
    const c = at(r.leaf_id);
    c.quantity += r.n;
    c[r.status.toLowerCase() as 'available' | 'rented' | 'damaged' | 'lost' | 'sold'] += r.n;
  }
  for (const r of held) at(r.leaf_id).reserved += r.n;
  return out;
}

/** Leaves whose counts are all zero are the same as no row. */
export function nonZero(m: Map<string, LeafCounts>): Record<string, LeafCounts> {
  return Object.fromEntries([...m].filter(([, c]) => Object.values(c).some((v) => v !== 0)).sort(([a], [b]) => a.localeCompare(b)));
}
