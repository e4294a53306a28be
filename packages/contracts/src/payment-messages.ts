/**
 * The payment texts and actions (SPEC §4/§5/§8), kept free of zod on purpose: the accounting app's
 * payment screens import them, and a module with schemas would bring zod along, whose
 * `new Function` probe breaks the CSP (no 'unsafe-eval'; issue 13). The schemas in payments.ts use
 * these same constants.
 */

/** Texts of SPEC §4/§5/§8 for payments, verbatim, and ours where the spec is silent. */
export const PAYMENT_MESSAGES = {
  invoiceNumber: 'Please enter invoice number!',
  receiptNumber: 'Please enter receipt number!',
  /** SPEC §5 gives the full-payment form's read-only fields this message too. */
  balance: 'Please enter invoice number!',
  markAsPaid: 'Mark as paid',
  payPartial: 'Pay Partial Payment',
  completePayment: 'Complete Payment',
  /** Ours (issue 29): a rental's 30-day cycle. */
  payCycle: 'Take Cycle Payment',
  /** Ours (issue 29): a rent-to-own rental bought out. */
  buyOut: 'Take Buy-Out Payment',
  buyOutNotOffered: 'This rental cannot be bought out now: every product must be rent-to-own, delivered and not returned yet.',
  notPayable: 'This payment cannot be taken now: its order is not waiting for a payment.',
  /** Ours (issue 22): the payment service already knows the order was cancelled. */
  orderCancelled: 'This order was cancelled: no payment can be taken for it.',
  /** Ours (issue 22): a payment taken for an order cancelled meanwhile. */
  refundDue: 'The order was cancelled after this payment was taken: the amount paid is due to be refunded.',
  recordNotFound: 'Payment record not found.',
  idempotencyMissing: 'An Idempotency-Key header is required to confirm a payment.',
  idempotencyMismatch: 'This Idempotency-Key was already used for a different payment.',
  idempotencyInProgress: 'This payment is already being confirmed. Please wait a moment.',
  noInvoice: 'There is no invoice for this order yet: it comes with the first payment.',
  invoiceTerms: 'Completion of payment (100%)',
  /** Ours (issue 29): refunds. */
  refundNotFound: 'Refund not found.',
  refundAlreadyRecorded: 'This refund was already recorded as paid back.',
  refundMethod: 'Please choose how the money was paid back!',
  refundRecorded: 'Refund recorded.',
  reconciliationNotFound: 'This reconciliation run does not exist.',
  refundIdempotencyMissing: 'An Idempotency-Key header is required to record a refund.',
  refundIdempotencyMismatch: 'This Idempotency-Key was already used for a different refund.',
  refundIdempotencyInProgress: 'This refund is already being recorded. Please wait a moment.',
} as const;

/** Why money is owed back (issue 29): the rest of a rental's deposit at its return, or what was paid for an order cancelled meanwhile. */
export const REFUND_KINDS = ['DEPOSIT', 'CANCELLED'] as const;
export type RefundKind = (typeof REFUND_KINDS)[number];
export const REFUND_KIND_LABELS: Record<RefundKind, string> = { DEPOSIT: 'Deposit returned', CANCELLED: 'Order cancelled after payment' };

/** How a refund was paid back. */
export const REFUND_METHODS = ['CASH', 'BANK_TRANSFER', 'GCASH', 'CARD_REVERSAL', 'CHECK'] as const;
export type RefundMethod = (typeof REFUND_METHODS)[number];
export const REFUND_METHOD_LABELS: Record<RefundMethod, string> = { CASH: 'Cash', BANK_TRANSFER: 'Bank transfer', GCASH: 'GCash', CARD_REVERSAL: 'Card reversal', CHECK: 'Check' };

export const REFUND_STATUSES = ['DUE', 'REFUNDED'] as const;

/**
 * The daily reconciliation (issue 29): what is checked on every payment, each a way money could
 * be charged twice, not charged, or not given back. Labels for the accounting screen.
 */
