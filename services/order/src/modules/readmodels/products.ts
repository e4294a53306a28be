import type { EntityManager } from '@mikro-orm/postgresql';
import { centsToString, levelPrice, lineTotalCents, toCents, type ProductType } from '@dme/contracts';
import { qualified } from '@dme/platform';

export interface ProductModel {
  id: string;
  name: string;
  brand: string;
  image: string;
  type: ProductType;
  price: string;
  damage_charges: string;
  archived: boolean;
  /** A tombstone: never returned by productsById, so a deleted product reads as unknown. */
  deleted: boolean;
  version: number;
  variants: Array<{
    id: string;
    name: string;
    price: string | null;
    damageCharges: string | null;
    subVariants: Array<{ id: string; name: string; price: string; damageCharges: string }>;
  }>;
}

/** The products known by id; deleted ones (tombstones) are left out, like unknown ones. */
export async function productsById(em: EntityManager, ids: string[]): Promise<Map<string, ProductModel>> {
  if (ids.length === 0) return new Map();
  const rows = await em.execute<ProductModel[]>(`select * from ${qualified(em, 'products')} where id = any(?::uuid[]) and not deleted`, [
    `{${[...new Set(ids)].join(',')}}`,
  ]);
  return new Map(rows.map((r) => [r.id, r]));
}

export interface Leaf {
  ok: boolean;
  /** Why the line cannot be ordered as it is (archived product, variant gone, level missing). */
  problem?: 'unknown' | 'variant' | 'subVariant';
  unitPrice: string;
  variant: { name: string; price: string | null } | null;
  subVariant: { name: string; price: string } | null;
}

const money = (v: string) => centsToString(toCents(String(v)));

/** The price (terms `levelPrice`) and names of a product at a variant / sub-variant, as currently known. */
export function leafOf(p: ProductModel | undefined, variantId: string | null, subVariantId: string | null): Leaf {
  if (!p || p.archived || p.deleted) return { ok: false, problem: 'unknown', unitPrice: '0.00', variant: null, subVariant: null };
  if (p.variants.length === 0) {
    const ok = !variantId && !subVariantId;
    return { ok, ...(ok ? {} : { problem: 'unknown' as const }), unitPrice: money(p.price), variant: null, subVariant: null };
  }
  const v = p.variants.find((x) => x.id === variantId);
  if (!v) return { ok: false, problem: 'variant', unitPrice: money(p.price), variant: null, subVariant: null };
  const variant = { name: v.name, price: v.price === null ? null : money(v.price) };
  if (v.subVariants.length === 0) {
    const ok = !subVariantId;
    return { ok, ...(ok ? {} : { problem: 'subVariant' as const }), unitPrice: money(levelPrice(p, v)), variant, subVariant: null };
  }
  const s = v.subVariants.find((x) => x.id === subVariantId);
  if (!s) return { ok: false, problem: 'subVariant', unitPrice: money(levelPrice(p, v)), variant, subVariant: null };
  return { ok: true, unitPrice: money(levelPrice(p, v, s)), variant, subVariant: { name: s.name, price: money(s.price) } };
}

/** quantity × unit price (× days for rent), as a money string (terms `lineTotalCents`). */
export function lineAmount(unitPrice: string, quantity: number, days: number | null): string {
  return centsToString(lineTotalCents({ unitCents: toCents(unitPrice), quantity, noOfRentalDays: days }));
}
