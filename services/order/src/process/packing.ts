import type { EntityManager } from '@mikro-orm/postgresql';
import { CheckSerialReply, PACKING_MESSAGES, type CheckSerialRequest, type PackingProgress, type PackedLine } from '@dme/contracts';
import { callRpc, HttpProblem, notFound, qualified, type NatsConnection, type Principal, newId } from '@dme/platform';
import type { z } from 'zod';
import { decide } from './can-perform';
import { lockOrder } from '../modules/orders/read';
import { lineLabel, normalizeSerial, type OrderFacts } from './facts';
import { GUARD_MESSAGES } from './guards';

/**
 * Packing kept on the server (issue 22): the serial codes scanned for each line of an order being
 * packed (PREPARING) are saved one by one as they are scanned, so a reload, another device or
 * another packer continues where packing stopped. 'To Ship Order' packs the saved codes (the
 * process table's PREPARING → TO_SHIP row, its guard and its effect, as before), and the order
 * leaving PREPARING clears them (`clearPacking`, called by the process when it moves the order).
 */

/** What a scan needs from outside the order service: the catalog's check of one code. */
export interface PackingDeps {
  nc: NatsConnection;
  subjects: { checkSerial: string };
}

/** A refusal of one scan, naming the code (`serialCode`) as the catalog's check does. */
const refused = (status: 404 | 409, message: string) => new HttpProblem(status, message, [{ field: 'serialCode', message }]);

interface ProgressRow {
  id: string;
  status: string;
  lines: Array<{ lineID: string; quantity: number; serialCodes: Array<{ serialCode: string; warehouseBin: string | null; scannedAt: string }> }>;
}

/** The packing progress of an order: every line (in order) with the codes saved for it, oldest first. 404 for an unknown order. */
export async function packingProgress(em: EntityManager, orderId: string): Promise<PackingProgress> {
  const t = (n: string) => qualified(em, n);
  const [row] = await em.execute<ProgressRow[]>(
    `select o.id, o.status,
            coalesce((select json_agg(json_build_object('lineID', l.id, 'quantity', l.quantity,
                       'serialCodes', coalesce((select json_agg(json_build_object('serialCode', p.serial_code, 'warehouseBin', p.warehouse_bin,
                                                  'scannedAt', p.created_at) order by p.created_at, p.id)
                                                  from ${t('packing_scans')} p where p.line_id = l.id), '[]'::json))
                       order by l.position) from ${t('order_lines')} l where l.order_id = o.id), '[]'::json) as lines
       from ${t('orders')} o where o.id = ?`,
    [orderId],
  );
  if (!row) throw notFound('Order not found.');
  const lines = row.lines.map((l) => ({
    lineID: l.lineID,
    quantity: l.quantity,
    serialCodes: l.serialCodes.map((s) => ({ serialCode: s.serialCode, warehouseBin: s.warehouseBin, scannedAt: new Date(s.scannedAt).toISOString() })),
  }));
  return { orderID: row.id, lines, complete: lines.length > 0 && lines.every((l) => l.serialCodes.length === l.quantity) };
}

/**
 * Locks the order row for one change of its packing and reads its facts: only while PREPARING,
 * and only for a caller the process table lets pack it now (the TO_SHIP row without its input:
 * the permission, not packed yet).
 */
async function lockForPacking(tem: EntityManager, orderId: string, who: Principal): Promise<OrderFacts> {
  const order = await lockOrder(tem, { id: orderId });
  if (order.status !== 'PREPARING') throw new HttpProblem(409, PACKING_MESSAGES.notPreparing);
  const decision = decide({ order, caller: { kind: 'person', principal: who }, input: undefined, now: new Date() }, 'TO_SHIP');
  if (!decision.ok) throw new HttpProblem(decision.status, decision.message, decision.errors);
  return order;
}

/** Which order line keeps this code now (any order's), with that order's number. */
async function scannedWhere(tem: EntityManager, code: string): Promise<{ order_id: string; order_number: string } | undefined> {
  const [row] = await tem.execute<Array<{ order_id: string; order_number: string }>>(
    `select p.order_id, o.order_number from ${qualified(tem, 'packing_scans')} p join ${qualified(tem, 'orders')} o on o.id = p.order_id where p.serial_code = ?`,
    [code],
  );
  return row;
}

const takenProblem = (code: string, where: { order_id: string; order_number: string }, orderId: string) =>
  refused(409, where.order_id === orderId ? PACKING_MESSAGES.alreadyScanned : PACKING_MESSAGES.scannedForOtherOrder(code, where.order_number));

