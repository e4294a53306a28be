import type { EntityManager } from '@mikro-orm/postgresql';
import type { Logger } from './logger';
import { qualified } from './outbox';

export interface PurgeOptions {
  /** Published outbox rows older than this are deleted (days, default 7). Pending rows never are. */
  outboxDays?: number;
  /** Inbox rows older than this are deleted (days, default 14). */
  inboxDays?: number;
  /** Rows deleted per statement (default 1000). */
  batchSize?: number;
  /** Upper bound of statements per table and run (default 100); the rest waits for the next run. */
  maxBatches?: number;
}

export const PURGE_DEFAULTS = { outboxDays: 7, inboxDays: 14, batchSize: 1000, maxBatches: 100 } as const;

/**
 * Deletes the rows of `table` (qualified) matching `where` in bounded batches, each its own short
 * statement (rows locked by someone else are skipped), so a large backlog never holds long locks
 * or makes one huge transaction. Returns how many rows went.
 */
export async function deleteInBatches(em: EntityManager, table: string, where: string, params: unknown[], batchSize: number = PURGE_DEFAULTS.batchSize, maxBatches: number = PURGE_DEFAULTS.maxBatches): Promise<number> {
  let total = 0;
  for (let i = 0; i < maxBatches; i++) {
    const res = await em.fork().execute<{ affectedRows: number }>(
      `delete from ${table} where ctid = any(array(select ctid from ${table} where ${where} limit ? for update skip locked))`,
      [...params, batchSize],
      'run',
    );
    total += res.affectedRows;
    if (res.affectedRows < batchSize) break;
  }
  return total;
}

/** Deletes outbox rows published more than `days` ago; pending rows stay whatever their age. */
export function purgePublishedOutbox(em: EntityManager, opts: { days?: number; batchSize?: number; maxBatches?: number } = {}): Promise<number> {
  return deleteInBatches(
    em,
    qualified(em, 'outbox'),
    `published_at is not null and published_at < now() - make_interval(days => ?)`,
    [opts.days ?? PURGE_DEFAULTS.outboxDays],
    opts.batchSize ?? PURGE_DEFAULTS.batchSize,
    opts.maxBatches ?? PURGE_DEFAULTS.maxBatches,
  );
}

/**
 * Deletes inbox rows processed more than `days` ago. An event redelivered after that would run
 * its effect again, so the window must stay far above any redelivery delay (and read models
 * ignore old versions anyway).
 */
export function purgeInbox(em: EntityManager, opts: { days?: number; batchSize?: number; maxBatches?: number } = {}): Promise<number> {
  return deleteInBatches(
    em,
    qualified(em, 'inbox'),
    `processed_at < now() - make_interval(days => ?)`,
    [opts.days ?? PURGE_DEFAULTS.inboxDays],
    opts.batchSize ?? PURGE_DEFAULTS.batchSize,
    opts.maxBatches ?? PURGE_DEFAULTS.maxBatches,
  );
}

/**
 * Deletes the handler failures counted (consumer.ts) on events that last failed more than `days`
 * ago, with the inbox's window: by then such an event was handled, dead-lettered or is retried
 * with its count starting again.
 */
export function purgeConsumerFailures(em: EntityManager, opts: { days?: number; batchSize?: number; maxBatches?: number } = {}): Promise<number> {
  return deleteInBatches(
    em,
    qualified(em, 'consumer_failures'),
    `failed_at < now() - make_interval(days => ?)`,
    [opts.days ?? PURGE_DEFAULTS.inboxDays],
    opts.batchSize ?? PURGE_DEFAULTS.batchSize,
    opts.maxBatches ?? PURGE_DEFAULTS.maxBatches,
  );
}

