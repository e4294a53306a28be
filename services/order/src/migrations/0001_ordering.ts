import { Migration } from '@dme/platform';

export class OrderingInitial extends Migration {
  override async up(): Promise<void> {
    const s = this.config.get('schema');
    this.addSql(`create sequence "${s}"."order_number_seq" start 1`);
    this.createReadModels(s);
    this.createCart(s);
    this.createOrders(s);
    this.createIdempotencyKeys(s);
  }

  private createReadModels(s: string | undefined): void {
    // Read models fed by events (DESIGN §2: services never read each other's tables).
    this.addSql(`create table "${s}"."customers" (
      "id" uuid primary key,
      "id_number" varchar(20) not null,
      "username" varchar(50) not null,
      "first_name" varchar(60) not null,
      "middle_name" varchar(60) not null,
      "last_name" varchar(60) not null,
      "suffix" varchar(20) not null,
      "email" varchar(254) not null,
      "contact_number" varchar(30) not null,
      "user_type" varchar(30) not null,
      "status" varchar(20) not null,
      "deleted" boolean not null default false,
      "updated_at" timestamptz not null default now()
    )`);
    this.addSql(`create table "${s}"."products" (
      "id" uuid primary key,
      "name" varchar(100) not null,
      "brand" varchar(100) not null,
      "image" varchar(300) not null,
      "type" varchar(10) not null,
      "price" numeric(12,2) not null,
      "damage_charges" numeric(12,2) not null,
      "variants" jsonb not null,
      "archived" boolean not null default false,
      "updated_at" timestamptz not null default now()
    )`);
  }

  private createCart(s: string | undefined): void {
    this.addSql(`create table "${s}"."cart_items" (
      "id" uuid primary key,
      "customer_id" uuid not null,
      "type" varchar(4) not null check ("type" in ('RENT','BUY')),
      "product_id" uuid not null,
      "variant_id" uuid null,
      "sub_variant_id" uuid null,
      "quantity" int not null check ("quantity" > 0),
      "no_of_rental_days" int null check ("no_of_rental_days" > 0),
      "created_at" timestamptz not null default now(),
      "updated_at" timestamptz not null default now()
    )`);
    this.addSql(`create unique index "cart_items_line_uq" on "${s}"."cart_items" ("customer_id", "type", "product_id", coalesce("variant_id", '00000000-0000-0000-0000-000000000000'), coalesce("sub_variant_id", '00000000-0000-0000-0000-000000000000'))`);
  }

  private createOrders(s: string | undefined): void {
    this.addSql(`create table "${s}"."orders" (
      "id" uuid primary key,
      "order_number" varchar(30) not null unique,
      "customer_id" uuid not null,
      "type" varchar(4) not null check ("type" in ('RENT','BUY')),
      "type_of_order" varchar(4) null check ("type_of_order" in ('BULK')),
      "status" varchar(20) not null,
      "total_amount" numeric(12,2) not null check ("total_amount" >= 0),
      "partial_payment" numeric(12,2) null,
      "delivery_address" varchar(12) not null,
      "delivery_city" varchar(80) not null,
      "delivery_state" varchar(80) not null,
      "delivery_zipcode" varchar(20) not null,
      "note" varchar(500) not null default '',
      "driver_id" uuid null,
      "created_at" timestamptz not null default now(),
      "updated_at" timestamptz not null default now()
    )`);
    this.addSql(`create index "orders_customer_idx" on "${s}"."orders" ("customer_id", "type", "created_at" desc)`);
    this.addSql(`create index "orders_status_idx" on "${s}"."orders" ("type", "status", "created_at" desc)`);
    this.addSql(`create table "${s}"."order_lines" (
      "id" uuid primary key,
      "order_id" uuid not null references "${s}"."orders" ("id") on delete cascade deferrable initially deferred,
      "position" int not null,
      "product_id" uuid not null,
      "product_name" varchar(100) not null,
      "product_image" varchar(300) not null,
      "variant_id" uuid null,
      "variant_name" varchar(100) null,
      "variant_price" numeric(12,2) null,
      "sub_variant_id" uuid null,
      "sub_variant_name" varchar(100) null,
      "sub_variant_price" numeric(12,2) null,
      "quantity" int not null check ("quantity" > 0),
      "no_of_rental_days" int null,
      "unit_price" numeric(12,2) not null,
      "damage_charges" numeric(12,2) not null,
      "line_total" numeric(12,2) not null
    )`);
    this.addSql(`create index "order_lines_order_idx" on "${s}"."order_lines" ("order_id", "position")`);
    this.addSql(`create table "${s}"."order_tracker" (
      "id" uuid primary key,
      "order_id" uuid not null references "${s}"."orders" ("id") on delete cascade deferrable initially deferred,
      "title" varchar(120) not null,
      "status" varchar(20) not null,
      "created_at" timestamptz not null default now()
    )`);
    this.addSql(`create index "order_tracker_order_idx" on "${s}"."order_tracker" ("order_id", "created_at")`);
  }

