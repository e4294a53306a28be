import { Link, useParams } from 'react-router-dom';
import { Space, Tag } from 'antd';
import { formatManilaDateTime } from '@dme/contracts/browser';
import type { DriverScanPurpose, OrderLine } from '@dme/contracts';
import { errorMessage, loaded } from '@dme/api-client';
import { CustomerInformation, LazyErrorState, LazyInfoResult, Loading, OrderLinesTable, OrderTracker, PageHeader, ShippingInformation, StatusTag, SectionTitle, RefreshFailed } from '@dme/ui';
import { useDriverOrderQuery } from './api';
import { PURPOSE } from './purpose';

/** A driver's read-only order detail (SPEC §2 DRIVER), from GET /api/driver/orders/:id. */
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
    </article>
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
