/** Row counts of every table of the product's schemas (the stack's database), to prove refusals change nothing. */
import pg from 'pg';

const PRODUCT_SCHEMAS = ['identity', 'catalog', 'ordering', 'payment', 'reporting'];

/** Row counts by table; a table kept as bookkeeping of other rows is given by what it says instead. */
export type RowCounts = Record<string, number | string>;

/**
 * Tables whose rows are bookkeeping folded in the background (their row counts move while nothing
 * happens), read as the figures they keep: the order tabs' counts (ordering 0020) are the counts
 * plus the changes not folded yet, per type and status.
 */
const KEPT: Record<string, { tables: string[]; value: string }> = {
  'ordering.order tab counts (kept)': {
    tables: ['ordering.order_counts', 'ordering.order_count_changes'],
    value: `select coalesce(string_agg(type || ' ' || status || ' ' || n, ', ' order by type, status), '') as v
              from (select type, status, sum(n) as n from (select type, status, n from ordering.order_counts
                    union all select type, status, n from ordering.order_count_changes) x group by 1, 2 having sum(n) <> 0) y`,
  },
};

/**
 * Tables that are only a cache of tables counted here, recomputed in the background and by reads:
 * the reports' sums per day and month and the days waiting for them (reporting 0007). A refusal
 * that changed nothing changed none of the read model they are computed from.
 */
const DERIVED = new Set(['reporting.report_dirty_days', 'reporting.report_day_sums', 'reporting.report_day_groups', 'reporting.report_month_groups']);

export async function rowCounts(databaseUrl: string): Promise<RowCounts> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const tables = await client.query<{ table_schema: string; table_name: string }>(
      `SELECT table_schema, table_name FROM information_schema.tables
        WHERE table_type = 'BASE TABLE' AND table_schema = ANY($1::text[])
        ORDER BY table_schema, table_name`,
      [PRODUCT_SCHEMAS],
    );
    const counts: RowCounts = {};
    const kept = new Set(Object.values(KEPT).flatMap((k) => k.tables));
    for (const t of tables.rows) {
      if (kept.has(`${t.table_schema}.${t.table_name}`) || DERIVED.has(`${t.table_schema}.${t.table_name}`)) continue;
      const ident = `"${t.table_schema.replace(/"/g, '""')}"."${t.table_name.replace(/"/g, '""')}"`;
      const r = await client.query<{ n: string }>(`SELECT count(*)::text AS n FROM ${ident}`);
      counts[`${t.table_schema}.${t.table_name}`] = Number(r.rows[0]?.n ?? 0);
    }
    // One statement for the tables a kept figure reads together: one snapshot (a fold moves rows between them).
    for (const [name, k] of Object.entries(KEPT)) counts[name] = (await client.query<{ v: string }>(k.value)).rows[0]!.v;
    return counts;
  } finally {
    await client.end();
  }
}

export function diffCounts(before: RowCounts, after: RowCounts): string[] {
  const keys = [...new Set([...Object.keys(before), ...Object.keys(after)])].sort();
  return keys.filter((k) => before[k] !== after[k]).map((k) => `${k}: ${before[k] ?? '(absent)'} → ${after[k] ?? '(absent)'}`);
}

/** Waits until two snapshots a second apart agree (event consumers catching up), then returns it. */
export async function settledCounts(databaseUrl: string, timeoutMs = 30_000): Promise<{ counts: RowCounts; settled: boolean }> {
  const until = Date.now() + timeoutMs;
  let prev = await rowCounts(databaseUrl);
  for (;;) {
    await new Promise((r) => setTimeout(r, 1000));
    const next = await rowCounts(databaseUrl);
    if (diffCounts(prev, next).length === 0) return { counts: next, settled: true };
    if (Date.now() > until) return { counts: next, settled: false };
    prev = next;
  }
}
