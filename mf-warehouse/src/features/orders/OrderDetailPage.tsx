import { useState } from 'react';
import { Navigate, useNavigate, useParams } from 'react-router-dom';
import { Alert, Button, Descriptions, Image, Space, Table, Tag } from 'antd';
import { formatManilaDateTime, type Order, type OrderLine, type OrderType } from '@dme/contracts';
import { errorMessage } from '@dme/api-client';
import { EmptyState, LazyErrorState, Loading, OrderTracker, PageHeader, StatusTag, useFeedback } from '@dme/ui';
import { useStaffOrderQuery, useTransitionOrderMutation } from '../../api';
import { allLinesDone, lineDone, packingRequest } from './packing';
import { usePacking, type Packing } from './usePacking';
import { PackingDialog } from './PackingDialog';
import { dateText, days, lineName, money, ordersBase, showsQr } from './format';

/** Ours: the spec asks for a confirmation prompt but gives no text. */
export const CONFIRM_ORDER_PROMPT = 'Confirm this order? The customer will be asked to pay.';

/** Staff order detail (SPEC §2 "Staff order detail screens"), with the steps the order lists for the caller. */
export default function OrderDetailPage({ type }: { type: OrderType }) {
  const { id = '' } = useParams();
  // One page per order: scans made for one order never show on another.
  return <OrderDetail key={id} id={id} type={type} />;
}

