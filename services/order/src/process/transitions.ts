import { randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { EVENTS, findTransition, hasPermission, ORDER_MESSAGES, ORDER_TRANSITIONS, type Order, type OrderStatus, type Transition } from '@dme/contracts';
import { conflict, forbidden, HttpProblem, qualified, recordEvent, type Principal } from '@dme/platform';
import { getOrder, loadOrder, SOURCE } from '../modules/orders/order.service';

/** Effects this service carries out today; the rest arrive with their issues (payments, packing...). */
const IMPLEMENTED_EFFECTS = new Set<Transition['effect'] | undefined>([undefined, 'release-reservation']);

/** Statuses in which an order waits for a driver to take it (the steps that record the driver). */
export const AWAITING_DRIVER: readonly OrderStatus[] = [...new Set(ORDER_TRANSITIONS.filter((t) => t.effect === 'record-driver').map((t) => t.from))];

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
 * Moves an order along the process table (DESIGN §6): the row must exist for the order's type and
 * status, the caller must be who the row names, and its effect runs in the same transaction, with
 * a tracker entry and a `dme.order.status_changed` event. A customer sees only their own orders.
 */
export async function transition(em: EntityManager, orderId: string, to: OrderStatus, who: Principal): Promise<Order> {
  const scope = visibility(who);
  await em.transactional(async (tem) => {
    const [locked] = await tem.execute<Array<{ id: string }>>(
      `select id from ${qualified(tem, 'orders')} where id = ? ${scope.where} for update`,
      [orderId, ...scope.params],
    );
    if (!locked) throw new HttpProblem(404, 'Order not found.');
    const { _row: order } = await loadOrder(tem, orderId, {});
    const row = findTransition(order.type, order.status, to);
    if (!row) {
      throw conflict(to === 'CANCELLED' ? ORDER_MESSAGES.cannotCancel : `An order in ${order.status} cannot move to ${to}.`);
    }
    const allowed =
      row.who.kind === 'owner-or-staff'
        ? who.userId === order.customer_id || hasPermission(who.userType, 'order:process')
        : row.who.kind === 'permission'
          ? hasPermission(who.userType, row.who.permission)
          : false;
    if (!allowed) throw forbidden();
    if (!IMPLEMENTED_EFFECTS.has(row.effect)) throw conflict('This step of the order process is not available yet.');
    await tem.execute(`update ${qualified(tem, 'orders')} set status = ?, updated_at = now() where id = ?`, [to, orderId]);
    await tem.execute(`insert into ${qualified(tem, 'order_tracker')} (id, order_id, title, status) values (?, ?, ?, ?)`, [randomUUID(), orderId, row.title, to]);
    // 'release-reservation': the catalog releases the stock when it sees this event.
    recordEvent(tem, SOURCE, {
      type: EVENTS.order.statusChanged,
      aggregateId: orderId,
      data: { orderId, orderNumber: order.order_number, customerId: order.customer_id, type: order.type, from: order.status, to, by: who.userId },
    });
    await tem.flush();
  });
  return getOrder(em, orderId, who, scope.all ? {} : { customerId: who.userId });
}
