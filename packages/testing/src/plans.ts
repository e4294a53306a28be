import { sql, type Db } from '@dme/platform';

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
