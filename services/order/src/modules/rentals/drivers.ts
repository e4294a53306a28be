import type { EntityManager } from '@mikro-orm/postgresql';
import {
  DRIVER_LIST_STATUS,
  HANDOVER_MESSAGES,
  SCAN_KEY_MESSAGES,
  type HandoverLeg,
  orderScopeOf,
  parseOrderCode,
  RENTAL_MESSAGES,
  scanTransition,
  type DriverScanPurpose,
  type DriverScanResponse,
  type Order,
  type OrderStatus,
  type OrderSummary,
} from '@dme/contracts';
import { HttpProblem, idempotent, notFound, qualified, requestHash, requireKey, type Principal, type StoredAnswer } from '@dme/platform';
import type { OrderFacts } from '../../process/facts';
import { perform, visibility, type ProcessDeps } from '../../process/transitions';
import { listOrders } from '../orders/list';
import { getOrder, lockOrder } from '../orders/read';

/**
 * A driver scans an order QR (or types its number) — SPEC §2 DRIVER, §4:
 * delivery: TO_SHIP → OUT_FOR_DELIVERY (the order is now this driver's); at the door, a scan of
 * their OUT_FOR_DELIVERY order answers `handover: 'DELIVERY'` — DELIVERED needs the hand-over
 * (issue 28, modules/handovers). Pick-up: a scan of a FOR_RETURN rental at the door makes it this
 * driver's and answers `handover: 'PICKUP'` (FOR_PICK_UP needs the hand-over too). A scan reaches only what `visibility` lets
 * the driver reach with this scan's taking step: their own orders, and orders waiting to be taken
 * this way. Their own order in a status the scan cannot move is refused with a 409 saying why;
 * anything else — another driver's order, a PENDING one, a code that names no order — answers
 * one and the same 404, so order numbers (sequential) cannot be probed. The order row is locked
 * for the step, so two drivers scanning one order at once go one after the other: the second no
 * longer reaches it (404). The superadmin reaches every order and is told why about each. With an
 * Idempotency-Key (a scan queued offline), the same key and code answer the first answer again.
 */
export async function driverScan(
  em: EntityManager,
  who: Principal,
  body: { purpose: DriverScanPurpose; code: string },
  deps: ProcessDeps,
  key?: string,
): Promise<StoredAnswer> {
  const { orderId, orderNumber } = parseOrderCode(body.code);
  if (!orderId && !orderNumber) throw notFound(RENTAL_MESSAGES.unknownOrder);
  if (key === undefined) return { status: 200, body: await em.transactional((tem) => scanIn(tem, who, { orderId, orderNumber }, body.purpose, deps)) };
  // A scan queued on the phone while offline comes with its key (issue 28): sent again after a lost
  // answer, it answers what the first answered and moves nothing twice.
  const claim = { owner: who.userId, key: requireKey(key, SCAN_KEY_MESSAGES), hash: requestHash('driver-scan', body) };
  return idempotent(em, claim, SCAN_KEY_MESSAGES, '/api/driver/scan', async (tem) => ({
    status: 200,
    body: await scanIn(tem, who, { orderId, orderNumber }, body.purpose, deps),
  }));
}

/** One scan in the caller's transaction: the order row locked, the step taken or the hand-over asked for. */
async function scanIn(
  tem: EntityManager,
  who: Principal,
  code: { orderId?: string; orderNumber?: string },
  purpose: DriverScanPurpose,
  deps: ProcessDeps,
): Promise<DriverScanResponse> {
  // The scan's taking step leads to the status the purpose's list shows (OUT_FOR_DELIVERY, FOR_PICK_UP).
  const scope = visibility(who, DRIVER_LIST_STATUS[purpose]);
  const order = await lockOrder(tem, { id: code.orderId, orderNumber: code.orderNumber }, scope, RENTAL_MESSAGES.unknownOrder);
  const step = scanStep(order, purpose, order.driverId === who.userId);
  if (step.handover) {
    // A pick-up found at the door is this driver's from now on (its details and hand-over are theirs).
    if (order.driverId === null) await tem.execute(`update ${qualified(tem, 'orders')} set driver_id = ?, updated_at = now() where id = ?`, [who.userId, order.id]);
  } else {
    await perform(tem, order, step.to, { kind: 'person', principal: who }, {}, deps);
  }
  const after = await getOrder(tem, order.id, who, {});
  return { order: summaryOf(after), message: step.message, ...(step.handover ? { handover: step.handover } : {}) };
}

/** What the driver is told after each step a scan can take (by the status it leads to). */
const SCAN_TOLD: Partial<Record<OrderStatus, (orderNumber: string) => string>> = {
  OUT_FOR_DELIVERY: RENTAL_MESSAGES.takenOut,
};

/**
 * The step a scan takes on the order: the process row whose trigger is a scan for this purpose
 * from the order's status (contracts scanTransition), with what the driver is told; a 409 saying
 * why when there is none. `mine`: the order is the scanning driver's — a row guarded by
 * 'same-driver' reached by someone else (only the superadmin can) is told whose it is.
 */
function scanStep(order: OrderFacts, purpose: DriverScanPurpose, mine: boolean): { to: OrderStatus; message: string; handover?: HandoverLeg } {
  const row = scanTransition(order.type, order.status, purpose);
  if (!row) {
    throw new HttpProblem(409, purpose === 'DELIVERY' ? RENTAL_MESSAGES.notForDelivery(order.orderNumber, order.status) : RENTAL_MESSAGES.notForPickup(order.orderNumber, order.status));
  }
  if (row.guard === 'handed-over') {
    // At the door: the step needs the hand-over (issue 28), by the driver who has the order.
    if (order.driverId !== null && !mine) throw new HttpProblem(409, RENTAL_MESSAGES.otherDriver(order.orderNumber));
    return { to: row.to, message: HANDOVER_MESSAGES.handoverNeeded(order.orderNumber), handover: purpose };
  }
  const told = SCAN_TOLD[row.to];
  if (!told) throw new Error(`scan step ${row.from} → ${row.to} has no message for the driver`);
  return { to: row.to, message: told(order.orderNumber) };
}

/** The order as lists show it (the scan answers with it). */
export function summaryOf({ id, orderNumber, createdAt, status, type, typeOfOrder, totalAmount, customerID, customerName }: Order): OrderSummary {
  return { id, orderNumber, createdAt, status, type, typeOfOrder, totalAmount, customerID, customerName };
}

/** The driver's list: their OUT_FOR_DELIVERY (delivery) or FOR_PICK_UP (pick-up) orders; the superadmin sees every driver's. */
export function listDriverOrders(em: EntityManager, who: Principal, q: { purpose: DriverScanPurpose; limit: number; offset: number }) {
  const scope = orderScopeOf(who);
  return listOrders(em, {
    status: DRIVER_LIST_STATUS[q.purpose],
    ...(scope.kind === 'all' ? {} : { driverId: who.userId }),
    limit: q.limit,
    offset: q.offset,
  });
}

/**
 * One order as a driver reads it: only one assigned to them (SPEC §6; `visibility`). An order
 * waiting for a driver is not read but taken, by the scan; any other answers 404 exactly like an
 * unknown id. The superadmin reads any.
 */
export async function getDriverOrder(em: EntityManager, who: Principal, id: string): Promise<Order> {
  const scope = visibility(who);
  const [row] = await em.execute<Array<{ id: string }>>(`select id from ${qualified(em, 'orders')} where id = ? ${scope.where}`, [id, ...scope.params]);
  if (!row) throw notFound('Order not found.');
  return getOrder(em, id, who, {});
}
