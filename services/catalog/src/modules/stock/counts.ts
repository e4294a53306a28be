import type { EntityManager } from '@mikro-orm/postgresql';
import type { StockCounts } from '@dme/contracts';
import { qualified } from '@dme/platform';

/**
 * Stock counts derived from the stock items: the ONE place they are computed. A product's counts
 * are the sum over its variants, a variant's the sum over its sub-variants, so every level agrees.
 * `availableQuantity` is what can still be ordered: AVAILABLE items minus what active
 * reservations (orders placed, not yet packed) hold.
 */
export const ZERO: StockCounts = {
  quantity: 0,
  availableQuantity: 0,
  rentedQuantity: 0,
  damagedQuantity: 0,
  lostQuantity: 0,
  soldQuantity: 0,
};

const FIELD: Record<string, keyof StockCounts> = {
  AVAILABLE: 'availableQuantity',
  RENTED: 'rentedQuantity',
  DAMAGED: 'damagedQuantity',
  LOST: 'lostQuantity',
  SOLD: 'soldQuantity',
};

export interface CountIndex {
  product: (id: string) => StockCounts;
  variant: (id: string) => StockCounts;
  subVariant: (id: string) => StockCounts;
}

function add(into: Map<string, StockCounts>, key: string, status: string, n: number): void {
  const c = into.get(key) ?? { ...ZERO };
  c.quantity += n;
  const f = FIELD[status];
  if (f) c[f] += n;
  into.set(key, c);
}

/** Counts for some products (and their variants and sub-variants) in one query. */
export async function countsFor(em: EntityManager, productIds: string[]): Promise<CountIndex> {
  const products = new Map<string, StockCounts>();
  const variants = new Map<string, StockCounts>();
  const subs = new Map<string, StockCounts>();
  if (productIds.length > 0) {
    const rows = await em.execute<Array<{ product_id: string; variant_id: string | null; sub_variant_id: string | null; status: string; n: number }>>(
      `select product_id, variant_id, sub_variant_id, status, count(*)::int as n
         from ${qualified(em, 'stock_items')}
        where product_id = any(?::uuid[])
        group by 1, 2, 3, 4`,
      [`{${productIds.join(',')}}`],
    );
    for (const r of rows) {
      add(products, r.product_id, r.status, r.n);
      if (r.variant_id) add(variants, r.variant_id, r.status, r.n);
      if (r.sub_variant_id) add(subs, r.sub_variant_id, r.status, r.n);
    }
    const held = await em.execute<Array<{ product_id: string; variant_id: string | null; sub_variant_id: string | null; n: number }>>(
      `select product_id, variant_id, sub_variant_id, sum(quantity)::int as n
         from ${qualified(em, 'reservations')}
        where product_id = any(?::uuid[]) and status in ('HELD', 'CONFIRMED')
        group by 1, 2, 3`,
      [`{${productIds.join(',')}}`],
    );
    const reserve = (m: Map<string, StockCounts>, key: string, n: number) => {
      const c = m.get(key) ?? { ...ZERO };
      c.availableQuantity -= n;
      m.set(key, c);
    };
    for (const r of held) {
      reserve(products, r.product_id, r.n);
      if (r.variant_id) reserve(variants, r.variant_id, r.n);
      if (r.sub_variant_id) reserve(subs, r.sub_variant_id, r.n);
    }
  }
  const get = (m: Map<string, StockCounts>) => (id: string) => m.get(id) ?? { ...ZERO };
  return { product: get(products), variant: get(variants), subVariant: get(subs) };
}

/**
 * The same rule as countsFor, as SQL for one product row (alias `p`), for lists that compute
 * everything in one query: AVAILABLE items minus active reservations, and SOLD items.
 */
export function productAvailabilitySql(em: EntityManager): { available: string; sold: string } {
  const items = qualified(em, 'stock_items');
  const reservations = qualified(em, 'reservations');
  return {
    available: `((select count(*) from ${items} si where si.product_id = p.id and si.status = 'AVAILABLE')
      - (select coalesce(sum(r.quantity), 0) from ${reservations} r where r.product_id = p.id and r.status in ('HELD', 'CONFIRMED')))::int`,
    sold: `(select count(*) from ${items} si where si.product_id = p.id and si.status = 'SOLD')::int`,
  };
}
