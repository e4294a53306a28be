import { useState } from 'react';
import { useLocation, useNavigate, useParams } from 'react-router-dom';
import { Alert, Button, Descriptions, Space, Tag } from 'antd';
import { daysChangeLabel, formatManilaDateTime, invoiceFileName, REFUND_KIND_LABELS, REFUND_METHOD_LABELS } from '@dme/contracts/browser';
import type { Payment, PaymentAction, PaymentRecord, PaymentRefund } from '@dme/contracts';
import { errorMessage } from '@dme/api-client';
import { CyclesTable, EmptyState, LazyErrorState, Loading, Money, OrderLinesTable, PageHeader, PaymentInfoBlock, StatusTag, SectionTitle, ResponsiveTable } from '@dme/ui';
import { usePaymentQuery } from './api';
import { ConfirmPaymentDialog } from './ConfirmPaymentDialog';
import { RecordRefundDialog } from './RecordRefundDialog';
import {
  ACTION_LABELS,
  formatBusinessDate,
  nonZero,
  orderTypeLabel,
  PAYMENT_TABS,
  recordTypeLabel,
  refundDueText,
  refundsDueText,
  refundStatusLabel,
  WAITING_FOR_WAREHOUSE,
} from './labels';

type Line = Payment['lines'][number] & { key: number };

/** Where Back goes: the list the user came from, else the tab of this payment's status. */
function backTo(from: unknown, p: Payment | undefined): string {
  if (typeof from === 'string' && from.startsWith('/admin/payments')) return from;
  return p && PAYMENT_TABS.some((t) => t.status === p.status) ? `/admin/payments?status=${p.status}` : '/admin/payments';
}

/**
 * One payment (SPEC §2, §4): its order, customer, delivery address, lines, amounts and records,
 * each record with its invoice, and the step that can be taken now; a payment taken for an order
 * cancelled meanwhile says what is owed back (issue 22). A rental's money terms (issue 29): the
 * deposit asked and held, and at the full payment the late fees, the deposit applied to the
 * charges and what is refunded of it; each line's deposit when a line has one. Its refunds (issue
 * 29), each due until accounting records how it was paid back. A rental billed per 30-day cycle
 * (issue 29): its cycles from delivery, each with its days, due day, rent and state, as the server
 * computes them; each cycle payment named by its cycle, with its own invoice.
 */
