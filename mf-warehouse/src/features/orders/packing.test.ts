import { describe, expect, it } from 'vitest';
import { PACKING_MESSAGES, stockQrPayload } from '@dme/contracts';
import { allLinesDone, checkItem, fitsLine, isAlreadyScanned, lineDone, lineHasRoom, packingRequest, SCAN_MESSAGES, serialFromScan } from './packing';

const P1 = '11111111-1111-4111-8111-111111111111';
const P2 = '22222222-2222-4222-8222-222222222222';
const V1 = '33333333-3333-4333-8333-333333333333';
const V2 = '44444444-4444-4444-8444-444444444444';
const S1 = '55555555-5555-4555-8555-555555555555';

const line = {
  id: 'line-a',
  productID: P1,
  productName: 'Wheelchair',
  productVariantID: V1,
  productSubVariantID: S1,
  variant: { name: 'Standard', price: null },
  subVariant: { name: 'Large', price: '50.00' },
  quantity: 2,
};
const item = (over: Partial<{ serialCode: string; status: string; productID: string; productVariantID: string | null; productSubVariantID: string | null }> = {}) =>
  ({ serialCode: 'WHE-0000001', status: 'AVAILABLE', productID: P1, productVariantID: V1, productSubVariantID: S1, ...over }) as Parameters<typeof checkItem>[0];

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

describe('line matching', () => {
  it('an item fits a line only with the same product, variant and sub-variant', () => {
    expect(fitsLine(item(), line)).toBe(true);
    expect(fitsLine(item({ productID: P2 }), line)).toBe(false);
    expect(fitsLine(item({ productVariantID: V2 }), line)).toBe(false);
    expect(fitsLine(item({ productSubVariantID: null }), line)).toBe(false);
    const plain = { ...line, productVariantID: null, productSubVariantID: null };
    expect(fitsLine(item({ productVariantID: null, productSubVariantID: null }), plain)).toBe(true);
    expect(fitsLine(item(), plain)).toBe(false);
  });

  it("refuses another product, variant or sub-variant with the spec's message naming the line (as the server does)", () => {
    const wrong = { ok: false, message: 'Scanned product is not Wheelchair / Standard / Large. Please make sure that you only scanned the type of product you selected.' };
    expect(checkItem(item({ productID: P2 }), line)).toEqual(wrong);
    expect(checkItem(item({ productVariantID: V2 }), line)).toEqual(wrong);
    expect(checkItem(item({ productSubVariantID: null }), line)).toEqual(wrong);
    const plain = { ...line, productVariantID: null, productSubVariantID: null, variant: null, subVariant: null };
    expect(checkItem(item(), plain)).toEqual({
      ok: false,
      message: 'Scanned product is not Wheelchair. Please make sure that you only scanned the type of product you selected.',
    });
  });

  it('refuses an item that is not AVAILABLE (rented, sold, damaged, lost)', () => {
    for (const status of ['RENTED', 'SOLD', 'DAMAGED', 'LOST']) {
      expect(checkItem(item({ status }), line)).toEqual({ ok: false, message: PACKING_MESSAGES.notAvailable('WHE-0000001') });
    }
    expect(checkItem(item(), line)).toEqual({ ok: true, serialCode: 'WHE-0000001' });
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

  it("sends every line with its codes to TO_SHIP, in the order's line order", () => {
    expect(packingRequest(lines, { b: ['Y-1'], a: ['X-1', 'X-2'] })).toEqual({
      to: 'TO_SHIP',
      packing: [
        { lineID: 'a', serialCodes: ['X-1', 'X-2'] },
        { lineID: 'b', serialCodes: ['Y-1'] },
      ],
    });
  });
});