export const RECONCILIATION_CHECKS = ['DUPLICATE_CHARGE', 'MISSING_CHARGE', 'WRONG_AMOUNT', 'PAID_TOTAL', 'DEPOSIT_HELD', 'DEPOSIT_SETTLEMENT', 'REFUND'] as const;
export type ReconciliationCheck = (typeof RECONCILIATION_CHECKS)[number];
export const RECONCILIATION_CHECK_LABELS: Record<ReconciliationCheck, string> = {
  DUPLICATE_CHARGE: 'Charged twice',
  MISSING_CHARGE: 'Payment missing',
  WRONG_AMOUNT: 'Amount differs from the terms',
  PAID_TOTAL: 'Paid differs from what is owed',
  DEPOSIT_HELD: 'Deposit held differs',
  DEPOSIT_SETTLEMENT: 'Deposit not settled in full',
  REFUND: 'Refund missing or different',
};
export const RECONCILIATION_KINDS = ['DAILY', 'MANUAL'] as const;
export const RECONCILIATION_STATUSES = ['RUNNING', 'DONE', 'FAILED'] as const;

/** A change of a rental's days (issue 25): more days, or fewer by an early end. */
export const DAYS_CHANGE_KINDS = ['EXTEND', 'END_EARLY'] as const;
export type DaysChangeKind = (typeof DAYS_CHANGE_KINDS)[number];

/**
 * How a change of a rental's days is named where its money is shown (issue 29: the invoice and the
 * payment screens): "Extension (+2 days)", "Ended early (−3 days)".
 */
export function daysChangeLabel(kind: DaysChangeKind, days: number): string {
  const n = Math.abs(days);
  const span = `${n} ${n === 1 ? 'day' : 'days'}`;
  return kind === 'END_EARLY' ? `Ended early (−${span})` : `Extension (+${span})`;
}
export type RefundStatus = (typeof REFUND_STATUSES)[number];

/** What confirming a payment does next (SPEC §4 Payment statuses), or nothing when it cannot be taken. */
export const PAYMENT_ACTIONS = ['MARK_AS_PAID', 'PAY_PARTIAL', 'COMPLETE_PAYMENT', 'PAY_CYCLE', 'BUY_OUT'] as const;
export type PaymentAction = (typeof PAYMENT_ACTIONS)[number];

/** Invoice file names (SPEC §9). */
export const INVOICE_FILES = {
  purchase: 'INVOICE.pdf',
  initial: 'INITIAL_PAYMENT_INVOICE.pdf',
  full: 'FULL_PAYMENT_INVOICE.pdf',
  /** Issue 29: a rental's 30-day cycle n, and a rent-to-own rental bought out. */
  cycle: (n: number) => `CYCLE_INVOICE_${n}.pdf`,
  buyOut: 'BUY_OUT_INVOICE.pdf',
} as const;

/**
 * The invoice file of a payment record (SPEC §9): INVOICE.pdf for a purchase; a rental's first
 * (partial) payment INITIAL_PAYMENT_INVOICE.pdf, its full payment FULL_PAYMENT_INVOICE.pdf, a cycle's
 * CYCLE_INVOICE_<n>.pdf (issue 29). The
 * payment service names its downloads with it, the screens their download links.
 */
export function invoiceFileName(orderType: 'BUY' | 'RENT', recordType: 'PARTIAL' | 'FULL' | 'CYCLE' | 'BUYOUT', cycle: number | null = null): string {
  if (orderType === 'BUY') return INVOICE_FILES.purchase;
  if (recordType === 'CYCLE') return INVOICE_FILES.cycle(cycle ?? 0);
  if (recordType === 'BUYOUT') return INVOICE_FILES.buyOut;
  return recordType === 'PARTIAL' ? INVOICE_FILES.initial : INVOICE_FILES.full;
}
