import { STOCK_STATUSES } from '@dme/contracts';
import { Migration } from '@dme/platform';
import { levelTriggers, type StatusColumns } from './0004_stock_levels';

/** Every status a unit can have, with its counted column of the ledger (issue 26 adds the last eight). */
export const LEVEL_COLUMNS: StatusColumns = [
  ['AVAILABLE', 'available'],
  ['RENTED', 'rented'],
  ['DAMAGED', 'damaged'],
  ['LOST', 'lost'],
  ['SOLD', 'sold'],
  ['RETURNED', 'returned'],
  ['CLEANED', 'cleaned'],
  ['INSPECTED', 'inspected'],
  ['IN_REPAIR', 'in_repair'],
  ['FOUND', 'found'],
  ['ON_HOLD', 'on_hold'],
  ['SCRAPPED', 'scrapped'],
  ['WRITTEN_OFF', 'written_off'],
];

/** The custody entries' kinds (contracts CUSTODY_KINDS) as of this migration, as the check constraint lists them (0011 adds SERVICED). */
const CUSTODY_KINDS = [
  'STOCKED', 'MOVED', 'PACKED', 'OUT_FOR_DELIVERY', 'DELIVERED', 'PICKED_UP', 'RETURNED', 'CLEANED', 'INSPECTED',
  'PUT_AWAY', 'REPAIR_OPENED', 'REPAIRED', 'SCRAPPED', 'HELD', 'RELEASED', 'FOUND', 'WRITTEN_OFF',
];

const list = (values: readonly string[]) => values.map((v) => `'${v}'`).join(',');

/**
 * A unit's life between rentals (issue 26):
 *
 * - the stock-item statuses of the table (contracts stock-status.ts), each counted in the ledger,
 *   whose counts still add up to the quantity; `status_since` says when a unit came to its status;
 * - `custody_events`: every serial's chain of custody, append-only (a trigger refuses updates and
 *   deletes), an entry per source event and unit at most (a consumer handling an event twice adds
 *   nothing);
 * - `repair_orders`: a damaged unit's work order (one open at a time);
 * - `custody_orders`: the order number and customer of each order (from `dme.order.placed`), so a
 *   unit's history says whose hands it was in;
 * - a product's inspection checklist.
 */
