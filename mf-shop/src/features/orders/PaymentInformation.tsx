import { Alert } from 'antd';
import { formatBusinessDate, formatManilaDateTime, invoiceFileName, isNonZeroAmount, manilaDate, REFUND_KIND_LABELS, REFUND_METHOD_LABELS } from '@dme/contracts/browser';
import type { Order, OrderPayment } from '@dme/contracts';
import { days, money, Money, PaymentInfoBlock, StatusTag, SectionTitle, ResponsiveTable } from '@dme/ui';

type Record = OrderPayment['records'][number];

const orUnknown = (v: string | null, show: (v: string) => string) => (v === null ? '—' : show(v));

/** Ours (issue 29): the notice of a rental kept past its due date. */
export const lateFeesText = (l: { amount: string; days: number }) =>
  `Late fees so far: ${money(l.amount)} (${days(l.days)} late). They grow each day until the equipment is picked up.`;

/** Ours (issue 29): the late fees so far, net of what staff waived ("$150.00 ($50.00 waived)"). */
export const lateFeesRowText = (l: { amount: string; waived?: string }) => `${money(l.amount)}${isNonZeroAmount(l.waived) ? ` (${money(l.waived)} waived)` : ''}`;

/** Ours (issue 29): a refund paid back, in words ("$200.00 — Deposit returned, paid back by Bank transfer on Nov 28, 2026"). */
export const refundText = (r: OrderPayment['refunds'][number]) =>
  `${money(r.amount)} — ${REFUND_KIND_LABELS[r.kind]}, paid back by ${REFUND_METHOD_LABELS[r.method]} on ${formatBusinessDate(manilaDate(new Date(r.refundedAt)))}`;

/**
 * Payment Information as SPEC §4 shows it to the customer: while the order is PENDING or
 * FOR_PAYMENT the order total and the rental's partial payment as UNPAID (the server's status);
 * afterwards the payment's
 * status and total; for a rental in FOR_FULL_PAYMENT or PAID also due date, extra charges,
 * overall total and balance. A payment taken for an order cancelled meanwhile shows REFUND DUE
 * with the amount owed back (issue 22). A rental's money terms (issue 29): its deposit, the late
 * fees so far while it is kept past its due date (with a notice until the full payment's figures
 * are known, and what staff waived of them), and at the full payment the late fees charged, the
 * deposit applied to the charges and what is refunded of it; each refund paid back, with how and when (a cancelled order's
 * payment is REFUNDED then).
 */
export function PaymentSummary({ order }: { order: Order }) {
  const pay = order.payment;
  const rent = order.type === 'RENT';
  const full = rent && (pay.status === 'FOR_FULL_PAYMENT' || pay.status === 'PAID');
  const refund = pay.status === 'REFUND_DUE' ? (pay.refundDue ?? null) : null;
  const deposit = rent && isNonZeroAmount(pay.deposit);
  const late = rent ? (order.lateFees ?? null) : null;
  return (
    <PaymentInfoBlock
      notice={
        <>
          {pay.status === 'REFUND_DUE' && (
            <Alert
              type="warning"
              showIcon
              style={{ marginBottom: 12 }}
              title={`This order was cancelled after your payment${refund ? ` of ${money(refund)}` : ''} was received. It is due to be refunded to you; our accounting team will contact you.`}
            />
          )}
          {/* Still growing: until the full payment's late fees are known (they are final then). */}
          {late !== null && (pay.lateFees ?? null) === null && <Alert type="warning" showIcon style={{ marginBottom: 12 }} title={lateFeesText(late)} />}
        </>
      }
      rows={[
        { label: 'Status', value: <StatusTag kind="payment" status={pay.status} /> },
        { label: 'Order Total', value: <strong data-testid="order-total"><Money value={pay.totalOrderPayment} /></strong> },
        rent && pay.totalPartialPayment !== null && { label: 'Partial Payment (first day)', value: <Money value={pay.totalPartialPayment} /> },
        deposit && { label: 'Deposit', value: <span data-testid="deposit"><Money value={pay.deposit} /></span> },
        late !== null && { label: 'Late Fees So Far', value: <span data-testid="late-fees-so-far">{lateFeesRowText(late)}</span> },
        refund !== null && { label: 'Refund Due', value: <strong data-testid="refund-due"><Money value={refund} /></strong> },
        full && { label: 'Due Date', value: orUnknown(pay.dueDate, formatBusinessDate) },
        full && { label: 'Extra Charges', value: orUnknown(pay.extraCharge, money) },
        full && { label: 'Overall Total', value: orUnknown(pay.overallTotal, money) },
        rent && isNonZeroAmount(pay.lateFees) && { label: 'Late Fees', value: <Money value={pay.lateFees} /> },
        deposit && pay.depositApplied != null && { label: 'Deposit Applied', value: <Money value={pay.depositApplied} /> },
        deposit && pay.depositRefund != null && { label: 'Deposit Refund', value: <span data-testid="deposit-refund"><Money value={pay.depositRefund} /></span> },
        full && { label: 'Balance', value: <span data-testid="balance">{orUnknown(pay.balance, money)}</span> },
        ...(pay.refunds ?? []).map((r) => ({ label: `Refund ${r.number}`, value: <span data-testid="refund">{refundText(r)}</span> })),
      ]}
    />
  );
}

/**
 * Where a record's invoice is downloaded: its own route by record id; a record from before
 * payment events carried the id has only the order's latest invoice, so only the last record
 * links there (null: no link).
 */
function invoiceHref(orderId: string, r: Record, last: boolean): string | null {
  if (r.id) return `/api/my/orders/${orderId}/records/${r.id}/invoice.pdf`;
  return last ? `/api/my/orders/${orderId}/invoice.pdf` : null;
}

/**
 * The payments taken (the first of a rental is its initial payment, a second its full payment),
 * each with its invoice: a plain download the server names (INVOICE.pdf,
 * INITIAL_PAYMENT_INVOICE.pdf, FULL_PAYMENT_INVOICE.pdf), so an earlier invoice stays reachable.
 */
export function PaymentRecords({ order }: { order: Order }) {
  const records = order.payment.records;
  if (records.length === 0) return null;
  return (
    <section aria-label="Payment Records" style={{ marginTop: 24 }}>
      <SectionTitle>Payment Records</SectionTitle>
      <ResponsiveTable<Record & { key: number }>
        size="small"
        pagination={false}
        dataSource={records.map((r, key) => ({ ...r, key }))}
        scroll={{ x: true }}
        columns={[
          { title: 'Payment', dataIndex: 'type', render: (t: Record['type']) => (t === 'PARTIAL' ? 'Initial Payment' : 'Full Payment') },
          { title: 'Invoice No.', dataIndex: 'invoiceNumber' },
          { title: 'Receipt No.', dataIndex: 'receiptNumber' },
          { title: 'Amount', dataIndex: 'amount', align: 'right', render: (v: string) => <Money value={v} /> },
          { title: 'Date', dataIndex: 'createdAt', render: (d: string) => formatManilaDateTime(d) },
          { title: 'Note', dataIndex: 'note', render: (n: string) => n || '—' },
          {
            title: 'Invoice',
            key: 'invoice',
            render: (_: unknown, r: Record & { key: number }) => {
              const href = invoiceHref(order.id, r, r.key === records.length - 1);
              const file = invoiceFileName(order.type, r.type);
              return href ? (
                <a href={href} download aria-label={`Download ${file}`}>
                  {file}
                </a>
              ) : (
                '—'
              );
            },
          },
        ]}
      />
    </section>
  );
}
