import type { OrderLine, PackingProgress } from '@dme/contracts';

/**
 * Packing (SPEC §4 PREPARING → TO_SHIP, §5 Scanning): pure rules of the packing screen. Each scan
 * is kept on the server, which checks it (the line's product, AVAILABLE, not scanned already) and
 * checks everything again when the order is sent to TO_SHIP; these read what a scanner gave and
 * answer at once what needs no server (a repeat, a full line).
 */

/** Serial codes scanned so far, per order line id. */
export type Scans = Readonly<Record<string, readonly string[]>>;

/** The server's packing progress as scans per line id. */
export function scansOf(progress: PackingProgress | undefined): Scans {
  return Object.fromEntries((progress?.lines ?? []).map((l) => [l.lineID, l.serialCodes.map((s) => s.serialCode)]));
}

/** The bin each scanned code lies in (null when the catalog did not say), by code. */
export function binsOf(progress: PackingProgress | undefined): Readonly<Record<string, string | null>> {
  return Object.fromEntries((progress?.lines ?? []).flatMap((l) => l.serialCodes.map((s) => [s.serialCode, s.warehouseBin])));
}

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

/** Whether the line has room for one more scanned item. */
export function lineHasRoom(line: Pick<OrderLine, 'id' | 'quantity'>, scans: Scans): boolean {
  return (scans[line.id]?.length ?? 0) < line.quantity;
}

/** A line is done when exactly its quantity of items is scanned (SPEC §5: OK only then). */
export function lineDone(line: Pick<OrderLine, 'id' | 'quantity'>, scans: Scans): boolean {
  return (scans[line.id]?.length ?? 0) === line.quantity;
}

/** 'To Ship Order' is enabled only when every line is done (SPEC §4). */
export function allLinesDone(lines: readonly Pick<OrderLine, 'id' | 'quantity'>[], scans: Scans): boolean {
  return lines.length > 0 && lines.every((l) => lineDone(l, scans));
}
