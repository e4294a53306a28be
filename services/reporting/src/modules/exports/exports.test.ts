import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPORT_MESSAGES, ReportExportResponse } from '@dme/contracts';
import { createOrm, IDENTITY_HEADERS, sql } from '@dme/platform';
import { eventually, listen, TEST_INTERNAL_TOKEN, type Caller, type Json } from '@dme/testing';
import { createApp, entities, ExportRunner, migrations, ReportingEnv } from '../../app';
import { failInterruptedExports, purgeExports } from './export.service';
import { DATE_FORMAT, MONEY_FORMAT } from './xlsx';
import { startReporting, type ReportingHarness } from '../../test/harness';
import { scriptedHistory } from '../../test/scenario';

let h: ReportingHarness;
let admin: Caller;
const history = scriptedHistory();

beforeAll(async () => {
  h = await startReporting();
  admin = h.as('SUPERADMIN');
  await h.feed(...history.events);
});
afterAll(() => h?.close());

/** Starts an export and waits until it is no longer RUNNING. */
async function exportDone(report: string, from: string, to: string, timeoutMs = 20_000): Promise<Json> {
  const started = await h.api.post(`/api/reports/${report}/exports`, { from, to }, { as: admin });
  expect(started.status).toBe(202);
  expect(started.body.export).toMatchObject({ report, from, to, status: 'RUNNING', rowsWritten: 0 });
  return eventually(async () => {
    const res = await h.api.get(`/api/report-exports/${started.body.export.id}`, { as: admin });
    expect(ReportExportResponse.parse(res.body)).toEqual(res.body);
    return res.body.export.status !== 'RUNNING' ? res.body.export : undefined;
  }, timeoutMs);
}

