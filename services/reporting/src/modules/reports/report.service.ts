import { centsToString, toCents, type ReportName, type ReportResponse, type ReportTotals } from '@dme/contracts';
import { qualified, sql, type Db } from '@dme/platform';
import { REPORTS, type ReportDef, type Tables } from './definitions';

/** The read-model tables of the schema `db` works in. */
export function tablesOf(db: Db): Tables {
  return { orders: qualified(db, 'orders'), lines: qualified(db, 'order_lines'), payments: qualified(db, 'payments'), products: qualified(db, 'products'), refunds: qualified(db, 'refunds') };
}

/** A numeric read as text ("12.5", "0", "-3.10") in the wire form "12.50". */
export const money = (v: string | null | undefined): string => centsToString(toCents(v ?? '0'));

/** A row as the contract has it: hidden columns (`_…`) dropped, money in two decimals. */
export function contractRow(def: ReportDef, raw: Record<string, unknown>): Record<string, unknown> {
  const row: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(raw)) if (!k.startsWith('_')) row[k] = v;
  for (const k of def.money) row[k] = money(row[k] as string | null);
  return row;
}

const PARAMS = { from: '$1', to: '$2' };

/**
 * One report for a range of Manila days: a page of rows, how many rows in all, the report's sum,
 * its money per day (every day of the range) and its five rows with most money; one statement
 * (the range's facts are read once), plus the overall totals alongside.
 */
export async function getReport(db: Db, report: ReportName, q: { from: string; to: string; limit: number; offset: number }): Promise<ReportResponse> {
  const def = REPORTS[report];
  const t = tablesOf(db);
  const pageSql = `with base as materialized (${def.base(t, PARAMS)}), rows as materialized (${def.rows(t)})
    select
      (select coalesce(json_agg(r order by ${def.order}), '[]'::json) from (select * from rows order by ${def.order} limit $3 offset $4) r) as rows,
      (select count(*)::int from rows) as total,
      (select coalesce(sum(_money), 0)::text from base) as sum,
      (select json_agg(json_build_object('day', d.day::date::text, 'amount', coalesce(s.amount, 0)::text) order by d.day)
         from generate_series($1::date, $2::date, interval '1 day') as d(day)
         left join (select _day, sum(_money) as amount from base group by _day) s on s._day = d.day::date) as by_day,
      (select coalesce(json_agg(json_build_object('name', x._label, 'amount', x._money::text) order by x._money desc, x._label), '[]'::json)
         from (select _label, _money from rows order by _money desc, _label limit 5) x) as top`;
  const [[page], totals] = await Promise.all([
    sql<{ rows: Array<Record<string, unknown>>; total: number; sum: string; by_day: Array<{ day: string; amount: string }>; top: Array<{ name: string; amount: string }> }>(db, pageSql, [
      q.from,
      q.to,
      q.limit,
      q.offset,
    ]),
    reportTotals(db, q),
  ]);
  return {
    report,
    from: q.from,
    to: q.to,
    rows: page!.rows.map((r) => contractRow(def, r)),
    total: page!.total,
    sum: money(page!.sum),
    totals,
    chart: {
      byDay: page!.by_day.map((d) => ({ day: d.day, amount: money(d.amount) })),
      top: page!.top.map((x) => ({ name: x.name, amount: money(x.amount) })),
    },
  } as ReportResponse;
}

/**
 * The range's sums of the five reports and the overall figures (SPEC §9): overall sales =
 * purchased + rental sales; overall invoice = purchased invoices + unpaid rental balances + the
 * balances of partial invoices whose rental is still in INITIAL_PAYMENT (not asked for its full
 * payment yet, so not counted in the unpaid report).
 */
export async function reportTotals(db: Db, range: { from: string; to: string }): Promise<ReportTotals> {
  const t = tablesOf(db);
  const [row] = await sql<Record<'ps' | 'rs' | 'pi' | 'ru' | 'rp', string>>(
    db,
    `with ps as (${REPORTS['purchased-sales'].base(t, PARAMS)}),
          rs as (${REPORTS['rental-sales'].base(t, PARAMS)}),
          pi as (${REPORTS['purchased-invoice'].base(t, PARAMS)}),
          ru as (${REPORTS['rental-unpaid-invoice'].base(t, PARAMS)}),
          rp as (${REPORTS['rental-partial-invoice'].base(t, PARAMS)})
     select (select coalesce(sum(_money), 0) from ps)::text as ps,
            (select coalesce(sum(_money), 0) from rs)::text as rs,
            (select coalesce(sum(_money), 0) from pi)::text as pi,
            (select coalesce(sum(_money), 0) from ru)::text as ru,
            (select coalesce(sum(_balance), 0) from rp where "paymentStatus" = 'INITIAL_PAYMENT')::text as rp`,
    [range.from, range.to],
  );
  const c = { ps: toCents(row!.ps), rs: toCents(row!.rs), pi: toCents(row!.pi), ru: toCents(row!.ru), rp: toCents(row!.rp) };
  return {
    purchasedSales: centsToString(c.ps),
    rentalSales: centsToString(c.rs),
    overallSales: centsToString(c.ps + c.rs),
    purchasedInvoice: centsToString(c.pi),
    rentalUnpaidInvoice: centsToString(c.ru),
    rentalPartialBalance: centsToString(c.rp),
    overallInvoice: centsToString(c.pi + c.ru + c.rp),
  };
}
