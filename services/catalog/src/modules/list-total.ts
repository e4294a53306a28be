import type { EntityManager } from '@mikro-orm/postgresql';

/**
 * The total of a list read a page at a time with `count(*) over ()` as `total`: the page's rows
 * carry it; a page past the end has no rows, so the total is counted again (`countSql`, answering
 * `n`, with the list's conditions and `params`).
 */
export async function listTotal(em: EntityManager, rows: ReadonlyArray<{ total: number }>, offset: number, countSql: string, params: unknown[]): Promise<number> {
  if (rows.length > 0 || offset <= 0) return rows[0]?.total ?? 0;
  const [c] = await em.execute<Array<{ n: number }>>(countSql, params);
  return c?.n ?? 0;
}
