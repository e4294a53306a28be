import type { EntityManager } from '@mikro-orm/postgresql';
import { manilaDate, type StockCounts } from '@dme/contracts';
import { qualified } from '@dme/platform';

/**
 * Stock counts, read from the stock ledger (`stock_levels`: one row per leaf, kept by the writes
 * themselves, see migrations/0004_stock_levels.ts): the ONE place counts are read for products,
 * variants and sub-variants. A product's counts are the sum over its leaves, a variant's the sum
 * over its sub-variants, so every level agrees. `availableQuantity` is what can still be ordered:
 * AVAILABLE items minus what active reservations (orders placed, not yet packed) hold and minus
 * units booked today (a dated rental's or a downtime's, issue 25), the number reserve() checks.
 */
export const ZERO: StockCounts = {
  quantity: 0,
  availableQuantity: 0,
  rentedQuantity: 0,
  damagedQuantity: 0,
  lostQuantity: 0,
  soldQuantity: 0,
  servicingQuantity: 0,
  repairQuantity: 0,
  heldQuantity: 0,
  retiredQuantity: 0,
};

export interface CountIndex {
  product: (id: string) => StockCounts;
  variant: (id: string) => StockCounts;
  subVariant: (id: string) => StockCounts;
}

/** One leaf row of the ledger. */
export interface LevelRow {
  leaf_id: string;
  product_id: string;
  variant_id: string | null;
  sub_variant_id: string | null;
  quantity: number;
  available: number;
  reserved: number;
  rented: number;
  damaged: number;
  lost: number;
  sold: number;
  /** Issue 26: on the way back to the shelf (returned, cleaned, inspected, found), in repair, on hold, gone (scrapped, written off). */
  servicing: number;
  repair: number;
  held: number;
  retired: number;
}

function add(into: Map<string, StockCounts>, key: string, r: LevelRow): void {
  const c = into.get(key) ?? { ...ZERO };
  c.quantity += r.quantity;
  c.availableQuantity += r.available - r.reserved;
  c.rentedQuantity += r.rented;
  c.damagedQuantity += r.damaged;
  c.lostQuantity += r.lost;
  c.soldQuantity += r.sold;
  c.servicingQuantity += r.servicing;
  c.repairQuantity += r.repair;
  c.heldQuantity += r.held;
  c.retiredQuantity += r.retired;
  into.set(key, c);
}

/** Counts for some products (and their variants and sub-variants) in one query. */
export async function countsFor(em: EntityManager, productIds: string[]): Promise<CountIndex> {
  const products = new Map<string, StockCounts>();
  const variants = new Map<string, StockCounts>();
  const subs = new Map<string, StockCounts>();
  if (productIds.length > 0) {
    const rows = await em.execute<LevelRow[]>(
      `select sl.leaf_id, sl.product_id, sl.variant_id, sl.sub_variant_id, sl.quantity, sl.available, sl.reserved + ${bookedTodaySql(em, 'sl')} as reserved,
              sl.rented, sl.damaged, sl.lost, sl.sold, sl.returned + sl.cleaned + sl.inspected + sl.found as servicing,
              sl.in_repair as repair, sl.on_hold as held, sl.scrapped + sl.written_off as retired
         from ${qualified(em, 'stock_levels')} sl
        where sl.product_id = any(?::uuid[])`,
      [manilaDate(), `{${productIds.join(',')}}`],
    );
    for (const r of rows) {
      add(products, r.product_id, r);
      if (r.variant_id) add(variants, r.variant_id, r);
      if (r.sub_variant_id) add(subs, r.sub_variant_id, r);
    }
  }
  const get = (m: Map<string, StockCounts>) => (id: string) => m.get(id) ?? { ...ZERO };
  return { product: get(products), variant: get(variants), subVariant: get(subs) };
}

/**
 * The same rule as countsFor, as SQL for one product row (alias `p`), for lists that compute
 * everything in one query: a lateral join yielding `available` (AVAILABLE − reserved, summed over
 * the product's leaves) and `sold`.
 */
export function productLevelsSql(em: EntityManager, today: string): string {
  return `left join lateral (
         select ${availableSumSql(em, today)} as available, coalesce(sum(sl.sold), 0)::int as sold
           from ${qualified(em, 'stock_levels')} sl where sl.product_id = p.id
       ) lv on true`;
}

/** The units a customer can order today, summed over the leaves `sl` of one product (the card's `available`). */
function availableSumSql(em: EntityManager, today: string): string {
  return `coalesce(sum(sl.available - sl.reserved - ${bookedTodaySql(em, 'sl', today)}), 0)::int`;
}

/** The same `available` as productLevelsSql, as a scalar for product row `p` (the shop's "available only" filter, issue 27). */
export function productAvailableSql(em: EntityManager, today: string): string {
  return `(select ${availableSumSql(em, today)} from ${qualified(em, 'stock_levels')} sl where sl.product_id = p.id)`;
}

/**
 * Units of a leaf (ledger row `sl`) in the warehouse (AVAILABLE) but taken today by a booking
 * (issue 25: a rental starting today, not packed yet, a unit in turnaround after its return) or a
 * downtime: what a customer cannot order today beyond `reserved`. `today` is the SQL for the
 * Manila date (a `?` parameter by default, which the caller binds first).
 */
export function bookedTodaySql(em: EntityManager, sl: string, today = '?::date'): string {
  return `(select count(*)::int from ${qualified(em, 'bookings')} bt join ${qualified(em, 'stock_items')} bi on bi.id = bt.stock_item_id and ${unitTakenTodaySql('bt', 'bi', today)}
           where bt.leaf_id = ${sl}.leaf_id)`;
}

/**
 * The one rule of "booking `bt` takes its unit `si` today": the unit is in the warehouse
 * (AVAILABLE) and the booking is active over today. bookedTodaySql counts these per leaf (the
 * available counts); the stock list marks each such unit Reserved (issue 27), so the two agree.
 */
export function unitTakenTodaySql(bt: string, si: string, today: string): string {
  return `${si}.status in ('AVAILABLE') and ${bt}.status in ('ACTIVE') and ${bt}.period @> ${today}`;
}
