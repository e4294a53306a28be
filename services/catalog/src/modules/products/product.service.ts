import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { EVENTS, type Product, type ProductInput } from '@dme/contracts';
import { bumpAggregateVersion, notFound, qualified, recordEvent, newId } from '@dme/platform';
import { ProductEntity, SubVariantEntity, VariantEntity } from './product.entity';
import { loadTrees, money, snapshot, toProduct, writePriceRange, type ProductTree } from './product-tree';
import { countsFor } from '../stock/counts';

export const SOURCE = 'catalog';

/** The product's own columns as the input sets them. */
export function productFields(input: ProductInput) {
  return {
    name: input.name,
    brand: input.brand,
    description: input.description,
    type: input.type,
    image: input.image,
    price: money(input.price),
    damageCharges: money(input.damageCharges),
    ...(input.turnaroundDays === undefined ? {} : { turnaroundDays: input.turnaroundDays }),
    ...(input.inspectionChecklist === undefined ? {} : { inspectionChecklist: input.inspectionChecklist }),
    ...(input.maintenance === undefined
      ? {}
      : {
          serviceEveryRentalDays: input.maintenance?.everyRentalDays ?? null,
          serviceEveryDays: input.maintenance?.everyDays ?? null,
          serviceChecklist: input.maintenance?.checklist ?? [],
        }),
    // Money terms apply to rentals only: a product for sale keeps none whatever is sent.
    ...(input.type === 'FOR_SALE' ? { rentalTerms: null } : input.rentalTerms === undefined ? {} : { rentalTerms: input.rentalTerms }),
  };
}

/** A variant's own price and fee: none when its sub-variants carry them, or when it was given none. */
export function variantLevel(v: ProductInput['variants'][number]) {
  return {
    price: v.subVariants.length || v.price === undefined ? null : money(v.price),
    damageCharges: v.subVariants.length || v.damageCharges === undefined ? null : money(v.damageCharges),
  };
}

export async function getProduct(em: EntityManager, id: string, opts: { includeArchived: boolean }): Promise<Product> {
  const product = await em.findOne(ProductEntity, { id, ...(opts.includeArchived ? {} : { archivedAt: null }) });
  if (!product) throw notFound('Product not found.');
  const [tree] = await loadTrees(em, [product]);
  return toProduct(tree!, await countsFor(em, [product.id]));
}

export async function createProduct(em: EntityManager, input: ProductInput): Promise<Product> {
  const tree = await em.transactional(async (tem) => {
    const now = new Date();
    const product = tem.create(ProductEntity, { id: newId(), rentalTerms: null, ...productFields(input), archivedAt: null, createdAt: now, updatedAt: now });
    tem.persist(product);
    const variants = input.variants.map((v, i) => {
      const variant = tem.create(VariantEntity, { id: newId(), productId: product.id, name: v.name, position: i, ...variantLevel(v), createdAt: now });
      tem.persist(variant);
      const subVariants = v.subVariants.map((s, j) => {
        const sub = tem.create(SubVariantEntity, {
          id: newId(),
          variantId: variant.id,
          name: s.name,
          position: j,
          price: money(s.price),
          damageCharges: money(s.damageCharges),
          createdAt: now,
        });
        tem.persist(sub);
        return sub;
      });
      return { variant, subVariants };
    });
    const t: ProductTree = { product, variants };
    // A new product is version 1 (the column's default); every later event bumps it.
    recordEvent(tem, SOURCE, { type: EVENTS.catalog.productCreated, aggregateId: product.id, data: snapshot(t), version: 1 });
    await tem.flush();
    await writePriceRange(tem, t);
    return t;
  });
  return toProduct(tree, await countsFor(em, [tree.product.id]));
}

/**
 * Deletes a product without stock; a product with stock (and so possibly orders) is archived:
 * hidden from the shop, kept for history (docs/decisions.md).
 */
export async function deleteProduct(em: EntityManager, id: string): Promise<'deleted' | 'archived'> {
  return em.transactional(async (tem) => {
    // Locked like an edit: an Add Stock running now (share lock) finishes first and is counted.
    const product = await tem.findOne(ProductEntity, { id, archivedAt: null }, { lockMode: LockMode.PESSIMISTIC_WRITE });
    if (!product) throw notFound('Product not found.');
    const stock = await tem.execute<Array<{ n: number }>>(`select count(*)::int as n from ${qualified(tem, 'stock_items')} where product_id = ?`, [id]);
    if ((stock[0]?.n ?? 0) > 0) {
      product.archivedAt = new Date();
      product.updatedAt = new Date();
      const version = (await bumpAggregateVersion(tem, 'products', id))!;
      recordEvent(tem, SOURCE, { type: EVENTS.catalog.productArchived, aggregateId: id, data: { productId: id }, version });
      await tem.flush();
      return 'archived';
    }
    const [gone] = await tem.execute<Array<{ version: number }>>(`delete from ${qualified(tem, 'products')} where id = ? returning version`, [id]);
    // The deletion is one more version of the product, so read models keep it as a tombstone.
    recordEvent(tem, SOURCE, { type: EVENTS.catalog.productDeleted, aggregateId: id, data: { productId: id }, version: Number(gone!.version) + 1 });
    await tem.flush();
    return 'deleted';
  });
}
