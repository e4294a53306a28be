import type { EntityManager } from '@mikro-orm/postgresql';
import type { ReportName } from '@dme/contracts';
import { qualified, startPeriodic, type PollingLoop, sql, type Db, type Logger } from '@dme/platform';
import { REPORTS, SALES_GROUP, type ReportDef, type Tables } from './definitions';

/**
 * The reports' sums kept per Manila day (migration 0007, docs/decisions.md "Reports over a
 * year"): computed from each report's own base (definitions.ts) over the days a change touched,
 * so a report over a range reads at most a row per day (a sales report: its groups per whole
 * month and per edge day).
 */

/** The read-model tables of the schema `db` works in. */
export function tablesOf(db: Db): Tables {
  return { orders: qualified(db, 'orders'), lines: qualified(db, 'order_lines'), payments: qualified(db, 'payments'), products: qualified(db, 'products'), refunds: qualified(db, 'refunds') };
}

/** The reports kept per day. */
export const KEPT_PER_DAY = (Object.entries(REPORTS) as Array<[ReportName, ReportDef]>).filter(([, def]) => def.perDay !== false);

/** Sorted distinct days (YYYY-MM-DD) as runs of consecutive days [first, last]. */
export function dayRuns(days: readonly string[]): Array<[string, string]> {
  const runs: Array<[string, string]> = [];
  const next = (d: string) => new Date(Date.parse(`${d}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
  for (const d of days) {
    const last = runs[runs.length - 1];
    if (last && next(last[1]) === d) last[1] = d;
    else runs.push([d, d]);
  }
  return runs;
}

const RUN = { from: '$2', to: '$3' };

/** The columns of a sales report's groups (per day or month), and their aggregates when grouped again. */
const GROUP_COLUMNS = [...SALES_GROUP.keys, ...SALES_GROUP.names, ...SALES_GROUP.sums];
const groupedAgain = `${SALES_GROUP.keys.join(', ')}, ${SALES_GROUP.names.map((k) => `min(${k})`).join(', ')}, ${SALES_GROUP.sums.map((k) => `sum(${k})`).join(', ')}`;

/** Recomputes one report's rows of the days [from, to] from its base (in the caller's transaction). */
async function recompute(db: Db, name: ReportName, def: ReportDef, from: string, to: string): Promise<void> {
  const t = tablesOf(db);
  const sums = qualified(db, 'report_day_sums');
  const groups = qualified(db, 'report_day_groups');
  await sql(db, `delete from ${sums} where report = $1 and day between $2::date and $3::date`, [name, from, to]);
  // A sales report's base has no label (its top five are of its groups over the range).
  const top = def.grouped
    ? `select null::date as _day, null::jsonb as top where false`
    : `select _day, jsonb_agg(jsonb_build_object('name', _label, 'amount', _money) order by _money desc, _label) as top
         from (select _day, _label, _money, row_number() over (partition by _day order by _money desc, _label) as n from b) x where n <= 5 group by _day`;
  await sql(
    db,
    `with b as materialized (${def.base(t, RUN)})
     insert into ${sums} (report, day, facts, money, extra, top)
     select $1, s._day, s.facts, s.money, s.extra, coalesce(t.top, '[]'::jsonb)
       from (select _day, count(*)::int as facts, coalesce(sum(_money), 0) as money, coalesce(${def.totalsExtra ?? '0'}, 0) as extra from b group by _day) s
       left join (${top}) t using (_day)`,
    [name, from, to],
  );
  if (!def.grouped) return;
  await sql(db, `delete from ${groups} where report = $1 and day between $2::date and $3::date`, [name, from, to]);
  await sql(
    db,
    `insert into ${groups} (report, day, ${GROUP_COLUMNS.join(', ')})
     select $1, _day, ${groupedAgain} from (${def.base(t, RUN)}) b group by _day, ${SALES_GROUP.keys.join(', ')}`,
    [name, from, to],
  );
}

/** Recomputes a sales report's groups of the given months (first days) from their days' groups. */
async function recomputeMonths(db: Db, name: ReportName, months: string[]): Promise<void> {
  const groups = qualified(db, 'report_month_groups');
  await sql(db, `delete from ${groups} where report = $1 and month = any($2::date[])`, [name, months]);
  await sql(
    db,
    `insert into ${groups} (report, month, ${GROUP_COLUMNS.join(', ')})
     select $1::varchar, date_trunc('month', day)::date, ${groupedAgain}
       from ${qualified(db, 'report_day_groups')} where report = $1::varchar and day >= (select min(m) from unnest($2::date[]) m)
        and day < (select max(m) from unnest($2::date[]) m) + interval '1 month' and date_trunc('month', day)::date = any($2::date[])
      group by 2, ${SALES_GROUP.keys.join(', ')}`,
    [name, months],
  );
}

/**
 * A sales report's groups over the range $1..$2 ($5: the report): the months wholly inside it
 * (from `first`, the first whole month's first day, to `last`, the last whole month's last day),
 * and the days before and after them (each an index range; no whole month: the range's days).
 */
export function keptGroupsSql(db: Db): string {
  const first = `(case when $1::date = date_trunc('month', $1::date)::date then $1::date else (date_trunc('month', $1::date) + interval '1 month')::date end)`;
  const last = `(case when $2::date + 1 = date_trunc('month', $2::date + 1)::date then $2::date else date_trunc('month', $2::date)::date - 1 end)`;
  const cols = GROUP_COLUMNS.join(', ');
  const days = qualified(db, 'report_day_groups');
  return `select ${cols} from ${qualified(db, 'report_month_groups')} where report = $5 and month between ${first} and ${last}
    union all select ${cols} from ${days} where report = $5 and day between $1::date and least($2::date, ${first} - 1)
    union all select ${cols} from ${days} where report = $5 and day between greatest($1::date, ${last} + 1, ${first}) and $2::date`;
}

/**
 * Recomputes the days marked since the last fold (every report kept per day), in one
 * transaction: a reader sees a day's old sums or its new ones. One fold at a time (an advisory
 * lock): with `wait` a caller waits for a running fold (then folds what is left), without it
 * skips its round. A change committed while the fold runs keeps its mark for the next one.
 * Answers how many days were recomputed.
 */
export async function foldReportDays(em: EntityManager, opts: { wait: boolean }): Promise<number> {
  const folded = await em.transactional(async (tem) => {
    const key = [`${qualified(tem, 'report_day_sums')}:fold`];
    if (opts.wait) await sql(tem, `select pg_advisory_xact_lock(hashtext($1))`, key);
    else if (!(await sql<{ ok: boolean }>(tem, `select pg_try_advisory_xact_lock(hashtext($1)) as ok`, key))[0]?.ok) return 0;
    const days = await sql<{ day: string }>(
      tem,
      `with gone as (delete from ${qualified(tem, 'report_dirty_days')} returning day) select distinct day::text as day from gone order by 1`,
    );
    for (const [from, to] of dayRuns(days.map((d) => d.day))) {
      for (const [name, def] of KEPT_PER_DAY) await recompute(tem, name, def, from, to);
    }
    const months = [...new Set(days.map((d) => `${d.day.slice(0, 7)}-01`))];
    if (months.length > 0) for (const [name, def] of KEPT_PER_DAY) if (def.grouped) await recomputeMonths(tem, name, months);
    return days.length;
  });
  // After many days at once (the first fold of a year's read model), the planner learns the tables'
  // new sizes now rather than at autovacuum's next round (its guesses chose sorts spilling to disk).
  if (folded > 31) for (const t of ['report_day_sums', 'report_day_groups', 'report_month_groups']) await sql(em, `analyze ${qualified(em, t)}`);
  return folded;
}

/** Makes the kept days of [from, to] exact before a report reads them: folds when one is marked. */
export async function foldDaysOf(em: EntityManager, range: { from: string; to: string }): Promise<void> {
  const [marked] = await sql<{ any: boolean }>(
    em,
    `select exists (select 1 from ${qualified(em, 'report_dirty_days')} where day between $1::date and $2::date) as any`,
    [range.from, range.to],
  );
  if (marked?.any) await foldReportDays(em, { wait: true });
}

/** Folds the marked days every few seconds (every replica runs it; one folds at a time). */
export function startReportDayFold(opts: { em: EntityManager; logger: Logger; everyMs?: number }): PollingLoop {
  return startPeriodic(() => foldReportDays(opts.em.fork(), { wait: false }), { logger: opts.logger, everyMs: opts.everyMs, failure: 'reports: recomputing the marked days failed, will retry' });
}
