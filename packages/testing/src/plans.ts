import { sql, sqlScript, withConnection, type Db } from '@dme/platform';

interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  Plans?: PlanNode[];
}

/**
 * The tables PostgreSQL would read whole (a sequential scan) to run a statement with these
 * parameters: the plan it picks for them (EXPLAIN, so nothing runs, writes included). A
 * statement that should read a few rows by key on a big table must not name it here.
 */
export async function tablesReadWhole(db: Db, text: string, values: unknown[]): Promise<string[]> {
  const [row] = await sql<{ 'QUERY PLAN': Array<{ Plan: PlanNode }> }>(db, `explain (format json) ${text}`, values);
  const whole = new Set<string>();
  const walk = (n: PlanNode) => {
    if (n['Node Type'] === 'Seq Scan' && n['Relation Name']) whole.add(n['Relation Name']);
    for (const c of n.Plans ?? []) walk(c);
  };
  for (const p of row?.['QUERY PLAN'] ?? []) walk(p.Plan);
  return [...whole].sort();
}

interface AnalyzedNode extends PlanNode {
  'Actual Rows': number;
  'Actual Loops': number;
  'Rows Removed by Filter'?: number;
  'Rows Removed by Index Recheck'?: number;
  Plans?: AnalyzedNode[];
}

/**
 * The rows a statement visits in a table when it runs with these parameters: those its scans of
 * the table return and those they read and filter out (EXPLAIN ANALYZE, in a transaction rolled
 * back, so nothing it writes stays). A statement that should read a few rows by key must visit
 * about that many, however many rows the table holds.
 */
export async function rowsVisited(db: Parameters<typeof withConnection>[0], text: string, values: unknown[], table: string): Promise<number> {
  return withConnection(db, async (c) => {
    await sqlScript(c, 'begin');
    try {
      const [row] = await sql<{ 'QUERY PLAN': Array<{ Plan: AnalyzedNode }> }>(c, `explain (analyze, format json) ${text}`, values);
      let visited = 0;
      const walk = (n: AnalyzedNode) => {
        if (n['Relation Name'] === table) {
          visited += n['Actual Loops'] * (n['Actual Rows'] + (n['Rows Removed by Filter'] ?? 0) + (n['Rows Removed by Index Recheck'] ?? 0));
        }
        for (const child of n.Plans ?? []) walk(child);
      };
      for (const p of row?.['QUERY PLAN'] ?? []) walk(p.Plan);
      return visited;
    } finally {
      await sqlScript(c, 'rollback');
    }
  });
}
