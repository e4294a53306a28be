import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { CATALOG_MESSAGES, EVENTS, manilaDate, STOCK_ITEM_START, STOCK_STATUS_INVENTORY, type AddStockRequest as AddStockSchema, type StockItem } from '@dme/contracts';
import { badRequest, conflict, equalsFilters, notFound, qualified, recordEvent, newId } from '@dme/platform';
import type { z } from 'zod';
import { ProductEntity, SubVariantEntity, VariantEntity, type ProductRow } from '../products/product.entity';
import { BinEntity } from '../bins/bin.entity';
import { StockBatchEntity, StockItemEntity, type StockItemRow } from './stock.entity';
import { SOURCE } from '../products/product.service';
import { listTotal } from '../list-total';
import { appendCustody, type Actor } from '../custody/custody';
import { unitTakenTodaySql } from './counts';

type AddStock = z.output<typeof AddStockSchema>;
const M = CATALOG_MESSAGES.stock;

/** A readable serial-code prefix from the product name ("Wheelchair" → "WHE"). */
export function serialPrefix(productName: string): string {
  const letters = productName.toUpperCase().replace(/[^A-Z0-9]/g, '');
  return (letters + 'XXX').slice(0, 3);
}

/** The level of the product tree stock is added at, with its names. */
interface Level {
  variantId: string | null;
  subVariantId: string | null;
  variantName: string | null;
  subVariantName: string | null;
}

/** The level (product, variant or sub-variant) Add Stock puts the items at: the product tree's leaf the input names, or 400. */
async function stockLevelOf(tem: EntityManager, product: ProductRow, input: AddStock): Promise<Level> {
  const none: Level = { variantId: null, subVariantId: null, variantName: null, subVariantName: null };
  const variants = await tem.find(VariantEntity, { productId: product.id });
  if (variants.length === 0) {
    if (input.productVariantID || input.productSubVariantID) throw badRequest(M.levelNone, [{ field: 'productVariantID', message: M.levelNone }]);
    return none;
  }
  const variant = variants.find((v) => v.id === input.productVariantID);
  if (!input.productVariantID) throw badRequest(M.levelVariant, [{ field: 'productVariantID', message: M.levelVariant }]);
  if (!variant) throw badRequest(M.unknownVariant, [{ field: 'productVariantID', message: M.unknownVariant }]);
  const atVariant: Level = { ...none, variantId: variant.id, variantName: variant.name };
  const subs = await tem.find(SubVariantEntity, { variantId: variant.id });
  if (subs.length === 0) {
    if (input.productSubVariantID) throw badRequest(M.unknownVariant, [{ field: 'productSubVariantID', message: M.unknownVariant }]);
    return atVariant;
  }
  if (!input.productSubVariantID) throw badRequest(M.levelSubVariant, [{ field: 'productSubVariantID', message: M.levelSubVariant }]);
  const sub = subs.find((s) => s.id === input.productSubVariantID);
  if (!sub) throw badRequest(M.unknownVariant, [{ field: 'productSubVariantID', message: M.unknownVariant }]);
  return { ...atVariant, subVariantId: sub.id, subVariantName: sub.name };
}

/** An item just added, as the API answers it. */
function addedItem(i: StockItemRow, names: { product: string; bin: string }, level: Level): StockItem {
  return {
    id: i.id,
    serialCode: i.serialCode,
    status: i.status,
    inventoryType: i.inventoryType,
    productID: i.productId,
    productName: names.product,
    productVariantID: i.variantId ?? null,
    variantName: level.variantName,
    productSubVariantID: i.subVariantId ?? null,
    subVariantName: level.subVariantName,
    warehouseBinID: i.warehouseBinId,
    warehouseBin: { name: names.bin },
    batchID: i.batchId,
    createdAt: i.createdAt.toISOString(),
    updatedAt: i.updatedAt.toISOString(),
    reservedFor: null,
  };
}

