import { defineEntity, type InferEntity } from '@mikro-orm/core';
import type { InventoryType, StockStatus } from '@dme/contracts';

export const StockBatchEntity = defineEntity({
  name: 'StockBatch',
  tableName: 'stock_batches',
  properties: (p) => ({
    id: p.uuid().primary(),
    productId: p.uuid(),
    variantId: p.uuid().nullable(),
    subVariantId: p.uuid().nullable(),
    warehouseBinId: p.uuid(),
    quantity: p.integer(),
    createdBy: p.uuid().nullable(),
    createdAt: p.datetime().columnType('timestamptz'),
  }),
});
export type StockBatchRow = InferEntity<typeof StockBatchEntity>;

export const StockItemEntity = defineEntity({
  name: 'StockItem',
  tableName: 'stock_items',
  properties: (p) => ({
    id: p.uuid().primary(),
    serialCode: p.string().length(40),
    productId: p.uuid(),
    variantId: p.uuid().nullable(),
    subVariantId: p.uuid().nullable(),
    warehouseBinId: p.uuid(),
    batchId: p.uuid(),
    /** Its place in the stock-item table (contracts stock-status.ts); changed only by moveStockItems. */
    status: p.string().length(12).$type<StockStatus>(),
    inventoryType: p.string().length(3).$type<InventoryType>(),
    /** The order the item was packed for (set by packing, migrations/0006_packing.ts). */
    orderId: p.uuid().nullable(),
    createdAt: p.datetime().columnType('timestamptz'),
    updatedAt: p.datetime().columnType('timestamptz'),
  }),
});
export type StockItemRow = InferEntity<typeof StockItemEntity>;
