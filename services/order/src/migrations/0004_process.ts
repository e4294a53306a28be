import { Migration } from '@dme/platform';

/**
 * The order process executed (issue 9):
 *
 * - orders: when it was delivered (rental due dates), and what the full payment of a rental asks
 *   beyond the order total (the damage/lost fees at return, due a day after it was asked for).
 * - order_line_serials: the serial codes packed for each line (assigned in the catalog at
 *   PREPARING → TO_SHIP), with their return inspection (OK, DAMAGED, LOST) once returned.
 * - order_payments / order_payment_records: the payment read model, from `dme.payment.confirmed`
 *   (the payment service owns payments; the order shows their status, figures and records).
 * - an index for the staff list when no type is chosen (newest first).
 */
export class OrderingProcess extends Migration {
  override async up(): Promise<void> {
    const s = this.config.get('schema');
    this.addSql(`alter table "${s}"."orders"
      add column "delivered_at" timestamptz null,
      add column "extra_charge" numeric(12,2) null check ("extra_charge" >= 0),
      add column "full_payment_due" date null`);
    this.addSql(`create index "orders_created_idx" on "${s}"."orders" ("created_at" desc, "id")`);
    this.addSql(`create index "orders_driver_idx" on "${s}"."orders" ("driver_id", "status") where "driver_id" is not null`);
    this.addSql(`create table "${s}"."order_line_serials" (
      "id" uuid primary key,
      "order_id" uuid not null references "${s}"."orders" ("id") on delete cascade deferrable initially deferred,
      "line_id" uuid not null references "${s}"."order_lines" ("id") on delete cascade deferrable initially deferred,
      "position" int not null,
      "serial_code" varchar(40) not null,
      "return_status" varchar(10) null check ("return_status" in ('OK','DAMAGED','LOST')),
      "returned_at" timestamptz null,
      "created_at" timestamptz not null default now(),
      unique ("order_id", "serial_code")
    )`);
    this.addSql(`create index "order_line_serials_line_idx" on "${s}"."order_line_serials" ("line_id", "position")`);
    this.addSql(`create table "${s}"."order_payments" (
      "order_id" uuid primary key,
      "payment_id" uuid not null,
      "status" varchar(20) not null,
      "status_rank" int not null,
      "total_partial_payment" numeric(12,2) null,
      "extra_charge" numeric(12,2) null,
      "overall_total" numeric(12,2) null,
      "balance" numeric(12,2) null,
      "due_date" date null,
      "updated_at" timestamptz not null default now()
    )`);
    this.addSql(`create table "${s}"."order_payment_records" (
      "id" uuid primary key,
      "order_id" uuid not null,
      "payment_id" uuid not null,
      "type" varchar(7) not null check ("type" in ('PARTIAL','FULL')),
      "invoice_number" varchar(50) not null,
      "receipt_number" varchar(50) not null,
      "amount" numeric(12,2) not null,
      "note" varchar(500) not null default '',
      "created_at" timestamptz not null,
      unique ("order_id", "type")
    )`);
  }
}
