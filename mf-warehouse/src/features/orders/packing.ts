import { PACKING_MESSAGES } from '@dme/contracts/browser';
import type { OrderLine, StockItem, TransitionRequest } from '@dme/contracts';
import { lineName } from './format';

/**
 * Packing (SPEC §4 PREPARING → TO_SHIP, §5 Scanning): pure rules of the packing screen. The server
 * checks all of it again when the order is sent to TO_SHIP; these give the person at the table an
 * answer per scan.
 */

/** Serial codes scanned so far, per order line id. */
export type Scans = Readonly<Record<string, readonly string[]>>;

export type ScanCheck = { ok: true; serialCode: string } | { ok: false; message: string };

/** Ours (the spec has no text for these). The serial-code rule is contracts' SerialCode. */
export const SCAN_MESSAGES = {
  empty: 'Scan or type a serial code.',
  notALabel: 'This QR code is not a serial-code label. Scan the label on the item.',
  badCharacters: 'A serial code has only letters, digits and dashes.',
  tooLong: 'A serial code has at most 40 characters.',
} as const;

const SERIAL_RE = /^[A-Za-z0-9-]+$/;
const SERIAL_MAX = 40;

/**
 * The serial code in what a scanner read. A label's QR holds JSON {"productID","serialCode"}
 * (contracts stockQrPayload); a typed code or a keyboard-wedge scanner gives the code itself.
 * Codes are upper case (catalog makes them so), so a code typed in lower case is found too. Other
 * QR codes (an order's {"orderID"}, a bin list's {"stockID"}) are refused.
 */
export function serialFromScan(text: string): ScanCheck {
  const raw = text.trim();
  if (!raw) return { ok: false, message: SCAN_MESSAGES.empty };
  let code = raw;
  if (raw.startsWith('{')) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(raw);
    } catch {
      return { ok: false, message: SCAN_MESSAGES.notALabel };
    }
    const serial = parsed && typeof parsed === 'object' ? (parsed as { serialCode?: unknown }).serialCode : undefined;
    if (typeof serial !== 'string' || !serial.trim()) return { ok: false, message: SCAN_MESSAGES.notALabel };
    code = serial.trim();
  }
  if (code.length > SERIAL_MAX) return { ok: false, message: SCAN_MESSAGES.tooLong };
  if (!SERIAL_RE.test(code)) return { ok: false, message: SCAN_MESSAGES.badCharacters };
  return { ok: true, serialCode: code.toUpperCase() };
}

/** Whether this code was scanned already, for any line of the order (one item fills one place). */
export function isAlreadyScanned(serialCode: string, scans: Scans): boolean {
  return Object.values(scans).some((codes) => codes.includes(serialCode));
}

type LineIdentity = Pick<OrderLine, 'productID' | 'productVariantID' | 'productSubVariantID'>;

/** An item fits a line when it is the same product, variant and sub-variant. */
export function fitsLine(item: Pick<StockItem, 'productID' | 'productVariantID' | 'productSubVariantID'>, line: LineIdentity): boolean {
  return (
    item.productID === line.productID &&
    (item.productVariantID ?? null) === (line.productVariantID ?? null) &&
    (item.productSubVariantID ?? null) === (line.productSubVariantID ?? null)
  );
}

/** Whether the line has room for one more scanned item. */
export function lineHasRoom(line: Pick<OrderLine, 'id' | 'quantity'>, scans: Scans): boolean {
  return (scans[line.id]?.length ?? 0) < line.quantity;
}

type NamedLine = LineIdentity & Pick<OrderLine, 'productName' | 'variant' | 'subVariant'>;

/**
 * What to answer for an item looked up by the code scanned for `line`: another product, variant or
 * sub-variant is refused with the spec's message, naming the line as the server does ("Wheelchair /
 * Standard / Large"); an item that is not AVAILABLE (rented, sold, damaged, lost) cannot be packed.
 */
export function checkItem(item: Pick<StockItem, 'serialCode' | 'status' | 'productID' | 'productVariantID' | 'productSubVariantID'>, line: NamedLine): ScanCheck {
  if (!fitsLine(item, line)) return { ok: false, message: PACKING_MESSAGES.wrongProduct(lineName(line)) };
  if (item.status !== 'AVAILABLE') return { ok: false, message: PACKING_MESSAGES.notAvailable(item.serialCode) };
  return { ok: true, serialCode: item.serialCode };
}

/** A line is done when exactly its quantity of items is scanned (SPEC §5: OK only then). */
export function lineDone(line: Pick<OrderLine, 'id' | 'quantity'>, scans: Scans): boolean {
  return (scans[line.id]?.length ?? 0) === line.quantity;
}

/** 'To Ship Order' is enabled only when every line is done (SPEC §4). */
export function allLinesDone(lines: readonly Pick<OrderLine, 'id' | 'quantity'>[], scans: Scans): boolean {
  return lines.length > 0 && lines.every((l) => lineDone(l, scans));
}

/** The body that sends a packed order to TO_SHIP: every line with its scanned serial codes. */
export function packingRequest(lines: readonly Pick<OrderLine, 'id'>[], scans: Scans): TransitionRequest {
  return { to: 'TO_SHIP', packing: lines.map((l) => ({ lineID: l.id, serialCodes: [...(scans[l.id] ?? [])] })) };
}