/** Downloads a finished export and opens it with exceljs. */
async function workbookOf(id: string, fileName: string): Promise<ExcelJS.Worksheet> {
  const res = await h.download(`/api/report-exports/${id}/file`, admin);
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toBe('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
  expect(res.headers.get('content-disposition')).toBe(`attachment; filename="${fileName}"`);
  const path = join(h.exportDir, `read-${id}.xlsx`);
  await writeFile(path, res.bytes);
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.readFile(path);
  return wb.worksheets[0]!;
}

const cents = (v: unknown) => Math.round(Number(v) * 100);

describe('Excel export jobs', () => {
  it('purchased sales: header, typed rows, money format, frozen header, totals row equal to the report sum', async () => {
    const job = await exportDone('purchased-sales', '2026-03-01', '2026-03-02');
    expect(job).toMatchObject({ status: 'DONE', rowsTotal: 3, rowsWritten: 3, progress: 100, fileName: 'FOR_SALE_PRODUCT_REPORTS.xlsx' });
    const ws = await workbookOf(job.id, 'FOR_SALE_PRODUCT_REPORTS.xlsx');
    expect(ws.name).toBe('Purchased Sales');
    expect(ws.views[0]).toMatchObject({ state: 'frozen', ySplit: 1 });
    expect(ws.getRow(1).values).toEqual([undefined, 'Brand', 'Name', 'Total Quantity', 'Product Amount', 'Total Sales']);
    expect(ws.getRow(1).getCell(1).font?.bold).toBe(true);
    expect(ws.rowCount).toBe(5);
    const row = ws.getRow(3);
    expect(row.values).toEqual([undefined, 'Omron Healthcare', 'Digital Thermometer', 5, 12.99, 64.95]);
    expect(row.getCell(3).type).toBe(ExcelJS.ValueType.Number);
    expect(row.getCell(5).type).toBe(ExcelJS.ValueType.Number);
    expect(row.getCell(5).numFmt).toBe(MONEY_FORMAT);
    const report = await h.api.get('/api/reports/purchased-sales?from=2026-03-01&to=2026-03-02', { as: admin });
    const totals = ws.getRow(5);
    expect(totals.getCell(1).value).toBe('Total');
    expect(totals.font?.bold ?? totals.getCell(1).font?.bold).toBe(true);
    expect(totals.getCell(3).value).toBe(7);
    expect(totals.getCell(4).value).toBeNull();
    expect(cents(totals.getCell(5).value)).toBe(cents(report.body.sum));
    expect(report.body.sum).toBe('226.45');
  });

  it('purchased invoice: dates are date cells; the totals row is the report sum', async () => {
    const job = await exportDone('purchased-invoice', '2026-03-01', '2026-03-02');
    expect(job).toMatchObject({ status: 'DONE', rowsTotal: 3, fileName: 'PURCHASED_INVOICE_REPORTS.xlsx' });
    const ws = await workbookOf(job.id, 'PURCHASED_INVOICE_REPORTS.xlsx');
    expect(ws.getRow(1).values).toEqual([undefined, 'Invoice Number', 'Receipt Number', 'Order Number', 'Customer', 'Paid On', 'Amount']);
    const first = ws.getRow(2);
    expect(first.getCell(1).value).toBe('INV-B1');
    expect(first.getCell(5).type).toBe(ExcelJS.ValueType.Date);
    expect((first.getCell(5).value as Date).toISOString()).toBe('2026-03-01T00:00:00.000Z');
    expect(first.getCell(5).numFmt).toBe(DATE_FORMAT);
    expect(ws.getRow(4).getCell(5).value).toEqual(new Date('2026-03-02T00:00:00Z'));
    expect(first.getCell(6).value).toBe(175.98);
    expect(cents(ws.getRow(5).getCell(6).value)).toBe(22645);
  });

  it('rental sales is FOR_RENT_PRODUCT_REPORTS.xlsx with its totals', async () => {
    const job = await exportDone('rental-sales', '2026-03-01', '2026-03-02');
    const ws = await workbookOf(job.id, 'FOR_RENT_PRODUCT_REPORTS.xlsx');
    const totals = ws.getRow(4);
    // Quantity 4 + 3, rental days 12 + 12, amounts 198 + 540, partial 66 + 135, balance 66 + 225; no total of unit prices.
    expect(totals.values).toEqual([undefined, 'Total', undefined, 7, undefined, 24, 738, 201, 291]);
  });

  it('a file is 409 until the job is done, and when it failed', async () => {
    for (const [status, message] of [
      ['RUNNING', REPORT_MESSAGES.exportNotReady],
      ['FAILED', REPORT_MESSAGES.exportFailed],
    ] as const) {
      const id = randomUUID();
      await sql(h.orm.em.fork(), `insert into reporting.exports (id, report, range_from, range_to, status, created_by, file_path) values ($1, 'rental-sales', '2026-03-01', '2026-03-01', $2, $3, '/nowhere')`, [
        id,
        status,
        admin.userId,
      ]);
      const res = await h.download(`/api/report-exports/${id}/file`, admin);
      expect(res.status).toBe(409);
      expect(res.problem.detail).toBe(message);
    }
  });

  it('20,000 rows: read in batches, progress reaches 100, every row and the totals are in the file', async () => {
    // Purchases paid on 2025-06-15 (Manila), written straight into the read model.
    await sql(
      h.orm.em.fork(),
      `with o as (
         insert into reporting.orders (id, order_number, customer_id, customer_name, type, total_amount, placed_at, status, payment_status, first_paid_at, full_paid_at)
         select gen_random_uuid(), 'ORD-20250615-' || lpad(i::text, 6, '0'), gen_random_uuid(), 'Customer ' || i, 'BUY', (i % 500) + 0.25,
                '2025-06-15T00:00:00Z', 'PREPARING', 'PAID', '2025-06-15T02:00:00Z'::timestamptz + i * interval '1 second', '2025-06-15T02:00:00Z'::timestamptz + i * interval '1 second'
         from generate_series(1, 20000) i returning id, order_number, total_amount, full_paid_at)
       insert into reporting.payments (payment_id, type, order_id, order_number, order_type, amount, balance_after, status_after, invoice_number, receipt_number, confirmed_at, accommodated_by, version)
       select gen_random_uuid(), 'FULL', o.id, o.order_number, 'BUY', o.total_amount, 0, 'PAID', 'INV-' || o.order_number, 'OR-' || o.order_number, o.full_paid_at, gen_random_uuid(), 2 from o`,
    );
    const report = await h.api.get('/api/reports/purchased-invoice?from=2025-06-15&to=2025-06-15&limit=1', { as: admin });
    expect(report.body.total).toBe(20000);
    const job = await exportDone('purchased-invoice', '2025-06-15', '2025-06-15', 60_000);
    expect(job).toMatchObject({ status: 'DONE', rowsTotal: 20000, rowsWritten: 20000, progress: 100 });
    const ws = await workbookOf(job.id, 'PURCHASED_INVOICE_REPORTS.xlsx');
    expect(ws.rowCount).toBe(20002);
    expect(ws.getRow(2).getCell(3).value).toBe('ORD-20250615-000001');
    expect(ws.getRow(20001).getCell(3).value).toBe('ORD-20250615-020000');
    expect(cents(ws.getRow(20002).getCell(6).value)).toBe(cents(report.body.sum));
  });

  it('a job a restart interrupted is FAILED; jobs older than 24 h are deleted with their files', async () => {
    const running = randomUUID();
    const old = await exportDone('purchased-sales', '2026-03-01', '2026-03-01');
    await sql(h.orm.em.fork(), `insert into reporting.exports (id, report, range_from, range_to, status, created_by, file_path) values ($1, 'rental-sales', '2026-03-01', '2026-03-01', 'RUNNING', $2, '/nowhere')`, [
      running,
      admin.userId,
    ]);
    expect(await failInterruptedExports(h.orm.em.fork())).toBeGreaterThanOrEqual(1);
    expect((await h.api.get(`/api/report-exports/${running}`, { as: admin })).body.export.status).toBe('FAILED');
    const [row] = await sql<{ file_path: string }>(h.orm.em.fork(), `update reporting.exports set created_at = now() - interval '25 hours' where id = $1 returning file_path`, [old.id]);
    const stored = async () => (await sql<{ n: number }>(h.orm.em.fork(), `select count(*)::int as n from reporting.blobs where name = $1`, [`export-${old.id}.xlsx`]))[0]!.n;
    expect(await stored()).toBe(1);
    expect(await purgeExports(h.orm.em.fork())).toBe(1);
    expect(await stored()).toBe(0);
    expect(existsSync(row!.file_path)).toBe(false);
    expect((await h.api.get(`/api/report-exports/${old.id}`, { as: admin })).status).toBe(404);
  });

  it('a finished export is kept in the database, not on the disk of the replica that made it: another replica serves it', async () => {
    const job = await exportDone('rental-sales', '2026-03-01', '2026-03-31');
    expect(job.status).toBe('DONE');
    // The working file is gone from the first replica's export folder.
    const [row] = await sql<{ file_path: string }>(h.orm.em.fork(), `select file_path from reporting.exports where id = $1`, [job.id]);
    expect(existsSync(row!.file_path)).toBe(false);
    // A second replica: its own database pool and export folder, the same database.
    const orm = await createOrm({ url: h.dbUrl, schema: 'reporting', entities, migrations });
    const dir = await mkdtemp(join(tmpdir(), 'reporting-replica-'));
    const config = ReportingEnv.parse({ DATABASE_URL: h.dbUrl, INTERNAL_TOKEN: TEST_INTERNAL_TOKEN, EXPORT_DIR: dir });
    const other = await listen(createApp({ orm, config, logger: h.logger, exports: new ExportRunner(orm.em, h.logger, dir) }));
    try {
      const res = await fetch(`${other.url}/api/report-exports/${job.id}/file`, {
        headers: { [IDENTITY_HEADERS.internalToken]: TEST_INTERNAL_TOKEN, [IDENTITY_HEADERS.userId]: admin.userId, [IDENTITY_HEADERS.userType]: admin.userType, [IDENTITY_HEADERS.username]: 'admin' },
      });
      expect(res.status).toBe(200);
      const bytes = Buffer.from(await res.arrayBuffer());
      const mine = await h.download(`/api/report-exports/${job.id}/file`, admin);
      expect(bytes.equals(mine.bytes)).toBe(true);
      const wb = new ExcelJS.Workbook();
      await wb.xlsx.load(bytes as unknown as ArrayBuffer);
      expect(wb.worksheets[0]!.getRow(1).getCell(1).value).toBe('Brand');
    } finally {
      await other.close();
      await orm.close();
      await rm(dir, { recursive: true, force: true });
    }
  });
});
