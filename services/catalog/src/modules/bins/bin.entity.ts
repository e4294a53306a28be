import { defineEntity, type InferEntity } from '@mikro-orm/core';

export const BinEntity = defineEntity({
  name: 'WarehouseBin',
  tableName: 'warehouse_bins',
  properties: (p) => ({
    id: p.uuid().primary(),
    name: p.string().length(100),
    description: p.string().length(500),
    createdAt: p.datetime().columnType('timestamptz'),
    updatedAt: p.datetime().columnType('timestamptz'),
  }),
});
export type BinRow = InferEntity<typeof BinEntity>;
