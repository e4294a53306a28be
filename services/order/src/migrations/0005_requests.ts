import { Migration } from '@dme/platform';

/**
 * Fix or replace requests of customers on ongoing rentals (issue 10, SPEC §3 Order request):
 * the order, its customer (ownership is checked on the order, kept here for the event), type,
 * status PENDING → ON_PROGRESS → DONE, the customer's note and the order lines it is about.
 * Also an index for the ongoing-rentals tabs (delivered rentals by status).
 */
export class OrderingRequests extends Migration {
  override async up(): Promise<void> {
    const s = this.config.get('schema');
    this.addSql(`create table "${s}"."order_requests" (
      "id" uuid primary key,
      "order_id" uuid not null references "${s}"."orders" ("id") on delete cascade,
      "customer_id" uuid not null,
      "type" varchar(7) not null check ("type" in ('FIX','REPLACE')),
      "status" varchar(11) not null default 'PENDING' check ("status" in ('PENDING','ON_PROGRESS','DONE')),
      "user_note" varchar(500) not null default '',
      "line_ids" uuid[] not null check (cardinality("line_ids") between 1 and 100),
      "created_at" timestamptz not null default now(),
      "updated_at" timestamptz not null default now()
    )`);
    this.addSql(`create index "order_requests_order_idx" on "${s}"."order_requests" ("order_id", "created_at")`);
    this.addSql(`create index "orders_rentals_status_idx" on "${s}"."orders" ("status", "delivered_at") where "type" = 'RENT'`);
  }
}
