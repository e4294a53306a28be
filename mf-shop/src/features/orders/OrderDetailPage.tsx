import { useState } from 'react';
import { useNavigate, useParams } from 'react-router-dom';
import { Alert, Button, Space, Tag, Timeline } from 'antd';
import { acceptsRequests, formatBusinessDate, formatManilaDateTime, ORDER_MESSAGES, RENTAL_MESSAGES } from '@dme/contracts/browser';
import type { Order, OrderLine, OrderRequest, RequestType } from '@dme/contracts';
import { errorMessage, loaded } from '@dme/api-client';
import { days, EmptyState, HandoverSection, LazyErrorState, Loading, OrderCycles, OrderLinesTable, PageHeader, QrBlock, SectionTitle, ShippingInformation, StatusTag, useBackTo, useFeedback, ResponsiveTable, RefreshFailed } from '@dme/ui';
import { useCancelOrderMutation, useMyOrderQuery } from './api';
import { PaymentRecords, PaymentSummary } from './PaymentInformation';
import { lineLabel, REQUEST_TYPE_LABELS, RequestDialog } from './RequestDialog';
import { ExtendRentalButton, Extensions } from './ExtendRental';

/**
 * A serial code is back once it was inspected on return (OK, LOST or DAMAGED; updatedAt is its
 * return time, SPEC §3): the customer sees RETURNED (SPEC §4) and when. The bin it was packed from
 * is the warehouse's business, not shown here.
 */
const isReturned = (c: OrderLine['serialCodes'][number]) => c.updatedAt !== null || c.status !== null;

const DUE_NOTICE_TEXT = { OVERDUE: RENTAL_MESSAGES.hasDueProducts, DUE_TODAY: RENTAL_MESSAGES.dueToday } as const;

/**
 * The fix and replace requests of a rental (SPEC §2): Type, Products, Note, Date and Status; while
 * the rental is ongoing (DELIVERED) the 'Request Fix' and 'Request Replace' buttons file new ones.
 */
function Requests({ order }: { order: Order }) {
  const [dialog, setDialog] = useState<RequestType | null>(null);
  const ongoing = acceptsRequests(order);
  return (
    <section aria-label="Requests" style={{ marginTop: 24 }}>
      <div style={{ display: 'flex', justifyContent: 'space-between', alignItems: 'center', gap: 12, flexWrap: 'wrap' }}>
        <SectionTitle>Requests</SectionTitle>
        {ongoing && (
          <Space wrap>
            <Button onClick={() => setDialog('FIX')}>Request Fix</Button>
            <Button onClick={() => setDialog('REPLACE')}>Request Replace</Button>
          </Space>
        )}
      </div>
      <ResponsiveTable<OrderRequest>
        rowKey="id"
        size="small"
        pagination={false}
        dataSource={order.requests}
        scroll={{ x: true }}
        locale={{ emptyText: <EmptyState description="No requests yet." /> }}
        columns={[
          { title: 'Type', dataIndex: 'type', render: (t: RequestType) => REQUEST_TYPE_LABELS[t] },
          {
            title: 'Products',
            key: 'products',
            render: (_: unknown, r: OrderRequest) => (
              <div style={{ display: 'flex', flexDirection: 'column' }}>
                {r.products.map((p) => (
                  <span key={p.lineID}>{lineLabel(p.productName, p.variantName, p.subVariantName)}</span>
                ))}
              </div>
            ),
          },
          { title: 'Note', dataIndex: 'userNote', render: (n: string) => n || '—' },
          { title: 'Date', dataIndex: 'createdAt', render: (d: string) => formatManilaDateTime(d) },
          { title: 'Status', dataIndex: 'status', render: (st: string) => <StatusTag kind="request" status={st} /> },
        ]}
      />
      {ongoing && dialog && <RequestDialog key={dialog} orderId={order.id} type={dialog} lines={order.products} open onClose={() => setDialog(null)} />}
    </section>
  );
}

/**
 * One of my orders: tracker, shipping, the proof of delivery (hand-overs at the door and their
 * tickets, issue 28), products (with their serial codes once packed, and due dates once a rental is
 * delivered), payment information and records; the order's QR once packed and the invoice once a
 * payment was taken (plain downloads: nothing heavy is loaded for them); cancel where allowed. A
 * rental also shows its due notice, its extensions ('Extend rental' while the order says it may be
 * extended) and its fix/replace requests; a rental billed per 30-day cycle, its billing cycles
 * from delivery (issue 29).
 */