/** The platform's own housekeeping: old published outbox rows, old inbox rows and old handler failures. */
export async function purgePlatformTables(em: EntityManager, opts: PurgeOptions = {}): Promise<{ outbox: number; inbox: number; failures: number }> {
  const batch = { batchSize: opts.batchSize, maxBatches: opts.maxBatches };
  const outbox = await purgePublishedOutbox(em, { days: opts.outboxDays, ...batch });
  const inbox = await purgeInbox(em, { days: opts.inboxDays, ...batch });
  const failures = await purgeConsumerFailures(em, { days: opts.inboxDays, ...batch });
  return { outbox, inbox, failures };
}

export type LockedRun<T> = { ran: true; result: T } | { ran: false };

/**
 * Runs `task` only if no other process (replica) is running the task with the same key: takes
 * `pg_try_advisory_lock` on one dedicated pooled connection, skips when another holds it, and
 * releases it when the task ends. The task gets its own EntityManager (its queries use other
 * connections; the lock only guards against a second runner).
 */
export async function runExclusive<T>(em: EntityManager, key: string, task: (em: EntityManager) => Promise<T>): Promise<LockedRun<T>> {
  const knex = em.getKnex();
  // The lock belongs to a session, so taking and releasing must use the same connection.
  const conn = await knex.client.acquireConnection();
  try {
    const got = await knex.raw('select pg_try_advisory_lock(hashtext(?)) as locked', [key]).connection(conn);
    if (!got.rows[0]?.locked) return { ran: false };
    try {
      return { ran: true, result: await task(em.fork()) };
    } finally {
      try {
        await knex.raw('select pg_advisory_unlock(hashtext(?))', [key]).connection(conn);
      } catch (err) {
        // Never hand a connection that may still hold the lock back to the pool: knex destroys
        // a connection marked disposed (and the server frees a session's locks when it ends).
        conn.__knex__disposed = err instanceof Error ? err.message : 'advisory unlock failed';
      }
    }
  } finally {
    await knex.client.releaseConnection(conn);
  }
}

export interface HousekeepingOptions {
  em: EntityManager;
  logger: Logger;
  /** Advisory-lock key: one runner per key at a time across replicas (e.g. `housekeeping:<schema>`). */
  key: string;
  /** Interval between runs (ms, default 10 min); the first run is after `firstAfterMs` (default 30 s). */
  everyMs?: number;
  firstAfterMs?: number;
  purge?: PurgeOptions;
  /** The service's own housekeeping, run after the platform purge under the same lock. */
  task?: (em: EntityManager) => Promise<void>;
}

export interface RunningHousekeeping {
  /** One pass now (under the lock); false when another replica holds it. */
  runOnce(): Promise<boolean>;
  /** Stops the timer and waits for a pass in progress. */
  stop(): Promise<void>;
}

/**
 * Periodic housekeeping of a service: the platform purge (outbox, inbox) and the service's own
 * task, run by one replica at a time; a failure is logged and the next pass tries again.
 */
export function startHousekeeping(opts: HousekeepingOptions): RunningHousekeeping {
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  let current: Promise<unknown> = Promise.resolve();

  async function pass(): Promise<boolean> {
    const res = await runExclusive(opts.em, opts.key, async (em) => {
      const purged = await purgePlatformTables(em, opts.purge);
      if (purged.outbox || purged.inbox) opts.logger.info({ purged }, 'housekeeping: purged outbox/inbox rows');
      if (opts.task) await opts.task(em);
    });
    return res.ran;
  }

  function schedule(ms: number): void {
    if (stopped) return;
    timer = setTimeout(() => {
      current = pass()
        .catch((err) => opts.logger.warn({ err }, 'housekeeping failed'))
        .finally(() => schedule(opts.everyMs ?? 10 * 60_000));
    }, ms);
    timer.unref();
  }
  schedule(opts.firstAfterMs ?? 30_000);

  return {
    runOnce: () => {
      const p = pass();
      current = p.catch(() => undefined);
      return p;
    },
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      await current.catch(() => undefined);
    },
  };
}
