import type { EntityManager } from '@mikro-orm/postgresql';
import type { ReportName } from '@dme/contracts';
import { PollingLoop, qualified, sql, type Db, type Logger } from '@dme/platform';
import { REPORTS, SALES_GROUP, type ReportDef, type Tables } from './definitions';

/**
 * The reports' sums kept per Manila day (migration 0007, docs/decisions.md "Reports over a
 * year"): computed from each report's own base (definitions.ts) over the days a change touched,
 * so a report over a range reads at most a row per day (a sales report: its groups per day).
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
  const cols = [...SALES_GROUP.keys, ...SALES_GROUP.names, ...SALES_GROUP.sums];
  await sql(
    db,
    `insert into ${groups} (report, day, ${cols.join(', ')})
     select $1, _day, ${SALES_GROUP.keys.join(', ')}, ${SALES_GROUP.names.map((k) => `min(${k})`).join(', ')}, ${SALES_GROUP.sums.map((k) => `sum(${k})`).join(', ')}
       from (${def.base(t, RUN)}) b group by _day, ${SALES_GROUP.keys.join(', ')}`,
    [name, from, to],
  );
}

/**
 * Recomputes the days marked since the last fold (every report kept per day), in one
 * transaction: a reader sees a day's old sums or its new ones. One fold at a time (an advisory
 * lock): with `wait` a caller waits for a running fold (then folds what is left), without it
 * skips its round. A change committed while the fold runs keeps its mark for the next one.
 * Answers how many days were recomputed.
 */
export async function foldReportDays(em: EntityManager, opts: { wait: boolean }): Promise<number> {
  return em.transactional(async (tem) => {
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
    return days.length;
  });
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
  const loop = new PollingLoop(async () => (await foldReportDays(opts.em.fork(), { wait: false }), 0), {
    intervalMs: opts.everyMs ?? 5000,
    batchSize: 1,
    logger: opts.logger,
    failure: 'reports: recomputing the marked days failed, will retry',
  });
  loop.start();
  return loop;
}
