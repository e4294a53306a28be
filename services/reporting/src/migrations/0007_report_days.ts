import { Migration } from '@dme/platform';
import { manilaDay } from '../modules/reports/definitions';

/** An order's own instants a report may date it by, as a lateral `x(t)` over the row `alias`. */
export const orderInstants = (alias: string) => `cross join lateral (values (${alias}."full_paid_at"), (${alias}."first_paid_at"), (${alias}."full_asked_at")) x(t)`;

/**
 * The instants of each read-model table whose Manila day a report may count a fact of it on.
 * The triggers keep this SQL as it is at migration time (manilaDay included): the Manila day rule
 * is fixed (DESIGN §5); a change of these instants needs a migration of its own.
 */
const DATED: Record<'orders' | 'order_lines' | 'payments' | 'refunds', (rows: string, s: string) => string> = {
  // An order counts on its payments' and refunds' days too (their reports show its customer and status).
  orders: (rows, s) => `select ${manilaDay('x.t')} from ${rows} r ${orderInstants('r')}
      union select ${manilaDay('p."confirmed_at"')} from ${s}."payments" p where p."order_id" in (select "id" from ${rows})
      union select ${manilaDay('f."refunded_at"')} from ${s}."refunds" f where f."order_id" in (select "id" from ${rows})`,
  order_lines: (rows, s) => `select ${manilaDay('x.t')} from ${s}."orders" o ${orderInstants('o')}
      where o."id" in (select "order_id" from ${rows})`,
  payments: (rows) => `select ${manilaDay('r."confirmed_at"')} from ${rows} r`,
  refunds: (rows) => `select ${manilaDay('r."refunded_at"')} from ${rows} r`,
};

/**
 * A read-model table's statement trigger function, `function <fn>() ...` (after `create` or
 * `create or replace`): the days of the rows a statement added (inserted, or updated to), and of
 * those an update changed from, go to `report_dirty_days`.
 */
export function reportDaysFunctionSql(fn: string, s: string, daysOf: (rows: string, s: string) => string): string {
  return `function ${fn}() returns trigger language plpgsql as $$
        begin
          insert into ${s}."report_dirty_days" ("day") select distinct d from (${daysOf('added', s)}) x(d) where d is not null;
          if tg_op = 'UPDATE' then
            insert into ${s}."report_dirty_days" ("day") select d from (${daysOf('removed', s)}) x(d) where d is not null
              except select d from (${daysOf('added', s)}) y(d);
          end if;
          return null;
        end $$`;
}

/**
 * Issue 30 (a year of a busy shop): the reports over a range read sums kept per Manila day
 * instead of every fact of the range (a year's reports read a million orders per request).
 *
 * - `report_day_sums`: per report and day, its facts, money, extra total (reportTotals) and its
 *   five facts with most money; `report_day_groups`: the sales reports' groups per day, and
 *   `report_month_groups` per calendar month.
 * - `report_dirty_days`: the days a change of the read model touched. Statement-level triggers
 *   on orders, order lines, payments and refunds append the days of the instants a report may
 *   date a fact by (old and new rows); appending never waits on another transaction. The service
 *   recomputes those days from the reports' own definitions (days.ts) every few seconds, and a
 *   report request first recomputes the days of its range still marked, so it reads exact sums.
 * Every day that holds a fact now is marked, so the first fold computes them all.
 */
export class ReportingReportDays extends Migration {
  override async up(): Promise<void> {
    const s = `"${this.config.get('schema')}"`;
    this.addSql(`create table ${s}."report_dirty_days" ("id" bigserial primary key, "day" date not null)`);
    this.addSql(`create index "report_dirty_days_day_idx" on ${s}."report_dirty_days" ("day")`);
    this.addSql(`create table ${s}."report_day_sums" (
      "report" varchar(40) not null,
      "day" date not null,
      "facts" int not null,
      "money" numeric(16,2) not null,
      "extra" numeric(16,2) not null,
      "top" jsonb not null,
      primary key ("report", "day")
    )`);
    this.addSql(`create table ${s}."report_day_groups" (
      "report" varchar(40) not null,
      "day" date not null,
      "product_id" uuid not null,
      "variant_id" uuid null,
      "sub_variant_id" uuid null,
      "unit_price" numeric(12,2) not null,
      "product_name" varchar(200) null,
      "variant_name" varchar(200) null,
      "sub_variant_name" varchar(200) null,
      "quantity" bigint not null,
      "_money" numeric(16,2) not null,
      "_rental_days" bigint not null,
      "partial" numeric(16,2) null,
      "balance" numeric(16,2) null
    )`);
    this.addSql(`create index "report_day_groups_day_idx" on ${s}."report_day_groups" ("report", "day")`);
    // The same groups per calendar month (a month's day groups grouped again): a year reads 12 months and its edge days.
    this.addSql(`create table ${s}."report_month_groups" (like ${s}."report_day_groups")`);
    this.addSql(`alter table ${s}."report_month_groups" rename column "day" to "month"`);
    this.addSql(`create index "report_month_groups_month_idx" on ${s}."report_month_groups" ("report", "month")`);
    // Receivables ageing (computed per request): rentals paid after a range's last day.
    this.addSql(`create index "orders_rent_full_paid_idx" on ${s}."orders" ("full_paid_at") where "type" = 'RENT'`);
    // An order's refunds are found by the order (the orders trigger marks their days).
    this.addSql(`create index "refunds_order_idx" on ${s}."refunds" ("order_id")`);
    for (const [table, daysOf] of Object.entries(DATED)) {
      const fn = `${s}."${table}_report_days"`;
      // Insert and delete name their one transition table `added`; an update has both.
      this.addSql(`create ${reportDaysFunctionSql(fn, s, daysOf)}`);
      this.addSql(`create trigger "${table}_report_days_insert" after insert on ${s}."${table}" referencing new table as added for each statement execute function ${fn}()`);
      this.addSql(`create trigger "${table}_report_days_update" after update on ${s}."${table}" referencing old table as removed new table as added for each statement execute function ${fn}()`);
      this.addSql(`create trigger "${table}_report_days_delete" after delete on ${s}."${table}" referencing old table as added for each statement execute function ${fn}()`);
    }
    this.addSql(`insert into ${s}."report_dirty_days" ("day")
      select d from (${DATED.orders(`${s}."orders"`, s)} union ${DATED.payments(`${s}."payments"`, s)} union ${DATED.refunds(`${s}."refunds"`, s)}) x(d) where d is not null`);
  }
}
