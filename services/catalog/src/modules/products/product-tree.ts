import type { EntityManager } from '@mikro-orm/postgresql';
import { centsToString, DEFAULT_TURNAROUND_DAYS, levelPrice, toCents, type Product } from '@dme/contracts';
import { qualified } from '@dme/platform';
import { SubVariantEntity, VariantEntity, type ProductRow, type SubVariantRow, type VariantRow } from './product.entity';
import type { CountIndex } from '../stock/counts';

/** A product with its variants and their sub-variants, in their order. */
export interface ProductTree {
  product: ProductRow;
  variants: Array<{ variant: VariantRow; subVariants: SubVariantRow[] }>;
}

export const money = (cents: number) => centsToString(cents);

/** A stored price (a numeric string) as the API writes it ("12.50"); null stays null. */
const amount = (v: string | null | undefined) => (v === null || v === undefined ? null : money(toCents(v)));

/** A product's or sub-variant's own price and fee, as the API and events write them. */
const ownPrices = (l: { price: string; damageCharges: string }) => ({ price: money(toCents(l.price)), damageCharges: money(toCents(l.damageCharges)) });

/** A variant's own fields (its price and fee may be unset), as the API and events write them. */
const variantFields = (v: VariantRow) => ({ id: v.id, name: v.name, price: amount(v.price), damageCharges: amount(v.damageCharges) });

/** A sub-variant's own fields, as the API and events write them. */
const subVariantFields = (s: SubVariantRow) => ({ id: s.id, name: s.name, ...ownPrices(s) });

/** Loads products with their variants and sub-variants, in their order. */
export async function loadTrees(em: EntityManager, products: ProductRow[]): Promise<ProductTree[]> {
  if (products.length === 0) return [];
  const ids = products.map((p) => p.id);
  const variants = await em.find(VariantEntity, { productId: { $in: ids } }, { orderBy: { position: 'asc' } });
  const subs = variants.length
    ? await em.find(SubVariantEntity, { variantId: { $in: variants.map((v) => v.id) } }, { orderBy: { position: 'asc' } })
    : [];
  return products.map((product) => ({
    product,
    variants: variants
      .filter((v) => v.productId === product.id)
      .map((variant) => ({ variant, subVariants: subs.filter((s) => s.variantId === variant.id) })),
  }));
}

/**
 * Every price a customer can pick (cents): the price of each leaf of the tree, by the one rule of
 * a level's price (levelPrice: the sub-variant's own, else the variant's, else the product's).
 */
export function leafPrices(tree: ProductTree): number[] {
  const { product } = tree;
  if (tree.variants.length === 0) return [toCents(levelPrice(product))];
  return tree.variants.flatMap(({ variant, subVariants }) =>
    subVariants.length ? subVariants.map((s) => toCents(levelPrice(product, variant, s))) : [toCents(levelPrice(product, variant))],
  );
}

/**
 * Stores the product's price range (the lowest and highest leaf price) on its row for the shop
 * list (migrations/0005_price_range.ts), from the tree just written. Called after every write of
 * the product tree, in its transaction.
 */
export async function writePriceRange(em: EntityManager, tree: ProductTree): Promise<void> {
  const prices = leafPrices(tree);
  await em.execute(`update ${qualified(em, 'products')} set price_min = ?, price_max = ? where id = ?`, [
    money(Math.min(...prices)),
    money(Math.max(...prices)),
    tree.product.id,
  ]);
}

export function toProduct(tree: ProductTree, counts: CountIndex): Product {
  const { product: p } = tree;
  const prices = leafPrices(tree);
  return {
    id: p.id,
    name: p.name,
    brand: p.brand,
    description: p.description,
    type: p.type,
    image: p.image,
    ...ownPrices(p),
    turnaroundDays: p.turnaroundDays ?? DEFAULT_TURNAROUND_DAYS,
    inspectionChecklist: p.inspectionChecklist ?? [],
    maintenance:
      p.serviceEveryRentalDays || p.serviceEveryDays
        ? { everyRentalDays: p.serviceEveryRentalDays ?? null, everyDays: p.serviceEveryDays ?? null, checklist: p.serviceChecklist ?? [] }
        : null,
    rentalTerms: p.type === 'FOR_RENT' ? (p.rentalTerms ?? null) : null,
    priceMin: money(Math.min(...prices)),
    priceMax: money(Math.max(...prices)),
    archived: p.archivedAt !== null && p.archivedAt !== undefined,
    ...counts.product(p.id),
    variants: tree.variants.map(({ variant: v, subVariants }) => ({
      ...variantFields(v),
      productID: p.id,
      ...counts.variant(v.id),
      subVariants: subVariants.map((s) => ({ ...subVariantFields(s), ...counts.subVariant(s.id) })),
    })),
    createdAt: p.createdAt.toISOString(),
    updatedAt: p.updatedAt.toISOString(),
  };
}

/** The product as its events carry it. */
export function snapshot(tree: ProductTree) {
  const p = tree.product;
  return {
    productId: p.id,
    name: p.name,
    brand: p.brand,
    type: p.type,
    image: p.image,
    ...ownPrices(p),
    variants: tree.variants.map(({ variant: v, subVariants }) => ({ ...variantFields(v), subVariants: subVariants.map(subVariantFields) })),
  };
}
