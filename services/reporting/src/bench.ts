/**
 * Reporting figures for `npm run bench` (DESIGN §12, issue 11), in-process on a throwaway database:
 *
 *   npx tsx services/reporting/src/bench.ts [orders=100000]
 *
 * Seeds `orders` orders over a year (src/test/volume.ts), then measures each report's query for a
 * one-month range (p50/p99 of 50 runs, target p99 < 200 ms) and a streamed Excel export of
 * 100,000 rows (target < 10 s, < 200 MB peak RSS). Prints one JSON line.
 */
import { REPORT_NAMES } from '@dme/contracts';
import { createLogger, createOrm, migrate, sql } from '@dme/platform';
import { createTestDatabase } from '@dme/testing';
import { migrations } from './migrations/0001_reporting';
import { ExportRunner } from './modules/exports/export.service';
import { getReport } from './modules/reports/report.service';
import { seedVolume } from './test/volume';

const orders = Number(process.argv[2] ?? 100_000);
const logger = createLogger('reporting-bench', 'warn');
const db = await createTestDatabase('reportingbench');
const orm = await createOrm({ url: db.url, schema: 'reporting', entities: [], migrations });
const dir = `${process.env.TMPDIR ?? '/tmp'}/reporting-bench-${process.pid}`;
try {
  await migrate(orm, 'reporting', db.url);
  // Twice the orders over the year: a purchased-invoice export of the year then has `orders` rows.
  await seedVolume(orm.em.fork(), { orders: 2 * orders, firstDay: '2025-01-01', days: 365 });
  const queries: Record<string, { p50: number; p99: number; rows: number }> = {};
  for (const report of REPORT_NAMES) {
    const times: number[] = [];
    let rows = 0;
    for (let i = 0; i < 50; i++) {
      const started = performance.now();
      rows = (await getReport(orm.em.fork(), report, { from: '2025-06-01', to: '2025-06-30', limit: 50, offset: 0 })).total;
      times.push(performance.now() - started);
    }
    times.sort((a, b) => a - b);
    queries[report] = { p50: Math.round(times[24]! * 10) / 10, p99: Math.round(times[49]! * 10) / 10, rows };
  }
  const runner = new ExportRunner(orm.em, logger, dir);
  let peak = process.memoryUsage().rss;
  const rssBefore = peak;
  const timer = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 10);
  const started = performance.now();
  const job = await runner.start('purchased-invoice', { from: '2025-01-01', to: '2025-12-31' }, '00000000-0000-4000-8000-000000000000');
  await runner.idle();
  clearInterval(timer);
  const [done] = await sql<{ status: string; rows_written: number }>(orm.em.fork(), 'select status, rows_written from reporting.exports where id = $1', [job.id]);
  console.log(
    JSON.stringify({
      orders: 2 * orders,
      queries,
      export: { status: done?.status, rows: done?.rows_written, ms: Math.round(performance.now() - started), rssBeforeMb: Math.round(rssBefore / 1e6), peakRssMb: Math.round(peak / 1e6) },
    }),
  );
} finally {
  await orm.close();
  await db.drop();
  const { rm } = await import('node:fs/promises');
  await rm(dir, { recursive: true, force: true });
}