  private createIdempotencyKeys(s: string | undefined): void {
    this.addSql(`create table "${s}"."idempotency_keys" (
      "customer_id" uuid not null,
      "key" varchar(200) not null,
      "request_hash" char(64) not null,
      "state" varchar(12) not null check ("state" in ('IN_PROGRESS','DONE')),
      "response_status" int null,
      "response_body" jsonb null,
      "created_at" timestamptz not null default now(),
      primary key ("customer_id", "key")
    )`);
  }
}

import { OrderingReadModelVersions } from './0002_readmodel_versions';
import { OrderingIdempotencyOwner } from './0003_idempotency_owner';
import { OrderingProcess } from './0004_process';
import { OrderingRequests } from './0005_requests';
import { OrderingPackingProgress } from './0006_packing_progress';
import { OrderingPaymentRefunds } from './0007_payment_refunds';
import { OrderingReminders } from './0008_reminders';
import { OrderingRentalStart } from './0009_rental_start';
import { OrderingExtensions } from './0010_extensions';
import { OrderingEarlyEnd } from './0011_early_end';
import { OrderingHandovers } from './0012_handovers';
import { OrderingDriverDay } from './0013_driver_day';
import { OrderingRentalMoney } from './0014_rental_money';
import { OrderingCycleRecords } from './0015_cycle_records';
import { OrderingBilling } from './0016_order_billing';
import { OrderingBuyOutRecords } from './0017_buy_out_records';
import { OrderingCheckoutAttempts } from './0018_checkout_attempts';
import { OrderingIdempotencyLease } from './0019_idempotency_lease';
import { OrderingOrderCounts } from './0020_order_counts';
import { OrderingOrderSearch } from './0021_order_search';
import { OrderingOrderNumberPrefix } from './0022_order_number_prefix';
import { OrderingRentalPaymentCounts } from './0023_rental_payment_counts';
import { OrderingRentalDueOn } from './0024_rental_due_on';
import { OrderingOneDriverIndex } from './0025_one_driver_index';

export const migrations = [
  { name: '0001_ordering', class: OrderingInitial },
  { name: '0002_readmodel_versions', class: OrderingReadModelVersions },
  { name: '0003_idempotency_owner', class: OrderingIdempotencyOwner },
  { name: '0004_process', class: OrderingProcess },
  { name: '0005_requests', class: OrderingRequests },
  { name: '0006_packing_progress', class: OrderingPackingProgress },
  { name: '0007_payment_refunds', class: OrderingPaymentRefunds },
  { name: '0008_reminders', class: OrderingReminders },
  { name: '0009_rental_start', class: OrderingRentalStart },
  { name: '0010_extensions', class: OrderingExtensions },
  { name: '0011_early_end', class: OrderingEarlyEnd },
  { name: '0012_handovers', class: OrderingHandovers },
  { name: '0013_driver_day', class: OrderingDriverDay },
  { name: '0014_rental_money', class: OrderingRentalMoney },
  { name: '0015_cycle_records', class: OrderingCycleRecords },
  { name: '0016_order_billing', class: OrderingBilling },
  { name: '0017_buy_out_records', class: OrderingBuyOutRecords },
  { name: '0018_checkout_attempts', class: OrderingCheckoutAttempts },
  { name: '0019_idempotency_lease', class: OrderingIdempotencyLease },
  { name: '0020_order_counts', class: OrderingOrderCounts },
  { name: '0021_order_search', class: OrderingOrderSearch },
  { name: '0022_order_number_prefix', class: OrderingOrderNumberPrefix },
  { name: '0023_rental_payment_counts', class: OrderingRentalPaymentCounts },
  { name: '0024_rental_due_on', class: OrderingRentalDueOn },
  { name: '0025_one_driver_index', class: OrderingOneDriverIndex },
];
