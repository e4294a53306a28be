import { centsToString, formatBusinessDate, rentalRecordLabel, PAYMENT_MESSAGES, sumCents, toCents } from '@dme/contracts/browser';
import type { OrderType, PaymentAction, PaymentStatus, PaymentType, RefundStatus } from '@dme/contracts';
import { money } from '@dme/ui';

/**
 * The list's tabs (SPEC §2: Pending, Partial Paid, For Full Payment, Paid), the first is the
 * default; ours besides (issue 22): payments taken for orders cancelled meanwhile (Refund Due),
 * those once their refund was paid back (Refunded, issue 29) and payments of orders cancelled
 * before anything was paid (Cancelled).
 */
export const PAYMENT_TABS: ReadonlyArray<{ status: PaymentStatus; label: string; empty: string }> = [
  { status: 'PENDING', label: 'Pending', empty: 'No pending payments.' },
  { status: 'INITIAL_PAYMENT', label: 'Partial Paid', empty: 'No partially paid rentals.' },
  { status: 'FOR_FULL_PAYMENT', label: 'For Full Payment', empty: 'No rentals waiting for their full payment.' },
  { status: 'PAID', label: 'Paid', empty: 'No paid payments yet.' },
  { status: 'REFUND_DUE', label: 'Refund Due', empty: 'No payments to refund.' },
  { status: 'REFUNDED', label: 'Refunded', empty: 'No refunded payments.' },
  { status: 'CANCELLED', label: 'Cancelled', empty: 'No cancelled payments.' },
];

/**
 * Issue 29: one more tab, not a status: every payment with a refund still to pay back (a deposit's
 * rest at a return, a cancelled order's payment), whatever its status. Its key in the address.
 */
export const REFUNDS_TAB = { key: 'REFUNDS', label: 'Refunds to Pay', empty: 'No refunds to pay back.' } as const;

/** The button (and dialog title) of each next step (SPEC §4). */
export const ACTION_LABELS: Record<PaymentAction, string> = {
  MARK_AS_PAID: PAYMENT_MESSAGES.markAsPaid,
  PAY_PARTIAL: PAYMENT_MESSAGES.payPartial,
  COMPLETE_PAYMENT: PAYMENT_MESSAGES.completePayment,
  // Issue 29: a rental's 30-day cycle.
  PAY_CYCLE: PAYMENT_MESSAGES.payCycle,
  BUY_OUT: PAYMENT_MESSAGES.buyOut,
};

/** A pending payment whose order the warehouse has not confirmed yet cannot be taken. */
export const WAITING_FOR_WAREHOUSE = 'Waiting for the warehouse to confirm the order';

/** Ours: the toast after a payment was taken. */
export const PAYMENT_RECORDED = 'Payment recorded.';

export const orderTypeLabel = (t: OrderType) => (t === 'RENT' ? 'Rental' : 'Purchase');

/** Ours (issue 29): what a buy-out does, in the dialog. */
export const BUY_OUT_NOTE = "the sale price less the rent credited; the equipment becomes the customer's and the deposit is refunded";

/** A payment record's type in words; issue 29's by contracts `rentalRecordLabel` ("Cycle 2 payment", "Buy-out"). */
export function recordTypeLabel(r: { type: PaymentType; cycle?: number | null }): string {
  return rentalRecordLabel(r) ?? (r.type === 'PARTIAL' ? 'Partial Payment' : 'Full Payment');
}

/** Money to pay back, as a step. */
export const refundStepText = (amount: string) => `Refund ${money(amount)} to the customer`;

/**
 * What the next step of a payment is, in words, or null when there is nothing to say. The list's
 * rows carry no refunds: a refund due on a payment otherwise settled (a deposit's rest, issue 29)
 * is said on the payment's detail (`refundsDueText`).
 */
export function nextStepText(p: { status: PaymentStatus; nextAction: PaymentAction | null; refundDue: string | null; refundsDue?: string | null }): string | null {
  if (p.nextAction) return ACTION_LABELS[p.nextAction];
  if (p.status === 'REFUND_DUE' && p.refundDue !== null) return refundStepText(p.refundDue);
  // Issue 29: a deposit's rest still to pay back (the payment itself is settled or waits for nothing).
  if (p.refundsDue) return refundStepText(p.refundsDue);
  return p.status === 'PENDING' ? WAITING_FOR_WAREHOUSE : null;
}

/** Ours (issue 29): the refunds still due on a payment, as a step (null: none). */
export function refundsDueText(refunds: ReadonlyArray<{ status: RefundStatus; amount: string }>): string | null {
  const due = refunds.filter((r) => r.status === 'DUE');
  if (due.length === 0) return null;
  return `${refundStepText(centsToString(sumCents(due.map((r) => toCents(r.amount)))))}: record how it was paid back under Refunds.`;
}

/** Ours (issue 22): the detail of a payment taken for an order cancelled meanwhile. */
export const refundDueText = (amount: string) => `${PAYMENT_MESSAGES.refundDue} Refund ${money(amount)} to the customer.`;

/** An amount that is there and not zero (contracts' rule). */
export { isNonZeroAmount as nonZero } from '@dme/contracts/browser';

export { formatBusinessDate };

/** Ours (issue 29): a rental's first payment takes its deposit too. */
export const includesDepositText = (deposit: string) => `includes the deposit of ${money(deposit)}`;


/** Ours (issue 29): billing cycles' texts, shared with the order pages (@dme/ui). */
export { cycleDueText } from '@dme/ui';

/** Ours (issue 29): the refund dialog's title and button. */
export const RECORD_REFUND = 'Record Refund';

/** Ours (issue 29): a refund's status in words. */
export const refundStatusLabel = (s: RefundStatus) => (s === 'REFUNDED' ? 'Refunded' : 'Due');
