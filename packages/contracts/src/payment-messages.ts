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
  idempotencyMissing: 'An Idempotency-Key header is required to confirm a payment.',
  idempotencyMismatch: 'This Idempotency-Key was already used for a different payment.',
  idempotencyInProgress: 'This payment is already being confirmed. Please wait a moment.',
  noInvoice: 'There is no invoice for this order yet: it comes with the first payment.',
  invoiceTerms: 'Completion of payment (100%)',
} as const;

/** What confirming a payment does next (SPEC §4 Payment statuses), or nothing when it cannot be taken. */
export const PAYMENT_ACTIONS = ['MARK_AS_PAID', 'PAY_PARTIAL', 'COMPLETE_PAYMENT'] as const;
export type PaymentAction = (typeof PAYMENT_ACTIONS)[number];
