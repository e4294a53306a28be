import { Migration } from '@dme/platform';

/**
 * Rental extensions (issue 25): each time a rental got more days, who asked and what the days
 * added to its total, numbered per order (the catalog's bookings follow extension `seq` once).
 */
export class OrderingExtensions extends Migration {
  override async up(): Promise<void> {
    const s = this.config.get('schema');
    this.addSql(`create table "${s}"."order_extensions" (
      "id" uuid primary key,
      "order_id" uuid not null references "${s}"."orders" ("id") on delete cascade,
      "seq" int not null check ("seq" >= 1),
      "days" int not null check ("days" >= 1),
      "amount" numeric(12,2) not null check ("amount" >= 0),
      "by_kind" varchar(10) not null check ("by_kind" in ('CUSTOMER','STAFF')),
      "by_user_id" uuid not null,
      "created_at" timestamptz not null default now(),
      unique ("order_id", "seq")
    )`);
  }
}
