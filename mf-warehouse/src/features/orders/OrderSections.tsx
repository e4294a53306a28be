import { Alert, Button, Space, Tag } from 'antd';
import { dueNotice, rentalRecordLabel, formatManilaDateTime, manilaDate, RENTAL_MESSAGES } from '@dme/contracts/browser';
import type { Order, OrderLine, OrderPayment } from '@dme/contracts';
import { days, Money, OrderLinesTable, PaymentInfoBlock, paymentRows, ResponsiveTable } from '@dme/ui';
import { lineDone } from './packing';
import type { Packing } from './usePacking';
import { dateText } from '../../lib/rentalStatus';
import { lineName } from './format';
import { SerialCodeCell } from './RentalSteps';
import { WaiveLateFeesButton } from './WaiveLateFees';

/**
 * The sections of a staff order detail (SPEC §2 "Staff order detail screens"), shared by the
 * order detail and the ongoing rental detail.
 */

/** 'Has to due products' or 'Some products are due for return today.' (SPEC §8) for a delivered rental. */
export function DueNoticeAlert({ order }: { order: Order }) {
  if (!order.dueNotice) return null;
  const title = order.dueNotice === 'OVERDUE' ? RENTAL_MESSAGES.hasDueProducts : RENTAL_MESSAGES.dueToday;
  return <Alert type="warning" showIcon style={{ marginBottom: 16 }} title={title} />;
}

export { CustomerInformation, ShippingInformation } from '@dme/ui';

/** A rental line's due date, with a hint while the items are still with the customer. */
function DueDateCell({ order, line }: { order: Order; line: OrderLine }) {
  if (!line.dueDate) return <span style={{ color: 'rgba(0,0,0,0.6)' }}>—</span>;
  // The line's own notice, by the terms rule of the order's (contracts dueNotice).
  const notice = dueNotice(order.status, [line.dueDate], manilaDate());
  return (
    <Space size={4} wrap>
      <span>{dateText(line.dueDate)}</span>
      {notice === 'OVERDUE' && <Tag color="red">Overdue</Tag>}
      {notice === 'DUE_TODAY' && <Tag color="orange">Due today</Tag>}
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
    <OrderLinesTable<OrderLine>
      lines={order.products}
      rowKey="id"
      rent={rent}
      image={(l) => l.productImage}
      name={(l) => ({ product: l.productName, variant: l.variant?.name, subVariant: l.subVariant?.name })}
      rentalDays={{ title: 'Rental Days', render: (l) => (l.noOfRentalDays ? days(l.noOfRentalDays) : '—') }}
      beforePrices={delivered ? [{ title: 'Due Date', key: 'dueDate', render: (_: unknown, l: OrderLine) => <DueDateCell order={order} line={l} /> }] : []}
      prices={{ unit: (l) => l.productAmount, total: (l) => l.lineTotal }}
      after={[
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

/** A payment record's name: the initial or full payment, or issue 29's (a billing cycle's, a buy-out). */
function recordLabel(r: Pick<OrderPayment['records'][number], 'type' | 'cycle'>): string {
  return rentalRecordLabel(r) ?? (r.type === 'PARTIAL' ? 'Initial payment' : 'Full payment');
}

/**
 * The payment's status, amounts and records. A rental's money terms (issue 29) too: its deposit,
 * the late fees so far with the most days late (net of waivers, with what was waived, and
 * 'Waive late fees' while they are counted), and at the full payment the late fees charged,
 * the deposit applied to the charges and what is refunded of it.
 */
export function PaymentInformation({ order }: { order: Order }) {
  const p = order.payment;
  const paid = p.records.length > 0;
  return (
    <PaymentInfoBlock
      column={{ xs: 1, md: 2 }}
      style={{ marginBottom: 12 }}
      rows={paymentRows(order, { audience: 'staff', dateText, lateFeesAction: <WaiveLateFeesButton order={order} /> })}
    >
      {paid ? (
        <>
          <ResponsiveTable
            rowKey={(r) => `${r.invoiceNumber}-${r.receiptNumber}-${r.createdAt}`}
            pagination={false}
            size="small"
            dataSource={p.records}
            scroll={{ x: true }}
            columns={[
              { title: 'Type', dataIndex: 'type', render: (_: unknown, r: OrderPayment['records'][number]) => recordLabel(r) },
              { title: 'Invoice Number', dataIndex: 'invoiceNumber' },
              { title: 'Receipt Number', dataIndex: 'receiptNumber' },
              { title: 'Amount', dataIndex: 'amount', align: 'right' as const, render: (v: string) => <Money value={v} /> },
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
    </PaymentInfoBlock>
  );
}
