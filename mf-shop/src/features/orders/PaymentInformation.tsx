import { Button, Descriptions, Table } from 'antd';
import { formatManilaDateTime } from '@dme/contracts/browser';
import type { Order, OrderPayment } from '@dme/contracts';
import { StatusTag, SectionTitle } from '@dme/ui';
import { formatBusinessDate } from '../../lib/dates';
import { money } from '../../lib/money';

type Record = OrderPayment['records'][number];

const orUnknown = (v: string | null, show: (v: string) => string) => (v === null ? '—' : show(v));

/**
 * Payment Information as SPEC §4 shows it to the customer: while the order is PENDING or
 * FOR_PAYMENT the order total and the rental's partial payment as UNPAID; afterwards the payment's
 * status and total; for a rental in FOR_FULL_PAYMENT or PAID also due date, extra charges,
 * overall total and balance.
 */
export function PaymentSummary({ order }: { order: Order }) {
  const pay = order.payment;
  const rent = order.type === 'RENT';
  const unpaid = order.status === 'PENDING' || order.status === 'FOR_PAYMENT';
  const full = rent && (pay.status === 'FOR_FULL_PAYMENT' || pay.status === 'PAID');
  return (
    <section aria-label="Payment Information">
      <SectionTitle>Payment Information</SectionTitle>
      <Descriptions column={1} size="small" bordered>
        <Descriptions.Item label="Status">
          <StatusTag kind="payment" status={unpaid ? 'UNPAID' : pay.status} />
        </Descriptions.Item>
        <Descriptions.Item label="Order Total">
          <strong data-testid="order-total">{money(pay.totalOrderPayment)}</strong>
        </Descriptions.Item>
        {rent && pay.totalPartialPayment !== null && <Descriptions.Item label="Partial Payment (first day)">{money(pay.totalPartialPayment)}</Descriptions.Item>}
        {full && <Descriptions.Item label="Due Date">{orUnknown(pay.dueDate, formatBusinessDate)}</Descriptions.Item>}
        {full && <Descriptions.Item label="Extra Charges">{orUnknown(pay.extraCharge, money)}</Descriptions.Item>}
        {full && <Descriptions.Item label="Overall Total">{orUnknown(pay.overallTotal, money)}</Descriptions.Item>}
        {full && (
          <Descriptions.Item label="Balance">
            <span data-testid="balance">{orUnknown(pay.balance, money)}</span>
          </Descriptions.Item>
        )}
      </Descriptions>
    </section>
  );
}

/** The payments taken (the first of a rental is its initial payment, a second its full payment) and the invoice. */
export function PaymentRecords({ order }: { order: Order }) {
  const records = order.payment.records;
  if (records.length === 0) return null;
  return (
    <section aria-label="Payment Records" style={{ marginTop: 24 }}>
      <div style={{ display: 'flex', justifyContent: 'space-between', alignItems: 'center', gap: 12, flexWrap: 'wrap' }}>
        <SectionTitle>Payment Records</SectionTitle>
        {/* A plain download: the server names the file (INVOICE.pdf, INITIAL_PAYMENT_INVOICE.pdf, FULL_PAYMENT_INVOICE.pdf). */}
        <Button href={`/api/my/orders/${order.id}/invoice.pdf`} download>
          Download invoice
        </Button>
      </div>
      <Table<Record & { key: number }>
        size="small"
        pagination={false}
        dataSource={records.map((r, key) => ({ ...r, key }))}
        scroll={{ x: true }}
        columns={[
          { title: 'Payment', dataIndex: 'type', render: (t: Record['type']) => (t === 'PARTIAL' ? 'Initial Payment' : 'Full Payment') },
          { title: 'Invoice No.', dataIndex: 'invoiceNumber' },
          { title: 'Receipt No.', dataIndex: 'receiptNumber' },
          { title: 'Amount', dataIndex: 'amount', align: 'right', render: (v: string) => money(v) },
          { title: 'Date', dataIndex: 'createdAt', render: (d: string) => formatManilaDateTime(d) },
          { title: 'Note', dataIndex: 'note', render: (n: string) => n || '—' },
        ]}
      />
    </section>
  );
}
