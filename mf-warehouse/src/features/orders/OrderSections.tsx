import { useState } from 'react';
import { Alert, Button, Descriptions, Image, Space, Table, Tag } from 'antd';
import { formatManilaDateTime, manilaDate, RENTAL_MESSAGES } from '@dme/contracts/browser';
import type { Order, OrderLine } from '@dme/contracts';
import { useFeedback, StatusTag, SectionTitle } from '@dme/ui';
import { lineDone } from './packing';
import type { Packing } from './usePacking';
import { dateText, days, displayStatusColor, lineName, money, statusText } from './format';
import { SerialCodeCell } from './RentalSteps';

/**
 * The sections of a staff order detail (SPEC §2 "Staff order detail screens"), shared by the
 * order detail and the ongoing rental detail.
 */

/** A status tag as the ongoing rentals show it: a DELIVERED rental is ON GOING, green like delivered (SPEC §4). */
export function DisplayStatusTag({ status }: { status: string }) {
  return <Tag color={displayStatusColor(status)}>{statusText(status)}</Tag>;
}

/** 'Has to due products' or 'Some products are due for return today.' (SPEC §8) for a delivered rental. */
export function DueNoticeAlert({ order }: { order: Order }) {
  if (!order.dueNotice) return null;
  const title = order.dueNotice === 'OVERDUE' ? RENTAL_MESSAGES.hasDueProducts : RENTAL_MESSAGES.dueToday;
  return <Alert type="warning" showIcon style={{ marginBottom: 16 }} title={title} />;
}

/** The order's QR (payload orderID and orderNumber) and a Download QR button saving QR_Code.png. */
export function QrBlock({ order }: { order: Order }) {
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
      <SectionTitle>QR Code</SectionTitle>
      <div style={{ display: 'grid', justifyItems: 'start', gap: 8 }}>
        <img src={src} alt={`QR code of order ${order.orderNumber}`} width={160} height={160} />
        <Button onClick={() => void download()} loading={saving}>
          Download QR
        </Button>
      </div>
    </section>
  );
}

export { CustomerInformation, ShippingInformation } from '@dme/ui';

/** A rental line's due date, with a hint while the items are still with the customer. */
function DueDateCell({ order, line }: { order: Order; line: OrderLine }) {
  if (!line.dueDate) return <span style={{ color: 'rgba(0,0,0,0.6)' }}>—</span>;
  const out = order.status === 'DELIVERED' || order.status === 'FOR_RETURN';
  const today = manilaDate();
  return (
    <Space size={4} wrap>
      <span>{dateText(line.dueDate)}</span>
      {out && line.dueDate < today && <Tag color="red">Overdue</Tag>}
      {out && line.dueDate === today && <Tag color="orange">Due today</Tag>}
    </Space>
  );
}

/**
 * The products of an order: image, name, quantity, (rental days and, once delivered, due date),
 * price, total and serial codes. While packing, the serial column scans; in FOR_PICK_UP it
 * inspects the returns.
 */
export function ProductsTable({ order, packing, onScan }: { order: Order; packing?: Packing; onScan?: (lineID: string) => void }) {
  const rent = order.type === 'RENT';
  const delivered = rent && (order.deliveredAt !== null || order.products.some((l) => l.dueDate !== null));
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
        ...(delivered ? [{ title: 'Due Date', key: 'dueDate', render: (_: unknown, l: OrderLine) => <DueDateCell order={order} line={l} /> }] : []),
        { title: rent ? 'Price / day' : 'Price', dataIndex: 'productAmount', align: 'right' as const, render: (v: string) => money(v) },
        { title: 'Total', dataIndex: 'lineTotal', align: 'right' as const, render: (v: string) => money(v) },
        {
          title: 'Serial Codes',
          key: 'serials',
          render: (_: unknown, l: OrderLine) =>
            packing && onScan ? <PackingCell line={l} packing={packing} onScan={onScan} /> : <AssignedSerials order={order} line={l} />,
        },
      ]}
    />
  );
}

function AssignedSerials({ order, line }: { order: Order; line: OrderLine }) {
  if (line.serialCodes.length === 0) return <span style={{ color: 'rgba(0,0,0,0.6)' }}>—</span>;
  return (
    <div style={{ display: 'grid', gap: 6, justifyItems: 'start' }}>
      {line.serialCodes.map((s) => (
        <SerialCodeCell key={s.serialCode} order={order} line={line} serial={s} />
      ))}
    </div>
  );
}

function PackingCell({ line, packing, onScan }: { line: OrderLine; packing: Packing; onScan: (lineID: string) => void }) {
  const codes = packing.scans[line.id] ?? [];
  const done = lineDone(line, packing.scans);
  return (
    <div style={{ display: 'grid', gap: 6, justifyItems: 'start' }}>
      <Space size={8}>
        {packing.loading ? (
          <span role="status">Loading the scanned codes…</span>
        ) : packing.loadError ? (
          <span style={{ color: 'rgba(0,0,0,0.6)' }}>—</span>
        ) : (
          <span data-testid={`scanned-${line.id}`}>
            {codes.length} / {line.quantity} scanned
          </span>
        )}
        {done && <Tag color="green">Done</Tag>}
      </Space>
      {codes.length > 0 && (
        <Space wrap size={4}>
          {codes.map((c) => (
            <Tag key={c}>{c}</Tag>
          ))}
        </Space>
      )}
      <Button size="small" onClick={() => onScan(line.id)} aria-label={`Scan ${lineName(line)}`} disabled={packing.loading || packing.loadError !== undefined}>
        Scan
      </Button>
    </div>
  );
}

export function PaymentInformation({ order }: { order: Order }) {
  const p = order.payment;
  const rent = order.type === 'RENT';
  const paid = p.records.length > 0;
  return (
    <section aria-label="Payment Information">
      <SectionTitle>Payment Information</SectionTitle>
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
