import type { EntityManager } from '@mikro-orm/postgresql';
import type { OrderStatus, OrderType } from '@dme/contracts';
import { qualified, startPeriodic, type PollingLoop, type Logger } from '@dme/platform';

/**
 * How many orders each status holds (of one type, or of all), from the counts the orders table's
 * triggers keep (migration 0020): the folded counts plus the changes not folded in yet, read in
 * one snapshot, so exact at the moment of the read. Statuses holding none are left out.
 */
export async function statusCounts(em: EntityManager, type?: OrderType): Promise<Partial<Record<OrderStatus, number>>> {
  const rows = await em.execute<Array<{ status: OrderStatus; n: number }>>(
    `select status, sum(n)::int as n
       from (select type, status, n from ${qualified(em, 'order_counts')} union all select type, status, n from ${qualified(em, 'order_count_changes')}) x
      ${type ? 'where type = ?' : ''}
      group by status having sum(n) <> 0`,
    type ? [type] : [],
  );
  return Object.fromEntries(rows.map((r) => [r.status, r.n]));
}

/**
 * Folds the counts' changes into their rows (one statement: a reader sees the changes or their
 * sum, never both or neither). One replica at a time (an advisory lock; another skips its round).
 * Answers how many changes were folded.
 */
export async function foldOrderCounts(em: EntityManager): Promise<number> {
  return em.transactional(async (tem) => {
    const [lock] = await tem.execute<Array<{ ok: boolean }>>(`select pg_try_advisory_xact_lock(hashtext(?)) as ok`, [`${qualified(tem, 'order_counts')}:fold`]);
    if (!lock?.ok) return 0;
    const [done] = await tem.execute<Array<{ n: number }>>(
      `with moved as (delete from ${qualified(tem, 'order_count_changes')} returning type, status, n),
            summed as (insert into ${qualified(tem, 'order_counts')} as c (type, status, n) select type, status, sum(n) from moved group by 1, 2
                         on conflict (type, status) do update set n = c.n + excluded.n returning 1)
       select (select count(*) from moved)::int as n`,
    );
    return done?.n ?? 0;
  });
}

/** Folds the counts' changes every few seconds (every replica runs it; one folds at a time). */
export function startOrderCountFold(opts: { em: EntityManager; logger: Logger; everyMs?: number }): PollingLoop {
  return startPeriodic(() => foldOrderCounts(opts.em.fork()), { logger: opts.logger, everyMs: opts.everyMs, failure: 'order counts: folding their changes failed, will retry' });
}
