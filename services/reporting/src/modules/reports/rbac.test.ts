import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPORT_MESSAGES, REPORT_NAMES } from '@dme/contracts';
import { eventually, type Caller } from '@dme/testing';
import { startReporting, type ReportingHarness } from '../../test/harness';

let h: ReportingHarness;
let admin: Caller;
let jobId: string;

beforeAll(async () => {
  h = await startReporting();
  admin = h.as('SUPERADMIN');
  const started = await h.api.post('/api/reports/rental-sales/exports', { from: '2026-03-01', to: '2026-03-02' }, { as: admin });
  jobId = started.body.export.id;
  await eventually(async () => (await h.api.get(`/api/report-exports/${jobId}`, { as: admin })).body.export.status === 'DONE', 10_000);
});
afterAll(() => h?.close());

const RANGE = 'from=2026-03-01&to=2026-03-02';

describe('reports are for SUPERADMIN only (report:read)', () => {
  it('SUPERADMIN reads every report, starts exports, follows and downloads its own', async () => {
    for (const r of REPORT_NAMES) expect((await h.api.get(`/api/reports/${r}?${RANGE}`, { as: admin })).status).toBe(200);
    expect((await h.api.get(`/api/report-exports/${jobId}`, { as: admin })).status).toBe(200);
    expect((await h.download(`/api/report-exports/${jobId}/file`, admin)).status).toBe(200);
  });

  it.each(['WAREHOUSE_ADMIN', 'ACCOUNTING_ADMIN', 'DRIVER', 'CUSTOMER'] as const)('%s gets 403 on every report route', async (role) => {
    const who = h.as(role);
    for (const r of REPORT_NAMES) {
      expect((await h.api.get(`/api/reports/${r}?${RANGE}`, { as: who })).status).toBe(403);
      expect((await h.api.post(`/api/reports/${r}/exports`, { from: '2026-03-01', to: '2026-03-02' }, { as: who })).status).toBe(403);
    }
    expect((await h.api.get(`/api/report-exports/${jobId}`, { as: who })).status).toBe(403);
    expect((await h.download(`/api/report-exports/${jobId}/file`, who)).status).toBe(403);
  });

  it('no caller: 401', async () => {
    expect((await h.api.get(`/api/reports/rental-sales?${RANGE}`)).status).toBe(401);
  });

  it("another superadmin's export job is not found", async () => {
    const other = h.as('SUPERADMIN');
    expect((await h.api.get(`/api/report-exports/${jobId}`, { as: other })).status).toBe(404);
    expect((await h.download(`/api/report-exports/${jobId}/file`, other)).status).toBe(404);
    expect((await h.api.get(`/api/report-exports/${randomUUID()}`, { as: admin })).status).toBe(404);
  });
});

describe('ranges', () => {
  const cases: Array<[string, string, string, string]> = [
    ['from after to', 'from=2026-03-02&to=2026-03-01', 'to', REPORT_MESSAGES.range],
    ['not a date', 'from=not-a-date&to=2026-03-01', 'from', REPORT_MESSAGES.badDate],
    ['no such day', 'from=2026-02-30&to=2026-03-01', 'from', REPORT_MESSAGES.badDate],
    ['400 days', 'from=2025-01-01&to=2026-02-05', 'to', REPORT_MESSAGES.tooLong],
  ];

  it.each(cases)('%s: 400 on the report and on an export, with the message on its field', async (_name, qs, field, message) => {
    const params = new URLSearchParams(qs);
    const answers = [
      await h.api.get(`/api/reports/purchased-sales?${qs}`, { as: admin }),
      await h.api.post('/api/reports/purchased-sales/exports', { from: params.get('from'), to: params.get('to') }, { as: admin }),
    ];
    for (const res of answers) {
      expect(res.status).toBe(400);
      // The field's every message is the contract's text (a malformed date fails its pattern and its calendar check).
      const onField = res.body.errors.filter((e: { field: string }) => e.field === field);
      expect(onField.length).toBeGreaterThan(0);
      for (const e of onField) expect(e.message).toBe(message);
      if (res.body.errors.length === 1) expect(res.body.detail).toBe(message);
    }
  });

  it('366 days is the longest range; an unknown report is not found', async () => {
    expect((await h.api.get('/api/reports/purchased-sales?from=2025-01-01&to=2026-01-01', { as: admin })).status).toBe(200);
    expect((await h.api.get('/api/reports/purchased-sales?from=2025-01-01&to=2026-01-02', { as: admin })).status).toBe(400);
    expect((await h.api.get(`/api/reports/everything?${RANGE}`, { as: admin })).status).toBe(404);
  });
});