function OrderDetail({ id, type }: { id: string; type: OrderType }) {
  const navigate = useNavigate();
  const { notify, confirm } = useFeedback();
  const q = useStaffOrderQuery(id);
  const [transition, transitioning] = useTransitionOrderMutation();
  const packing = usePacking();
  const [scanLineID, setScanLineID] = useState<string>();
  const [shipError, setShipError] = useState<string>();

  if (q.isLoading) return <Loading />;
  if (q.error || !q.data) return <LazyErrorState title="This order could not be loaded" message={errorMessage(q.error)} onRetry={() => void q.refetch()} />;
  const o = q.data.order;
  if (o.type !== type) return <Navigate replace to={`${ordersBase(o.type)}/${o.id}`} />;

  const can = (to: Order['allowedTransitions'][number]) => o.allowedTransitions.includes(to);
  const canConfirm = o.status === 'PENDING' && can('FOR_PAYMENT');
  const canCancel = can('CANCELLED');
  const canPack = o.status === 'PREPARING' && can('TO_SHIP');
  const packed = canPack && allLinesDone(o.products, packing.scans);
  const scanLine = canPack ? o.products.find((l) => l.id === scanLineID) : undefined;

  const onConfirm = async () => {
    if (!(await confirm({ title: CONFIRM_ORDER_PROMPT, okText: 'Confirm', cancelText: 'No' }))) return;
    try {
      await transition({ id: o.id, body: { to: 'FOR_PAYMENT' } }).unwrap();
      notify.success('Order confirmed: waiting for payment.');
    } catch (err) {
      notify.error('Confirm Order Error', errorMessage(err));
    }
  };

  const onCancel = async () => {
    if (!(await confirm({ title: 'Cancel this order?', content: 'Its items go back to the stock.', okText: 'Yes, cancel', cancelText: 'No', danger: true }))) return;
    try {
      await transition({ id: o.id, body: { to: 'CANCELLED' } }).unwrap();
      notify.success('Order cancelled.');
    } catch (err) {
      notify.error('Cancel Order Error', errorMessage(err));
    }
  };

  const onShip = async () => {
    setShipError(undefined);
    try {
      await transition({ id: o.id, body: packingRequest(o.products, packing.scans) }).unwrap();
      packing.clear();
      notify.success('Order packed: ready to ship.');
    } catch (err) {
      setShipError(errorMessage(err));
    }
  };

  return (
    <article>
      <PageHeader
        title={`Order ${o.orderNumber}`}
        extra={
          <Space wrap>
            {canConfirm && (
              <Button type="primary" onClick={() => void onConfirm()} loading={transitioning.isLoading}>
                Confirm Order
              </Button>
            )}
            {canPack && (
              <Button type="primary" disabled={!packed} onClick={() => void onShip()} loading={transitioning.isLoading}>
                To Ship Order
              </Button>
            )}
            {canCancel && (
              <Button danger onClick={() => void onCancel()} disabled={transitioning.isLoading}>
                Cancel Order
              </Button>
            )}
            <Button onClick={() => navigate(`${ordersBase(o.type)}?status=${o.status}`)}>Back</Button>
          </Space>
        }
      />
      <Space size={16} style={{ marginBottom: 16 }} wrap>
        <span>{formatManilaDateTime(o.createdAt)}</span>
        <StatusTag kind="order" status={o.status} />
        <Tag>{o.type === 'RENT' ? 'Rental' : 'Purchased'}</Tag>
        {o.typeOfOrder === 'BULK' && <Tag>Bulk</Tag>}
      </Space>

      <div style={{ display: 'grid', gridTemplateColumns: 'repeat(auto-fit, minmax(280px, 1fr))', gap: 24, marginBottom: 24 }}>
        {showsQr(o.status) && <QrBlock order={o} />}
        <section aria-label="Order Tracker">
          <h4>Order Tracker</h4>
          <OrderTracker entries={o.orderTracker} />
        </section>
        <CustomerInformation order={o} />
        <section aria-label="Shipping Information">
          <h4>Shipping Information</h4>
          <Descriptions column={1} size="small" bordered>
            <Descriptions.Item label="Address">{o.deliveryAddress}</Descriptions.Item>
            <Descriptions.Item label="City">{o.deliveryCity}</Descriptions.Item>
            <Descriptions.Item label="State">{o.deliveryState}</Descriptions.Item>
            <Descriptions.Item label="Zipcode">{o.deliveryZipcode}</Descriptions.Item>
            <Descriptions.Item label="Note">{o.note || '—'}</Descriptions.Item>
          </Descriptions>
        </section>
      </div>

      <section aria-label="Products" style={{ marginBottom: 24 }}>
        <h4>Products</h4>
        {canPack && (
          <Alert
            type={packed ? 'success' : 'info'}
            showIcon
            style={{ marginBottom: 12 }}
            title={packed ? "Every line is scanned: send the order with 'To Ship Order'." : "Scan the serial-code label of every item, line by line. 'To Ship Order' is enabled when every line is fully scanned."}
          />
        )}
        {shipError && <Alert type="error" showIcon closable onClose={() => setShipError(undefined)} style={{ marginBottom: 12 }} title={shipError} />}
        <ProductsTable order={o} packing={canPack ? packing : undefined} onScan={setScanLineID} />
      </section>

      <PaymentInformation order={o} />

      {o.type === 'RENT' && (
        <section aria-label="Requests" style={{ marginTop: 24 }}>
          <h4>Requests</h4>
          <Table
            rowKey="id"
            pagination={false}
            dataSource={[]}
            locale={{ emptyText: <EmptyState description="No requests yet." /> }}
            columns={[
              { title: 'Type', dataIndex: 'type' },
              { title: 'Status', dataIndex: 'status' },
              { title: 'Products', dataIndex: 'products' },
              { title: 'Note', dataIndex: 'userNote' },
              { title: 'Date', dataIndex: 'createdAt' },
            ]}
          />
        </section>
      )}

      {scanLine && <PackingDialog line={scanLine} packing={packing} onClose={() => setScanLineID(undefined)} />}
    </article>
  );
}