export default function PaymentDetailPage() {
  const { id = '' } = useParams();
  const location = useLocation();
  const navigate = useNavigate();
  const q = usePaymentQuery(id);
  // Each opening mounts a new dialog (its own Idempotency-Key); the action is fixed when it opens.
  const [dialog, setDialog] = useState<{ n: number; action: PaymentAction | null }>({ n: 0, action: null });
  // Likewise for recording a refund: the refund is fixed when the dialog opens.
  const [refundDialog, setRefundDialog] = useState<{ n: number; refundId: string | null }>({ n: 0, refundId: null });
  const p = q.data?.payment;
  const back = (
    <Button onClick={() => navigate(backTo((location.state as { from?: unknown } | null)?.from, p))}>Back</Button>
  );

  if (q.isLoading) return <Loading />;
  if (q.error || !p) {
    return (
      <section>
        <PageHeader title="Payment" extra={back} />
        <LazyErrorState title="This payment could not be shown" message={errorMessage(q.error)} onRetry={q.refetch} />
      </section>
    );
  }
  const rent = p.orderType === 'RENT';
  // A rental's deposit (issue 29): asked with the first payment, held once it was taken.
  const deposit = nonZero(p.deposit) || nonZero(p.depositHeld);
  const lineDeposits = p.lines.some((l) => nonZero(l.deposit));
  // A refund due on a payment otherwise settled (a deposit's rest); REFUND_DUE says so already.
  const refundsDue = p.status === 'REFUND_DUE' ? null : refundsDueText(p.refunds);
  const refunding = p.refunds.find((r) => r.id === refundDialog.refundId);

  return (
    <article>
      <PageHeader
        title={`Order ${p.orderNumber}`}
        extra={
          <Space wrap>
            {p.nextAction && (
              <Button type="primary" onClick={() => setDialog((d) => ({ n: d.n + 1, action: p.nextAction }))}>
                {ACTION_LABELS[p.nextAction]}
              </Button>
            )}
            {/* Issue 29: a rent-to-own rental out with the customer can be bought out instead. */}
            {p.buyOutNow !== null && <Button onClick={() => setDialog((d) => ({ n: d.n + 1, action: 'BUY_OUT' }))}>{ACTION_LABELS.BUY_OUT}</Button>}
            {back}
          </Space>
        }
      />
      <Space size={16} style={{ marginBottom: 16 }} wrap>
        <Tag>{orderTypeLabel(p.orderType)}</Tag>
        <span>
          Order <StatusTag kind="order" status={p.orderStatus} />
        </span>
        <span>
          Payment <StatusTag kind="payment" status={p.status} />
        </span>
      </Space>
      {!p.nextAction && p.status === 'PENDING' && <Alert type="info" showIcon title={WAITING_FOR_WAREHOUSE} style={{ marginBottom: 16 }} />}
      {p.status === 'CANCELLED' && <Alert type="warning" showIcon title="The order was cancelled: there is nothing to pay." style={{ marginBottom: 16 }} />}
      {p.status === 'REFUND_DUE' && p.refundDue !== null && <Alert type="error" showIcon title={refundDueText(p.refundDue)} style={{ marginBottom: 16 }} />}
      {refundsDue && <Alert type="warning" showIcon title={refundsDue} style={{ marginBottom: 16 }} />}
      <div style={{ display: 'grid', gridTemplateColumns: 'repeat(auto-fit, minmax(300px, 1fr))', gap: 24, marginBottom: 24 }}>
        <section aria-label="Customer">
          <SectionTitle>Customer</SectionTitle>
          <Descriptions column={1} size="small" bordered>
            <Descriptions.Item label="Name">{p.customer?.name || p.customerName || '—'}</Descriptions.Item>
            <Descriptions.Item label="E-mail">{p.customer?.email || '—'}</Descriptions.Item>
            <Descriptions.Item label="Contact Number">{p.customer?.contactNumber || '—'}</Descriptions.Item>
          </Descriptions>
        </section>
        <section aria-label="Delivery Address">
          <SectionTitle>Delivery Address</SectionTitle>
          <Descriptions column={1} size="small" bordered>
            <Descriptions.Item label="Address">{p.delivery?.address || '—'}</Descriptions.Item>
            <Descriptions.Item label="City">{p.delivery?.city || '—'}</Descriptions.Item>
            <Descriptions.Item label="State">{p.delivery?.state || '—'}</Descriptions.Item>
            <Descriptions.Item label="Zipcode">{p.delivery?.zipcode || '—'}</Descriptions.Item>
          </Descriptions>
        </section>
        <PaymentInfoBlock
          title="Amounts"
          rows={[
            { label: 'Order Total', value: <span data-testid="order-total"><Money value={p.totalOrderPayment} /></span> },
            // Issue 29: the rental's extensions and early end, within the order total, paid with the next payment.
            ...(p.extensions ?? []).map((x) => ({ label: daysChangeLabel(x.kind, x.days), value: <Money value={x.amount} /> })),
            p.totalPartialPayment !== null && { label: 'Partial Payment', value: <Money value={p.totalPartialPayment} /> },
            p.extraCharge !== null && { label: 'Extra Charges', value: <Money value={p.extraCharge} /> },
            p.overallTotal !== null && { label: 'Overall Total', value: <Money value={p.overallTotal} /> },
            nonZero(p.deposit) && { label: 'Deposit', value: <Money value={p.deposit} /> },
            nonZero(p.depositHeld) && { label: 'Deposit Held', value: <span data-testid="deposit-held"><Money value={p.depositHeld} /></span> },
            nonZero(p.lateFees) && { label: 'Late Fees', value: <Money value={p.lateFees} /> },
            deposit && p.depositApplied != null && { label: 'Deposit Applied', value: <Money value={p.depositApplied} /> },
            deposit && p.depositRefund != null && { label: 'Deposit Refund', value: <strong data-testid="deposit-refund"><Money value={p.depositRefund} /></strong> },
            { label: 'Balance', value: <strong data-testid="balance"><Money value={p.balance} /></strong> },
            !!p.dueDate && { label: 'Due Date', value: formatBusinessDate(p.dueDate) },
            p.refundDue !== null && { label: 'Refund Due', value: <strong data-testid="refund-due"><Money value={p.refundDue} /></strong> },
          ]}
        />
      </div>
      <section aria-label="Products" style={{ marginBottom: 24 }}>
        <SectionTitle>Products</SectionTitle>
        <OrderLinesTable<Line>
          lines={p.lines.map((l, key) => ({ ...l, key }))}
          rowKey="key"
          rent={rent}
          size="small"
          emptyText={<EmptyState description="No products." />}
          nameTitle="Product"
          name={(l) => ({ product: l.productName, variant: l.variantName, subVariant: l.subVariantName })}
          rentalDays={{ title: 'Rental Days', align: 'right', render: (l) => l.noOfRentalDays }}
          prices={{ unit: (l) => l.unitPrice, total: (l) => l.lineTotal }}
          after={lineDeposits ? [{ title: 'Deposit', key: 'deposit', align: 'right', render: (_: unknown, l: Line) => <Money value={l.deposit ?? '0.00'} /> }] : []}
        />
      </section>
      {p.billing === 'CYCLES' && <CyclesTable cycles={p.cycles} deliveredOn={p.deliveredOn} style={{ marginBottom: 24 }} />}
      <section aria-label="Payment Records">
        <SectionTitle>Payment Records</SectionTitle>
        <ResponsiveTable<PaymentRecord>
          rowKey="id"
          size="small"
          pagination={false}
          dataSource={p.records}
          scroll={{ x: true }}
          locale={{ emptyText: <EmptyState description="No payment taken yet." /> }}
          columns={[
            { title: 'Type', key: 'type', render: (_: unknown, r: PaymentRecord) => recordTypeLabel(r) },
            { title: 'Invoice No.', dataIndex: 'invoiceNumber' },
            { title: 'Receipt No.', dataIndex: 'receiptNumber' },
            { title: 'Amount', dataIndex: 'amount', align: 'right', render: (v: string) => <Money value={v} /> },
            { title: 'Date', dataIndex: 'createdAt', render: (d: string) => formatManilaDateTime(d) },
            { title: 'Accommodated By', dataIndex: 'accommodatedByName' },
            { title: 'Note', dataIndex: 'note', render: (n: string) => n || '—' },
            {
              title: 'Invoice',
              key: 'invoice',
              render: (_: unknown, r: PaymentRecord) => {
                // A plain download the server names (INVOICE.pdf, INITIAL_PAYMENT_INVOICE.pdf, FULL_PAYMENT_INVOICE.pdf, CYCLE_INVOICE_<n>.pdf).
                const file = invoiceFileName(p.orderType, r.type, r.cycle);
                return (
                  <a href={`/api/payments/${p.id}/records/${r.id}/invoice.pdf`} download aria-label={`Download ${file}`}>
                    {file}
                  </a>
                );
              },
            },
          ]}
        />
      </section>
      {p.refunds.length > 0 && (
        <section aria-label="Refunds" style={{ marginTop: 24 }}>
          <SectionTitle>Refunds</SectionTitle>
          <ResponsiveTable<PaymentRefund>
            rowKey="id"
            size="small"
            pagination={false}
            dataSource={p.refunds}
            scroll={{ x: true }}
            columns={[
              { title: 'Refund No.', dataIndex: 'number' },
              { title: 'Reason', dataIndex: 'kind', render: (k: PaymentRefund['kind']) => REFUND_KIND_LABELS[k] },
              { title: 'Amount', dataIndex: 'amount', align: 'right', render: (v: string) => <Money value={v} /> },
              { title: 'Status', dataIndex: 'status', render: (s: PaymentRefund['status']) => <Tag color={s === 'REFUNDED' ? 'green' : 'orange'}>{refundStatusLabel(s)}</Tag> },
              {
                title: 'Paid back',
                key: 'paidBack',
                render: (_: unknown, r: PaymentRefund) =>
                  r.status === 'REFUNDED' ? (
                    <div>
                      <div>
                        {r.method ? REFUND_METHOD_LABELS[r.method] : '—'}
                        {r.reference ? ` · ${r.reference}` : ''}
                      </div>
                      <div style={{ color: 'rgba(0,0,0,0.6)', fontSize: 12 }}>
                        {r.refundedAt ? formatManilaDateTime(r.refundedAt) : ''}
                        {r.refundedByName ? ` by ${r.refundedByName}` : ''}
                      </div>
                      {r.note && <div style={{ fontSize: 12 }}>{r.note}</div>}
                    </div>
                  ) : (
                    <Button size="small" type="primary" aria-label={`Record refund ${r.number}`} onClick={() => setRefundDialog((d) => ({ n: d.n + 1, refundId: r.id }))}>
                      Record refund
                    </Button>
                  ),
              },
            ]}
          />
        </section>
      )}
      {refunding && (
        <RecordRefundDialog key={refundDialog.n} payment={p} refund={refunding} open onClose={() => setRefundDialog((d) => ({ ...d, refundId: null }))} />
      )}
      {dialog.action && <ConfirmPaymentDialog key={dialog.n} payment={p} action={dialog.action} open onClose={() => setDialog((d) => ({ ...d, action: null }))} />}
    </article>
  );
}