/**
 * Add Stock: creates `quantity` items at the leaf level of the product, each with a unique serial
 * code from a PostgreSQL sequence (safe under concurrent requests), in the status a unit starts
 * in (STOCK_ITEM_START of the stock-item table: AVAILABLE, inventory IN), in one transaction with
 * the batch and its event. Quantities cannot be changed afterwards.
 * The stock ledger (`stock_levels`) counts the new items in the same statement that inserts them
 * (a trigger on stock_items, migrations/0004_stock_levels.ts), as it does for every status change.
 */
export async function addStock(em: EntityManager, input: AddStock, actor: string | Actor | null): Promise<{ batchID: string; items: StockItem[] }> {
  const by: Actor | null = typeof actor === 'string' ? { userId: actor, name: null } : actor;
  const actorId = by?.userId ?? null;
  return em.transactional(async (tem) => {
    // Share locks: concurrent Add Stock calls do not wait for each other, but a product edit
    // (which may remove a variant), a product delete and a bin delete wait for this transaction
    // (and this one for them), so stock never lands on a level or in a bin that is going away.
    const product = await tem.findOne(ProductEntity, { id: input.productID }, { lockMode: LockMode.PESSIMISTIC_READ });
    if (!product) throw notFound('Product not found.');
    if (product.archivedAt) throw conflict(M.archivedProduct);
    const bin = await tem.findOne(BinEntity, { id: input.warehouseBinID }, { lockMode: LockMode.PESSIMISTIC_READ });
    if (!bin) throw badRequest(M.unknownBin, [{ field: 'warehouseBinID', message: M.unknownBin }]);

    const level = await stockLevelOf(tem, product, input);
    const { variantId, subVariantId } = level;

    const seq = qualified(tem, 'serial_seq');
    const numbers = await tem.execute<Array<{ n: string }>>(`select nextval('${seq}') as n from generate_series(1, ?)`, [input.quantity]);
    const prefix = serialPrefix(product.name);
    const now = new Date();
    const batch = tem.create(StockBatchEntity, {
      id: newId(),
      productId: product.id,
      variantId,
      subVariantId,
      warehouseBinId: bin.id,
      quantity: input.quantity,
      createdBy: actorId,
      createdAt: now,
    });
    tem.persist(batch);
    const items = numbers.map((r) => {
      const item = tem.create(StockItemEntity, {
        id: newId(),
        serialCode: `${prefix}-${String(r.n).padStart(7, '0')}`,
        productId: product.id,
        variantId,
        subVariantId,
        warehouseBinId: bin.id,
        batchId: batch.id,
        status: STOCK_ITEM_START.status,
        inventoryType: STOCK_STATUS_INVENTORY[STOCK_ITEM_START.status],
        createdAt: now,
        updatedAt: now,
      });
      tem.persist(item);
      return item;
    });
    recordEvent(tem, SOURCE, {
      type: EVENTS.catalog.stockAdded,
      aggregateId: product.id,
      data: {
        batchId: batch.id,
        productId: product.id,
        variantId,
        subVariantId,
        warehouseBinId: bin.id,
        quantity: input.quantity,
        serialCodes: items.map((i) => i.serialCode),
      },
    });
    await tem.flush();
    // Every unit's chain of custody starts here: stocked, in this bin, by whom (issue 26).
    await appendCustody(tem, items.map((i) => i.id), { kind: 'STOCKED', by, status: STOCK_ITEM_START.status });
    return {
      batchID: batch.id,
      items: items.map((i) => addedItem(i, { product: product.name, bin: bin.name }, level)),
    };
  });
}

export interface StockFilter {
  id?: string;
  productID?: string;
  productVariantID?: string;
  productSubVariantID?: string;
  warehouseBinID?: string;
  batchID?: string;
  serialCode?: string;
  status?: string;
  limit: number;
  offset: number;
}

type Row = {
  id: string;
  serial_code: string;
  status: StockItem['status'];
  inventory_type: StockItem['inventoryType'];
  product_id: string;
  product_name: string;
  variant_id: string | null;
  variant_name: string | null;
  sub_variant_id: string | null;
  sub_variant_name: string | null;
  warehouse_bin_id: string;
  bin_name: string;
  batch_id: string;
  created_at: string;
  updated_at: string;
  reserved_kind: 'RENTAL' | 'DOWNTIME' | null;
  reserved_order_id: string | null;
  reserved_order_number: string | null;
  reserved_until: string | null;
  total: number;
};

