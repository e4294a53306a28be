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
} as const;

/** What confirming a payment does next (SPEC §4 Payment statuses), or nothing when it cannot be taken. */
export const PAYMENT_ACTIONS = ['MARK_AS_PAID', 'PAY_PARTIAL', 'COMPLETE_PAYMENT'] as const;
export type PaymentAction = (typeof PAYMENT_ACTIONS)[number];

/** Invoice file names (SPEC §9). */
export const INVOICE_FILES = {
  purchase: 'INVOICE.pdf',
  initial: 'INITIAL_PAYMENT_INVOICE.pdf',
  full: 'FULL_PAYMENT_INVOICE.pdf',
} as const;

/**
 * The invoice file of a payment record (SPEC §9): INVOICE.pdf for a purchase; a rental's first
 * (partial) payment INITIAL_PAYMENT_INVOICE.pdf, its full payment FULL_PAYMENT_INVOICE.pdf. The
 * payment service names its downloads with it, the screens their download links.
 */
export function invoiceFileName(orderType: 'BUY' | 'RENT', recordType: 'PARTIAL' | 'FULL'): string {
  if (orderType === 'BUY') return INVOICE_FILES.purchase;
  return recordType === 'PARTIAL' ? INVOICE_FILES.initial : INVOICE_FILES.full;
}
