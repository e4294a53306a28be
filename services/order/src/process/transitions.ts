import { randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { EVENTS, hasPermission, ORDER_TRANSITIONS, type Order, type OrderStatus } from '@dme/contracts';
import { badRequest, forbidden, HttpProblem, notFound, qualified, recordEvent, type Principal } from '@dme/platform';
import { getOrder, SOURCE } from '../modules/orders/order.service';
import { decide } from './can-perform';
import { EFFECTS, type ProcessDeps } from './effects';
import { loadFacts, type Caller, type OrderFacts, type TransitionInput } from './facts';

export type { ProcessDeps } from './effects';

/** Statuses in which an order waits for a driver to take it (the steps that record the driver). */
export const AWAITING_DRIVER: readonly OrderStatus[] = [...new Set(ORDER_TRANSITIONS.filter((t) => t.effect === 'record-driver').map((t) => t.from))];

/** The permissions that let a caller see orders (all, a driver's, or a customer's own). */
const ORDER_READERS = ['order:read', 'order:drive', 'order:read-own'] as const;

/**
 * Which orders a caller may see: staff with order:read all; a driver those assigned to them and
 * those waiting for a driver; a customer their own. Anything else answers like an unknown id.
 */
export function visibility(who: Principal): { where: string; params: unknown[]; all: boolean } {
  if (hasPermission(who.userType, 'order:read')) return { where: '', params: [], all: true };
  if (hasPermission(who.userType, 'order:drive')) {
    return { where: `and (driver_id = ? or status in (${AWAITING_DRIVER.map(() => '?').join(',')}))`, params: [who.userId, ...AWAITING_DRIVER], all: true };
  }
  return { where: 'and customer_id = ?', params: [who.userId], all: false };
}

/**
 * Moves an order along the process table (DESIGN §6), as a person asks through the API: a caller
 * who can see no orders at all gets 403; the order must be one the caller may see (else 404,
 * exactly like an unknown id), and canPerform decides the rest (no such row: 409; wrong actor:
 * 403; a guard: its own answer). A customer sees only their own orders. The order row is locked for the whole step, so two people moving the same
 * order go one after the other and the second sees the first's result.
 */
export async function transition(
  em: EntityManager,
  orderId: string,
  body: { to: OrderStatus } & TransitionInput,
  who: Principal,
  deps: ProcessDeps,
): Promise<Order> {
  // Someone who can see no order at all (accounting, support) is refused whatever the id, so the
  // answer tells nothing about which orders exist.
  if (!ORDER_READERS.some((p) => hasPermission(who.userType, p))) throw forbidden();
  const scope = visibility(who);
  await em.transactional(async (tem) => {
    const [locked] = await tem.execute<Array<{ id: string }>>(
      `select id from ${qualified(tem, 'orders')} where id = ? ${scope.where} for update`,
      [orderId, ...scope.params],
    );
    if (!locked) throw notFound('Order not found.');
    const order = (await loadFacts(tem, orderId))!;
    if (body.packing !== undefined && body.to !== 'TO_SHIP') {
      const message = 'Serial codes are sent only when packing an order (to TO_SHIP).';
      throw badRequest(message, [{ field: 'packing', message }]);
    }
    await perform(tem, order, body.to, { kind: 'person', principal: who }, { ...(body.packing ? { packing: body.packing } : {}) }, deps);
  });
  return getOrder(em, orderId, who, scope.all ? {} : { customerId: who.userId });
}

/**
 * Takes one step of the process for a locked order, in the caller's transaction: canPerform must
 * accept it (else its problem is thrown and nothing is written), then the row's effect runs, the
 * status changes, an order-tracker entry is appended and `dme.order.status_changed` is recorded
 * in the outbox, all in that transaction.
 */
export async function perform(
  tem: EntityManager,
  order: OrderFacts,
  to: OrderStatus,
  caller: Caller,
  input: TransitionInput,
  deps: ProcessDeps | undefined,
): Promise<void> {
  const now = new Date();
  const decision = decide({ order, caller, input, now }, to);
  if (!decision.ok) throw new HttpProblem(decision.status, decision.message, decision.errors);
  const row = decision.row;
  const outcome = row.effect ? await EFFECTS[row.effect]({ em: tem, order, caller, input, deps, now }) : {};
  await tem.execute(`update ${qualified(tem, 'orders')} set status = ?, updated_at = now() where id = ?`, [to, order.id]);
  await tem.execute(`insert into ${qualified(tem, 'order_tracker')} (id, order_id, title, status, created_at) values (?, ?, ?, ?, ?)`, [
    randomUUID(),
    order.id,
    row.title,
    to,
    now,
  ]);
  recordEvent(tem, SOURCE, {
    type: EVENTS.order.statusChanged,
    aggregateId: order.id,
    data: {
      orderId: order.id,
      orderNumber: order.orderNumber,
      customerId: order.customerId,
      type: order.type,
      from: order.status,
      to,
      by: caller.kind === 'person' ? caller.principal.userId : caller.by,
      // The driver who has the order after this step (the live stream tells them, and only them).
      driverId: row.effect === 'record-driver' ? (caller.kind === 'person' ? caller.principal.userId : caller.by) : order.driverId,
      extraCharge: outcome.extraCharge ?? null,
    },
  });
  await tem.flush();
}