/** Stock items with their product, variant, sub-variant and bin names; newest first. */
export async function listStock(em: EntityManager, f: StockFilter): Promise<{ items: StockItem[]; total: number }> {
  const { conds, params } = equalsFilters([
    ['s.id', f.id],
    ['s.product_id', f.productID],
    ['s.variant_id', f.productVariantID],
    ['s.sub_variant_id', f.productSubVariantID],
    ['s.warehouse_bin_id', f.warehouseBinID],
    ['s.batch_id', f.batchID],
    ['s.serial_code', f.serialCode],
    ['s.status', f.status],
  ]);
  const where = conds.length ? `where ${conds.join(' and ')}` : '';
  const rows = await em.execute<Row[]>(
    `select s.id, s.serial_code, s.status, s.inventory_type, s.product_id, p.name as product_name,
            s.variant_id, v.name as variant_name, s.sub_variant_id, sv.name as sub_variant_name,
            s.warehouse_bin_id, b.name as bin_name, s.batch_id, s.created_at, s.updated_at,
            rb.kind as reserved_kind, rb.order_id as reserved_order_id, rb.order_number as reserved_order_number,
            to_char(upper(rb.period) - 1, 'YYYY-MM-DD') as reserved_until,
            count(*) over ()::int as total
       from ${qualified(em, 'stock_items')} s
       join ${qualified(em, 'products')} p on p.id = s.product_id
       join ${qualified(em, 'warehouse_bins')} b on b.id = s.warehouse_bin_id
       left join ${qualified(em, 'variants')} v on v.id = s.variant_id
       left join ${qualified(em, 'sub_variants')} sv on sv.id = s.sub_variant_id
       left join lateral (
         select bt.kind, bt.order_id, bt.order_number, bt.period from ${qualified(em, 'bookings')} bt
          where bt.stock_item_id = s.id and ${unitTakenTodaySql('bt', 's', '?::date')}
          limit 1
       ) rb on true
      ${where}
      order by s.created_at desc, s.serial_code desc
      limit ? offset ?`,
    [manilaDate(), ...params, f.limit, f.offset],
  );
  return {
    total: await listTotal(em, rows, f.offset, `select count(*)::int as n from ${qualified(em, 'stock_items')} s ${where}`, params),
    items: rows.map((r) => ({
      ...unitBaseOf(r),
      productVariantID: r.variant_id,
      variantName: r.variant_name,
      productSubVariantID: r.sub_variant_id,
      subVariantName: r.sub_variant_name,
      warehouseBinID: r.warehouse_bin_id,
      warehouseBin: { name: r.bin_name },
      batchID: r.batch_id,
      createdAt: new Date(r.created_at).toISOString(),
      updatedAt: new Date(r.updated_at).toISOString(),
      reservedFor: r.reserved_kind
        ? { kind: r.reserved_kind === 'RENTAL' ? ('ORDER' as const) : ('DOWNTIME' as const), orderID: r.reserved_order_id, orderNumber: r.reserved_order_number, until: r.reserved_until! }
        : null,
    })),
  };
}

/** What a stock item and a unit of the board have in common, from a row of `stock_items` with its product's name. */
export function unitBaseOf(r: { id: string; serial_code: string; status: StockItem['status']; inventory_type: StockItem['inventoryType']; product_id: string; product_name: string }) {
  return { id: r.id, serialCode: r.serial_code, status: r.status, inventoryType: r.inventory_type, productID: r.product_id, productName: r.product_name };
}

export async function getStockItem(em: EntityManager, id: string): Promise<StockItem> {
  const { items } = await listStock(em, { id, limit: 1, offset: 0 });
  if (!items[0]) throw notFound('Stock item not found.');
  return items[0];
}

/** The stock item with this serial code (matched whatever its case), or 404. */
export async function getStockItemBySerial(em: EntityManager, serialCode: string): Promise<StockItem> {
  const { items } = await listStock(em, { serialCode: serialCode.trim().toUpperCase(), limit: 1, offset: 0 });
  if (!items[0]) throw notFound('Stock item not found.');
  return items[0];
}
