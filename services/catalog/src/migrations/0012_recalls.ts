import { Migration } from '@dme/platform';

/**
 * Recalls (issue 26): a recall of a product's units (a level, serial codes, units received between
 * two days), each unit of it with how it was resolved; the customer of each order (from
 * `dme.order.placed`), to tell those who have a recalled unit; custody's RECALLED entry (a unit
 * recalled while with a customer).
 */
export class CatalogRecalls extends Migration {
  override async up(): Promise<void> {
    const s = this.config.get('schema');
    this.addSql('set constraints all immediate');
    this.addSql(`alter table "${s}"."custody_orders" add column "customer_id" uuid null`);
    this.addSql(`alter table "${s}"."custody_events" drop constraint "custody_events_kind_check"`);
    this.addSql(`alter table "${s}"."custody_events" add constraint "custody_events_kind_check" check ("kind" in (
      'STOCKED','MOVED','PACKED','OUT_FOR_DELIVERY','DELIVERED','PICKED_UP','RETURNED','CLEANED','INSPECTED',
      'PUT_AWAY','REPAIR_OPENED','REPAIRED','SCRAPPED','HELD','RELEASED','FOUND','WRITTEN_OFF','SERVICED','RECALLED'))`);
    this.addSql(`create sequence "${s}"."recall_seq"`);
    this.addSql(`create table "${s}"."recalls" (
      "id" uuid primary key,
      "number" varchar(20) not null unique,
      "title" varchar(120) not null,
      "reason" varchar(500) not null default '',
      "product_id" uuid not null references "${s}"."products" ("id") deferrable initially deferred,
      "scope" jsonb not null,
      "status" varchar(6) not null default 'OPEN' check ("status" in ('OPEN','CLOSED')),
      "opened_at" timestamptz not null default now(),
      "opened_by" varchar(100) null,
      "closed_at" timestamptz null,
      "closed_by" varchar(100) null,
      check (("status" = 'CLOSED') = ("closed_at" is not null))
    )`);
    this.addSql(`create index "recalls_opened_idx" on "${s}"."recalls" ("opened_at" desc)`);
    this.addSql(`create table "${s}"."recall_units" (
      "recall_id" uuid not null references "${s}"."recalls" ("id") deferrable initially deferred,
      "stock_item_id" uuid not null references "${s}"."stock_items" ("id") deferrable initially deferred,
      "serial_code" varchar(40) not null,
      "order_id" uuid null,
      "resolution" varchar(12) null check ("resolution" in ('RELEASED','SCRAPPED','WRITTEN_OFF','SETTLED')),
      "note" varchar(500) not null default '',
      "resolved_at" timestamptz null,
      "resolved_by" varchar(100) null,
      primary key ("recall_id", "stock_item_id")
    )`);
    this.addSql(`create index "recall_units_open_idx" on "${s}"."recall_units" ("stock_item_id") where "resolution" is null`);
    this.addSql('set constraints all deferred');
  }
}
