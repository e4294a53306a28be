import type { ReactNode } from 'react';
import { Space } from 'antd';
import { formatBusinessDate, isNonZeroAmount, manilaDate, REFUND_KIND_LABELS, REFUND_METHOD_LABELS } from '@dme/contracts/browser';
import type { Order, OrderPayment } from '@dme/contracts';
import { Money, money } from '../money';
import { StatusTag } from '../StatusTag';
import { days } from './OrderLinesTable';
import type { PaymentInfoRow } from './PaymentInfoBlock';

/** What the rows are built from: the order's type, its payment and its late fees so far. */
export type PaymentRowsOrder = Pick<Order, 'type' | 'payment' | 'lateFees'>;

export interface PaymentRowsOptions {
  /**
   * Whose screen: the customer's order page (SPEC §4) or a staff order detail. They differ on
   * purpose: see `paymentRows`.
   */
  audience: 'customer' | 'staff';
  /** How the screen writes the payment's due date. */
  dateText: (date: string) => string;
  /** Shown beside the late fees so far (staff: 'Waive late fees'). */
  lateFeesAction?: ReactNode;
}

type LateFees = NonNullable<Order['lateFees']>;

/** Ours (issue 29): the late fees so far, net of what staff waived, as the customer reads them ("$150.00 ($50.00 waived)"). */
export const lateFeesRowText = (l: Pick<LateFees, 'amount' | 'waived'>) => `${money(l.amount)}${isNonZeroAmount(l.waived) ? ` (${money(l.waived)} waived)` : ''}`;

/** Ours (issue 29): the late fees so far as staff read them, with the most days late ("$150.00 (3 days late) — $50.00 waived"). */
export const staffLateFeesRowText = (l: Pick<LateFees, 'amount' | 'days' | 'waived'>) =>
  `${money(l.amount)} (${days(l.days)} late)${isNonZeroAmount(l.waived) ? ` — ${money(l.waived)} waived` : ''}`;

/** Ours (issue 29): a refund paid back, in words ("$200.00 — Deposit returned, paid back by Bank transfer on Nov 28, 2026"). */
export const refundText = (r: OrderPayment['refunds'][number]) =>
  `${money(r.amount)} — ${REFUND_KIND_LABELS[r.kind]}, paid back by ${REFUND_METHOD_LABELS[r.method]} on ${formatBusinessDate(manilaDate(new Date(r.refundedAt)))}`;

const orUnknown = (v: string | null, show: (v: string) => string) => (v === null ? '—' : show(v));

/**
 * The rows of an order's Payment Information (for `PaymentInfoBlock`), one list for the
 * customer's order page and the staff order detail: the payment's status and total; a rental's
 * partial payment and its money terms (issue 29): its deposit, the late fees so far while it is
 * kept past its due date, and at the full payment the late fees charged, the deposit applied to
 * the charges and what is refunded of it; extra charges, overall total, balance and due date.
 *
 * Where the screens differ on purpose:
 * - the customer reads 'Order Total', staff 'Total Order Payment';
 * - the customer reads the late fees so far net of waivers ("$150.00 ($50.00 waived)"), staff
 *   with the most days late ("$150.00 (3 days late) — $50.00 waived") and `lateFeesAction`;
 * - the customer sees a rental's due date, extra charges, overall total and balance from the
 *   full payment on (FOR_FULL_PAYMENT, PAID), '—' while one is unknown; staff each one once known
 *   (the due date last);
 * - the customer also sees what is owed back for an order cancelled after payment (issue 22) and
 *   each refund paid back, with how and when.
 */
export function paymentRows(order: PaymentRowsOrder, { audience, dateText, lateFeesAction }: PaymentRowsOptions): PaymentInfoRow[] {
  const p = order.payment;
  const rent = order.type === 'RENT';
  const customer = audience === 'customer';
  const deposit = rent && isNonZeroAmount(p.deposit);
  const late = rent ? (order.lateFees ?? null) : null;
  const full = rent && (p.status === 'FOR_FULL_PAYMENT' || p.status === 'PAID');
  const refundDue = customer && p.status === 'REFUND_DUE' ? (p.refundDue ?? null) : null;
  /** An amount of the full payment: the customer's from the full payment on, staff's once known. */
  const fullAmount = (label: string, v: string | null, testId?: string): PaymentInfoRow | false => {
    if (!customer) return v !== null && { label, value: <Money value={v} /> };
    if (!full) return false;
    return { label, value: testId ? <span data-testid={testId}>{orUnknown(v, money)}</span> : orUnknown(v, money) };
  };
  const rows: Array<PaymentInfoRow | false> = [
    { label: 'Status', value: <StatusTag kind="payment" status={p.status} /> },
    customer
      ? { label: 'Order Total', value: <strong data-testid="order-total"><Money value={p.totalOrderPayment} /></strong> }
      : { label: 'Total Order Payment', value: <Money value={p.totalOrderPayment} /> },
    rent && p.totalPartialPayment !== null && { label: 'Partial Payment (first day)', value: <Money value={p.totalPartialPayment} /> },
    deposit && { label: 'Deposit', value: customer ? <span data-testid="deposit"><Money value={p.deposit} /></span> : <Money value={p.deposit} /> },
    late !== null && {
      label: 'Late Fees So Far',
      value: customer ? (
        <span data-testid="late-fees-so-far">{lateFeesRowText(late)}</span>
      ) : (
        <Space size={8} wrap>
          <span data-testid="late-fees-so-far">{staffLateFeesRowText(late)}</span>
          {lateFeesAction}
        </Space>
      ),
    },
    refundDue !== null && { label: 'Refund Due', value: <strong data-testid="refund-due"><Money value={refundDue} /></strong> },
    customer && full && { label: 'Due Date', value: orUnknown(p.dueDate, dateText) },
    fullAmount('Extra Charges', p.extraCharge),
    fullAmount('Overall Total', p.overallTotal),
    rent && isNonZeroAmount(p.lateFees) && { label: 'Late Fees', value: <Money value={p.lateFees} /> },
    deposit && p.depositApplied != null && { label: 'Deposit Applied', value: <Money value={p.depositApplied} /> },
    deposit && p.depositRefund != null && { label: 'Deposit Refund', value: <span data-testid="deposit-refund"><Money value={p.depositRefund} /></span> },
    fullAmount('Balance', p.balance, 'balance'),
    !customer && !!p.dueDate && { label: 'Due Date', value: dateText(p.dueDate) },
    ...(customer ? (p.refunds ?? []) : []).map((r) => ({ label: `Refund ${r.number}`, value: <span data-testid="refund">{refundText(r)}</span> })),
  ];
  return rows.filter((r): r is PaymentInfoRow => r !== false);
}
