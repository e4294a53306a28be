import { statSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPORTS } from '../reports/definitions';
import { ReportXlsxWriter } from './xlsx';

// A year's export is hundreds of thousands of rows: the writer must let the zip take what it was
// given before the exporter reads more (issue 30: without it the whole sheet waited in memory).
let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'xlsx-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

const def = REPORTS['purchased-invoice'];
const row = (i: number) =>
  Object.fromEntries(def.columns.map((c) => [c.key, c.kind === 'money' ? '123.45' : c.kind === 'date' ? '2026-01-02' : c.kind === 'int' ? 3 : `ORD-20260102-${String(i).padStart(6, '0')} Maria Santos`]));

describe('the report workbook writer', () => {
  it('drained(): the rows given so far are zipped onto the disk before more are read, and the file holds every row', async () => {
    const file = join(dir, 'year.xlsx');
    const writer = new ReportXlsxWriter('purchased-invoice', def, file);
    const onDisk: number[] = [];
    for (let batch = 0; batch < 8; batch++) {
      for (let i = 0; i < 5000; i++) writer.addRow(row(batch * 5000 + i));
      await writer.drained();
      onDisk.push(statSync(file).size);
    }
    // Written as it goes: the file grows batch by batch, not only at the end.
    expect(onDisk[7]!).toBeGreaterThan(onDisk[1]! + 100_000);
    await writer.finish();
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.readFile(file);
    const ws = wb.worksheets[0]!;
    expect(ws.rowCount).toBe(1 + 40_000 + 1);
    expect(ws.getRow(40_001).getCell(1).value).toBe(row(39_999)[def.columns[0]!.key]);
  }, 60_000);
});
