import { Migration } from '@dme/platform';

/**
 * Issue 30 (a year of a busy shop): the staff's order tabs count their orders from a table kept by
 * the orders table's own triggers, not by counting up to a million rows on every list request.
 *
 * A change of an order's type or status (or an order placed or deleted) appends a signed count
 * to `order_count_changes` (statement-level triggers: one row per type and status a statement
 * touched, whatever its size); appending never waits on another transaction, so checkouts do not
 * queue on a counter row. The count of a type and status is its row in `order_counts` plus the
 * changes not yet folded in; the order service folds them in every few seconds (one replica at a
 * time), so reads add a handful of rows.
 */
export class OrderingOrderCounts extends Migration {
  override async up(): Promise<void> {
    const s = `"${this.config.get('schema')}"`;
    this.addSql(`create table ${s}."order_counts" ("type" varchar(4) not null, "status" varchar(20) not null, "n" bigint not null, primary key ("type", "status"))`);
    this.addSql(`create table ${s}."order_count_changes" ("id" bigserial primary key, "type" varchar(4) not null, "status" varchar(20) not null, "n" bigint not null)`);
    this.addSql(`create function ${s}."order_counts_changed"() returns trigger language plpgsql as $$
      begin
        if tg_op = 'INSERT' then
          insert into ${s}."order_count_changes" ("type", "status", "n") select "type", "status", count(*) from added group by 1, 2;
        elsif tg_op = 'DELETE' then
          insert into ${s}."order_count_changes" ("type", "status", "n") select "type", "status", -count(*) from removed group by 1, 2;
        else
          insert into ${s}."order_count_changes" ("type", "status", "n")
          select "type", "status", sum("n") from (
              select r."type", r."status", -1 as "n" from removed r join added a using ("id") where (r."type", r."status") is distinct from (a."type", a."status")
              union all
              select a."type", a."status", 1 from removed r join added a using ("id") where (r."type", r."status") is distinct from (a."type", a."status")) x
           group by 1, 2;
        end if;
        return null;
      end $$`);
    this.addSql(`create trigger "orders_counted_insert" after insert on ${s}."orders" referencing new table as added for each statement execute function ${s}."order_counts_changed"()`);
    this.addSql(`create trigger "orders_counted_update" after update on ${s}."orders" referencing old table as removed new table as added for each statement execute function ${s}."order_counts_changed"()`);
    this.addSql(`create trigger "orders_counted_delete" after delete on ${s}."orders" referencing old table as removed for each statement execute function ${s}."order_counts_changed"()`);
    this.addSql(`insert into ${s}."order_counts" ("type", "status", "n") select "type", "status", count(*) from ${s}."orders" group by 1, 2`);
  }
}
