import type { EntityManager } from '@mikro-orm/postgresql';
import { EVENTS, ORDER_TRANSITIONS, orderScopeOf, type Order, type OrderStatus } from '@dme/contracts';
import { badRequest, forbidden, HttpProblem, qualified, recordEvent, type Principal, newId } from '@dme/platform';
import { SOURCE } from '../events';
import { getOrder, lockOrder } from '../modules/orders/read';
import { decide } from './can-perform';
import { EFFECTS, type ProcessDeps } from './effects';
import type { Caller, OrderFacts, TransitionInput } from './facts';
import { clearPacking, savedPacking } from './packing';

export type { ProcessDeps } from './effects';

/** A driver's taking steps (the rows that record the driver): the status each leads to → the status it takes the order from. */
const TAKING: ReadonlyMap<OrderStatus, OrderStatus> = new Map(ORDER_TRANSITIONS.filter((t) => t.effect === 'record-driver').map((t) => [t.to, t.from]));

/**
 * The SQL filter (on `orders`, unaliased) of the orders a caller may reach — the one rule,
 * contracts' orderScopeOf: staff with order:read every order, a driver those assigned to them, a
 * customer their own. A driver also reaches an order waiting for a driver when the step asked
 * (`step`, the status it leads to) is the one that takes it: TO_SHIP → OUT_FOR_DELIVERY,
 * FOR_RETURN → FOR_PICK_UP (the scan, or the old client's status update). Taking is a step, not
 * a read: the order and its customer's details are the driver's once taken. Anything else answers
 * like an unknown id. `customerId` is set when the caller reads as a customer.
 */
export function visibility(who: Principal, step?: OrderStatus): { where: string; params: unknown[]; customerId?: string } {
  const scope = orderScopeOf(who);
  switch (scope.kind) {
    case 'all':
      return { where: '', params: [] };
    case 'driver': {
      const from = step === undefined ? undefined : TAKING.get(step);
      return from ? { where: 'and (driver_id = ? or status = ?)', params: [scope.userId, from] } : { where: 'and driver_id = ?', params: [scope.userId] };
    }
    case 'customer':
      return { where: 'and customer_id = ?', params: [scope.userId], customerId: scope.userId };
    default:
      return { where: 'and false', params: [] };
  }
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
  if (orderScopeOf(who).kind === 'none') throw forbidden();
  const scope = visibility(who, body.to);
  await em.transactional(async (tem) => {
    const order = await lockOrder(tem, { id: orderId }, scope);
    if (body.packing !== undefined && body.to !== 'TO_SHIP') {
      const message = 'Serial codes are sent only when packing an order (to TO_SHIP).';
      throw badRequest(message, [{ field: 'packing', message }]);
    }
    // Packing: the codes sent (older clients), else the codes saved while scanning (issue 22).
    const packing = body.packing ?? (body.to === 'TO_SHIP' ? await savedPacking(tem, orderId) : undefined);
    await perform(tem, order, body.to, { kind: 'person', principal: who }, { ...(packing ? { packing } : {}) }, deps);
  });
  return getOrder(em, orderId, who, scope.customerId ? { customerId: scope.customerId } : {});
}

/** Appends an entry to the order's tracker (a step taken, or an attempt that moved nothing). */
export async function addTrackerEntry(tem: EntityManager, orderId: string, title: string, status: OrderStatus, at: Date): Promise<void> {
  await tem.execute(`insert into ${qualified(tem, 'order_tracker')} (id, order_id, title, status, created_at) values (?, ?, ?, ?, ?)`, [
    newId(),
    orderId,
    title,
    status,
    at,
  ]);
}

/**
 * Takes one step of the process for a locked order, in the caller's transaction: canPerform must
 * accept it (else its problem is thrown and nothing is written), then the row's effect runs, the
 * status changes (an order leaving PREPARING drops its saved packing scans), an order-tracker
 * entry is appended and `dme.order.status_changed` is recorded in the outbox, all in that transaction.
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
  if (order.status === 'PREPARING') await clearPacking(tem, order.id);
  await tem.execute(`update ${qualified(tem, 'orders')} set status = ?, updated_at = now() where id = ?`, [to, order.id]);
  const note = input.handover?.trackerNote;
  await addTrackerEntry(tem, order.id, note ? `${row.title}: ${note}` : row.title, to, now);
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
      byName: caller.kind === 'person' ? caller.principal.username : null,
      // The driver who has the order after this step (the live stream tells them, and only them).
      driverId: row.effect === 'record-driver' ? (caller.kind === 'person' ? caller.principal.userId : caller.by) : row.effect === 'release-driver' ? null : order.driverId,
      extraCharge: outcome.extraCharge ?? null,
      fullPaymentDue: outcome.fullPaymentDue ?? null,
      lateFees: outcome.lateFees ?? null,
      depositApplied: outcome.depositApplied ?? null,
      depositRefund: outcome.depositRefund ?? null,
      lateFeesWaived: outcome.lateFeesWaived ?? null,
      balance: outcome.balance ?? null,
    },
  });
  await tem.flush();
}
