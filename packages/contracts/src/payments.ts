import { z } from 'zod';
import { ORDER_STATUSES, ORDER_TYPES, PAYMENT_STATUSES, PAYMENT_TYPES, type PaymentStatus } from './enums';
import { Pagination } from './identity';
import { RentalCycle } from './rental-terms';
import { BILLINGS } from './rental-money';
import { optionalText, requiredText, searchParam } from './text';
import {
  DAYS_CHANGE_KINDS,
  PAYMENT_ACTIONS,
  PAYMENT_MESSAGES,
  RECONCILIATION_CHECKS,
  RECONCILIATION_KINDS,
  RECONCILIATION_STATUSES,
  REFUND_KINDS,
  REFUND_METHODS,
  REFUND_STATUSES,
} from './payment-messages';

/** One payment taken: invoice and receipt numbers and who accommodated it (SPEC §6). */
export const PaymentRecord = z.object({
  id: z.string().uuid(),
  type: z.enum(PAYMENT_TYPES),
  invoiceNumber: z.string(),
  receiptNumber: z.string(),
  note: z.string(),
  amount: z.string(),
  accommodatedBy: z.string().uuid(),
  accommodatedByName: z.string(),
  createdAt: z.string(),
  /** A CYCLE payment's cycle number (issue 29); null otherwise. */
  cycle: z.number().int().nullable().default(null),
});
export type PaymentRecord = z.infer<typeof PaymentRecord>;

