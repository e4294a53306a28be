import { Migration } from '@dme/platform';

/**
 * Extensions of rentals (issue 25): what each extension of an order did to its bookings, so that
 * asking again (the order service retrying after its own transaction failed) converges on the
 * same days instead of adding them twice. And the customer of a rental's bookings (from
 * `dme.order.placed`), so a customer can be told their booking is at risk.
 */
export class CatalogBookingExtensions extends Migration {
  override async up(): Promise<void> {
    const s = this.config.get('schema');
    this.addSql(`create table "${s}"."booking_extensions" (
      "order_id" uuid not null,
      "seq" int not null check ("seq" >= 1),
      "days" int not null check ("days" >= 0),
      "created_at" timestamptz not null default now(),
      "updated_at" timestamptz not null default now(),
      primary key ("order_id", "seq")
    )`);
    this.addSql(`alter table "${s}"."bookings" add column "customer_id" uuid null`);
    this.addSql(`create index "bookings_customer_idx" on "${s}"."bookings" ("customer_id") where "customer_id" is not null and "status" = 'ACTIVE'`);
  }
}
