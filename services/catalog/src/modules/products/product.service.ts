import { randomUUID } from 'node:crypto';
import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import {
  CATALOG_MESSAGES,
  centsToString,
  EVENTS,
  toCents,
  type Product,
  type ProductCard,
  type ProductInput,
  type ProductType,
} from '@dme/contracts';
import { badRequest, bumpAggregateVersion, conflict, notFound, qualified, recordEvent, containsPattern } from '@dme/platform';
import { ProductEntity, SubVariantEntity, VariantEntity, type ProductRow, type SubVariantRow, type VariantRow } from './product.entity';
import { countsFor, productLevelsSql, type CountIndex } from '../stock/counts';

export const SOURCE = 'catalog';
const M = CATALOG_MESSAGES.product;

export interface ProductTree {
  product: ProductRow;
  variants: Array<{ variant: VariantRow; subVariants: SubVariantRow[] }>;
}

const money = (cents: number) => centsToString(cents);

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

/** Every price a customer can pick: the leaves of the tree (or the product's own price). */
export function leafPrices(tree: ProductTree): number[] {
  if (tree.variants.length === 0) return [toCents(tree.product.price)];
  return tree.variants.flatMap(({ variant, subVariants }) =>
    subVariants.length ? subVariants.map((s) => toCents(s.price)) : [toCents(variant.price ?? tree.product.price)],
  );
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
    price: money(toCents(p.price)),
    damageCharges: money(toCents(p.damageCharges)),
    priceMin: money(Math.min(...prices)),
    priceMax: money(Math.max(...prices)),
    archived: p.archivedAt !== null && p.archivedAt !== undefined,
    ...counts.product(p.id),
    variants: tree.variants.map(({ variant: v, subVariants }) => ({
      id: v.id,
      productID: p.id,
      name: v.name,
      price: v.price === null || v.price === undefined ? null : money(toCents(v.price)),
      damageCharges: v.damageCharges === null || v.damageCharges === undefined ? null : money(toCents(v.damageCharges)),
      ...counts.variant(v.id),
      subVariants: subVariants.map((s) => ({
        id: s.id,
        name: s.name,
        price: money(toCents(s.price)),
        damageCharges: money(toCents(s.damageCharges)),
        ...counts.subVariant(s.id),
      })),
    })),
    createdAt: p.createdAt.toISOString(),
    updatedAt: p.updatedAt.toISOString(),
  };
}

