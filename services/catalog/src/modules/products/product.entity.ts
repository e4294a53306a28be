import { defineEntity, type InferEntity } from '@mikro-orm/core';
import type { ProductType, RentalTermsWire } from '@dme/contracts';

/** Money columns are numeric(12,2), read and written as decimal strings ("25.00"). */
export const ProductEntity = defineEntity({
  name: 'Product',
  tableName: 'products',
  properties: (p) => ({
    id: p.uuid().primary(),
    name: p.string().length(100),
    brand: p.string().length(100),
    description: p.string().length(4000),
    type: p.string().length(10).$type<ProductType>(),
    image: p.string().length(300),
    price: p.decimal('string').precision(12).scale(2),
    damageCharges: p.decimal('string').precision(12).scale(2),
    /** Days a returned unit needs before its next rental (issue 25; migrations/0008_bookings.ts). */
    turnaroundDays: p.integer().default(1),
    /** Points answered when a returned unit is inspected (issue 26; migrations/0010_unit_lifecycle.ts). */
    inspectionChecklist: p.json<string[]>().default([]),
    /** Preventive maintenance plan (issue 26; migrations/0011_maintenance.ts): every N rental days and/or M calendar days. */
    serviceEveryRentalDays: p.integer().nullable(),
    serviceEveryDays: p.integer().nullable(),
    serviceChecklist: p.json<string[]>().default([]),
    /** Rental money terms (issue 29; migrations/0016_rental_terms.ts), contracts RentalTermsSchema's wire form; null: none. */
    rentalTerms: p.json<RentalTermsWire>().nullable(),
    archivedAt: p.datetime().columnType('timestamptz').nullable(),
    createdAt: p.datetime().columnType('timestamptz'),
    updatedAt: p.datetime().columnType('timestamptz'),
  }),
});
export type ProductRow = InferEntity<typeof ProductEntity>;

export const VariantEntity = defineEntity({
  name: 'Variant',
  tableName: 'variants',
  properties: (p) => ({
    id: p.uuid().primary(),
    productId: p.uuid(),
    name: p.string().length(100),
    position: p.integer(),
    price: p.decimal('string').precision(12).scale(2).nullable(),
    damageCharges: p.decimal('string').precision(12).scale(2).nullable(),
    createdAt: p.datetime().columnType('timestamptz'),
  }),
});
export type VariantRow = InferEntity<typeof VariantEntity>;

export const SubVariantEntity = defineEntity({
  name: 'SubVariant',
  tableName: 'sub_variants',
  properties: (p) => ({
    id: p.uuid().primary(),
    variantId: p.uuid(),
    name: p.string().length(100),
    position: p.integer(),
    price: p.decimal('string').precision(12).scale(2),
    damageCharges: p.decimal('string').precision(12).scale(2),
    createdAt: p.datetime().columnType('timestamptz'),
  }),
});
export type SubVariantRow = InferEntity<typeof SubVariantEntity>;
