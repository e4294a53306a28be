import type { EntityManager } from '@mikro-orm/postgresql';
import { CUSTODY_KINDS, type CustodyKind } from '@dme/contracts';
import { notFound, qualified, sql } from '@dme/platform';
import { custodyRows, type CustodyRow } from './units.service';

/**
 * A chain of custody exported (issue 26): one serial's or one order's units, as CSV (a
 * spreadsheet, for an auditor) or as a GS1 EPCIS 2.0 document (JSON-LD): one ObjectEvent per
 * entry, its bizStep and disposition from the Core Business Vocabulary (CBV 2.0).
 */

/** One serial's history, named for the file. */
export async function unitCustody(em: EntityManager, code: string): Promise<{ name: string; rows: CustodyRow[] }> {
  const [unit] = await sql<{ id: string; serial_code: string }>(em, `select id, serial_code from ${qualified(em, 'stock_items')} where serial_code = $1`, [code.trim().toUpperCase()]);
  if (!unit) throw notFound('No unit has this serial code.');
  return { name: unit.serial_code, rows: await custodyRows(em, { stockItemId: unit.id }) };
}

/** The histories of every unit packed for an order (an order none was packed for is not found). */
export async function orderCustody(em: EntityManager, orderId: string): Promise<{ name: string; rows: CustodyRow[] }> {
  const rows = await custodyRows(em, { orderId });
  if (rows.length === 0) throw notFound('No unit was packed for this order.');
  const [order] = await sql<{ order_number: string }>(em, `select order_number from ${qualified(em, 'custody_orders')} where order_id = $1`, [orderId]);
  return { name: order?.order_number ?? orderId, rows };
}