function snapshot(tree: ProductTree) {
  const p = tree.product;
  return {
    productId: p.id,
    name: p.name,
    brand: p.brand,
    type: p.type,
    image: p.image,
    price: money(toCents(p.price)),
    damageCharges: money(toCents(p.damageCharges)),
    variants: tree.variants.map(({ variant: v, subVariants }) => ({
      id: v.id,
      name: v.name,
      price: v.price == null ? null : money(toCents(v.price)),
      damageCharges: v.damageCharges == null ? null : money(toCents(v.damageCharges)),
      subVariants: subVariants.map((s) => ({ id: s.id, name: s.name, price: money(toCents(s.price)), damageCharges: money(toCents(s.damageCharges)) })),
    })),
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
    const product = tem.create(ProductEntity, {
      id: randomUUID(),
      name: input.name,
      brand: input.brand,
      description: input.description,
      type: input.type,
      image: input.image,
      price: money(input.price),
      damageCharges: money(input.damageCharges),
      archivedAt: null,
      createdAt: now,
      updatedAt: now,
    });
    tem.persist(product);
    const variants = input.variants.map((v, i) => {
      const variant = tem.create(VariantEntity, {
        id: randomUUID(),
        productId: product.id,
        name: v.name,
        position: i,
        price: v.subVariants.length || v.price === undefined ? null : money(v.price),
        damageCharges: v.subVariants.length || v.damageCharges === undefined ? null : money(v.damageCharges),
        createdAt: now,
      });
      tem.persist(variant);
      const subVariants = v.subVariants.map((s, j) => {
        const sub = tem.create(SubVariantEntity, {
          id: randomUUID(),
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
    await writePriceRange(tem, product.id);
    return t;
  });
  return toProduct(tree, await countsFor(em, [tree.product.id]));
}

async function stockedLevels(em: EntityManager, productId: string) {
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
 * Edits a product. Variants and sub-variants sent back with their id keep it (stock stays
 * attached); new ones are added; missing ones are removed unless they have stock. The first
 * variant cannot be renamed, and stock never ends up on a level that no longer exists.
 */
export async function updateProduct(em: EntityManager, id: string, input: ProductInput): Promise<Product> {
  const tree = await em.transactional(async (tem) => {
    const product = await tem.findOne(ProductEntity, { id, archivedAt: null }, { lockMode: LockMode.PESSIMISTIC_WRITE });
    if (!product) throw notFound('Product not found.');
    const [current] = await loadTrees(tem, [product]);
    const stocked = await stockedLevels(tem, id);
    const now = new Date();

    if (stocked.productLevel && input.variants.length > 0) {
      throw conflict('This product has stock without variants, so variants cannot be added to it.');
    }
    const existing = new Map(current!.variants.map((v) => [v.variant.id, v]));
    const first = current!.variants[0]?.variant;
    for (const v of input.variants) {
      if (v.id && !existing.has(v.id)) throw badRequest('A variant does not belong to this product.');
    }
    if (first) {
      const sentFirst = input.variants.find((v) => v.id === first.id);
      if (sentFirst && sentFirst.name.trim() !== first.name) {
        throw badRequest(M.firstVariantRename, [{ field: 'variants.0.name', message: M.firstVariantRename }]);
      }
    }
    const keptIds = new Set(input.variants.map((v) => v.id).filter(Boolean));
    for (const { variant } of current!.variants) {
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

    // Phase 1: remove what was dropped and park kept rows under temporary names, so that names
    // can move between rows (a swap) without tripping the unique indexes.
    const keptSubIds = new Set(input.variants.flatMap((v) => v.subVariants.map((s) => s.id)).filter(Boolean));
    for (const { variant, subVariants } of current!.variants) {
      for (const s of subVariants) {
        if (keptIds.has(variant.id) && keptSubIds.has(s.id)) s.name = `~${s.id}`;
        else tem.remove(s);
      }
      if (keptIds.has(variant.id)) variant.name = `~${variant.id}`;
      else tem.remove(variant);
    }
    await tem.flush();

    // Phase 2: the final names, order and prices; new rows are added.
    const subsById = new Map(current!.variants.flatMap((v) => v.subVariants).map((s) => [s.id, s]));
    const variants: ProductTree['variants'] = input.variants.map((v, i) => {
      const variant =
        (v.id ? existing.get(v.id)?.variant : undefined) ??
        tem.create(VariantEntity, { id: randomUUID(), productId: id, name: v.name, position: i, price: null, damageCharges: null, createdAt: now });
      tem.persist(variant);
      variant.name = v.name;
      variant.position = i;
      variant.price = v.subVariants.length || v.price === undefined ? null : money(v.price);
      variant.damageCharges = v.subVariants.length || v.damageCharges === undefined ? null : money(v.damageCharges);
      const subVariants = v.subVariants.map((s, j) => {
        const sub =
          (s.id ? subsById.get(s.id) : undefined) ??
          tem.create(SubVariantEntity, { id: randomUUID(), variantId: variant.id, name: s.name, position: j, price: money(s.price), damageCharges: money(s.damageCharges), createdAt: now });
        tem.persist(sub);
        sub.name = s.name;
        sub.position = j;
        sub.price = money(s.price);
        sub.damageCharges = money(s.damageCharges);
        return sub;
      });
      return { variant, subVariants };
    });
    tem.assign(product, {
      name: input.name,
      brand: input.brand,
      description: input.description,
      type: input.type,
      image: input.image,
      price: money(input.price),
      damageCharges: money(input.damageCharges),
      updatedAt: now,
    });
    const t: ProductTree = { product, variants };
    const version = (await bumpAggregateVersion(tem, 'products', id))!;
    recordEvent(tem, SOURCE, { type: EVENTS.catalog.productUpdated, aggregateId: id, data: snapshot(t), version });
    await tem.flush();
    await writePriceRange(tem, id);
    return t;
  });
  return toProduct(tree, await countsFor(em, [id]));
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

export interface ProductFilter {
  type?: ProductType;
  search?: string;
  includeArchived?: boolean;
  limit: number;
  offset: number;
}

async function findProducts(em: EntityManager, f: ProductFilter): Promise<{ rows: ProductRow[]; total: number }> {
  const where: Record<string, unknown> = {};
  if (!f.includeArchived) where.archivedAt = null;
  if (f.type) where.type = f.type;
  if (f.search) {
    const like = containsPattern(f.search);
    where.$or = [{ name: { $ilike: like } }, { brand: { $ilike: like } }];
  }
  const [rows, total] = await em.findAndCount(ProductEntity, where, { orderBy: { name: 'asc', id: 'asc' }, limit: f.limit, offset: f.offset });
  return { rows, total };
}

/** Staff list: whole products with counts at every level. */
export async function listProducts(em: EntityManager, f: ProductFilter): Promise<{ items: Product[]; total: number }> {
  const { rows, total } = await findProducts(em, f);
  const trees = await loadTrees(em, rows);
  const counts = await countsFor(em, rows.map((r) => r.id));
  return { items: trees.map((t) => toProduct(t, counts)), total };
}

/**
 * Stores the product's price range on its row for the shop list (migrations/0005_price_range.ts):
 * over the sub-variants, the variants without sub-variants (at their price or the product's), or
 * the product's own price. Called after every write of the product tree, in its transaction.
 */
async function writePriceRange(em: EntityManager, productId: string): Promise<void> {
  const v = qualified(em, 'variants');
  const sv = qualified(em, 'sub_variants');
  await em.execute(
    `update ${qualified(em, 'products')} p set (price_min, price_max) = (
       select coalesce(min(x.price), p.price), coalesce(max(x.price), p.price) from (
         select s.price from ${v} vv join ${sv} s on s.variant_id = vv.id where vv.product_id = p.id
         union all
         select coalesce(vv.price, p.price) from ${v} vv
          where vv.product_id = p.id and not exists (select 1 from ${sv} s where s.variant_id = vv.id)
       ) x)
     where p.id = ?`,
    [productId],
  );
}

/**
 * Shop list: cards with price range (over the leaves a customer can pick), availability and sold
 * quantity, in one query (DESIGN §12: the product list is the shop's hottest read).
 */
export async function listProductCards(em: EntityManager, f: ProductFilter): Promise<{ items: ProductCard[]; total: number }> {
  const conds = ['p.archived_at is null'];
  const params: unknown[] = [];
  if (f.type) {
    conds.push('p.type = ?');
    params.push(f.type);
  }
  if (f.search) {
    const like = containsPattern(f.search);
    conds.push('(p.name ilike ? or p.brand ilike ?)');
    params.push(like, like);
  }
  const products = qualified(em, 'products');
  // The page in list order (an index on name, id), its price range from the row, availability
  // from the ledger, and the total as a separate count.
  const rows = await em.execute<Array<{ id: string; name: string; brand: string; image: string; type: ProductType; min: string; max: string; available: number; sold: number; total: number }>>(
    `with page as (
       select p.id, p.name, p.brand, p.image, p.type, coalesce(p.price_min, p.price) as min, coalesce(p.price_max, p.price) as max
         from ${products} p
        where ${conds.join(' and ')}
        order by p.name, p.id
        limit ? offset ?
     )
     select p.id, p.name, p.brand, p.image, p.type, p.min, p.max, lv.available, lv.sold,
            (select count(*) from ${products} p where ${conds.join(' and ')})::int as total
       from page p
       ${productLevelsSql(em)}
      order by p.name, p.id`,
    [...params, f.limit, f.offset, ...params],
  );
  let total = rows[0]?.total ?? 0;
  if (rows.length === 0 && f.offset > 0) {
    const c = await em.execute<Array<{ n: number }>>(`select count(*)::int as n from ${qualified(em, 'products')} p where ${conds.join(' and ')}`, params);
    total = c[0]?.n ?? 0;
  }
  return {
    total,
    items: rows.map((r) => ({
      id: r.id,
      name: r.name,
      brand: r.brand,
      image: r.image,
      type: r.type,
      priceMin: money(toCents(String(r.min))),
      priceMax: money(toCents(String(r.max))),
      availableQuantity: r.available,
      soldQuantity: r.sold,
      inStock: r.available > 0,
    })),
  };
}
