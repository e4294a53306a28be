import type { EntityManager } from '@mikro-orm/postgresql';
import { RETURN_TRIGGER, STOCK_STATUS_INVENTORY, stockMoveTarget, type ReturnSerialReply, type ReturnSerialRequest } from '@dme/contracts';
import { HttpProblem, notFound, qualified, sql } from '@dme/platform';
import type { z } from 'zod';
import { moveStockItems, stockMoveOf } from './stock-moves';
import { cutBookingAtReturn } from '../bookings/booking.service';
import { underOpenRecall } from '../recalls/recall-units';

type Return = z.output<typeof ReturnSerialRequest>;

/** Texts of returns where the spec is silent. */
export const RETURN_MESSAGES = {
  notPacked: 'This serial code was not packed for this order.',
  notOut: (code: string, status: string) => `${code} is ${status}, not out on this rental: it cannot be returned.`,
} as const;

/**
 * A serial code of an order comes back (over NATS request/reply from the order service): the item
 * packed for that order and out on it (RENTED, inventory OUT: the `from` of the mark's row in the
 * stock-item table) moves to the row's target through moveStockItems, in one statement; the
 * ledger (`stock_levels`) follows through its trigger, in the same transaction.
 * The leaf's ledger row is locked first, as packing and reservations do, so returns never
 * deadlock with them. Asking again once it is back answers the same (a retry).
 */
export async function returnSerial(em: EntityManager, input: Return): Promise<ReturnSerialReply> {
  const code = input.serialCode.trim().toUpperCase();
  // Where the mark sends the unit (SPEC §4, issue 10), as the stock-item table says: OK back to
  // stock, DAMAGED in the warehouse as damaged, LOST gone.
  const trigger = RETURN_TRIGGER[input.status];
  const to = stockMoveTarget(trigger);
  const target = { status: to, inventoryType: STOCK_STATUS_INVENTORY[to] };
  return em.transactional(async (tem) => {
    const t = (n: string) => qualified(tem, n);
    const [found] = await sql<{ leaf_id: string }>(
      tem,
      `select coalesce(sub_variant_id, variant_id, product_id) as leaf_id from ${t('stock_items')} where serial_code = $1 and order_id = $2`,
      [code, input.orderId],
    );
    if (!found) throw notFound(RETURN_MESSAGES.notPacked);
    await sql(tem, `select leaf_id from ${t('stock_levels')} where leaf_id = $1 for update`, [found.leaf_id]);
    const [item] = await sql<{ id: string; status: string; inventory_type: 'IN' | 'OUT' }>(
      tem,
      `select id, status, inventory_type from ${t('stock_items')} where serial_code = $1 and order_id = $2 for update`,
      [code, input.orderId],
    );
    if (!item) throw notFound(RETURN_MESSAGES.notPacked);
    // Asked again once it is back (its return in its history: it may have been held since, issue 26).
    const [back] = await sql<{ n: number }>(tem, `select count(*)::int as n from ${t('custody_events')} where stock_item_id = $1 and order_id = $2 and kind = 'RETURNED'`, [item.id, input.orderId]);
    if ((item.status === target.status && item.inventory_type === target.inventoryType) || (back?.n ?? 0) > 0) {
      return { serialCode: code, stockStatus: item.status, inventoryType: item.inventory_type };
    }
    if (!stockMoveOf(item, trigger)) throw new HttpProblem(409, RETURN_MESSAGES.notOut(code, item.status));
    const by = input.by ? { userId: input.by.userId, name: input.by.username } : null;
    await moveStockItems(tem, trigger, [item.id], { custody: { by, orderId: input.orderId, condition: input.status, party: { customerOf: 'order' } } });
    // A unit under an open recall comes back to be held, not cleaned for the next customer (issue 26).
    const recall = target.status === 'LOST' ? null : await underOpenRecall(tem, item.id);
    if (recall) await moveStockItems(tem, 'held', [item.id], { custody: { by, note: recall } });
    // Back before its due date: the rest of its booking is free again (issue 25).
    await cutBookingAtReturn(tem, item.id, input.orderId);
    return { serialCode: code, stockStatus: target.status, inventoryType: target.inventoryType };
  });
}
