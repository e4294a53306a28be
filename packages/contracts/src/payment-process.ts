import type { OrderStatus, PaymentStatus } from './enums';
import type { PaymentAction } from './payment-messages';

/**
 * The payment process as data (SPEC §4 Payment statuses; issue 23): every change of a payment's
 * status is a row here, with what triggers it — accounting taking a payment (a staff action) or an
 * order status event the payment service hears. The payment rules compute the figures; this table
 * says which status changes exist, and `paymentMove` refuses any other.
 */
export type PaymentTrigger = { by: 'staff'; action: PaymentAction } | { by: 'order'; status: OrderStatus } | { by: 'refund' };

export interface PaymentMove {
  from: PaymentStatus;
  to: PaymentStatus;
  trigger: PaymentTrigger;
  /** When the row applies beyond its trigger (the rules check it: these are its words). */
  when: string;
}

export const PAYMENT_PROCESS: readonly PaymentMove[] = [
  { from: 'PENDING', to: 'PAID', trigger: { by: 'staff', action: 'MARK_AS_PAID' }, when: 'a purchase waiting for its payment (order FOR_PAYMENT)' },
  { from: 'PENDING', to: 'INITIAL_PAYMENT', trigger: { by: 'staff', action: 'PAY_PARTIAL' }, when: "a rental's first day (order FOR_PAYMENT)" },
  { from: 'FOR_FULL_PAYMENT', to: 'PAID', trigger: { by: 'staff', action: 'COMPLETE_PAYMENT' }, when: "a rental's balance (order FOR_FULL_PAYMENT)" },
  { from: 'PENDING', to: 'CANCELLED', trigger: { by: 'order', status: 'CANCELLED' }, when: 'nothing was paid' },
  { from: 'INITIAL_PAYMENT', to: 'REFUND_DUE', trigger: { by: 'order', status: 'CANCELLED' }, when: 'a payment was taken while the order was being cancelled' },
  { from: 'FOR_FULL_PAYMENT', to: 'REFUND_DUE', trigger: { by: 'order', status: 'CANCELLED' }, when: 'a payment was taken while the order was being cancelled' },
  { from: 'PAID', to: 'REFUND_DUE', trigger: { by: 'order', status: 'CANCELLED' }, when: 'a payment was taken while the order was being cancelled' },
  { from: 'PENDING', to: 'FOR_FULL_PAYMENT', trigger: { by: 'order', status: 'FOR_FULL_PAYMENT' }, when: 'a rental back from the customer' },
  { from: 'INITIAL_PAYMENT', to: 'FOR_FULL_PAYMENT', trigger: { by: 'order', status: 'FOR_FULL_PAYMENT' }, when: 'a rental back from the customer' },
  { from: 'REFUND_DUE', to: 'REFUNDED', trigger: { by: 'refund' }, when: 'accounting recorded how what was owed back was paid back (issue 29)' },
  { from: 'INITIAL_PAYMENT', to: 'PAID', trigger: { by: 'staff', action: 'BUY_OUT' }, when: 'a rent-to-own rental bought out while it is out (issue 29)' },
  { from: 'INITIAL_PAYMENT', to: 'PAID', trigger: { by: 'staff', action: 'PAY_CYCLE' }, when: "the cycle that makes a rent-to-own rental the customer's (issue 29)" },
];

const sameTrigger = (a: PaymentTrigger, b: PaymentTrigger): boolean => {
  if (a.by === 'staff') return b.by === 'staff' && a.action === b.action;
  if (a.by === 'order') return b.by === 'order' && a.status === b.status;
  return b.by === 'refund';
};

/** The row for this change, or null when the table has none (a status that stays is no change). */
export function paymentMoveOf(from: PaymentStatus, to: PaymentStatus, trigger: PaymentTrigger): PaymentMove | null {
  return PAYMENT_PROCESS.find((m) => m.from === from && m.to === to && sameTrigger(m.trigger, trigger)) ?? null;
}

/** Thrown when a payment's status would change without a row of the table: a defect, never input. */
export class PaymentMoveError extends Error {
  constructor(readonly from: PaymentStatus, readonly to: PaymentStatus, readonly trigger: PaymentTrigger) {
    super(`No payment process row moves ${from} → ${to} on ${trigger.by === 'staff' ? trigger.action : trigger.by === 'order' ? `order ${trigger.status}` : 'a refund'}`);
  }
}

/** `to` when the change is a row (or no change at all); throws otherwise. */
export function paymentMove(from: PaymentStatus, to: PaymentStatus, trigger: PaymentTrigger): PaymentStatus {
  if (from !== to && !paymentMoveOf(from, to, trigger)) throw new PaymentMoveError(from, to, trigger);
  return to;
}
