import { idempotencyTableSql, Migration } from '@dme/platform';

/**
 * The payment service's own tables (DESIGN §2: schema `payment`, never another service's). A
 * payment is opened by `dme.order.placed` and keeps what its invoice needs (order number, customer,
 * delivery address, lines with names), so it never asks the order service.
 */
export class PaymentInitial extends Migration {
  override async up(): Promise<void> {
    const s = this.config.get('schema');
    this.addSql(`create table "${s}"."payments" (
      "id" uuid primary key,
      "order_id" uuid not null unique,
      "order_number" varchar(30) not null,
      "order_type" varchar(4) not null check ("order_type" in ('BUY','RENT')),
      "order_status" varchar(20) not null,
      "customer_id" uuid not null,
      "customer_name" varchar(200) not null,
      "customer" jsonb null,
      "delivery" jsonb null,
      "lines" jsonb not null,
      "status" varchar(20) not null check ("status" in ('PENDING','INITIAL_PAYMENT','FOR_FULL_PAYMENT','PAID','CANCELLED')),
      "type" varchar(7) null check ("type" in ('PARTIAL','FULL')),
      "total_order_payment" numeric(12,2) not null check ("total_order_payment" >= 0),
      "total_partial_payment" numeric(12,2) null,
      "extra_charge" numeric(12,2) null,
      "overall_total" numeric(12,2) null,
      "balance" numeric(12,2) not null,
      "amount_paid" numeric(12,2) not null default 0,
      "due_date" date null,
      "version" int not null default 0,
      "created_at" timestamptz not null,
      "updated_at" timestamptz not null default now()
    )`);
    this.addSql(`create index "payments_list_idx" on "${s}"."payments" ("created_at" desc, "id")`);
    this.addSql(`create index "payments_status_idx" on "${s}"."payments" ("status", "created_at" desc, "id")`);
    this.addSql(`create index "payments_customer_idx" on "${s}"."payments" ("customer_id")`);
    this.addSql(`create table "${s}"."payment_records" (
      "id" uuid primary key,
      "seq" bigserial not null unique,
      "payment_id" uuid not null references "${s}"."payments" ("id") on delete cascade,
      "type" varchar(7) not null check ("type" in ('PARTIAL','FULL')),
      "invoice_number" varchar(50) not null,
      "receipt_number" varchar(50) not null,
      "note" varchar(500) not null default '',
      "amount" numeric(12,2) not null,
      "accommodated_by" uuid not null,
      "accommodated_by_name" varchar(100) not null,
      "total_partial_payment" numeric(12,2) null,
      "extra_charge" numeric(12,2) null,
      "overall_total" numeric(12,2) null,
      "balance" numeric(12,2) not null,
      "due_date" date null,
      "created_at" timestamptz not null default now()
    )`);
    this.addSql(`create index "payment_records_payment_idx" on "${s}"."payment_records" ("payment_id", "seq")`);
    // Status events of an order whose dme.order.placed has not arrived yet (a relay batch that
    // failed halfway can publish them first): applied, in order, when it arrives.
    this.addSql(`create table "${s}"."early_order_events" (
      "seq" bigserial primary key,
      "order_id" uuid not null,
      "event_id" uuid not null,
      "occurred_at" timestamptz not null,
      "data" jsonb not null,
      "received_at" timestamptz not null default now()
    )`);
    this.addSql(`create index "early_order_events_order_idx" on "${s}"."early_order_events" ("order_id", "seq")`);
    this.addSql(idempotencyTableSql(String(s)));
  }
}

import { PaymentRefundDue } from './0002_refund_due';
import { PaymentDeposits } from './0003_deposits';
import { PaymentRefunds } from './0004_refunds';
import { PaymentExtensions } from './0005_extensions';
import { PaymentReconciliation } from './0006_reconciliation';
import { PaymentCycles } from './0007_cycles';
import { PaymentBuyOut } from './0008_buy_out';
import { PaymentIdempotencyLease } from './0009_idempotency_lease';
import { PaymentCounts } from './0010_payment_counts';

export const migrations = [
  { name: '0001_payment', class: PaymentInitial },
  { name: '0002_refund_due', class: PaymentRefundDue },
  { name: '0003_deposits', class: PaymentDeposits },
  { name: '0004_refunds', class: PaymentRefunds },
  { name: '0005_extensions', class: PaymentExtensions },
  { name: '0006_reconciliation', class: PaymentReconciliation },
  { name: '0007_cycles', class: PaymentCycles },
  { name: '0008_buy_out', class: PaymentBuyOut },
  { name: '0009_idempotency_lease', class: PaymentIdempotencyLease },
  { name: '0010_payment_counts', class: PaymentCounts },
];
