import type { EntityManager } from '@mikro-orm/postgresql';
import { manilaDate, toCents, type Product, type ProductCard, type ProductType } from '@dme/contracts';
import { containsPattern, literal, qualified } from '@dme/platform';
import { ProductEntity, type ProductRow } from './product.entity';
import { loadTrees, money, toProduct } from './product-tree';
import { countsFor, productLevelsSql } from '../stock/counts';
import { listTotal } from '../list-total';

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

/** The shop list's conditions (archived products never show) and their parameters. */
function cardConditions(f: ProductFilter): { where: string; params: unknown[] } {
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
  return { where: conds.join(' and '), params };
}

type CardRow = { id: string; name: string; brand: string; image: string; type: ProductType; min: string; max: string; available: number; sold: number; total: number };

/**
 * Shop list: cards with price range (over the leaves a customer can pick, stored on the product
 * row by writePriceRange), availability and sold quantity, in one query (DESIGN §12: the product
 * list is the shop's hottest read).
 */
export async function listProductCards(em: EntityManager, f: ProductFilter): Promise<{ items: ProductCard[]; total: number }> {
  const { where, params } = cardConditions(f);
  const products = qualified(em, 'products');
  // The page in list order (an index on name, id), its price range from the row, availability
  // from the ledger, and the total as a separate count.
  const rows = await em.execute<CardRow[]>(
    `with page as (
       select p.id, p.name, p.brand, p.image, p.type, coalesce(p.price_min, p.price) as min, coalesce(p.price_max, p.price) as max
         from ${products} p
        where ${where}
        order by p.name, p.id
        limit ? offset ?
     )
     select p.id, p.name, p.brand, p.image, p.type, p.min, p.max, lv.available, lv.sold,
            (select count(*) from ${products} p where ${where})::int as total
       from page p
       ${productLevelsSql(em, `${literal(manilaDate())}::date`)}
      order by p.name, p.id`,
    [...params, f.limit, f.offset, ...params],
  );
  return {
    total: await listTotal(em, rows, f.offset, `select count(*)::int as n from ${products} p where ${where}`, params),
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
