import type { CSSProperties } from 'react';
import { Space, Tag } from 'antd';
import { CYCLE_DAYS, formatBusinessDate, manilaDate } from '@dme/contracts/browser';
import type { OngoingRental, Order, RentalCycle } from '@dme/contracts';
import { Money } from '../money';
import { ResponsiveTable } from '../ResponsiveTable';
import { SectionTitle } from '../SectionTitle';
import { EmptyState } from '../states';

/** Ours (issue 29): a rental's billing cycles, on the payment detail and the order pages. */
export const BILLING_CYCLES_TITLE = 'Billing cycles';
export const CYCLES_BEFORE_DELIVERY = 'Cycles start on the delivery day.';

/** How cycles are billed: every 30 days from delivery, with its day once delivered. */
export const cyclesBilledText = (deliveredOn: string | null) =>
  `Billed every ${CYCLE_DAYS} days from delivery${deliveredOn ? ` (delivered ${formatBusinessDate(deliveredOn)})` : ''}`;

/** A cycle's state in words and its tag colour: paid green, due red, upcoming plain. */
export const CYCLE_STATES: Record<RentalCycle['state'], { label: string; color?: string }> = {
  PAID: { label: 'Paid', color: 'green' },
  DUE: { label: 'Due', color: 'red' },
  UPCOMING: { label: 'Upcoming' },
  CLOSED: { label: 'Closed' },
};

/** A cycle's days, from – to. */
export const cycleDaysText = (c: Pick<RentalCycle, 'from' | 'to'>) => `${formatBusinessDate(c.from)} – ${formatBusinessDate(c.to)}`;

/** A cycle in words, with its days: "Cycle 2: Mar 31, 2026 – Apr 29, 2026". */
export const cycleDueText = (c: Pick<RentalCycle, 'n' | 'from' | 'to'>) => `Cycle ${c.n}: ${cycleDaysText(c)}`;

/** How many of a rental's cycles are paid, of how many: "1 of 2 paid". */
export const cyclesPaidText = (c: { paid: number; count: number }) => `${c.paid} of ${c.count} paid`;

/** How many of a rental's cycles are due: "1 due". */
export const cyclesDueText = (due: number) => `${due} due`;

/** The day (Manila) an order was delivered, or null before its delivery: the first cycle's day. */
export const deliveredOnOf = (deliveredAt: string | null) => (deliveredAt ? manilaDate(new Date(deliveredAt)) : null);

export interface CyclesTableProps {
  /** Its cycles from delivery, as the server computes them (none before delivery). */
  cycles: readonly RentalCycle[];
  /** The day it was delivered (YYYY-MM-DD), null before. */
  deliveredOn: string | null;
  style?: CSSProperties;
}

/**
 * A rental billed per 30-day cycle (issue 29): how it is billed, and its cycles from delivery,
 * each with its days, due day, rent and state; before delivery, that cycles start then. One home
 * for the payment detail (accounting) and the order pages (warehouse, customer).
 */
export function CyclesTable({ cycles, deliveredOn, style }: CyclesTableProps) {
  return (
    <section aria-label={BILLING_CYCLES_TITLE} style={style}>
      <SectionTitle>{BILLING_CYCLES_TITLE}</SectionTitle>
      <p>{cyclesBilledText(deliveredOn)}</p>
      {cycles.length === 0 ? (
        <EmptyState description={CYCLES_BEFORE_DELIVERY} />
      ) : (
        <ResponsiveTable<RentalCycle>
          rowKey="n"
          size="small"
          pagination={false}
          dataSource={[...cycles]}
          scroll={{ x: true }}
          columns={[
            { title: 'Cycle', dataIndex: 'n' },
            { title: 'Days', key: 'days', render: (_: unknown, c: RentalCycle) => cycleDaysText(c) },
            { title: 'Due on', dataIndex: 'dueOn', render: (d: string) => formatBusinessDate(d) },
            { title: 'Rent', dataIndex: 'amount', align: 'right', render: (v: string) => <Money value={v} /> },
            { title: 'Status', dataIndex: 'state', render: (s: RentalCycle['state']) => <Tag color={CYCLE_STATES[s].color}>{CYCLE_STATES[s].label}</Tag> },
          ]}
        />
      )}
    </section>
  );
}

/** An order's billing cycles (`CyclesTable`) and its rent-to-own (`RentToOwnTable`) when it is billed by cycles; nothing for an upfront one. */
export function OrderCycles({ order, style }: { order: Pick<Order, 'billing' | 'cycles' | 'deliveredAt'> & Partial<Pick<Order, 'rentToOwn'>>; style?: CSSProperties }) {
  if (order.billing !== 'CYCLES') return null;
  return (
    <>
      <CyclesTable cycles={order.cycles} deliveredOn={deliveredOnOf(order.deliveredAt)} style={style} />
      {order.rentToOwn && order.rentToOwn.length > 0 && <RentToOwnTable lines={order.rentToOwn} style={style} />}
    </>
  );
}

/** Ours (issue 29): rent-to-own on the order pages. */
export const RENT_TO_OWN_TITLE = 'Rent-to-own';
/** Where a line stands towards ownership: the customer's, or its paid cycles of those it takes. */
export const ownershipText = (l: Pick<Order['rentToOwn'][number], 'owned' | 'cyclesPaid' | 'afterCycles'>) =>
  l.owned ? 'Yours' : `${l.cyclesPaid} of ${l.afterCycles} cycles paid`;

/**
 * Rent-to-own of a rental billed by cycles (issue 29), per line that offers it: the rent its paid
 * cycles cover, the share credited, what buying it out costs now, and how far it is from being
 * the customer's — as the server computes them.
 */
export function RentToOwnTable({ lines, style }: { lines: Order['rentToOwn']; style?: CSSProperties }) {
  type Line = Order['rentToOwn'][number];
  return (
    <section aria-label={RENT_TO_OWN_TITLE} style={style}>
      <SectionTitle>{RENT_TO_OWN_TITLE}</SectionTitle>
      <ResponsiveTable<Line>
        rowKey="lineId"
        size="small"
        pagination={false}
        dataSource={[...lines]}
        scroll={{ x: true }}
        columns={[
          { title: 'Product', dataIndex: 'productName' },
          { title: 'Rent paid', dataIndex: 'rentPaid', align: 'right', render: (v: string) => <Money value={v} /> },
          { title: 'Rent credited', dataIndex: 'credited', align: 'right', render: (v: string) => <Money value={v} /> },
          { title: 'Buy-out price now', dataIndex: 'buyOut', align: 'right', render: (v: string, l: Line) => (l.owned ? '—' : <Money value={v} />) },
          { title: 'Ownership', key: 'owned', render: (_: unknown, l: Line) => (l.owned ? <Tag color="green">{ownershipText(l)}</Tag> : ownershipText(l)) },
        ]}
      />
    </section>
  );
}

/**
 * A rental's cycles in a list (the ongoing rentals): "1 of 2 paid" and, while some are due, a red
 * "1 due"; '—' for a rental not billed by cycles or not delivered yet.
 */
export function CycleCounts({ cycles }: { cycles: OngoingRental['cycles'] }) {
  if (!cycles) return <span>—</span>;
  return (
    <Space size={4} wrap>
      <span>{cyclesPaidText(cycles)}</span>
      {cycles.due > 0 && <Tag color="red">{cyclesDueText(cycles.due)}</Tag>}
    </Space>
  );
}
