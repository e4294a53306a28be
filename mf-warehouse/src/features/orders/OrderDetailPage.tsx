import { useState } from 'react';
import { Navigate, useNavigate, useParams } from 'react-router-dom';
import { Alert, Button, Space, Tag } from 'antd';
import { formatManilaDateTime } from '@dme/contracts/browser';
import type { Order, OrderType } from '@dme/contracts';
import { errorMessage, loaded } from '@dme/api-client';
import { HandoverSection, LazyErrorState, Loading, OrderCycles, OrderTracker, PageHeader, QrBlock, StatusTag, useBackTo, useFeedback, SectionTitle, RefreshFailed } from '@dme/ui';
import { useStaffOrderQuery, useTransitionOrderMutation } from './api';
import { usePacking } from './usePacking';
import { PackingDialog, PackingLoadError } from './PackingDialog';
import { ordersBase } from './format';
import { CustomerInformation, DueNoticeAlert, PaymentInformation, ProductsTable, ShippingInformation } from './OrderSections';
import { RentalStepButtons, RentalStepHints, RequestsSection } from './RentalSteps';
import { EndRentalEarlyButton, ExtendRentalButton, Extensions } from './ExtendRental';
import { DriverAssignment } from './AssignDriver';
import { LateFeeWaivers } from './WaiveLateFees';

/** Ours: the spec asks for a confirmation prompt but gives no text. */
export const CONFIRM_ORDER_PROMPT = 'Confirm this order? The customer will be asked to pay.';

/**
 * Staff order detail (SPEC §2 "Staff order detail screens"), with the steps the order lists for the
 * caller, the driver it is assigned to ('Assign driver' while it waits for one) and the proof of
 * delivery once a driver recorded a hand-over (issue 28).
 */
export default function OrderDetailPage({ type }: { type: OrderType }) {
  const { id = '' } = useParams();
  // One page per order: the packing of one order never shows on another.
  return <OrderDetail key={id} id={id} type={type} />;
}

function OrderDetail({ id, type }: { id: string; type: OrderType }) {
  const navigate = useNavigate();
  // Back to the list as it was left (its tab and search: issue 27); opened from elsewhere, the tab of the order's status.
  const backFrom = useBackTo('');
  const { notify, confirm } = useFeedback();
  const q = useStaffOrderQuery(id);
  const [transition, transitioning] = useTransitionOrderMutation();
  // The scans of an order being packed are kept on the server (issue 22): loaded only while it can be packed.
  const packable = q.data?.order.status === 'PREPARING' && q.data.order.allowedTransitions.includes('TO_SHIP');
  const packing = usePacking(id, packable);
  const [scanLineID, setScanLineID] = useState<string>();
  const [shipError, setShipError] = useState<string>();

  if (q.isLoading) return <Loading />;
  if (!loaded(q)) return <LazyErrorState title="This order could not be loaded" message={errorMessage(q.error)} onRetry={() => void q.refetch()} />;
  const o = q.data.order;
  if (o.type !== type) return <Navigate replace to={`${ordersBase(o.type)}/${o.id}`} />;

  const can = (to: Order['allowedTransitions'][number]) => o.allowedTransitions.includes(to);
  const canConfirm = o.status === 'PENDING' && can('FOR_PAYMENT');
  const canCancel = can('CANCELLED');
  const canPack = packable;
  const packed = canPack && packing.complete;
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
      // The server packs the codes it kept for each line.
      await transition({ id: o.id, body: { to: 'TO_SHIP' } }).unwrap();
      notify.success('Order packed: ready to ship.');
    } catch (err) {
      setShipError(errorMessage(err));
      // Another packer may have changed the scans meanwhile.
      packing.reload();
    }
  };

  return (
    <article>
      <RefreshFailed error={q.error} onRetry={() => void q.refetch()} />
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
            <RentalStepButtons order={o} />
            {o.type === 'RENT' && <ExtendRentalButton order={o} />}
            {o.type === 'RENT' && <EndRentalEarlyButton order={o} />}
            {canCancel && (
              <Button danger onClick={() => void onCancel()} disabled={transitioning.isLoading}>
                Cancel Order
              </Button>
            )}
            <Button onClick={() => navigate(backFrom || `${ordersBase(o.type)}?status=${o.status}`)}>Back</Button>
          </Space>
        }
      />
      <Space size={16} style={{ marginBottom: 16 }} wrap>
        <span>{formatManilaDateTime(o.createdAt)}</span>
        <StatusTag kind="order" status={o.status} />
        <Tag>{o.type === 'RENT' ? 'Rental' : 'Purchased'}</Tag>
        {o.typeOfOrder === 'BULK' && <Tag>Bulk</Tag>}
      </Space>
      <DriverAssignment order={o} style={{ marginBottom: 16 }} />
      <DueNoticeAlert order={o} />
      <RentalStepHints order={o} />

      <div style={{ display: 'grid', gridTemplateColumns: 'repeat(auto-fit, minmax(280px, 1fr))', gap: 24, marginBottom: 24 }}>
        <QrBlock order={o} src={`/api/orders/${o.id}/qr.png`} download="fetch" />
        <section aria-label="Order Tracker">
          <SectionTitle>Order Tracker</SectionTitle>
          <OrderTracker entries={o.orderTracker} />
        </section>
        <CustomerInformation order={o} />
        <ShippingInformation order={o} />
        <HandoverSection order={o} base="/api/orders" />
      </div>

      <section aria-label="Products" style={{ marginBottom: 24 }}>
        <SectionTitle>Products</SectionTitle>
        {canPack && (
          <Alert
            type={packed ? 'success' : 'info'}
            showIcon
            style={{ marginBottom: 12 }}
            title={
              packed
                ? "Every line is scanned: send the order with 'To Ship Order'."
                : "Scan the serial-code label of every item, line by line. 'To Ship Order' is enabled when every line is fully scanned. Each scan is saved at once: packing can be continued later, here or on another device."
            }
          />
        )}
        {shipError && <Alert type="error" showIcon closable onClose={() => setShipError(undefined)} style={{ marginBottom: 12 }} title={shipError} />}
        {canPack && packing.loadError && <PackingLoadError packing={packing} style={{ marginBottom: 12 }} />}
        <ProductsTable order={o} packing={canPack ? packing : undefined} onScan={setScanLineID} />
      </section>

      <PaymentInformation order={o} />
      <OrderCycles order={o} style={{ marginTop: 24 }} />
      {o.type === 'RENT' && <LateFeeWaivers order={o} />}
      {o.type === 'RENT' && <Extensions order={o} />}

      {o.type === 'RENT' && <RequestsSection order={o} />}

      {scanLine && <PackingDialog line={scanLine} packing={packing} onClose={() => setScanLineID(undefined)} />}
    </article>
  );
}
