import { Migration } from '@dme/platform';

/** The counted columns of a stock level, one per item status (as of this migration; 0010 adds issue 26's). */
export type StatusColumns = ReadonlyArray<readonly [string, string]>;
const STATUS_COLUMNS: StatusColumns = [
  ['AVAILABLE', 'available'],
  ['RENTED', 'rented'],
  ['DAMAGED', 'damaged'],
  ['LOST', 'lost'],
  ['SOLD', 'sold'],
] as const;

/**
 * The statements that move a set of item changes into the levels: `source` yields (product_id,
 * variant_id, sub_variant_id, status, d) with d = +1 for an item that arrived at that leaf and
 * status, -1 for one that left it. Missing leaf rows are created first (a check constraint is
 * tested on a row before ON CONFLICT, so negative deltas cannot go through an upsert); then the
 * counts move, the leaves locked in id order, as reserve() locks them.
 */
export function applyDeltas(s: string | undefined, source: string, columns: StatusColumns = STATUS_COLUMNS): string[] {
  const levels = `"${s}"."stock_levels"`;
  const cols = columns.map(([, col]) => col);
  const sums = columns.map(([status, col]) => `sum(case when x.status = '${status}' then x.d else 0 end)::int as ${col}`).join(',\n               ');
  return [
    `insert into ${levels} (leaf_id, product_id, variant_id, sub_variant_id)
       select distinct coalesce(x.sub_variant_id, x.variant_id, x.product_id), x.product_id, x.variant_id, x.sub_variant_id
         from (${source}) x
        order by 1
       on conflict (leaf_id) do nothing`,
    `update ${levels} l set
       quantity = l.quantity + g.quantity,
       ${cols.map((c) => `${c} = l.${c} + g.${c}`).join(',\n       ')}
       from (
         select coalesce(x.sub_variant_id, x.variant_id, x.product_id) as leaf_id,
                sum(x.d)::int as quantity,
               ${sums}
           from (${source}) x
          group by 1
       ) g,
       (select leaf_id from ${levels} where leaf_id in (select coalesce(x.sub_variant_id, x.variant_id, x.product_id) from (${source}) x)
         order by leaf_id for update) k
      where l.leaf_id = g.leaf_id and k.leaf_id = g.leaf_id
        and (${['quantity', ...cols].map((c) => `g.${c} <> 0`).join(' or ')})`,
  ];
}

/**
 * One stock ledger (issue 8): a row per leaf (the product, variant or sub-variant that takes
 * stock) with its items counted per status, and `reserved`, the units active reservations hold.
 * What a customer can still order is `available - reserved`; parents (variant, product) are sums
 * over their leaf rows, read through the `product_id` / `variant_id` columns.
 *
 * Item counts follow `stock_items` through statement-level triggers (same transaction as the item
 * change: Add Stock today, packing and returns later); `reserved` is written by reserve, release
 * and expiry themselves. Existing stock and active reservations are counted into the levels here.
 */
export class CatalogStockLevels extends Migration {
  override async up(): Promise<void> {
    const s = this.config.get('schema');
    const counted = STATUS_COLUMNS.map(([, col]) => `"${col}" int not null default 0`).join(',\n      ');
    this.addSql(`create table "${s}"."stock_levels" (
      "leaf_id" uuid primary key,
      "product_id" uuid not null references "${s}"."products" ("id") deferrable initially deferred,
      "variant_id" uuid null,
      "sub_variant_id" uuid null,
      "quantity" int not null default 0,
      ${counted},
      "reserved" int not null default 0,
      constraint "stock_levels_counts_ck" check (
        "available" >= 0 and "rented" >= 0 and "damaged" >= 0 and "lost" >= 0 and "sold" >= 0 and "reserved" >= 0
        and "quantity" = "available" + "rented" + "damaged" + "lost" + "sold"
      )
    )`);
    this.addSql(`create index "stock_levels_product_idx" on "${s}"."stock_levels" ("product_id")`);

    // Backfill from the facts: items per leaf and status, then what active reservations hold.
    for (const sql of applyDeltas(s, `select product_id, variant_id, sub_variant_id, status, 1 as d from "${s}"."stock_items"`)) this.addSql(sql);
    this.addSql(`insert into "${s}"."stock_levels" as l (leaf_id, product_id, variant_id, sub_variant_id, reserved)
      select leaf_id, min(product_id::text)::uuid, min(variant_id::text)::uuid, min(sub_variant_id::text)::uuid, sum(quantity)::int
        from "${s}"."reservations" where status in ('HELD','CONFIRMED')
       group by leaf_id
      on conflict (leaf_id) do update set reserved = l.reserved + excluded.reserved`);

    // One active reservation row per order and leaf (lines of the same leaf are merged), so that a
    // retried reserve for the same order conflicts on the index instead of reserving twice.
    this.addSql(`with dup as (
        select order_id, leaf_id, min(id::text)::uuid as keep, sum(quantity)::int as quantity
          from "${s}"."reservations" where status in ('HELD','CONFIRMED')
         group by order_id, leaf_id having count(*) > 1
      ), merged as (
        update "${s}"."reservations" r set quantity = dup.quantity from dup where r.id = dup.keep
      )
      delete from "${s}"."reservations" r using dup
       where r.order_id = dup.order_id and r.leaf_id = dup.leaf_id and r.id <> dup.keep and r.status in ('HELD','CONFIRMED')`);
    this.addSql(`create unique index "reservations_active_order_leaf_uq" on "${s}"."reservations" ("order_id", "leaf_id") where "status" in ('HELD','CONFIRMED')`);
    // Counting per leaf or product now reads the levels; these indexes served the old counts.
    this.addSql(`drop index "${s}"."reservations_active_leaf_idx"`);
    this.addSql(`drop index "${s}"."reservations_product_idx"`);

    // Item changes move the counts, in the statement that changes the items.
    for (const sql of levelTriggers(s, STATUS_COLUMNS)) this.addSql(sql);
  }
}

/** The statement-level triggers that keep the levels in step with `stock_items` (created, or replaced with more columns). */
export function levelTriggers(s: string | undefined, columns: StatusColumns): string[] {
  const out: string[] = [];
  const triggers: Array<[string, string, string]> = [
    ['insert', 'referencing new table as new_items', `select product_id, variant_id, sub_variant_id, status, 1 as d from new_items`],
    ['delete', 'referencing old table as old_items', `select product_id, variant_id, sub_variant_id, status, -1 as d from old_items`],
    [
      'update',
      'referencing old table as old_items new table as new_items',
      `select product_id, variant_id, sub_variant_id, status, 1 as d from new_items
       union all select product_id, variant_id, sub_variant_id, status, -1 as d from old_items`,
    ],
  ];
  for (const [op, referencing, source] of triggers) {
    out.push(`create or replace function "${s}"."stock_levels_after_item_${op}"() returns trigger language plpgsql as $fn$
      begin
        ${applyDeltas(s, source, columns).join(';\n          ')};
        return null;
      end
    $fn$`);
    out.push(`drop trigger if exists "stock_items_levels_${op}" on "${s}"."stock_items"`);
    out.push(`create trigger "stock_items_levels_${op}" after ${op} on "${s}"."stock_items" ${referencing}
      for each statement execute function "${s}"."stock_levels_after_item_${op}"()`);
  }
  return out;
}