/** The order's QR (payload orderID and orderNumber) and a Download QR button saving QR_Code.png. */
function QrBlock({ order }: { order: Order }) {
  const { notify } = useFeedback();
  const [saving, setSaving] = useState(false);
  const src = `/api/orders/${order.id}/qr.png`;
  const download = async () => {
    setSaving(true);
    try {
      const res = await fetch(src, { credentials: 'same-origin' });
      if (!res.ok) throw new Error(`QR answer ${res.status}`);
      const url = URL.createObjectURL(await res.blob());
      const a = document.createElement('a');
      a.href = url;
      a.download = 'QR_Code.png';
      document.body.append(a);
      a.click();
      a.remove();
      setTimeout(() => URL.revokeObjectURL(url), 10_000);
    } catch (err) {
      // SPEC §8: a QR failure is logged; the person is told too, so the click does not seem lost.
      console.error('Order QR download failed', err);
      notify.toastError('The QR code could not be downloaded. Please try again.');
    } finally {
      setSaving(false);
    }
  };
  return (
    <section aria-label="QR Code">
      <h4>QR Code</h4>
      <div style={{ display: 'grid', justifyItems: 'start', gap: 8 }}>
        <img src={src} alt={`QR code of order ${order.orderNumber}`} width={160} height={160} />
        <Button onClick={() => void download()} loading={saving}>
          Download QR
        </Button>
      </div>
    </section>
  );
}

function CustomerInformation({ order }: { order: Order }) {
  const c = order.customer;
  return (
    <section aria-label="Customer Information">
      <h4>Customer Information</h4>
      {c ? (
        <Descriptions column={1} size="small" bordered>
          <Descriptions.Item label="Customer Number">{c.idNumber}</Descriptions.Item>
          <Descriptions.Item label="First Name">{c.firstName}</Descriptions.Item>
          <Descriptions.Item label="Middle Name">{c.middleName || '—'}</Descriptions.Item>
          <Descriptions.Item label="Last Name">{c.lastName}</Descriptions.Item>
          <Descriptions.Item label="Suffix">{c.suffix || '—'}</Descriptions.Item>
          <Descriptions.Item label="Contact Number">{c.contactNumber}</Descriptions.Item>
          <Descriptions.Item label="Email">{c.email}</Descriptions.Item>
        </Descriptions>
      ) : (
        <p style={{ color: 'rgba(0,0,0,0.6)' }}>The customer's details are not available.</p>
      )}
    </section>
  );
}

function ProductsTable({ order, packing, onScan }: { order: Order; packing?: Packing; onScan: (lineID: string) => void }) {
  const rent = order.type === 'RENT';
  return (
    <Table<OrderLine>
      rowKey="id"
      pagination={false}
      dataSource={order.products}
      scroll={{ x: true }}
      columns={[
        { title: 'Image', dataIndex: 'productImage', render: (src: string, l: OrderLine) => <Image src={src} alt={l.productName} width={48} preview={false} /> },
        {
          title: 'Name',
          key: 'name',
          render: (_: unknown, l: OrderLine) => (
            <Space wrap size={4}>
              {l.productName}
              {l.variant && <Tag>{l.variant.name}</Tag>}
              {l.subVariant && <Tag>{l.subVariant.name}</Tag>}
            </Space>
          ),
        },
        { title: 'Quantity', dataIndex: 'quantity', align: 'right' as const },
        ...(rent ? [{ title: 'Rental Days', dataIndex: 'noOfRentalDays', render: (d: number | null) => (d ? days(d) : '—') }] : []),
        { title: rent ? 'Price / day' : 'Price', dataIndex: 'productAmount', align: 'right' as const, render: (v: string) => money(v) },
        { title: 'Total', dataIndex: 'lineTotal', align: 'right' as const, render: (v: string) => money(v) },
        {
          title: 'Serial Codes',
          key: 'serials',
          render: (_: unknown, l: OrderLine) => (packing ? <PackingCell line={l} packing={packing} onScan={onScan} /> : <AssignedSerials line={l} />),
        },
      ]}
    />
  );
}