/**
 * Saves one scanned serial code for a line of an order being packed, checked as packing checks it:
 * not scanned for this order already ('Already scanned') nor kept by another order being packed,
 * room left on the line, and in the catalog a unit of the line's product, variant and sub-variant
 * ('Scanned product is not …') that is AVAILABLE (the catalog's rule, over request/reply; nothing
 * is taken there until the order is packed). The order row is locked for the step, so two packers
 * of one order go one after the other; two orders saving the same code meet at the unique index on
 * the code: one keeps it, the other is told which order has it.
 */
export async function scanSerial(em: EntityManager, orderId: string, lineId: string, serialCode: string, who: Principal, deps: PackingDeps): Promise<PackingProgress> {
  const code = normalizeSerial(serialCode);
  await em.transactional(async (tem) => {
    const order = await lockForPacking(tem, orderId, who);
    const line = order.lines.find((l) => l.id === lineId);
    if (!line) throw new HttpProblem(404, GUARD_MESSAGES.unknownLine, [{ field: 'lineId', message: GUARD_MESSAGES.unknownLine }]);
    const where = await scannedWhere(tem, code);
    if (where) throw takenProblem(code, where, orderId);
    const [count] = await tem.execute<Array<{ n: number }>>(`select count(*)::int as n from ${qualified(tem, 'packing_scans')} where line_id = ?`, [lineId]);
    if ((count?.n ?? 0) >= line.quantity) throw refused(409, PACKING_MESSAGES.tooMany(lineLabel(line)));
    const request: CheckSerialRequest = {
      productID: line.productId,
      productVariantID: line.variantId,
      productSubVariantID: line.subVariantId,
      productName: lineLabel(line),
      serialCode: code,
    };
    const unit = CheckSerialReply.parse(await callRpc(deps.nc, deps.subjects.checkSerial, request));
    const inserted = await tem.execute<Array<{ id: string }>>(
      `insert into ${qualified(tem, 'packing_scans')} (id, order_id, line_id, serial_code, stock_item_id, warehouse_bin, scanned_by)
       values (?, ?, ?, ?, ?, ?, ?) on conflict (serial_code) do nothing returning id`,
      [newId(), orderId, lineId, unit.serialCode, unit.stockItemId, unit.warehouseBin, who.userId],
    );
    if (inserted.length === 0) {
      // Another order's packer saved it while the catalog answered (their transaction has committed).
      const other = await scannedWhere(tem, code);
      throw other ? takenProblem(code, other, orderId) : refused(409, PACKING_MESSAGES.notAvailable(code));
    }
  });
  return packingProgress(em, orderId);
}

/** Removes one saved code from a line being packed (PREPARING); 404 when the line does not keep it. */
export async function unscanSerial(em: EntityManager, orderId: string, lineId: string, serialCode: string, who: Principal): Promise<PackingProgress> {
  await em.transactional(async (tem) => {
    await lockForPacking(tem, orderId, who);
    const removed = await tem.execute<Array<{ id: string }>>(
      `delete from ${qualified(tem, 'packing_scans')} where order_id = ? and line_id = ? and serial_code = ? returning id`,
      [orderId, lineId, normalizeSerial(serialCode)],
    );
    if (removed.length === 0) throw refused(404, PACKING_MESSAGES.notScanned);
  });
  return packingProgress(em, orderId);
}

/** The saved codes as the TO_SHIP step takes them (`packing` of the transition), line by line in scan order. */
export async function savedPacking(tem: EntityManager, orderId: string): Promise<Array<z.output<typeof PackedLine>>> {
  const rows = await tem.execute<Array<{ line_id: string; serial_code: string }>>(
    `select line_id, serial_code from ${qualified(tem, 'packing_scans')} where order_id = ? order by created_at, id`,
    [orderId],
  );
  const byLine = new Map<string, string[]>();
  for (const r of rows) byLine.set(r.line_id, [...(byLine.get(r.line_id) ?? []), r.serial_code]);
  return [...byLine.entries()].map(([lineID, serialCodes]) => ({ lineID, serialCodes }));
}

/** The order leaves PREPARING (packed, or any later row that leaves it): its saved scans go. */
export async function clearPacking(tem: EntityManager, orderId: string): Promise<void> {
  await tem.execute(`delete from ${qualified(tem, 'packing_scans')} where order_id = ?`, [orderId]);
}
