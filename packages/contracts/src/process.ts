import type { OrderStatus, OrderType } from './enums';
import type { Permission } from './permissions';

/**
 * The order process as data (DESIGN §6): who may move an order from one status to another, what
 * must hold, and what happens. The order service guards transitions with it; the UIs use it to
 * show which actions are possible.
 */
export type Actor = { kind: 'permission'; permission: Permission } | { kind: 'owner-or-staff' } | { kind: 'event'; event: string };

export interface Transition {
  from: OrderStatus;
  to: OrderStatus;
  /** Order types the row applies to. */
  types: readonly OrderType[];
  who: Actor;
  guard?: 'confirm' | 'all-lines-scanned' | 'same-driver' | 'some-line-past-due' | 'all-serials-returned';
  effect?: 'payment-ready' | 'assign-serials' | 'record-driver' | 'delivered' | 'full-payment-due' | 'release-reservation';
  /** Order-tracker title of the step. */
  title: string;
}

const BOTH = ['BUY', 'RENT'] as const;

export const ORDER_TRANSITIONS: readonly Transition[] = [
  { from: 'PENDING', to: 'FOR_PAYMENT', types: BOTH, who: { kind: 'permission', permission: 'order:process' }, guard: 'confirm', effect: 'payment-ready', title: 'Order confirmed, waiting for payment' },
  { from: 'FOR_PAYMENT', to: 'PREPARING', types: BOTH, who: { kind: 'event', event: 'dme.payment.confirmed' }, title: 'Payment received, preparing the order' },
  { from: 'PREPARING', to: 'TO_SHIP', types: BOTH, who: { kind: 'permission', permission: 'order:process' }, guard: 'all-lines-scanned', effect: 'assign-serials', title: 'Packed, ready to ship' },
  { from: 'TO_SHIP', to: 'OUT_FOR_DELIVERY', types: BOTH, who: { kind: 'permission', permission: 'order:drive' }, effect: 'record-driver', title: 'Out for delivery' },
  { from: 'OUT_FOR_DELIVERY', to: 'DELIVERED', types: BOTH, who: { kind: 'permission', permission: 'order:drive' }, guard: 'same-driver', effect: 'delivered', title: 'Delivered' },
  { from: 'DELIVERED', to: 'FOR_RETURN', types: ['RENT'], who: { kind: 'permission', permission: 'order:process' }, guard: 'some-line-past-due', title: 'Rental period ended, for return' },
  { from: 'FOR_RETURN', to: 'FOR_PICK_UP', types: ['RENT'], who: { kind: 'permission', permission: 'order:drive' }, effect: 'record-driver', title: 'Driver on the way for pick-up' },
  { from: 'FOR_PICK_UP', to: 'FOR_FULL_PAYMENT', types: ['RENT'], who: { kind: 'permission', permission: 'order:process' }, guard: 'all-serials-returned', effect: 'full-payment-due', title: 'Returned, waiting for full payment' },
  { from: 'FOR_FULL_PAYMENT', to: 'COMPLETED', types: ['RENT'], who: { kind: 'event', event: 'dme.payment.confirmed' }, title: 'Completed' },
  { from: 'PENDING', to: 'CANCELLED', types: BOTH, who: { kind: 'owner-or-staff' }, effect: 'release-reservation', title: 'Order cancelled' },
  { from: 'FOR_PAYMENT', to: 'CANCELLED', types: BOTH, who: { kind: 'owner-or-staff' }, effect: 'release-reservation', title: 'Order cancelled' },
];

export function findTransition(type: OrderType, from: OrderStatus, to: OrderStatus): Transition | undefined {
  return ORDER_TRANSITIONS.find((t) => t.from === from && t.to === to && t.types.includes(type));
}

/** Transitions a person (not an event) may start from this status. */
export function transitionsFrom(type: OrderType, from: OrderStatus): Transition[] {
  return ORDER_TRANSITIONS.filter((t) => t.from === from && t.types.includes(type) && t.who.kind !== 'event');
}

/** The tracker title of the first step. */
export const ORDER_PLACED_TITLE = 'Order placed';