function AssignedSerials({ line }: { line: OrderLine }) {
  if (line.serialCodes.length === 0) return <span style={{ color: 'rgba(0,0,0,0.6)' }}>—</span>;
  return (
    <Space wrap size={4}>
      {line.serialCodes.map((s) => (
        <Tag key={s.serialCode}>
          {s.serialCode}
          {s.status ? ` · ${s.status.replace(/_/g, ' ')}` : ''}
        </Tag>
      ))}
    </Space>
  );
}

function PackingCell({ line, packing, onScan }: { line: OrderLine; packing: Packing; onScan: (lineID: string) => void }) {
  const codes = packing.scans[line.id] ?? [];
  const done = lineDone(line, packing.scans);
  return (
    <div style={{ display: 'grid', gap: 6, justifyItems: 'start' }}>
      <Space size={8}>
        <span data-testid={`scanned-${line.id}`}>
          {codes.length} / {line.quantity} scanned
        </span>
        {done && <Tag color="green">Done</Tag>}
      </Space>
      {codes.length > 0 && (
        <Space wrap size={4}>
          {codes.map((c) => (
            <Tag key={c}>{c}</Tag>
          ))}
        </Space>
      )}
      <Button size="small" onClick={() => onScan(line.id)} aria-label={`Scan ${lineName(line)}`}>
        Scan
      </Button>
    </div>
  );
}

function PaymentInformation({ order }: { order: Order }) {
  const p = order.payment;
  const rent = order.type === 'RENT';
  const paid = p.records.length > 0;
  return (
    <section aria-label="Payment Information">
      <h4>Payment Information</h4>
      <Descriptions column={{ xs: 1, md: 2 }} size="small" bordered style={{ marginBottom: 12 }}>
        <Descriptions.Item label="Status">
          <StatusTag kind="payment" status={p.status} />
        </Descriptions.Item>
        <Descriptions.Item label="Total Order Payment">{money(p.totalOrderPayment)}</Descriptions.Item>
        {rent && p.totalPartialPayment !== null && <Descriptions.Item label="Partial Payment (first day)">{money(p.totalPartialPayment)}</Descriptions.Item>}
        {p.extraCharge !== null && <Descriptions.Item label="Extra Charges">{money(p.extraCharge)}</Descriptions.Item>}
        {p.overallTotal !== null && <Descriptions.Item label="Overall Total">{money(p.overallTotal)}</Descriptions.Item>}
        {p.balance !== null && <Descriptions.Item label="Balance">{money(p.balance)}</Descriptions.Item>}
        {p.dueDate && <Descriptions.Item label="Due Date">{dateText(p.dueDate)}</Descriptions.Item>}
      </Descriptions>
      {paid ? (
        <>
          <Table
            rowKey={(r) => `${r.invoiceNumber}-${r.receiptNumber}-${r.createdAt}`}
            pagination={false}
            size="small"
            dataSource={p.records}
            scroll={{ x: true }}
            columns={[
              { title: 'Type', dataIndex: 'type', render: (t: string) => (t === 'PARTIAL' ? 'Initial payment' : 'Full payment') },
              { title: 'Invoice Number', dataIndex: 'invoiceNumber' },
              { title: 'Receipt Number', dataIndex: 'receiptNumber' },
              { title: 'Amount', dataIndex: 'amount', align: 'right' as const, render: (v: string) => money(v) },
              { title: 'Note', dataIndex: 'note', render: (n: string) => n || '—' },
              { title: 'Date', dataIndex: 'createdAt', render: (d: string) => formatManilaDateTime(d) },
            ]}
          />
          <p style={{ marginTop: 12 }}>
            <a href={`/api/orders/${order.id}/invoice.pdf`} target="_blank" rel="noreferrer">
              Download invoice
            </a>
          </p>
        </>
      ) : (
        <p style={{ color: 'rgba(0,0,0,0.6)' }}>No payment has been taken yet.</p>
      )}
    </section>
  );
}