export class CatalogUnitLifecycle extends Migration {
  override async up(): Promise<void> {
    const s = this.config.get('schema');
    // Checks deferred by earlier migrations of the same run (their data) are made now: a table
    // with pending trigger events cannot be altered.
    this.addSql('set constraints all immediate');
    this.addSql(`alter table "${s}"."stock_items" drop constraint if exists "stock_items_status_check"`);
    this.addSql(`alter table "${s}"."stock_items" add constraint "stock_items_status_check" check ("status" in (${list(STOCK_STATUSES)}))`);
    this.addSql(`alter table "${s}"."stock_items" add column "status_since" timestamptz not null default now()`);
    this.addSql(`create index "stock_items_board_idx" on "${s}"."stock_items" ("status", "status_since") where "status" not in ('AVAILABLE','RENTED','SOLD','LOST','SCRAPPED','WRITTEN_OFF')`);

    const added = LEVEL_COLUMNS.slice(5);
    this.addSql(`alter table "${s}"."stock_levels" ${added.map(([, col]) => `add column "${col}" int not null default 0 check ("${col}" >= 0)`).join(', ')}`);
    this.addSql(`alter table "${s}"."stock_levels" drop constraint "stock_levels_counts_ck"`);
    this.addSql(`alter table "${s}"."stock_levels" add constraint "stock_levels_counts_ck" check (
      "available" >= 0 and "rented" >= 0 and "damaged" >= 0 and "lost" >= 0 and "sold" >= 0 and "reserved" >= 0
      and "quantity" = ${LEVEL_COLUMNS.map(([, col]) => `"${col}"`).join(' + ')}
    )`);
    for (const sql of levelTriggers(s, LEVEL_COLUMNS)) this.addSql(sql);

    this.addSql(`alter table "${s}"."products" add column "inspection_checklist" jsonb not null default '[]'::jsonb`);

    this.addSql(`create table "${s}"."custody_orders" (
      "order_id" uuid primary key,
      "order_number" varchar(40) not null,
      "order_type" varchar(4) not null,
      "customer_name" varchar(200) null
    )`);

    this.addSql(`create table "${s}"."custody_events" (
      "id" uuid primary key,
      "seq" bigserial not null,
      "stock_item_id" uuid not null references "${s}"."stock_items" ("id") deferrable initially deferred,
      "serial_code" varchar(40) not null,
      "kind" varchar(20) not null check ("kind" in (${list(CUSTODY_KINDS)})),
      "at" timestamptz not null default now(),
      "by_user_id" uuid null,
      "by_name" varchar(100) null,
      "status" varchar(12) null,
      "bin_id" uuid null,
      "bin_name" varchar(100) null,
      "order_id" uuid null,
      "order_number" varchar(40) null,
      "party" varchar(200) null,
      "condition" varchar(12) null,
      "note" varchar(500) not null default '',
      "checklist" jsonb null,
      "source_event_id" uuid null
    )`);
    this.addSql(`create index "custody_events_item_idx" on "${s}"."custody_events" ("stock_item_id", "at", "seq")`);
    this.addSql(`create index "custody_events_order_idx" on "${s}"."custody_events" ("order_id") where "order_id" is not null`);
    this.addSql(`create unique index "custody_events_source_uq" on "${s}"."custody_events" ("source_event_id", "stock_item_id", "kind") where "source_event_id" is not null`);
    this.addSql(`create function "${s}"."custody_events_append_only"() returns trigger language plpgsql as $fn$
      begin
        raise exception 'custody history is append-only: % refused', tg_op using errcode = 'check_violation';
      end
    $fn$`);
    this.addSql(`create trigger "custody_events_no_change" before update or delete on "${s}"."custody_events"
      for each row execute function "${s}"."custody_events_append_only"()`);
    this.addSql(`create trigger "custody_events_no_truncate" before truncate on "${s}"."custody_events"
      for each statement execute function "${s}"."custody_events_append_only"()`);

    this.addSql(`create table "${s}"."repair_orders" (
      "id" uuid primary key,
      "stock_item_id" uuid not null references "${s}"."stock_items" ("id") deferrable initially deferred,
      "fault" varchar(500) not null,
      "parts" varchar(500) not null default '',
      "cost" numeric(12,2) null check ("cost" >= 0),
      "technician" varchar(120) not null default '',
      "outcome" varchar(10) null check ("outcome" in ('REPAIRED','SCRAPPED')),
      "opened_at" timestamptz not null default now(),
      "opened_by" varchar(100) null,
      "closed_at" timestamptz null,
      "closed_by" varchar(100) null,
      check (("closed_at" is null) = ("outcome" is null))
    )`);
    this.addSql(`create unique index "repair_orders_open_uq" on "${s}"."repair_orders" ("stock_item_id") where "closed_at" is null`);
    this.addSql(`create index "repair_orders_item_idx" on "${s}"."repair_orders" ("stock_item_id", "opened_at")`);
    // Data last: a table with pending trigger events (deferred keys) cannot be altered after.
    this.addSql(`update "${s}"."stock_items" set "status_since" = "updated_at"`);
    // Every unit there is has been stocked: its history starts with it (who is not known for the old ones).
    this.addSql(`insert into "${s}"."custody_events" (id, stock_item_id, serial_code, kind, at, status, bin_id, bin_name)
      select gen_random_uuid(), i.id, i.serial_code, 'STOCKED', i.created_at, 'AVAILABLE', i.warehouse_bin_id, b.name
        from "${s}"."stock_items" i left join "${s}"."warehouse_bins" b on b.id = i.warehouse_bin_id`);
    this.addSql('set constraints all deferred');
  }
}
