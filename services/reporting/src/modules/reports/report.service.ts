import { centsToString, toCents, type ReportName, type ReportResponse, type ReportTotals } from '@dme/contracts';
import type { EntityManager } from '@mikro-orm/postgresql';
import { qualified, sql, type Db } from '@dme/platform';
import { REPORTS, type ReportDef } from './definitions';
import { foldDaysOf, keptGroupsSql, tablesOf } from './days';

export { tablesOf };

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

type Page = { rows: Array<Record<string, unknown>>; total: number; sum: string; by_day: Array<{ day: string; amount: string }>; top: Array<{ name: string; amount: string }> };

/** The range's days ($1..$2), each with the amount of `amounts` (a relation of `_day`, `amount`), or 0. */
const byDay = (amounts: string) => `(select json_agg(json_build_object('day', d.day::date::text, 'amount', coalesce(s.amount, 0)::text) order by d.day)
     from generate_series($1::date, $2::date, interval '1 day') as d(day) left join (${amounts}) s on s._day = d.day::date)`;

/** The five rows with most money of a relation of `_label`, `_money`. */
const topFive = (rows: string) => `(select coalesce(json_agg(json_build_object('name', x._label, 'amount', x._money::text) order by x._money desc, x._label), '[]'::json)
     from (select _label, _money from ${rows} as t order by _money desc, _label limit 5) x)`;

/** A page of rows ($3, $4) of the range ($1, $2) in the report's total order. */
const pageOf = (def: ReportDef) => `(select coalesce(json_agg(r order by ${def.order}), '[]'::json) from (select * from rows order by ${def.order} limit $3 offset $4) r)`;

/** A report computed from its base over the range: the range's facts read once, in one statement. */
function computedSql(db: Db, def: ReportDef): string {
  const t = tablesOf(db);
  return `with base as materialized (${def.base(t, PARAMS)}), rows as materialized (${def.rows(t)})
    select ${pageOf(def)} as rows, (select count(*)::int from rows) as total, (select coalesce(sum(_money), 0)::text from base) as sum,
      ${byDay('select _day, sum(_money) as amount from base group by _day')} as by_day, ${topFive('rows')} as top`;
}

/**
 * A report kept per day ($5: its name): its sum, chart and count from the days' sums; its page from
 * its base (facts: in the order of an index over the range) or, for a sales report, from the
 * months' and days' groups grouped again; its top five of the days' top fives (or of its groups).
 */
function keptSql(db: Db, def: ReportDef): string {
  const t = tablesOf(db);
  const days = `select day as _day, facts, money, top from ${qualified(db, 'report_day_sums')} where report = $5 and day between $1::date and $2::date`;
  const base = def.grouped ? keptGroupsSql(db) : def.base(t, PARAMS);
  const dayTops = `(select e->>'name' as _label, (e->>'amount')::numeric as _money from days, jsonb_array_elements(days.top) e)`;
  return `with base as (${base}), rows as (${def.rows(t)}), days as materialized (${days})
    select ${pageOf(def)} as rows, ${def.grouped ? '(select count(*)::int from rows)' : '(select coalesce(sum(facts), 0)::int from days)'} as total,
      (select coalesce(sum(money), 0)::text from days) as sum, ${byDay('select _day, money as amount from days')} as by_day,
      ${topFive(def.grouped ? 'rows' : dayTops)} as top`;
}

/**
 * One report for a range of Manila days: a page of rows, how many rows in all, the report's sum,
 * its money per day (every day of the range) and its five rows with most money, plus the overall
 * totals alongside.
 */
export async function getReport(em: EntityManager, report: ReportName, q: ReportQuery): Promise<ReportResponse> {
  await foldDaysOf(em, q);
  return answer(em, report, q, REPORTS[report].perDay !== false);
}

/**
 * The report computed from its facts over the range, never from the kept days (what the kept
 * days must always agree with; a report not kept per day is always computed so). Its overall
 * totals are the kept ones, as they stand (reportTotals folds first).
 */
export async function reportFromFacts(em: EntityManager, report: ReportName, q: ReportQuery): Promise<ReportResponse> {
  return answer(em, report, q, false);
}

type ReportQuery = { from: string; to: string; limit: number; offset: number };

async function answer(em: EntityManager, report: ReportName, q: ReportQuery, kept: boolean): Promise<ReportResponse> {
  const def = REPORTS[report];
  const params = kept ? [q.from, q.to, q.limit, q.offset, report] : [q.from, q.to, q.limit, q.offset];
  const [[page], totals] = await Promise.all([sql<Page>(em, kept ? keptSql(em, def) : computedSql(em, def), params), totalsOf(em, q)]);
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

/** The reports whose kept sums make the overall totals (their `money`, and the partial invoices' `extra`). */
const TOTALS_OF: Record<'ps' | 'rs' | 'pi' | 'ru' | 'rp', { report: ReportName; sum: 'money' | 'extra' }> = {
  ps: { report: 'purchased-sales', sum: 'money' },
  rs: { report: 'rental-sales', sum: 'money' },
  pi: { report: 'purchased-invoice', sum: 'money' },
  ru: { report: 'rental-unpaid-invoice', sum: 'money' },
  rp: { report: 'rental-partial-invoice', sum: 'extra' },
};

/**
 * The range's sums of the five reports and the overall figures (SPEC §9): overall sales =
 * purchased + rental sales; overall invoice = purchased invoices + unpaid rental balances + the
 * balances of partial invoices whose rental is still in INITIAL_PAYMENT (not asked for its full
 * payment yet, so not counted in the unpaid report).
 */
export async function reportTotals(em: EntityManager, range: { from: string; to: string }): Promise<ReportTotals> {
  await foldDaysOf(em, range);
  return totalsOf(em, range);
}

async function totalsOf(db: Db, range: { from: string; to: string }): Promise<ReportTotals> {
  const rows = await sql<{ report: ReportName; money: string; extra: string }>(
    db,
    `select report, sum(money)::text as money, sum(extra)::text as extra from ${qualified(db, 'report_day_sums')}
      where report = any($3::text[]) and day between $1::date and $2::date group by report`,
    [range.from, range.to, Object.values(TOTALS_OF).map((x) => x.report)],
  );
  const c = Object.fromEntries(
    Object.entries(TOTALS_OF).map(([k, x]) => [k, toCents(rows.find((r) => r.report === x.report)?.[x.sum] ?? '0')]),
  ) as Record<keyof typeof TOTALS_OF, number>;
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
