import { Migration } from '@dme/platform';

/**
 * Dated rentals (issue 25): bookings per unit (serial) over days, and downtime.
 *
 * A booking takes one stock item for a range of Manila days, [start, end): a rental's from its
 * first day to its due date plus the product's turnaround days (cleaning, inspection), a
 * downtime's from its first to its last day + 1. The exclusion constraint makes two ACTIVE ones
 * on the same unit for overlapping days impossible, whatever the application does (btree_gist
 * gives uuid equality a GiST operator class). A returned unit's booking is cut to
 * its return day plus turnaround; a cancelled one (order cancelled, hold lapsed, downtime removed)
 * is kept as history and no longer takes the unit.
 *
 * A rental's reservation rows are `dated`: its units are held by bookings, not by the leaf's
 * `reserved` count, which from now on counts only the undated holds of orders placed before.
 */
export class CatalogBookings extends Migration {
  override async up(): Promise<void> {
    const s = this.config.get('schema');
    this.addSql(`create extension if not exists btree_gist`);
    this.addSql(`alter table "${s}"."products" add column "turnaround_days" int not null default 1 check ("turnaround_days" between 0 and 30)`);
    this.addSql(`alter table "${s}"."reservations" add column "dated" boolean not null default false`);
    this.addSql(`create table "${s}"."bookings" (
      "id" uuid primary key,
      "kind" varchar(10) not null check ("kind" in ('RENTAL','DOWNTIME')),
      "order_id" uuid null,
      "order_number" varchar(40) null,
      "customer_name" varchar(200) null,
      "stock_item_id" uuid not null references "${s}"."stock_items" ("id") on delete cascade,
      "leaf_id" uuid not null,
      "product_id" uuid not null,
      "period" daterange not null,
      "due_date" date not null,
      "reason" varchar(12) null check ("reason" in ('MAINTENANCE','REPAIR','MISSING')),
      "note" varchar(300) not null default '',
      "status" varchar(10) not null check ("status" in ('ACTIVE','CANCELLED')),
      "created_at" timestamptz not null default now(),
      "updated_at" timestamptz not null default now(),
      constraint "bookings_period_ck" check (not isempty("period") and lower_inc("period") and not upper_inc("period") and not lower_inf("period") and not upper_inf("period")),
      constraint "bookings_kind_ck" check (("kind" = 'RENTAL') = ("order_id" is not null) and ("kind" = 'DOWNTIME') = ("reason" is not null)),
      constraint "bookings_due_ck" check ("due_date" >= lower("period") and "due_date" <= upper("period")),
      constraint "bookings_no_overlap" exclude using gist ("stock_item_id" with =, "period" with &&) where ("status" = 'ACTIVE')
    )`);
    this.addSql(`create index "bookings_leaf_period_idx" on "${s}"."bookings" using gist ("leaf_id", "period") where "status" = 'ACTIVE'`);
    this.addSql(`create index "bookings_product_period_idx" on "${s}"."bookings" using gist ("product_id", "period") where "status" = 'ACTIVE'`);
 // Units of a leaf, in the order bookings take them (the leaf's free units, by serial code).
    this.addSql(`create index "stock_items_leaf_idx" on "${s}"."stock_items" ((coalesce("sub_variant_id", "variant_id", "product_id")), "serial_code")`);
    this.addSql(`create index "bookings_order_idx" on "${s}"."bookings" ("order_id") where "order_id" is not null`);
  }
}
