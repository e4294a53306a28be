import { balanceCents, centsToString, sumCents, toCents, type OrderPayment, type OrderStatus, type PaymentType, type RefundKind, type RefundMethod } from '@dme/contracts';
import { money, moneyOrNull } from './rows';

/** The payment read model of an order (from `dme.payment.confirmed`), numeric columns as text. */
export interface PaymentRow {
  status: string;
  /** REFUND_DUE: what is owed back (from `dme.payment.refund_due`). */
  refund_due: string | null;
  total_partial_payment: string | null;
  extra_charge: string | null;
  overall_total: string | null;
  balance: string | null;
  due_date: string | null;
}

export interface PaymentRecordRow {
  /** The payment service's record id (null for records whose event did not carry it). */
  payment_record_id: string | null;
  type: PaymentType;
  invoice_number: string;
  receipt_number: string;
  amount: string;
  note: string;
  created_at: string;
  /** A CYCLE record's cycle number (issue 29). */
  cycle?: number | null;
}

/** What the payment information of an order is read from: the order's own figures and the payment read model. */
export interface OrderPaymentRow {
  status: OrderStatus;
  total_amount: string;
  partial_payment: string | null;
  extra_charge: string | null;
  /** YYYY-MM-DD. */
  full_payment_due_text: string | null;
  /** Issue 29: the rental's deposit, and at its full payment the late fees, the deposit taken for the charges and refunded. */
  deposit: string;
  late_fees: string | null;
  deposit_applied: string | null;
  deposit_refund: string | null;
  /** Refunds paid back (from dme.payment.refund_recorded). */
  refunds: Array<{ number: string; kind: RefundKind; amount: string; method: RefundMethod; refunded_at: string }>;
  payment: PaymentRow | null;
  records: PaymentRecordRow[];
}

/** Order statuses in which nothing has been paid yet (SPEC §4: the payment shows UNPAID). */
const UNPAID_STATUSES: readonly OrderStatus[] = ['PENDING', 'FOR_PAYMENT', 'CANCELLED'];

/**
 * Payment information as the order shows it (SPEC §4). While the order is PENDING or FOR_PAYMENT
 * (or was cancelled then) it is UNPAID with the order total and the rental's partial payment.
 * Afterwards it is the payment's own status and records, from the payment read model. A rental
 * in FOR_FULL_PAYMENT shows what the order asked for at its return (extra charge, due date) with
 * the overall total (total + extra) and the balance (terms `balanceCents`: total − partial + extra); once PAID, the
 * payment's own figures. A payment taken for an order cancelled meanwhile (issue 22) shows its
 * own status and records, then REFUND_DUE with the amount owed back once the payment service
 * says so; it is never shown as UNPAID.
 */
export function paymentOf(o: OrderPaymentRow): OrderPayment {
  const total = money(o.total_amount);
  const partialRecord = o.records.find((r) => r.type === 'PARTIAL');
  const partial = partialRecord ? money(partialRecord.amount) : moneyOrNull(o.payment?.total_partial_payment ?? o.partial_payment);
  const records = o.records.map((r) => ({
    ...(r.payment_record_id ? { id: r.payment_record_id } : {}),
    type: r.type,
    invoiceNumber: r.invoice_number,
    receiptNumber: r.receipt_number,
    amount: money(r.amount),
    note: r.note,
    createdAt: new Date(r.created_at).toISOString(),
    ...(r.type === 'CYCLE' ? { cycle: r.cycle ?? null } : {}),
  }));
  // Issue 29: the rent paid counts against the balance — the first payment less the deposit it
  // took with it (held, settled below as deposit applied), and the rent taken by cycle payments.
  const firstRent = partialRecord ? toCents(partialRecord.amount) - toCents(o.deposit ?? '0') : toCents(partial ?? '0');
  const rentPaid = firstRent + sumCents(o.records.filter((r) => r.type === 'CYCLE').map((r) => toCents(r.amount)));
  const base = {
    totalOrderPayment: total,
    totalPartialPayment: partial,
    extraCharge: null,
    overallTotal: null,
    balance: null,
    dueDate: null,
    records,
    deposit: money(o.deposit ?? '0'),
    lateFees: moneyOrNull(o.late_fees),
    depositApplied: moneyOrNull(o.deposit_applied),
    depositRefund: moneyOrNull(o.deposit_refund),
    refunds: (o.refunds ?? []).map((r) => ({ number: r.number, kind: r.kind, amount: money(r.amount), method: r.method, refundedAt: new Date(r.refunded_at).toISOString() })),
  };
  if (o.payment?.status === 'REFUND_DUE') return { ...base, status: 'REFUND_DUE', refundDue: money(o.payment.refund_due ?? '0') };
  if (o.payment?.status === 'REFUNDED') return { ...base, status: 'REFUNDED' };
  if (o.status === 'CANCELLED' && o.payment) return { ...base, status: o.payment.status };
  if (UNPAID_STATUSES.includes(o.status)) return { ...base, status: 'UNPAID' };
  if (o.status === 'FOR_FULL_PAYMENT') {
    const extra = toCents(o.extra_charge ?? '0');
    const totalCents = toCents(total);
    return {
      ...base,
      status: 'FOR_FULL_PAYMENT',
      extraCharge: centsToString(extra),
      overallTotal: centsToString(totalCents + extra),
      // The deposit taken for the charges pays that part of the extra (issue 29; its rest is refunded).
      balance: centsToString(balanceCents({ totalCents, paidCents: rentPaid + toCents(o.deposit_applied ?? '0'), extraCents: extra })),
      dueDate: o.full_payment_due_text,
    };
  }
  // Past the first payment: the payment as the read model has it (the event that moved the order
  // wrote it in the same transaction; without it nothing was recorded as paid).
  const status = o.payment?.status ?? 'UNPAID';
  if (!o.payment || (status !== 'FOR_FULL_PAYMENT' && status !== 'PAID')) return { ...base, status };
  return {
    ...base,
    status,
    extraCharge: moneyOrNull(o.payment.extra_charge),
    overallTotal: moneyOrNull(o.payment.overall_total),
    balance: moneyOrNull(o.payment.balance),
    dueDate: o.payment.due_date,
  };
}