/** A CSV field: quoted when it must be, and a leading = + - @ defused so a spreadsheet never runs it as a formula. */
function field(value: string | null): string {
  let v = value ?? '';
  if (/^[=+\-@\t\r]/.test(v)) v = `'${v}`;
  return /[",\r\n]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v;
}

export const CSV_HEADER = ['Serial code', 'When', 'What', 'Status after', 'By', 'Bin', 'Order', 'Party', 'Condition', 'Note', 'Checklist'];

/** The history as CSV (RFC 4180, CRLF, a header row), oldest first per serial. */
export function custodyCsv(rows: readonly CustodyRow[]): string {
  const lines = [CSV_HEADER.join(',')];
  for (const r of rows) {
    lines.push(
      [
        r.serial_code,
        new Date(r.at).toISOString(),
        CUSTODY_KINDS[r.kind],
        r.status,
        r.by_name,
        r.bin_name,
        r.order_number,
        r.party,
        r.condition,
        r.note,
        r.checklist ? r.checklist.map((c) => `${c.point}: ${c.ok ? 'OK' : 'FAIL'}`).join('; ') : null,
      ]
        .map(field)
        .join(','),
    );
  }
  return `${lines.join('\r\n')}\r\n`;
}

/** Each kind of entry as an EPCIS ObjectEvent: its action, CBV bizStep and disposition. */
const EPCIS_OF: Record<CustodyKind, { action: 'ADD' | 'OBSERVE' | 'DELETE'; bizStep: string; disposition: string }> = {
  STOCKED: { action: 'ADD', bizStep: 'commissioning', disposition: 'active' },
  MOVED: { action: 'OBSERVE', bizStep: 'storing', disposition: 'available' },
  RESERVED: { action: 'OBSERVE', bizStep: 'reserving', disposition: 'reserved' },
  PACKED: { action: 'OBSERVE', bizStep: 'packing', disposition: 'reserved' },
  OUT_FOR_DELIVERY: { action: 'OBSERVE', bizStep: 'shipping', disposition: 'in_transit' },
  DELIVERED: { action: 'OBSERVE', bizStep: 'arriving', disposition: 'active' },
  PICKED_UP: { action: 'OBSERVE', bizStep: 'collecting', disposition: 'in_transit' },
  RETURNED: { action: 'OBSERVE', bizStep: 'receiving', disposition: 'returned' },
  CLEANED: { action: 'OBSERVE', bizStep: 'other', disposition: 'unavailable' },
  INSPECTED: { action: 'OBSERVE', bizStep: 'inspecting', disposition: 'conformant' },
  PUT_AWAY: { action: 'OBSERVE', bizStep: 'storing', disposition: 'available' },
  REPAIR_OPENED: { action: 'OBSERVE', bizStep: 'repairing', disposition: 'damaged' },
  REPAIRED: { action: 'OBSERVE', bizStep: 'repairing', disposition: 'available' },
  SCRAPPED: { action: 'DELETE', bizStep: 'destroying', disposition: 'destroyed' },
  HELD: { action: 'OBSERVE', bizStep: 'holding', disposition: 'unavailable' },
  RELEASED: { action: 'OBSERVE', bizStep: 'holding', disposition: 'unavailable' },
  FOUND: { action: 'OBSERVE', bizStep: 'receiving', disposition: 'returned' },
  WRITTEN_OFF: { action: 'DELETE', bizStep: 'decommissioning', disposition: 'inactive' },
  SERVICED: { action: 'OBSERVE', bizStep: 'inspecting', disposition: 'conformant' },
  RECALLED: { action: 'OBSERVE', bizStep: 'holding', disposition: 'recalled' },
  BOUGHT_OUT: { action: 'OBSERVE', bizStep: 'retail_selling', disposition: 'retail_sold' },
};

/** The disposition an entry's condition implies, where it says more than its kind (a damaged return, a failed inspection). */
function dispositionOf(r: CustodyRow): string {
  if (r.kind === 'RETURNED' && r.condition === 'DAMAGED') return 'damaged';
  if (r.kind === 'RETURNED' && r.condition === 'LOST') return 'unknown';
  if ((r.kind === 'INSPECTED' || r.kind === 'SERVICED') && r.condition === 'FAILED') return 'non_conformant';
  if (r.kind === 'SCRAPPED' && r.condition === 'SCRAPPED') return 'destroyed';
  return EPCIS_OF[r.kind].disposition;
}

/** Our own identifiers as URIs (EPCIS ids must be URIs; our units have no GS1 keys). */
export const EPCIS_URN = {
  serial: (code: string) => `urn:dme:serial:${encodeURIComponent(code)}`,
  bin: (id: string) => `urn:dme:bin:${id}`,
  order: (orderNumber: string) => `urn:dme:order:${encodeURIComponent(orderNumber)}`,
};

/** Our fields beside the standard ones, under our own JSON-LD prefix. */
const DME_NS = 'https://dme.example/epcis/';

/** The history as an EPCIS 2.0 document (JSON-LD). */
export function custodyEpcis(rows: readonly CustodyRow[], created: Date) {
  return {
    '@context': ['https://ref.gs1.org/standards/epcis/2.0.0/epcis-context.jsonld', { dme: DME_NS }],
    type: 'EPCISDocument',
    schemaVersion: '2.0',
    creationDate: created.toISOString(),
    epcisBody: {
      eventList: rows.map((r) => {
        const m = EPCIS_OF[r.kind];
        return {
          type: 'ObjectEvent',
          eventID: `urn:uuid:${r.id}`,
          eventTime: new Date(r.at).toISOString(),
          eventTimeZoneOffset: '+08:00',
          epcList: [EPCIS_URN.serial(r.serial_code)],
          action: m.action,
          bizStep: m.bizStep,
          disposition: dispositionOf(r),
          ...(r.bin_id ? { readPoint: { id: EPCIS_URN.bin(r.bin_id) }, bizLocation: { id: EPCIS_URN.bin(r.bin_id) } } : {}),
          ...(r.order_number ? { bizTransactionList: [{ type: 'po', bizTransaction: EPCIS_URN.order(r.order_number) }] } : {}),
          'dme:step': r.kind,
          ...(r.by_name ? { 'dme:by': r.by_name } : {}),
          ...(r.party ? { 'dme:party': r.party } : {}),
          ...(r.condition ? { 'dme:condition': r.condition } : {}),
          ...(r.note ? { 'dme:note': r.note } : {}),
        };
      }),
    },
  };
}