export default function OrderDetailPage({ type }: { type: 'BUY' | 'RENT' }) {
  const { id = '' } = useParams();
  const navigate = useNavigate();
  const { notify, confirm } = useFeedback();
  const q = useMyOrderQuery(id);
  const [cancel, cancelling] = useCancelOrderMutation();
  // Back to the list as it was left (its tab), else to the list (issue 27).
  const back = useBackTo(type === 'RENT' ? '/orders/rentals' : '/orders/purchased');
  if (q.isLoading) return <Loading />;
  if (!loaded(q)) return <LazyErrorState title="This order could not be shown" message={errorMessage(q.error)} onRetry={q.refetch} />;
  const o = q.data.order;
  const rent = o.type === 'RENT';
  const packed = o.products.some((l) => l.serialCodes.length > 0);
  const due = rent && o.products.some((l) => l.dueDate !== null);

  const onCancel = async () => {
    if (!(await confirm({ title: 'Cancel this order?', content: 'The items go back to the shop.', okText: 'Yes, cancel', cancelText: 'No', danger: true }))) return;
    try {
      await cancel(o.id).unwrap();
      notify.success(ORDER_MESSAGES.cancelled);
    } catch (err) {
      notify.error('Cancel Order Error', errorMessage(err));
    }
  };

  return (
    <article>
      <RefreshFailed error={q.error} onRetry={() => void q.refetch()} />
      <PageHeader
        title={`Order ${o.orderNumber}`}
        extra={
          <Space>
            {rent && <ExtendRentalButton order={o} />}
            {o.allowedTransitions.includes('CANCELLED') && (
              <Button danger onClick={() => void onCancel()} loading={cancelling.isLoading}>
                Cancel Order
              </Button>
            )}
            <Button onClick={() => navigate(back)}>Back</Button>
          </Space>
        }
      />
      <Space size={16} style={{ marginBottom: 16 }} wrap>
        <span>{formatManilaDateTime(o.createdAt)}</span>
        <StatusTag kind="order" status={o.status} />
        {o.typeOfOrder === 'BULK' && <Tag>Bulk</Tag>}
      </Space>
      {rent && o.dueNotice && <Alert showIcon type={o.dueNotice === 'OVERDUE' ? 'error' : 'warning'} title={DUE_NOTICE_TEXT[o.dueNotice]} style={{ marginBottom: 16 }} />}
      <div style={{ display: 'grid', gridTemplateColumns: 'repeat(auto-fit, minmax(300px, 1fr))', gap: 24, marginBottom: 24 }}>
        <section aria-label="Order Tracker">
          <SectionTitle>Order Tracker</SectionTitle>
          <Timeline
            items={o.orderTracker.map((t) => ({
              content: (
                <div>
                  <strong>{t.title}</strong>
                  <div style={{ color: 'rgba(0,0,0,0.55)' }}>{formatManilaDateTime(t.createdAt)}</div>
                </div>
              ),
              color: t.status === 'CANCELLED' ? 'red' : 'blue',
            }))}
          />
        </section>
        <ShippingInformation order={o} />
        <HandoverSection order={o} base="/api/my/orders" />
        <PaymentSummary order={o} />
        <QrBlock order={o} src={`/api/my/orders/${o.id}/qr.png`} download="link" framed gap={12} />
      </div>
      <section aria-label="Products">
        <SectionTitle>Products</SectionTitle>
        <OrderLinesTable<OrderLine>
          lines={o.products}
          rowKey="id"
          rent={rent}
          image={(l) => l.productImage}
          name={(l) => ({ product: l.productName, variant: l.variant?.name, subVariant: l.subVariant?.name })}
          rentalDays={{ title: 'Rental Duration', render: (l) => (l.noOfRentalDays === null ? '—' : days(l.noOfRentalDays)) }}
          prices={{ unit: (l) => l.productAmount, total: (l) => l.lineTotal }}
          after={[
            ...(rent ? [{ title: 'Start Date', dataIndex: 'startDate', render: (d: string | null) => (d === null ? '—' : formatBusinessDate(d)) }] : []),
            ...(due ? [{ title: 'Due Date', dataIndex: 'dueDate', render: (d: string | null) => (d === null ? '—' : formatBusinessDate(d)) }] : []),
            ...(packed
              ? [{
                  title: 'Serial Codes',
                  key: 'serialCodes',
                  render: (_: unknown, l: OrderLine) =>
                    l.serialCodes.length ? (
                      <Space wrap size={4}>
                        {l.serialCodes.map((c) =>
                          isReturned(c) ? (
                            <Space key={c.serialCode} size={4}>
                              <Tag color="green">{c.serialCode} RETURNED</Tag>
                              {c.updatedAt && <span style={{ color: 'rgba(0,0,0,0.6)' }}>{formatManilaDateTime(c.updatedAt)}</span>}
                            </Space>
                          ) : (
                            <Tag key={c.serialCode}>{c.serialCode}</Tag>
                          ),
                        )}
                      </Space>
                    ) : (
                      '—'
                    ),
                }]
              : []),
          ]}
        />
      </section>
      <OrderCycles order={o} style={{ marginTop: 24 }} />
      <PaymentRecords order={o} />
      {rent && <Extensions order={o} />}
      {rent && <Requests order={o} />}
    </article>
  );
}
