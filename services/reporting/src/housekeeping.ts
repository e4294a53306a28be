import type { EntityManager } from '@mikro-orm/postgresql';
import { qualified, sql } from '@dme/platform';
import { purgeExports } from './modules/exports/export.service';

/** A RUNNING job that has not written progress for this long is dead (its process is gone). */
export const STALE_EXPORT_MINUTES = 10;

/**
 * The reporting service's own housekeeping: export jobs and their files older than 24 h; jobs
 * left RUNNING by a process that died without restarting here (another replica) are FAILED.
 */
export async function purgeReportingHousekeeping(em: EntityManager): Promise<{ exports: number; stale: number }> {
  const exports = await purgeExports(em);
  const stale = await sql<{ id: string }>(
    em,
    `update ${qualified(em, 'exports')} set status = 'FAILED', error = 'stalled', updated_at = now()
     where status = 'RUNNING' and updated_at < now() - make_interval(mins => $1) returning id`,
    [STALE_EXPORT_MINUTES],
  );
  return { exports, stale: stale.length };
}