export const PaymentSummary = z.object({
  id: z.string().uuid(),
  orderID: z.string().uuid(),
  orderNumber: z.string(),
  orderType: z.enum(ORDER_TYPES),
  orderStatus: z.enum(ORDER_STATUSES),
  customerID: z.string().uuid(),
  customerName: z.string(),
  status: z.enum(PAYMENT_STATUSES),
  /** FULL or PARTIAL once a payment was taken. */
  type: z.enum(PAYMENT_TYPES).nullable(),
  /** The order total. */
  totalOrderPayment: z.string(),
  /** A rental's first (partial) payment: the first day's rental total. */
  totalPartialPayment: z.string().nullable(),
  /** What is still to be paid. */
  balance: z.string(),
  /** What confirming does now; null when nothing can be taken (order not confirmed yet, paid, cancelled). */
  nextAction: z.enum(PAYMENT_ACTIONS).nullable(),
  /** REFUND_DUE: what was paid and is owed back (the order was cancelled meanwhile); else null. */
  refundDue: z.string().nullable(),
  /** What confirming takes now, as the server computes it (a rental's first day plus its deposit, a balance…); null when nothing can be taken. */
  dueNow: z.string().nullable().default(null),
  /** Refunds not paid back yet (issue 29: a deposit's rest, a cancelled order's payment), their sum; null when none. */
  refundsDue: z.string().nullable().default(null),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type PaymentSummary = z.infer<typeof PaymentSummary>;

export const PaymentLine = z.object({
  productName: z.string(),
  variantName: z.string().nullable(),
  subVariantName: z.string().nullable(),
  quantity: z.number().int(),
  noOfRentalDays: z.number().int().nullable(),
  unitPrice: z.string(),
  lineTotal: z.string(),
  /** The line's deposit (issue 29); "0.00": none. */
  deposit: z.string().default('0.00'),
  /** The line's rent-to-own terms (issue 29); null: none. */
  rentToOwn: z.object({ salePrice: z.string(), creditPercent: z.number().int(), afterCycles: z.number().int() }).nullable().default(null),
});

/** Money owed back to the customer (issue 29), with its own number: due until accounting records how it was paid back. */
export const PaymentRefund = z.object({
  id: z.string().uuid(),
  number: z.string(),
  kind: z.enum(REFUND_KINDS),
  amount: z.string(),
  status: z.enum(REFUND_STATUSES),
  createdAt: z.string(),
  refundedAt: z.string().nullable(),
  method: z.enum(REFUND_METHODS).nullable(),
  reference: z.string(),
  note: z.string(),
  refundedByName: z.string().nullable(),
});
export type PaymentRefund = z.infer<typeof PaymentRefund>;

/**
 * A change of a rental's days (issue 29 part 4: extensions priced by the order service with the
 * line's terms, told by its event): paid with the next payment taken, shown on its invoice.
 */
export const PaymentDaysChange = z.object({
  seq: z.number().int(),
  kind: z.enum(DAYS_CHANGE_KINDS),
  days: z.number().int(),
  /** What it did to the order total (below zero for an early end). */
  amount: z.string(),
  by: z.enum(['CUSTOMER', 'STAFF']),
});
export type PaymentDaysChange = z.infer<typeof PaymentDaysChange>;

/** A rental's 30-day billing cycle (issue 29) as the payment screens show it (rental-terms `RentalCycle`). */
export const PaymentCycle = RentalCycle;
export type PaymentCycle = RentalCycle;

/** Recording a refund as paid back: how, with an optional reference (a transfer number) and note. */
export const RecordRefundRequest = z.object({
  method: z.enum(REFUND_METHODS, { error: PAYMENT_MESSAGES.refundMethod }),
  reference: optionalText(80),
  note: optionalText(500),
});
export type RecordRefundRequest = z.input<typeof RecordRefundRequest>;
export const RefundParams = z.object({ id: z.string().uuid({ error: 'Not found.' }), refundId: z.string().uuid({ error: 'Not found.' }) });

export const Payment = PaymentSummary.extend({
  customer: z.object({ name: z.string(), email: z.string(), contactNumber: z.string() }).nullable(),
  delivery: z.object({ address: z.string(), city: z.string(), state: z.string(), zipcode: z.string() }).nullable(),
  lines: z.array(PaymentLine),
  /** Damage or lost fees at a rental's return (SPEC §4); null until then. */
  extraCharge: z.string().nullable(),
  /** A full payment's amount: order total (purchase) or extra charges + order total (rental). */
  overallTotal: z.string().nullable(),
  /** When the full payment of a rental is due (a day after it was asked for), YYYY-MM-DD in Manila. */
  dueDate: z.string().nullable(),
  records: z.array(PaymentRecord),
  /** A rental's deposit (issue 29): asked with the first payment, and held once that was taken. */
  deposit: z.string().default('0.00'),
  depositHeld: z.string().default('0.00'),
  /** At the full payment: the late fees in the extra charge, the deposit taken for the charges, and what is refunded of it. */
  lateFees: z.string().nullable().default(null),
  depositApplied: z.string().nullable().default(null),
  depositRefund: z.string().nullable().default(null),
  /** Refunds (issue 29), oldest first. */
  refunds: z.array(PaymentRefund).default([]),
  /** The rental's extensions and early end, oldest first (within the order total). */
  extensions: z.array(PaymentDaysChange).default([]),
  /** How the rent is billed (issue 29): UPFRONT (SPEC §4) or per 30-day cycle. */
  billing: z.enum(BILLINGS).default('UPFRONT'),
  /** CYCLES billing: the day the rental was delivered (the first cycle's day), null before. */
  deliveredOn: z.string().nullable().default(null),
  /** CYCLES billing from delivery: each cycle, its days, rent, due day and state. */
  cycles: z.array(PaymentCycle).default([]),
  /** A rent-to-own rental out with the customer (issue 29): what buying it out takes now (the BUY_OUT action); null when it cannot be bought out. */
  buyOutNow: z.string().nullable().default(null),
});
export type Payment = z.infer<typeof Payment>;

export const PaymentResponse = z.object({ payment: Payment });
export type PaymentResponse = z.infer<typeof PaymentResponse>;

export const PaymentListQuery = Pagination.extend({
  status: z.enum(PAYMENT_STATUSES).optional(),
  /** DUE: only payments with a refund still to pay back (issue 29: a deposit's rest on a paid rental, a cancelled order's payment). */
  refunds: z.enum(['DUE']).optional(),
  /** Order number or customer name. */
  search: searchParam(),
});
export const PaymentListResponse = z.object({
  items: z.array(PaymentSummary),
  total: z.number().int(),
  /** Payments per status for the same search (the tabs' counts). */
  counts: z.object(Object.fromEntries(PAYMENT_STATUSES.map((s) => [s, z.number().int()])) as Record<PaymentStatus, z.ZodNumber>),
  /** Payments with a refund still to pay back, whatever their status, for the same search (issue 29). */
  refundsDue: z.number().int().default(0),
});
export type PaymentListResponse = z.infer<typeof PaymentListResponse>;

/**
 * The daily reconciliation (issue 29): a run checks every payment's records and refunds against
 * what its terms say is owed, paid, held and refunded; each difference is a mismatch.
 */
export const ReconciliationRun = z.object({
  id: z.string().uuid(),
  /** The Manila business day it is for. */
  day: z.string(),
  /** DAILY: the scheduled run (one per day, whichever replica); MANUAL: asked for by accounting. */
  kind: z.enum(RECONCILIATION_KINDS),
  status: z.enum(RECONCILIATION_STATUSES),
  startedAt: z.string(),
  finishedAt: z.string().nullable(),
  /** Payments checked and mismatches found. */
  checked: z.number().int(),
  mismatches: z.number().int(),
  startedByName: z.string().nullable(),
});
export type ReconciliationRun = z.infer<typeof ReconciliationRun>;
export const ReconciliationMismatch = z.object({
  paymentId: z.string().uuid(),
  orderNumber: z.string(),
  check: z.enum(RECONCILIATION_CHECKS),
  /** What the terms say, and what the payment recorded (money, or a count for charges). */
  expected: z.string(),
  actual: z.string(),
  detail: z.string(),
});
export type ReconciliationMismatch = z.infer<typeof ReconciliationMismatch>;
export const ReconciliationRunsResponse = z.object({
  items: z.array(ReconciliationRun),
  /** The mismatches of the newest finished run (0 before any): what "Needs you now" counts. */
  mismatches: z.number().int().default(0),
});
export type ReconciliationRunsResponse = z.infer<typeof ReconciliationRunsResponse>;
export const ReconciliationRunResponse = z.object({ run: ReconciliationRun, mismatches: z.array(ReconciliationMismatch) });
export type ReconciliationRunResponse = z.infer<typeof ReconciliationRunResponse>;

/** The payment form (SPEC §5): invoice and receipt numbers required, note optional. */
export const ConfirmPaymentRequest = z.object({
  invoiceNumber: requiredText(PAYMENT_MESSAGES.invoiceNumber, 50),
  receiptNumber: requiredText(PAYMENT_MESSAGES.receiptNumber, 50),
  note: optionalText(500),
  /** Issue 29: BUY_OUT takes a rent-to-own rental's buy-out instead of the payment due; absent: the payment due (`nextAction`). */
  action: z.enum(['BUY_OUT'], { error: 'Unknown payment action.' }).optional(),
});
export type ConfirmPaymentRequest = z.input<typeof ConfirmPaymentRequest>;

/** Order-id path of the invoice routes. */
export const OrderIdParams = z.object({ id: z.string().uuid({ error: 'Not found.' }) });

/** The path of one payment record's invoice: the payment's (staff) or the order's (customer) id and the record's. */
export const RecordInvoiceParams = z.object({ id: z.string().uuid({ error: 'Not found.' }), recordId: z.string().uuid({ error: 'Not found.' }) });

/**
 * The invoice of one payment record for an e-mail attachment (NATS request/reply to the payment
 * service, issue 24): answered only when the order is the customer's (else 404), so a message
 * never carries another customer's invoice.
 */
export const INVOICE_RPC = { get: 'rpc.payment.invoice' } as const;
export const InvoiceRequest = z.object({ orderId: z.string().uuid(), recordId: z.string().uuid(), customerId: z.string().uuid() });
export const InvoiceReply = z.object({ fileName: z.string(), pdfBase64: z.string() });
export type InvoiceReply = z.infer<typeof InvoiceReply>;

/** The shop's name as customers see it (the shell's header, e-mails). */
export const SHOP_NAME = 'DME Supply';

/** The seller on every invoice (SPEC §9: a fixed address, e-mail and phone). */
export const SELLER = {
  name: 'DME Medical Equipment Rentals & Sales',
  address: '2F Medical Plaza, 123 Ayala Avenue, Makati City, Metro Manila 1226',
  email: 'billing@dme-shop.example',
  phone: '+63 2 8123 4567',
} as const;
