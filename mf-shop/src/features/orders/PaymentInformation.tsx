import { Alert } from 'antd';
import { formatBusinessDate, rentalRecordLabel, formatManilaDateTime, invoiceFileName } from '@dme/contracts/browser';
import type { Order, OrderPayment } from '@dme/contracts';
import { days, money, Money, PaymentInfoBlock, paymentRows, SectionTitle, ResponsiveTable } from '@dme/ui';

type Record = OrderPayment['records'][number];

/** Ours (issue 29): the notice of a rental kept past its due date. */
export const lateFeesText = (l: { amount: string; days: number }) =>
  `Late fees so far: ${money(l.amount)} (${days(l.days)} late). They grow each day until the equipment is picked up.`;

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
  const refund = pay.status === 'REFUND_DUE' ? (pay.refundDue ?? null) : null;
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
      rows={paymentRows(order, { audience: 'customer', dateText: formatBusinessDate })}
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

/** A payment record's name: the initial or full payment, or issue 29's (a billing cycle's, a buy-out). */
function recordLabel(r: Pick<Record, 'type' | 'cycle'>): string {
  return rentalRecordLabel(r) ?? (r.type === 'PARTIAL' ? 'Initial Payment' : 'Full Payment');
}

/**
 * The payments taken (the first of a rental is its initial payment, a second its full payment, a
 * rental billed by cycles a payment per cycle), each with its invoice: a plain download the server
 * names (INVOICE.pdf, INITIAL_PAYMENT_INVOICE.pdf, FULL_PAYMENT_INVOICE.pdf, CYCLE_INVOICE_2.pdf),
 * so an earlier invoice stays reachable.
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
          { title: 'Payment', dataIndex: 'type', render: (_: unknown, r: Record) => recordLabel(r) },
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
              const file = invoiceFileName(order.type, r.type, r.cycle ?? null);
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
