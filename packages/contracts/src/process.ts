import { RENTAL_ORDER_STATUSES, type OrderStatus, type OrderType, type PaymentType } from './enums';
import type { Permission } from './permissions';
import type { DriverScanPurpose } from './rental-constants';
import type { HandoverLeg } from './handover-constants';

/**
 * The order process as data (DESIGN §6): who may move an order from one status to another, what
 * must hold, and what happens. The order service guards transitions with it; the UIs use it to
 * show which actions are possible.
 */
export type Actor = { kind: 'permission'; permission: Permission } | { kind: 'owner-or-staff' } | { kind: 'event'; event: string };

/**
 * What starts a step: a person's action (the transitions route: staff, the owner, a driver's
 * button), a driver's scan of the order's QR for a purpose, or a payment the payment service
 * confirmed — the order's first one (a rental's partial payment, a purchase's full one) or a
 * rental's full one — or a hand-over at the door (issue 28): made (the equipment changed hands)
 * or failed (refused, nobody home). The driver scan, the hand-over and the payment consumer find
 * their row by its trigger. A scan that reaches a row guarded by 'handed-over' does not move the
 * order: it opens the hand-over.
 */
export type Trigger =
  | { kind: 'action' }
  | { kind: 'scan'; purpose: DriverScanPurpose }
  | { kind: 'payment'; which: 'first' | 'full' | 'owned' }
  | { kind: 'handover'; leg: HandoverLeg; made: boolean };

export interface Transition {
  from: OrderStatus;
  to: OrderStatus;
  /** Order types the row applies to. */
  types: readonly OrderType[];
  who: Actor;
  /** What may start the step (at least one). */
  on: readonly Trigger[];
  guard?: 'confirm' | 'all-lines-scanned' | 'handed-over' | 'attempt-failed' | 'some-line-past-due' | 'all-serials-returned';
  effect?: 'payment-ready' | 'assign-serials' | 'record-driver' | 'delivered' | 'release-driver' | 'full-payment-due' | 'release-reservation';
  /** Order-tracker title of the step. */
  title: string;
}

const BOTH = ['BUY', 'RENT'] as const;
const ACTION: readonly Trigger[] = [{ kind: 'action' }];
const DELIVERY_SCAN: Trigger = { kind: 'scan', purpose: 'DELIVERY' };

export const ORDER_TRANSITIONS: readonly Transition[] = [
  { from: 'PENDING', to: 'FOR_PAYMENT', types: BOTH, who: { kind: 'permission', permission: 'order:process' }, guard: 'confirm', on: ACTION, effect: 'payment-ready', title: 'Order confirmed, waiting for payment' },
  { from: 'FOR_PAYMENT', to: 'PREPARING', types: BOTH, who: { kind: 'event', event: 'dme.payment.confirmed' }, on: [{ kind: 'payment', which: 'first' }], title: 'Payment received, preparing the order' },
  { from: 'PREPARING', to: 'TO_SHIP', types: BOTH, who: { kind: 'permission', permission: 'order:process' }, on: ACTION, guard: 'all-lines-scanned', effect: 'assign-serials', title: 'Packed, ready to ship' },
  { from: 'TO_SHIP', to: 'OUT_FOR_DELIVERY', types: BOTH, who: { kind: 'permission', permission: 'order:drive' }, on: [DELIVERY_SCAN, ...ACTION], effect: 'record-driver', title: 'Out for delivery' },
  { from: 'OUT_FOR_DELIVERY', to: 'DELIVERED', types: BOTH, who: { kind: 'permission', permission: 'order:drive' }, on: [DELIVERY_SCAN, { kind: 'handover', leg: 'DELIVERY', made: true }, ...ACTION], guard: 'handed-over', effect: 'delivered', title: 'Delivered' },
  { from: 'OUT_FOR_DELIVERY', to: 'TO_SHIP', types: BOTH, who: { kind: 'permission', permission: 'order:drive' }, on: [{ kind: 'handover', leg: 'DELIVERY', made: false }], guard: 'attempt-failed', effect: 'release-driver', title: 'Delivery attempt failed, back to ship' },
  { from: 'DELIVERED', to: 'FOR_RETURN', types: ['RENT'], who: { kind: 'permission', permission: 'order:process' }, on: ACTION, guard: 'some-line-past-due', effect: 'release-driver', title: 'Rental period ended, for return' },
  { from: 'FOR_RETURN', to: 'FOR_PICK_UP', types: ['RENT'], who: { kind: 'permission', permission: 'order:drive' }, on: [{ kind: 'scan', purpose: 'PICKUP' }, { kind: 'handover', leg: 'PICKUP', made: true }, ...ACTION], guard: 'handed-over', effect: 'record-driver', title: 'Picked up from the customer' },
  { from: 'FOR_PICK_UP', to: 'FOR_FULL_PAYMENT', types: ['RENT'], who: { kind: 'permission', permission: 'order:process' }, on: ACTION, guard: 'all-serials-returned', effect: 'full-payment-due', title: 'Returned, waiting for full payment' },
  { from: 'FOR_FULL_PAYMENT', to: 'COMPLETED', types: ['RENT'], who: { kind: 'event', event: 'dme.payment.confirmed' }, on: [{ kind: 'payment', which: 'full' }], title: 'Completed' },
  // Issue 29: a rent-to-own rental bought out, or made the customer's by its paid cycles, while it is out.
  { from: 'DELIVERED', to: 'COMPLETED', types: ['RENT'], who: { kind: 'event', event: 'dme.payment.confirmed' }, on: [{ kind: 'payment', which: 'owned' }], title: "Bought out: the equipment is the customer's" },
  { from: 'FOR_RETURN', to: 'COMPLETED', types: ['RENT'], who: { kind: 'event', event: 'dme.payment.confirmed' }, on: [{ kind: 'payment', which: 'owned' }], title: "Bought out: the equipment is the customer's" },
  { from: 'PENDING', to: 'CANCELLED', types: BOTH, who: { kind: 'owner-or-staff' }, on: ACTION, effect: 'release-reservation', title: 'Order cancelled' },
  { from: 'FOR_PAYMENT', to: 'CANCELLED', types: BOTH, who: { kind: 'owner-or-staff' }, on: ACTION, effect: 'release-reservation', title: 'Order cancelled' },
];

