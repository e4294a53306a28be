import type { EntityManager } from '@mikro-orm/postgresql';
import { centsToString, manilaDate, toCents, type Cents, type Product, type ProductCard, type ProductType } from '@dme/contracts';
import { containsPattern, literal, qualified } from '@dme/platform';
import { ProductEntity, type ProductRow } from './product.entity';
import { loadTrees, money, toProduct } from './product-tree';
import { countsFor, productAvailableSql, productLevelsSql } from '../stock/counts';
import { listTotal } from '../list-total';

export interface ProductFilter {
  type?: ProductType;
  search?: string;
  /** The shop's filters (issue 27): a price the customer can pick within [minPrice, maxPrice]; in stock today only. */
  minPrice?: Cents;
  maxPrice?: Cents;
  available?: boolean;
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

/** The text-search configuration of `products.search_doc` (migrations/0014_product_search.ts). */
const TS_CONFIG = `'english'::regconfig`;
/** The text the trigram index covers (the same expression as products_search_trgm_idx). */
const NAME_BRAND = `(p.name || ' ' || p.brand)`;

/** The words of a search (at most 8; the rest of a long text is ignored). */
function searchWords(search: string | undefined): string[] {
  return (search ?? '').split(/\s+/).filter(Boolean).slice(0, 8);
}

/**
 * The shop list's conditions (archived products never show) and their parameters.
 *
 * A search matches when each of its words is a word of the name, brand or description (full
 * text, stemmed: "beds" finds "Bed"), a part of the name or brand ("chair" finds "Wheelchair"), or
 * close to a word of the name or brand (trigram word similarity ≥ pg_trgm's 0.6: "weelchair"
 * finds "Wheelchair").
 * The price filter keeps a product when some price the customer can pick is within the range.
 */
function cardConditions(em: EntityManager, f: ProductFilter, today: string): { where: string; params: unknown[] } {
  const conds = ['p.archived_at is null'];
  const params: unknown[] = [];
  if (f.type) {
    conds.push('p.type = ?');
    params.push(f.type);
  }
  for (const word of searchWords(f.search)) {
    // Each word must be found (so "Ledger 7f3a" narrows to that product, not every "Ledger"); a
    // stop word ("for", "the") has no lexeme and is passed over.
    conds.push(
      `(numnode(plainto_tsquery(${TS_CONFIG}, ?)) = 0 or p.search_doc @@ plainto_tsquery(${TS_CONFIG}, ?) or ${NAME_BRAND} ilike ? or ? operator(public.<%) ${NAME_BRAND})`,
    );
    params.push(word, word, containsPattern(word), word);
  }
  if (f.minPrice !== undefined) {
    conds.push('coalesce(p.price_max, p.price) >= ?::numeric');
    params.push(centsToString(f.minPrice));
  }
  if (f.maxPrice !== undefined) {
    conds.push('coalesce(p.price_min, p.price) <= ?::numeric');
    params.push(centsToString(f.maxPrice));
  }
  if (f.available) conds.push(`${productAvailableSql(em, today)} > 0`);
  return { where: conds.join(' and '), params };
}

/**
 * The list's order: without a search, by name (an index on name, id); with one, best match first:
 * full-text rank (a word of the name weighs most, then brand, then description), then trigram
 * similarity to the name and brand (typos, parts of words), then name.
 */
function cardOrder(f: ProductFilter): { select: string; params: unknown[]; order: string } {
  if (!f.search) return { select: '', params: [], order: 'p.name, p.id' };
  return {
    select: `, ts_rank(p.search_doc, websearch_to_tsquery(${TS_CONFIG}, ?)) as rank, public.word_similarity(?, ${NAME_BRAND}) as sim`,
    params: [f.search, f.search],
    order: 'p.rank desc, p.sim desc, p.name, p.id',
  };
}

type CardRow = { id: string; name: string; brand: string; image: string; type: ProductType; min: string; max: string; available: number; sold: number; total: number };

/**
 * Shop list: cards with price range (over the leaves a customer can pick, stored on the product
 * row by writePriceRange), availability and sold quantity, in one query (DESIGN §12: the product
 * list is the shop's hottest read).
 */
export async function listProductCards(em: EntityManager, f: ProductFilter): Promise<{ items: ProductCard[]; total: number }> {
  const today = `${literal(manilaDate())}::date`;
  const { where, params } = cardConditions(em, f, today);
  const order = cardOrder(f);
  const products = qualified(em, 'products');
  // The page in list order (an index on name, id; or the search's rank), its price range from
  // the row, availability from the ledger, and the total as a separate count.
  const rows = await em.execute<CardRow[]>(
    `with page as (
       select * from (
         select p.id, p.name, p.brand, p.image, p.type, coalesce(p.price_min, p.price) as min, coalesce(p.price_max, p.price) as max${order.select}
           from ${products} p
          where ${where}
       ) p
        order by ${order.order}
        limit ? offset ?
     )
     select p.id, p.name, p.brand, p.image, p.type, p.min, p.max, lv.available, lv.sold,
            (select count(*) from ${products} p where ${where})::int as total
       from page p
       ${productLevelsSql(em, today)}
      order by ${order.order}`,
    [...order.params, ...params, f.limit, f.offset, ...params],
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
