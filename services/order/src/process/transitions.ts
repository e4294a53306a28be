import { randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { EVENTS, findTransition, hasPermission, ORDER_MESSAGES, type Order, type OrderStatus, type Transition } from '@dme/contracts';
import { conflict, forbidden, HttpProblem, qualified, recordEvent, type Principal } from '@dme/platform';
import { getOrder, loadOrder, SOURCE } from '../modules/orders/order.service';

/** Effects this service carries out today; the rest arrive with their issues (payments, packing...). */
const IMPLEMENTED_EFFECTS = new Set<Transition['effect'] | undefined>([undefined, 'release-reservation']);

/**
 * Moves an order along the process table (DESIGN §6): the row must exist for the order's type and
 * status, the caller must be who the row names, and its effect runs in the same transaction, with
 * a tracker entry and a `dme.order.status_changed` event. A customer sees only their own orders.
 */
export async function transition(em: EntityManager, orderId: string, to: OrderStatus, who: Principal): Promise<Order> {
  const isStaff = hasPermission(who.userType, 'order:read') || hasPermission(who.userType, 'order:drive');
  await em.transactional(async (tem) => {
    const [locked] = await tem.execute<Array<{ id: string }>>(
      `select id from ${qualified(tem, 'orders')} where id = ? ${isStaff ? '' : 'and customer_id = ?'} for update`,
      isStaff ? [orderId] : [orderId, who.userId],
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
  return getOrder(em, orderId, who, isStaff ? {} : { customerId: who.userId });
}
