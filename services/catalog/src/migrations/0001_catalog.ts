import { Migration } from '@dme/platform';

export class CatalogInitial extends Migration {
  override async up(): Promise<void> {
    const s = this.config.get('schema');
    this.addSql(`create sequence "${s}"."serial_seq" start 1`);
    this.addSql(`create table "${s}"."warehouse_bins" (
      "id" uuid primary key,
      "name" varchar(100) not null,
      "description" varchar(500) not null,
      "created_at" timestamptz not null default now(),
      "updated_at" timestamptz not null default now()
    )`);
    this.addSql(`create unique index "warehouse_bins_name_uq" on "${s}"."warehouse_bins" (lower("name"))`);
    this.addSql(`create table "${s}"."products" (
      "id" uuid primary key,
      "name" varchar(100) not null,
      "brand" varchar(100) not null,
      "description" varchar(4000) not null,
      "type" varchar(10) not null check ("type" in ('FOR_RENT','FOR_SALE')),
      "image" varchar(300) not null,
      "price" numeric(12,2) not null check ("price" >= 0),
      "damage_charges" numeric(12,2) not null check ("damage_charges" >= 0),
      "archived_at" timestamptz null,
      "created_at" timestamptz not null default now(),
      "updated_at" timestamptz not null default now()
    )`);
    this.addSql(`create index "products_shop_idx" on "${s}"."products" ("type", lower("name")) where "archived_at" is null`);
    this.addSql(`create table "${s}"."variants" (
      "id" uuid primary key,
      "product_id" uuid not null references "${s}"."products" ("id") on delete cascade deferrable initially deferred,
      "name" varchar(100) not null,
      "position" int not null,
      "price" numeric(12,2) null check ("price" >= 0),
      "damage_charges" numeric(12,2) null check ("damage_charges" >= 0),
      "created_at" timestamptz not null default now()
    )`);
    this.addSql(`create unique index "variants_name_uq" on "${s}"."variants" ("product_id", lower("name"))`);
    this.addSql(`create table "${s}"."sub_variants" (
      "id" uuid primary key,
      "variant_id" uuid not null references "${s}"."variants" ("id") on delete cascade deferrable initially deferred,
      "name" varchar(100) not null,
      "position" int not null,
      "price" numeric(12,2) not null check ("price" >= 0),
      "damage_charges" numeric(12,2) not null check ("damage_charges" >= 0),
      "created_at" timestamptz not null default now()
    )`);
    this.addSql(`create unique index "sub_variants_name_uq" on "${s}"."sub_variants" ("variant_id", lower("name"))`);
    this.addSql(`create table "${s}"."stock_batches" (
      "id" uuid primary key,
      "product_id" uuid not null references "${s}"."products" ("id") deferrable initially deferred,
      "variant_id" uuid null references "${s}"."variants" ("id") deferrable initially deferred,
      "sub_variant_id" uuid null references "${s}"."sub_variants" ("id") deferrable initially deferred,
      "warehouse_bin_id" uuid not null references "${s}"."warehouse_bins" ("id") deferrable initially deferred,
      "quantity" int not null check ("quantity" between 1 and 500),
      "created_by" uuid null,
      "created_at" timestamptz not null default now()
    )`);
    // Foreign keys are checked at commit (deferred), so rows of one transaction can be written in
    // any order. Stock items keep their product, variant and bin for good: no cascade, history is kept.
    this.addSql(`create table "${s}"."stock_items" (
      "id" uuid primary key,
      "serial_code" varchar(40) not null unique,
      "product_id" uuid not null references "${s}"."products" ("id") deferrable initially deferred,
      "variant_id" uuid null references "${s}"."variants" ("id") deferrable initially deferred,
      "sub_variant_id" uuid null references "${s}"."sub_variants" ("id") deferrable initially deferred,
      "warehouse_bin_id" uuid not null references "${s}"."warehouse_bins" ("id") deferrable initially deferred,
      "batch_id" uuid not null references "${s}"."stock_batches" ("id") deferrable initially deferred,
      "status" varchar(12) not null check ("status" in ('AVAILABLE','RENTED','DAMAGED','SOLD','LOST')),
      "inventory_type" varchar(3) not null check ("inventory_type" in ('IN','OUT')),
      "created_at" timestamptz not null default now(),
      "updated_at" timestamptz not null default now()
    )`);
    this.addSql(`create index "stock_items_level_idx" on "${s}"."stock_items" ("product_id", "variant_id", "sub_variant_id", "status")`);
    this.addSql(`create index "stock_items_bin_idx" on "${s}"."stock_items" ("warehouse_bin_id", "created_at" desc)`);
    this.addSql(`create index "stock_items_batch_idx" on "${s}"."stock_items" ("batch_id")`);
  }
}

import { CatalogReservations } from './0002_reservations';
import { CatalogVersions } from './0003_versions';
import { CatalogStockLevels } from './0004_stock_levels';
import { CatalogPriceRange } from './0005_price_range';
import { CatalogPacking } from './0006_packing';
import { CatalogUploads } from './0007_uploads';
import { CatalogBookings } from './0008_bookings';
import { CatalogBookingExtensions } from './0009_booking_extensions';
import { CatalogUnitLifecycle } from './0010_unit_lifecycle';
import { CatalogMaintenance } from './0011_maintenance';
import { CatalogRecalls } from './0012_recalls';
import { CatalogBinAudits } from './0013_bin_audits';
import { CatalogProductSearch } from './0014_product_search';
import { CatalogSearchIndexDirect } from './0015_search_index_direct';
import { CatalogRentalTerms } from './0016_rental_terms';
import { CatalogBoughtOut } from './0017_bought_out';
import { CatalogRateLimits } from './0018_rate_limits';

export const migrations = [
  { name: '0001_catalog', class: CatalogInitial },
  { name: '0002_reservations', class: CatalogReservations },
  { name: '0003_versions', class: CatalogVersions },
  { name: '0004_stock_levels', class: CatalogStockLevels },
  { name: '0005_price_range', class: CatalogPriceRange },
  { name: '0006_packing', class: CatalogPacking },
  { name: '0007_uploads', class: CatalogUploads },
  { name: '0008_bookings', class: CatalogBookings },
  { name: '0009_booking_extensions', class: CatalogBookingExtensions },
  { name: '0010_unit_lifecycle', class: CatalogUnitLifecycle },
  { name: '0011_maintenance', class: CatalogMaintenance },
  { name: '0012_recalls', class: CatalogRecalls },
  { name: '0013_bin_audits', class: CatalogBinAudits },
  { name: '0014_product_search', class: CatalogProductSearch },
  { name: '0015_search_index_direct', class: CatalogSearchIndexDirect },
  { name: '0016_rental_terms', class: CatalogRentalTerms },
  { name: '0017_bought_out', class: CatalogBoughtOut },
  { name: '0018_rate_limits', class: CatalogRateLimits },
];
