import { Migration } from '@dme/platform';

export class CatalogReservations extends Migration {
  override async up(): Promise<void> {
    const s = this.config.get('schema');
    // Quantity held for an order at one leaf (product, variant or sub-variant). HELD until the
    // order is committed (then CONFIRMED); RELEASED on cancel, EXPIRED if never confirmed.
    this.addSql(`create table "${s}"."reservations" (
      "id" uuid primary key,
      "order_id" uuid not null,
      "product_id" uuid not null references "${s}"."products" ("id") deferrable initially deferred,
      "variant_id" uuid null,
      "sub_variant_id" uuid null,
      "leaf_id" uuid not null,
      "quantity" int not null check ("quantity" > 0),
      "status" varchar(10) not null check ("status" in ('HELD','CONFIRMED','RELEASED','EXPIRED','CONSUMED')),
      "expires_at" timestamptz null,
      "created_at" timestamptz not null default now(),
      "updated_at" timestamptz not null default now()
    )`);
    this.addSql(`create index "reservations_active_leaf_idx" on "${s}"."reservations" ("leaf_id") include ("quantity") where "status" in ('HELD','CONFIRMED')`);
    this.addSql(`create index "reservations_order_idx" on "${s}"."reservations" ("order_id")`);
    this.addSql(`create index "reservations_product_idx" on "${s}"."reservations" ("product_id") where "status" in ('HELD','CONFIRMED')`);
    this.addSql(`create index "reservations_expiry_idx" on "${s}"."reservations" ("expires_at") where "status" = 'HELD'`);
  }
}
