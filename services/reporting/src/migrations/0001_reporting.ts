import { Migration } from '@dme/platform';
import { ReportingExportFiles } from './0002_export_files';
import { ReportingEventFigures } from './0003_event_figures';
import { ReportingRentalMoney } from './0004_rental_money';
import { ReportingCyclePayments } from './0005_cycle_payments';
import { ReportingBuyOutPayments } from './0006_buy_out_payments';
import { ReportingReportDays } from './0007_report_days';
import { ReportingExportParts } from './0008_export_parts';
import { ReportingCancelledPaid } from './0009_cancelled_paid';
import { ReportingLinesDaysByKey } from './0010_lines_days_by_key';

/**
 * The reporting service's read models (DESIGN §2: schema `reporting`, never another service's),
 * built only from events. Facts are kept as they arrive (order lines, status changes, payments),
 * whatever their order across subjects; the order row's derived columns (status, payment status,
 * paid / asked times, extra charge) are recomputed from those facts after every event, so an
 * event that arrives early is never lost and an older one never overrides a newer one.
 *
 * Report queries filter on instants: a range of Manila days is turned into [from 00:00, to + 1
 * 00:00) Manila, so plain btree indexes on the timestamps serve them.
 */
export class ReportingInitial extends Migration {
  override async up(): Promise<void> {
    const s = this.config.get('schema');
    this.createProductsAndOrders(s);
    this.createOrderFacts(s);
    this.createPayments(s);
    this.createExports(s);
  }

  /** Products, and orders with the indexes of the sales reports. */
  private createProductsAndOrders(s: string | undefined): void {
    this.addSql(`create table "${s}"."products" (
      "id" uuid primary key,
      "brand" varchar(200) not null,
      "name" varchar(200) not null,
      "version" int not null
    )`);
    this.addSql(`create table "${s}"."orders" (
      "id" uuid primary key,
      "order_number" varchar(30) not null,
      "customer_id" uuid not null,
      "customer_name" varchar(200) not null,
      "type" varchar(4) not null check ("type" in ('BUY','RENT')),
      "total_amount" numeric(12,2) not null,
      "partial_payment" numeric(12,2) null,
      "placed_at" timestamptz not null,
      "status" varchar(20) not null default 'PENDING',
      "status_at" timestamptz null,
      "payment_status" varchar(20) not null default 'PENDING',
      "first_paid_at" timestamptz null,
      "full_paid_at" timestamptz null,
      "full_asked_at" timestamptz null,
      "full_due_date" date null,
      "extra_charge" numeric(12,2) null
    )`);
    // Purchased sales: purchases by full payment time; rental sales: rentals by first payment time;
    // unpaid rentals by the time their full payment was asked.
    this.addSql(`create index "orders_buy_paid_idx" on "${s}"."orders" ("full_paid_at") where "type" = 'BUY'`);
    this.addSql(`create index "orders_rent_first_paid_idx" on "${s}"."orders" ("first_paid_at") where "type" = 'RENT'`);
    this.addSql(`create index "orders_rent_asked_idx" on "${s}"."orders" ("full_asked_at", "id") where "type" = 'RENT' and "full_paid_at" is null`);
  }

  /** The facts of an order as they arrive: its lines and its status changes. */
  private createOrderFacts(s: string | undefined): void {
    this.addSql(`create table "${s}"."order_lines" (
      "order_id" uuid not null,
      "line_no" int not null,
      "product_id" uuid not null,
      "variant_id" uuid null,
      "sub_variant_id" uuid null,
      "product_name" varchar(200) not null,
      "variant_name" varchar(200) null,
      "sub_variant_name" varchar(200) null,
      "quantity" int not null,
      "no_of_rental_days" int null,
      "unit_price" numeric(12,2) not null,
      "line_total" numeric(12,2) not null,
      primary key ("order_id", "line_no")
    )`);
    this.addSql(`create table "${s}"."order_status_events" (
      "event_id" uuid primary key,
      "order_id" uuid not null,
      "from_status" varchar(20) not null,
      "to_status" varchar(20) not null,
      "extra_charge" numeric(12,2) null,
      "occurred_at" timestamptz not null
    )`);
    this.addSql(`create index "order_status_events_order_idx" on "${s}"."order_status_events" ("order_id", "occurred_at")`);
  }

  /** Confirmed payments, one row per payment and type. */
  private createPayments(s: string | undefined): void {
    this.addSql(`create table "${s}"."payments" (
      "payment_id" uuid not null,
      "type" varchar(7) not null check ("type" in ('PARTIAL','FULL')),
      "order_id" uuid not null,
      "order_number" varchar(30) not null,
      "order_type" varchar(4) not null check ("order_type" in ('BUY','RENT')),
      "amount" numeric(12,2) not null,
      "balance_after" numeric(12,2) not null,
      "status_after" varchar(20) not null,
      "invoice_number" varchar(50) not null,
      "receipt_number" varchar(50) not null,
      "confirmed_at" timestamptz not null,
      "accommodated_by" uuid not null,
      "version" int not null,
      primary key ("payment_id", "type")
    )`);
    this.addSql(`create index "payments_order_idx" on "${s}"."payments" ("order_id")`);
    this.addSql(`create index "payments_report_idx" on "${s}"."payments" ("order_type", "type", "confirmed_at", "payment_id")`);
  }

  /** Report exports and their progress. */
  private createExports(s: string | undefined): void {
    this.addSql(`create table "${s}"."exports" (
      "id" uuid primary key,
      "report" varchar(40) not null,
      "range_from" date not null,
      "range_to" date not null,
      "status" varchar(10) not null check ("status" in ('RUNNING','DONE','FAILED')),
      "rows_total" int not null default 0,
      "rows_written" int not null default 0,
      "created_by" uuid not null,
      "file_path" text not null,
      "error" text null,
      "created_at" timestamptz not null default now(),
      "updated_at" timestamptz not null default now()
    )`);
    this.addSql(`create index "exports_created_idx" on "${s}"."exports" ("created_at")`);
  }
}

export const migrations = [
  { name: '0001_reporting', class: ReportingInitial },
  { name: '0002_export_files', class: ReportingExportFiles },
  { name: '0003_event_figures', class: ReportingEventFigures },
  { name: '0004_rental_money', class: ReportingRentalMoney },
  { name: '0005_cycle_payments', class: ReportingCyclePayments },
  { name: '0006_buy_out_payments', class: ReportingBuyOutPayments },
  { name: '0007_report_days', class: ReportingReportDays },
  { name: '0008_export_parts', class: ReportingExportParts },
  { name: '0009_cancelled_paid', class: ReportingCancelledPaid },
  { name: '0010_lines_days_by_key', class: ReportingLinesDaysByKey },
];
