import { randomUUID } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { EntityManager } from '@mikro-orm/postgresql';
import { REPORT_FILE_NAMES, REPORT_MESSAGES, type ReportExport, type ReportName, type ReportRange } from '@dme/contracts';
import { conflict, literal, notFound, pgPartedBlobStore, qualified, sql, sqlScript, withConnection, type Db, type OpenedBlob, type Logger } from '@dme/platform';
import { REPORTS, rowsQuery } from '../reports/definitions';
import { contractRow, tablesOf } from '../reports/report.service';
import { ReportXlsxWriter } from './xlsx';

/** Rows read from the cursor (and progress written) per batch. */
export const EXPORT_BATCH = 5000;
/** Jobs and their files are kept this long. */
export const EXPORT_TTL_HOURS = 24;

interface ExportRow {
  id: string;
  report: ReportName;
  range_from: string;
  range_to: string;
  status: ReportExport['status'];
  rows_total: number;
  rows_written: number;
  created_by: string;
  file_path: string;
  created_at: Date;
}

const COLUMNS = `id, report, range_from::text as range_from, range_to::text as range_to, status, rows_total, rows_written, created_by, file_path, created_at`;

export function exportView(row: ExportRow): ReportExport {
  const progress = row.status === 'DONE' ? 100 : row.rows_total > 0 ? Math.min(99, Math.floor((row.rows_written * 100) / row.rows_total)) : 0;
  return {
    id: row.id,
    report: row.report,
    from: row.range_from,
    to: row.range_to,
    status: row.status,
    rowsWritten: row.rows_written,
    rowsTotal: row.rows_total,
    progress,
    fileName: REPORT_FILE_NAMES[row.report],
    createdAt: new Date(row.created_at).toISOString(),
  };
}

/** A job of this user (another user's job is not found). */
async function findExport(db: Db, id: string, userId: string): Promise<ExportRow> {
  const [row] = await sql<ExportRow>(db, `select ${COLUMNS} from ${qualified(db, 'exports')} where id = $1 and created_by = $2`, [id, userId]);
  if (!row) throw notFound();
  return row;
}

export async function getExport(db: Db, id: string, userId: string): Promise<ReportExport> {
  return exportView(await findExport(db, id, userId));
}

/** The stored file of a finished export (in the reporting schema's `blobs`: any replica serves it). */
export function exportBlobName(id: string): string {
  return `export-${id}.xlsx`;
}

export const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/** The finished file of a job of this user: 409 while it runs or when it failed. */
export async function exportFile(em: EntityManager, id: string, userId: string): Promise<{ file: OpenedBlob; fileName: string }> {
  const row = await findExport(em, id, userId);
  if (row.status === 'RUNNING') throw conflict(REPORT_MESSAGES.exportNotReady);
  if (row.status === 'FAILED') throw conflict(REPORT_MESSAGES.exportFailed);
  const file = await pgPartedBlobStore(em).open(exportBlobName(row.id));
  // Finished before exports were kept in the database (on some replica's disk): start it again.
  if (!file) throw notFound();
  return { file, fileName: REPORT_FILE_NAMES[row.report] };
}

/** Jobs a stopped process left RUNNING will never finish: FAILED, so their users start them again. */
export async function failInterruptedExports(db: Db): Promise<number> {
  const rows = await sql<{ id: string }>(db, `update ${qualified(db, 'exports')} set status = 'FAILED', error = 'interrupted', updated_at = now() where status = 'RUNNING' returning id`);
  return rows.length;
}

/** Deletes jobs older than the TTL and their files, in one statement. */
export async function purgeExports(db: Db, hours: number = EXPORT_TTL_HOURS): Promise<number> {
  const rows = await sql<{ file_path: string }>(
    db,
    `with gone as (delete from ${qualified(db, 'exports')} where created_at < now() - make_interval(hours => $1) returning id, file_path),
          files as (delete from ${qualified(db, 'blobs')} where name in (select 'export-' || id || '.xlsx' from gone))
     select file_path from gone`,
    [hours],
  );
  // A job's working file, should a stopped process have left one on this replica's disk.
  for (const r of rows) await rm(r.file_path, { force: true });
  return rows.length;
}

