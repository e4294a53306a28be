/** Row counts of every table of the product's schemas (the stack's database), to prove refusals change nothing. */
import pg from 'pg';

const PRODUCT_SCHEMAS = ['identity', 'catalog', 'ordering', 'payment', 'reporting'];

/** Row counts by table; a table kept as bookkeeping of other rows is given by what it says instead. */
export type RowCounts = Record<string, number | string>;

/**
 * Tables whose rows are bookkeeping folded in the background (their row counts move while nothing
 * happens), read as the figures they keep: a table's kept counts (platform kept-counts: the order
 * tabs', ordering 0020; the rentals' payment mirrors', ordering 0023; the payment tabs', payment
 * 0010; any declared later) are `<name>_counts` plus the changes not folded yet,
 * `<name>_count_changes`, per key. Found by those names, read in one statement (one snapshot: a
 * fold moves rows between the two).
 */
async function keptFigures(client: pg.Client, tables: ReadonlyArray<{ table_schema: string; table_name: string }>): Promise<Array<{ name: string; tables: string[]; value: string }>> {
  const names = new Set(tables.map((t) => `${t.table_schema}.${t.table_name}`));
  const kept: Array<{ name: string; tables: string[]; value: string }> = [];
  for (const t of tables) {
    if (!t.table_name.endsWith('_count_changes')) continue;
    const base = t.table_name.slice(0, -'_count_changes'.length);
    const counts = `${t.table_schema}.${base}_counts`;
    if (!names.has(counts)) continue;
    const columns = await client.query<{ column_name: string }>(
      `select column_name from information_schema.columns where table_schema = $1 and table_name = $2 and column_name <> 'n' order by ordinal_position`,
      [t.table_schema, `${base}_counts`],
    );
    const keys = columns.rows.map((c) => `"${c.column_name.replace(/"/g, '""')}"`).join(', ');
    const q = (n: string) => `"${t.table_schema.replace(/"/g, '""')}"."${n.replace(/"/g, '""')}"`;
    kept.push({
      name: `${t.table_schema}.${base} counts (kept)`,
      tables: [counts, `${t.table_schema}.${t.table_name}`],
      value: `select coalesce(string_agg(k || ' ' || n, ', ' order by k), '') as v
                from (select concat_ws(' ', ${keys}) as k, sum(n) as n
                        from (select ${keys}, n from ${q(`${base}_counts`)} union all select ${keys}, n from ${q(t.table_name)}) x
                       group by 1 having sum(n) <> 0) y`,
    });
  }
  return kept;
}

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
    const figures = await keptFigures(client, tables.rows);
    const kept = new Set(figures.flatMap((k) => k.tables));
    for (const t of tables.rows) {
      if (kept.has(`${t.table_schema}.${t.table_name}`) || DERIVED.has(`${t.table_schema}.${t.table_name}`)) continue;
      const ident = `"${t.table_schema.replace(/"/g, '""')}"."${t.table_name.replace(/"/g, '""')}"`;
      const r = await client.query<{ n: string }>(`SELECT count(*)::text AS n FROM ${ident}`);
      counts[`${t.table_schema}.${t.table_name}`] = Number(r.rows[0]?.n ?? 0);
    }
    // One statement for the tables a kept figure reads together: one snapshot (a fold moves rows between them).
    for (const k of figures) counts[k.name] = (await client.query<{ v: string }>(k.value)).rows[0]!.v;
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