export function findTransition(type: OrderType, from: OrderStatus, to: OrderStatus): Transition | undefined {
  return ORDER_TRANSITIONS.find((t) => t.from === from && t.to === to && t.types.includes(type));
}

/** The payment type a payment trigger waits for: the first payment is a rental's partial one, a purchase's full one; ownership (issue 29) comes by a buy-out or a cycle payment (`owned` on the event). */
export function paymentTypeOf(which: 'first' | 'full' | 'owned', type: OrderType): PaymentType | null {
  if (which === 'owned') return null;
  return which === 'first' && type === 'RENT' ? 'PARTIAL' : 'FULL';
}

/**
 * A rental completed without coming back (issue 29): bought out or made the customer's by its
 * paid cycles while out — its units are SOLD to the customer and its bookings end (the catalog
 * reads it from the status event).
 */
export function completedByOwnership(type: OrderType, from: OrderStatus, to: OrderStatus): boolean {
  return type === 'RENT' && to === 'COMPLETED' && (from === 'DELIVERED' || from === 'FOR_RETURN');
}

/** The row a driver's scan for this purpose performs on an order in this status, if any. */
export function scanTransition(type: OrderType, from: OrderStatus, purpose: DriverScanPurpose): Transition | undefined {
  return ORDER_TRANSITIONS.find((t) => t.from === from && t.types.includes(type) && t.on.some((o) => o.kind === 'scan' && o.purpose === purpose));
}

/**
 * The row a hand-over performs on an order in this status: made (DELIVERED, FOR_PICK_UP) or failed
 * (a delivery goes back to TO_SHIP); none for a failed pick-up, which only records the attempt.
 */
export function handoverTransition(type: OrderType, from: OrderStatus, leg: HandoverLeg, made: boolean): Transition | undefined {
  return ORDER_TRANSITIONS.find((t) => t.from === from && t.types.includes(type) && t.on.some((o) => o.kind === 'handover' && o.leg === leg && o.made === made));
}

/**
 * The row a confirmed payment of this type performs on an order in this status, if any (the order
 * waits for exactly it); a payment that made a rent-to-own rental the customer's (`owned`, issue
 * 29) performs the ownership row.
 */
export function paymentTransition(type: OrderType, from: OrderStatus, paymentType: PaymentType, owned = false): Transition | undefined {
  return ORDER_TRANSITIONS.find(
    (t) =>
      t.from === from &&
      t.types.includes(type) &&
      t.on.some((o) => o.kind === 'payment' && (owned ? o.which === 'owned' : o.which !== 'owned' && paymentTypeOf(o.which, type) === paymentType)),
  );
}

/** Transitions a person (not an event) may start from this status. */
export function transitionsFrom(type: OrderType, from: OrderStatus): Transition[] {
  return ORDER_TRANSITIONS.filter((t) => t.from === from && t.types.includes(type) && t.who.kind !== 'event');
}

/**
 * An order carries a QR code once it is packed: TO_SHIP and every later step (SPEC §2); never
 * before, and not once cancelled. The screens show the QR block by it (packages/ui QrBlock).
 */
export function orderHasQr(status: OrderStatus): boolean {
  return (RENTAL_ORDER_STATUSES as readonly OrderStatus[]).indexOf(status) >= RENTAL_ORDER_STATUSES.indexOf('TO_SHIP');
}

/** The tracker title of the first step. */
export const ORDER_PLACED_TITLE = 'Order placed';