/**
 * Runs export jobs inside the service process, apart from the requests that start them. A job
 * reads its report in one read-only snapshot through a cursor, EXPORT_BATCH rows at a time (so
 * memory stays flat however many rows), writes them with the streaming writer and records its
 * progress after each batch.
 */
export class ExportRunner {
  private readonly running = new Set<Promise<void>>();

  constructor(
    private readonly em: EntityManager,
    private readonly logger: Logger,
    private readonly dir: string,
  ) {}

  /** Records a RUNNING job and starts it; answers at once. */
  async start(report: ReportName, range: ReportRange, userId: string): Promise<ReportExport> {
    const id = randomUUID();
    const path = join(this.dir, `${id}.xlsx`);
    const [row] = await sql<ExportRow>(
      this.em.fork(),
      `insert into ${qualified(this.em, 'exports')} (id, report, range_from, range_to, status, created_by, file_path)
       values ($1, $2, $3, $4, 'RUNNING', $5, $6) returning ${COLUMNS}`,
      [id, report, range.from, range.to, userId, path],
    );
    const job = this.run(row!).finally(() => this.running.delete(job));
    this.running.add(job);
    return exportView(row!);
  }

  /** Resolves when no job is running (tests, shutdown). */
  async idle(): Promise<void> {
    while (this.running.size > 0) await Promise.allSettled([...this.running]);
  }

  private async run(job: ExportRow): Promise<void> {
    const exports = qualified(this.em, 'exports');
    const progress = (fields: string, values: unknown[]) => sql(this.em.fork(), `update ${exports} set ${fields}, updated_at = now() where id = $1`, [job.id, ...values]);
    try {
      await mkdir(this.dir, { recursive: true });
      const def = REPORTS[job.report];
      const writer = new ReportXlsxWriter(job.report, def, job.file_path);
      let written = 0;
      await withConnection(this.em, async (db) => {
        const t = tablesOf(db);
        // One snapshot for the count, the rows and so the totals row.
        await sqlScript(db, 'begin isolation level repeatable read read only');
        const [{ n }] = (await sql<{ n: number }>(db, `with base as (${def.base(t, { from: '$1', to: '$2' })}), rows as (${def.rows(t)}) select count(*)::int as n from rows`, [
          job.range_from,
          job.range_to,
        ])) as [{ n: number }];
        await progress('rows_total = $2', [n]);
        // Dates checked by the contract (YYYY-MM-DD), written as literals: a cursor's query takes no parameters here.
        await sqlScript(db, `declare export_rows no scroll cursor for ${rowsQuery(def, t, { from: literal(job.range_from), to: literal(job.range_to) })}`);
        for (;;) {
          const [res] = await sqlScript(db, `fetch ${EXPORT_BATCH} from export_rows`);
          const rows = (res?.rows ?? []) as Array<Record<string, unknown>>;
          if (rows.length === 0) break;
          for (const r of rows) writer.addRow(contractRow(def, r));
          await writer.drained();
          written += rows.length;
          await progress('rows_written = $2', [written]);
        }
        await sqlScript(db, 'commit');
      });
      await writer.finish();
      // The finished file goes where every replica can serve it; the working file goes away.
      await pgPartedBlobStore(this.em).putStream(exportBlobName(job.id), XLSX_TYPE, createReadStream(job.file_path));
      await rm(job.file_path, { force: true });
      await progress(`status = 'DONE', rows_written = $2`, [written]);
    } catch (err) {
      this.logger.error({ err, exportId: job.id, report: job.report }, 'report export failed');
      await rm(job.file_path, { force: true }).catch(() => undefined);
      await progress(`status = 'FAILED', error = $2`, [String((err as Error).message ?? err).slice(0, 500)]).catch(() => undefined);
    }
  }
}
