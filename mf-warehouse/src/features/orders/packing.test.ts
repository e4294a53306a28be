import { describe, expect, it } from 'vitest';
import { stockQrPayload } from '@dme/contracts';
import { allLinesDone, binsOf, isAlreadyScanned, lineDone, lineHasRoom, SCAN_MESSAGES, scansOf, serialFromScan } from './packing';

const P1 = '11111111-1111-4111-8111-111111111111';
const P2 = '22222222-2222-4222-8222-222222222222';
describe('serialFromScan: what a scanner read → serial code', () => {
  it("takes serialCode from a label's QR JSON (contracts stockQrPayload)", () => {
    expect(serialFromScan(stockQrPayload({ productID: P1, serialCode: 'WHE-0000042' }))).toEqual({ ok: true, serialCode: 'WHE-0000042' });
    expect(serialFromScan(`  {"serialCode":" oxy-0000007 ","productID":"${P2}"}\n`)).toEqual({ ok: true, serialCode: 'OXY-0000007' });
  });

  it('takes a typed or keyboard-wedge code as it is, trimmed and in upper case', () => {
    expect(serialFromScan('WHE-0000001')).toEqual({ ok: true, serialCode: 'WHE-0000001' });
    expect(serialFromScan('  whe-0000001\r\n')).toEqual({ ok: true, serialCode: 'WHE-0000001' });
  });

  it("refuses QR codes that are not serial labels (an order's, a bin list's) and broken JSON", () => {
    expect(serialFromScan(JSON.stringify({ orderID: P1, orderNumber: 'ORD-1' }))).toEqual({ ok: false, message: SCAN_MESSAGES.notALabel });
    expect(serialFromScan(JSON.stringify({ stockID: P1 }))).toEqual({ ok: false, message: SCAN_MESSAGES.notALabel });
    expect(serialFromScan('{"serialCode": 12}')).toEqual({ ok: false, message: SCAN_MESSAGES.notALabel });
    expect(serialFromScan('{"serialCode":')).toEqual({ ok: false, message: SCAN_MESSAGES.notALabel });
  });

  it('refuses empty reads and codes the catalog never makes', () => {
    expect(serialFromScan('   ')).toEqual({ ok: false, message: SCAN_MESSAGES.empty });
    expect(serialFromScan('WHE 0000001')).toEqual({ ok: false, message: SCAN_MESSAGES.badCharacters });
    expect(serialFromScan('../../users')).toEqual({ ok: false, message: SCAN_MESSAGES.badCharacters });
    expect(serialFromScan('A'.repeat(41))).toEqual({ ok: false, message: SCAN_MESSAGES.tooLong });
    expect(serialFromScan('A'.repeat(40))).toEqual({ ok: true, serialCode: 'A'.repeat(40) });
  });
});

describe('scans of an order', () => {
  const lines = [
    { id: 'a', quantity: 2 },
    { id: 'b', quantity: 1 },
  ];

  it('a code scanned for any line is a repeat', () => {
    const scans = { a: ['WHE-1'], b: ['OXY-1'] };
    expect(isAlreadyScanned('OXY-1', scans)).toBe(true);
    expect(isAlreadyScanned('WHE-1', scans)).toBe(true);
    expect(isAlreadyScanned('WHE-2', scans)).toBe(false);
  });

  it('a line is done at exactly its quantity, and the order when every line is', () => {
    expect(lineDone(lines[0]!, { a: ['X-1'] })).toBe(false);
    expect(lineHasRoom(lines[0]!, { a: ['X-1'] })).toBe(true);
    expect(lineDone(lines[0]!, { a: ['X-1', 'X-2'] })).toBe(true);
    expect(lineHasRoom(lines[0]!, { a: ['X-1', 'X-2'] })).toBe(false);
    expect(allLinesDone(lines, { a: ['X-1', 'X-2'] })).toBe(false);
    expect(allLinesDone(lines, { a: ['X-1', 'X-2'], b: ['Y-1'] })).toBe(true);
    expect(allLinesDone([], {})).toBe(false);
  });

  it("reads the server's progress (kept per line, issue 22) as scans per line and bins per code", () => {
    const progress = {
      orderID: 'o',
      lines: [
        { lineID: 'a', quantity: 2, serialCodes: [{ serialCode: 'X-1', warehouseBin: 'A-01 Mobility', scannedAt: '2026-11-23T05:00:00.000Z' }] },
        { lineID: 'b', quantity: 1, serialCodes: [{ serialCode: 'Y-1', warehouseBin: null, scannedAt: '2026-11-23T05:01:00.000Z' }] },
      ],
      complete: false,
    };
    expect(scansOf(progress)).toEqual({ a: ['X-1'], b: ['Y-1'] });
    expect(binsOf(progress)).toEqual({ 'X-1': 'A-01 Mobility', 'Y-1': null });
    expect(scansOf(undefined)).toEqual({});
  });
});
