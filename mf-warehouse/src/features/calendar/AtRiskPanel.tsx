import { Alert, Button, Tag } from 'antd';
import type { AtRiskBooking } from '@dme/contracts';
import { formatBusinessDate, formatManilaDateTime, isIsoDate, STOCK_STATUS_LABELS } from '@dme/contracts/browser';
import { errorMessage } from '@dme/api-client';
import { EmptyState, LazyErrorState, Loading, SectionTitle, ResponsiveTable } from '@dme/ui';
import { useBookingsAtRiskQuery } from './api';

/** Ours (issue 25): the texts of the at-risk panel. */
export const AT_RISK_TEXTS = {
  title: 'Bookings at risk',
  empty: 'No booking is at risk: every unit out is due back in time, and every unit booked can serve.',
  pack: (serialCode: string) => `Pack ${serialCode} instead`,
  noUnit: 'No other unit free: call the customer',
  /** Why the booking's unit cannot serve it: still out past its due date, or out of service (issue 26). */
  why: (r: Pick<AtRiskBooking, 'reason' | 'unitStatus' | 'overdueOrderNumber'>) =>
    r.reason === 'OUT_OF_SERVICE'
      ? `Unit ${STOCK_STATUS_LABELS[r.unitStatus ?? 'DAMAGED'].toLowerCase()}`
      : `Overdue${r.overdueOrderNumber ? ` from ${r.overdueOrderNumber}` : ''}`,
  summary: (n: number) =>
    `${n} ${n === 1 ? 'booking starts' : 'bookings start'} while ${n === 1 ? 'its unit is' : 'their units are'} still out past the due date or out of service.`,
} as const;

/** A business day (YYYY-MM-DD) as the calendar writes it; an instant in Manila time. */
const day = (d: string) => (isIsoDate(d) ? formatBusinessDate(d) : formatManilaDateTime(d));

/**
 * The bookings an overdue unit puts at risk (issue 25), over every rental product: the unit they
 * hold is still out with another customer past its due date, into their days. Each row says which
 * other unit to pack instead, or that none is free and the customer is to be called; the order
 * opens like a booking of the calendar does.
 */
export function AtRiskPanel({ onOpen }: { onOpen: (orderID: string) => void }) {
  const q = useBookingsAtRiskQuery();
  const items = q.data?.items ?? [];
  return (
    <section aria-labelledby="at-risk-title" data-testid="at-risk" style={{ marginBottom: 16 }}>
      <SectionTitle id="at-risk-title">{AT_RISK_TEXTS.title}</SectionTitle>
      {q.error ? (
        <LazyErrorState title="The bookings at risk could not be loaded" message={errorMessage(q.error)} onRetry={() => void q.refetch()} />
      ) : !q.data ? (
        <Loading />
      ) : (
        <>
          {items.length > 0 && <Alert type="warning" showIcon style={{ marginBottom: 12 }} title={AT_RISK_TEXTS.summary(items.length)} />}
          <ResponsiveTable<AtRiskBooking>
            rowKey="bookingID"
            size="small"
            pagination={false}
            dataSource={items}
            scroll={{ x: true }}
            locale={{ emptyText: <EmptyState description={AT_RISK_TEXTS.empty} /> }}
            columns={[
              {
                title: 'Order',
                key: 'order',
                render: (_: unknown, r: AtRiskBooking) => (
                  <Button type="link" size="small" style={{ padding: 0 }} onClick={() => onOpen(r.orderID)}>
                    {r.orderNumber ?? 'Open order'}
                  </Button>
                ),
              },
              { title: 'Customer', dataIndex: 'customerName', render: (c: string | null) => c ?? '—' },
              { title: 'Product', dataIndex: 'productName' },
              { title: 'Unit', dataIndex: 'serialCode' },
              { title: 'Start', dataIndex: 'start', render: day },
              { title: 'Since', dataIndex: 'overdueSince', render: day },
              { title: 'Why', key: 'why', render: (_: unknown, r: AtRiskBooking) => AT_RISK_TEXTS.why(r) },
              {
                title: 'Suggestion',
                key: 'suggestion',
                render: (_: unknown, r: AtRiskBooking) =>
                  r.suggestion ? <Tag color="green">{AT_RISK_TEXTS.pack(r.suggestion.serialCode)}</Tag> : <Tag color="red">{AT_RISK_TEXTS.noUnit}</Tag>,
              },
            ]}
          />
        </>
      )}
    </section>
  );
}
