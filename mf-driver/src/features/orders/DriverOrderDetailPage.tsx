import { Link, useParams } from 'react-router-dom';
import { Space, Tag } from 'antd';
import { formatManilaDateTime, HANDOVER_FROM, HANDOVER_OUTCOME_LABELS, HANDOVER_RELATION_LABELS } from '@dme/contracts/browser';
import type { DriverScanPurpose, Handover, OrderLine } from '@dme/contracts';
import { errorMessage, loaded } from '@dme/api-client';
import { CustomerInformation, LazyErrorState, LazyInfoResult, Loading, OrderLinesTable, OrderTracker, PageHeader, ShippingInformation, StatusTag, SectionTitle, RefreshFailed } from '@dme/ui';
import { useDriverOrderQuery } from './api';
import { handoverPath, LEG_LABELS, PURPOSE } from './purpose';

/**
 * A driver's read-only order detail (SPEC §2 DRIVER), from GET /api/driver/orders/:id. An order at
 * the step of this screen (out for delivery, for return) links to its hand-over (issue 28); the
 * hand-overs recorded so far are listed.
 */
export default function DriverOrderDetailPage({ purpose }: { purpose: DriverScanPurpose }) {
  const { id = '' } = useParams();
  const texts = PURPOSE[purpose];
  const q = useDriverOrderQuery(id);
  const back = <Link to={texts.base}>Back to {texts.title}</Link>;

  if (q.isLoading) return <Loading />;
  if (q.error && (q.error as { status?: unknown }).status === 404) {
    return (
      <section>
        <LazyInfoResult title="Order not found" subTitle="There is no such order, or it is not one you deliver or pick up." />
        <p style={{ textAlign: 'center' }}>{back}</p>
      </section>
    );
  }
  if (!loaded(q)) return <LazyErrorState title="This order could not be loaded" message={errorMessage(q.error)} onRetry={() => void q.refetch()} />;
  const o = q.data.order;

  return (
    <article>
      <RefreshFailed error={q.error} onRetry={() => void q.refetch()} />
      <PageHeader title={`Order ${o.orderNumber}`} extra={back} />
      {o.status === HANDOVER_FROM[purpose] && (
        <Link to={handoverPath(purpose, o.id)} style={PRIMARY_LINK}>
          Record hand-over
        </Link>
      )}
      <Space size={16} style={{ marginBottom: 16 }} wrap>
        <span>{formatManilaDateTime(o.createdAt)}</span>
        <StatusTag kind="order" status={o.status} />
        <Tag>{o.type === 'RENT' ? 'Rental' : 'Purchased'}</Tag>
        {o.typeOfOrder === 'BULK' && <Tag>Bulk</Tag>}
      </Space>

      <div style={{ display: 'grid', gridTemplateColumns: 'repeat(auto-fit, minmax(280px, 1fr))', gap: 24, marginBottom: 24 }}>
        <section aria-label="Order Tracker">
          <SectionTitle>Order Tracker</SectionTitle>
          <OrderTracker entries={o.orderTracker} />
        </section>
        <CustomerInformation order={o} />
        <ShippingInformation order={o} />
      </div>

      <section aria-label="Products">
        <SectionTitle>Products</SectionTitle>
        <OrderLinesTable<OrderLine>
          lines={o.products}
          rowKey="id"
          rent={o.type === 'RENT'}
          name={(l) => ({ product: l.productName, variant: l.variant?.name, subVariant: l.subVariant?.name })}
          after={[{ title: 'Serial Codes', key: 'serials', render: (_: unknown, l: OrderLine) => <SerialCodes line={l} /> }]}
        />
      </section>
      {o.handovers.length > 0 && <Handovers handovers={o.handovers} />}
    </article>
  );
}

/** A link drawn as the primary button (the theme's colour), full width on a phone, 48 px high. */
const PRIMARY_LINK = {
  display: 'flex',
  alignItems: 'center',
  justifyContent: 'center',
  boxSizing: 'border-box',
  width: '100%',
  maxWidth: 360,
  minHeight: 48,
  padding: '0 16px',
  marginBottom: 16,
  borderRadius: 8,
  background: '#0b6e79',
  color: '#fff',
  fontSize: 16,
  fontWeight: 500,
  textDecoration: 'none',
} as const;

/** The hand-overs at the door (issue 28), oldest first: made and attempted, by leg and attempt. */
function Handovers({ handovers }: { handovers: Handover[] }) {
  return (
    <section aria-label="Hand-overs">
      <SectionTitle>Hand-overs</SectionTitle>
      <ul style={{ listStyle: 'none', padding: 0, margin: 0, display: 'grid', gap: 12 }}>
        {handovers.map((h) => (
          <li key={h.id} style={{ border: '1px solid #f0f0f0', borderRadius: 8, padding: 12, overflowWrap: 'anywhere' }}>
            <div style={{ fontWeight: 600 }}>
              {LEG_LABELS[h.leg]} · attempt {h.attempt}: {HANDOVER_OUTCOME_LABELS[h.outcome]}
            </div>
            {h.recipientName && (
              <div>
                Signed by {h.recipientName}
                {h.relation ? ` (${HANDOVER_RELATION_LABELS[h.relation]})` : ''}
              </div>
            )}
            {h.reason && <div>Reason: {h.reason}</div>}
            <div style={{ color: 'rgba(0,0,0,0.65)' }}>
              {formatManilaDateTime(h.signedAt)} · {h.driverName}
            </div>
          </li>
        ))}
      </ul>
    </section>
  );
}

/** The serial codes packed for a line; a code marked at the return inspection shows RETURNED (SPEC §4). */
function SerialCodes({ line }: { line: OrderLine }) {
  if (line.serialCodes.length === 0) return <span style={{ color: 'rgba(0,0,0,0.6)' }}>—</span>;
  return (
    <Space wrap size={4}>
      {line.serialCodes.map((s) => (
        <Tag key={s.serialCode} color={s.status ? 'green' : undefined}>
          {s.serialCode}
          {s.status ? ' · RETURNED' : ''}
        </Tag>
      ))}
    </Space>
  );
}
