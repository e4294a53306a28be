import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { CATALOG_MESSAGES, EVENTS, type Product, type ProductInput } from '@dme/contracts';
import { badRequest, bumpAggregateVersion, conflict, notFound, qualified, recordEvent, newId } from '@dme/platform';
import { ProductEntity, SubVariantEntity, VariantEntity } from './product.entity';
import { loadTrees, money, snapshot, toProduct, writePriceRange, type ProductTree } from './product-tree';
import { productFields, SOURCE, variantLevel } from './product.service';
import { countsFor } from '../stock/counts';

const M = CATALOG_MESSAGES.product;

/** The levels of a product that hold stock. */
interface StockedLevels {
  productLevel: boolean;
  variants: Set<string>;
  anyInVariant: Set<string>;
  subVariants: Set<string>;
}

async function stockedLevels(em: EntityManager, productId: string): Promise<StockedLevels> {
  const rows = await em.execute<Array<{ variant_id: string | null; sub_variant_id: string | null }>>(
    `select distinct variant_id, sub_variant_id from ${qualified(em, 'stock_items')} where product_id = ?`,
    [productId],
  );
  return {
    productLevel: rows.some((r) => r.variant_id === null),
    variants: new Set(rows.filter((r) => r.variant_id && !r.sub_variant_id).map((r) => r.variant_id!)),
    anyInVariant: new Set(rows.filter((r) => r.variant_id).map((r) => r.variant_id!)),
    subVariants: new Set(rows.filter((r) => r.sub_variant_id).map((r) => r.sub_variant_id!)),
  };
}

/**
 * Whether the edit may be made: ids sent back belong to this product, the first variant keeps its
 * name, and no level with stock is removed or gets children (stock never ends up on a level that
 * no longer exists).
 */
function checkEdit(input: ProductInput, current: ProductTree, stocked: StockedLevels): void {
  if (stocked.productLevel && input.variants.length > 0) {
    throw conflict('This product has stock without variants, so variants cannot be added to it.');
  }
  const existing = new Map(current.variants.map((v) => [v.variant.id, v]));
  for (const v of input.variants) {
    if (v.id && !existing.has(v.id)) throw badRequest('A variant does not belong to this product.');
  }
  const first = current.variants[0]?.variant;
  const sentFirst = first ? input.variants.find((v) => v.id === first.id) : undefined;
  if (first && sentFirst && sentFirst.name.trim() !== first.name) {
    throw badRequest(M.firstVariantRename, [{ field: 'variants.0.name', message: M.firstVariantRename }]);
  }
  const keptIds = new Set(input.variants.map((v) => v.id).filter(Boolean));
  for (const { variant } of current.variants) {
    if (!keptIds.has(variant.id) && stocked.anyInVariant.has(variant.id)) throw conflict(M.variantHasStock);
  }
  for (const v of input.variants) {
    const old = v.id ? existing.get(v.id) : undefined;
    if (!old) continue;
    if (v.subVariants.length > 0 && stocked.variants.has(old.variant.id)) {
      throw conflict('This variant has stock without sub-variants, so sub-variants cannot be added to it.');
    }
    const oldIds = new Set(old.subVariants.map((s) => s.id));
    for (const s of v.subVariants) if (s.id && !oldIds.has(s.id)) throw badRequest('A sub-variant does not belong to this variant.');
    const kept = new Set(v.subVariants.map((s) => s.id).filter(Boolean));
    for (const s of old.subVariants) if (!kept.has(s.id) && stocked.subVariants.has(s.id)) throw conflict(M.variantHasStock);
  }
}

/**
 * Phase 1 of an edit: removes what was dropped and parks kept rows under temporary names, so that
 * names can move between rows (a swap) without tripping the unique indexes.
 */
async function dropAndPark(tem: EntityManager, input: ProductInput, current: ProductTree): Promise<void> {
  const keptIds = new Set(input.variants.map((v) => v.id).filter(Boolean));
  const keptSubIds = new Set(input.variants.flatMap((v) => v.subVariants.map((s) => s.id)).filter(Boolean));
  for (const { variant, subVariants } of current.variants) {
    for (const s of subVariants) {
      if (keptIds.has(variant.id) && keptSubIds.has(s.id)) s.name = `~${s.id}`;
      else tem.remove(s);
    }
    if (keptIds.has(variant.id)) variant.name = `~${variant.id}`;
    else tem.remove(variant);
  }
  await tem.flush();
}

/** Phase 2 of an edit: the final names, order and prices of the variants; new rows are added. */
function writeVariants(tem: EntityManager, id: string, input: ProductInput, current: ProductTree, now: Date): ProductTree['variants'] {
  const existing = new Map(current.variants.map((v) => [v.variant.id, v.variant]));
  const subsById = new Map(current.variants.flatMap((v) => v.subVariants).map((s) => [s.id, s]));
  return input.variants.map((v, i) => {
    const variant =
      (v.id ? existing.get(v.id) : undefined) ??
      tem.create(VariantEntity, { id: newId(), productId: id, name: v.name, position: i, price: null, damageCharges: null, createdAt: now });
    tem.persist(variant);
    Object.assign(variant, { name: v.name, position: i, ...variantLevel(v) });
    const subVariants = v.subVariants.map((s, j) => {
      const level = { name: s.name, position: j, price: money(s.price), damageCharges: money(s.damageCharges) };
      const sub = (s.id ? subsById.get(s.id) : undefined) ?? tem.create(SubVariantEntity, { id: newId(), variantId: variant.id, ...level, createdAt: now });
      tem.persist(sub);
      Object.assign(sub, level);
      return sub;
    });
    return { variant, subVariants };
  });
}

/**
 * Edits a product. Variants and sub-variants sent back with their id keep it (stock stays
 * attached); new ones are added; missing ones are removed unless they have stock. The first
 * variant cannot be renamed, and stock never ends up on a level that no longer exists.
 */
export async function updateProduct(em: EntityManager, id: string, input: ProductInput): Promise<Product> {
  const tree = await em.transactional(async (tem) => {
    const product = await tem.findOne(ProductEntity, { id, archivedAt: null }, { lockMode: LockMode.PESSIMISTIC_WRITE });
    if (!product) throw notFound('Product not found.');
    const [current] = await loadTrees(tem, [product]);
    checkEdit(input, current!, await stockedLevels(tem, id));
    const now = new Date();
    await dropAndPark(tem, input, current!);
    const variants = writeVariants(tem, id, input, current!, now);
    tem.assign(product, { ...productFields(input), updatedAt: now });
    const t: ProductTree = { product, variants };
    const version = (await bumpAggregateVersion(tem, 'products', id))!;
    recordEvent(tem, SOURCE, { type: EVENTS.catalog.productUpdated, aggregateId: id, data: snapshot(t), version });
    await tem.flush();
    await writePriceRange(tem, t);
    return t;
  });
  return toProduct(tree, await countsFor(em, [id]));
}
