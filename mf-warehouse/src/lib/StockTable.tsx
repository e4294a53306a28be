import { Link } from 'react-router-dom';
import { Space, Tag } from 'antd';
import { formatBusinessDate, formatManilaDateTime } from '@dme/contracts/browser';
import type { StockItem, StockListResponse } from '@dme/contracts';
import { errorMessage } from '@dme/api-client';
import { EmptyState, LazyErrorState, StatusTag, ResponsiveTable } from '@dme/ui';
import { Truncated } from './Truncated';

/**
 * A unit's status, and whether something takes it today (issue 27): an AVAILABLE unit booked by a
 * rental placed and not packed yet shows Reserved with its order, so the rows agree with the
 * product's available count; a downtime shows too.
 */
function StockStatusCell({ item }: { item: StockItem }) {
  const r = item.reservedFor;
  return (
    <Space size={4} wrap>
      <StatusTag kind="stock" status={item.status} />
      {r && (
        <span>
          <Tag style={{ marginInlineEnd: 4 }}>{r.kind === 'ORDER' ? 'Reserved' : 'Downtime'}</Tag>
          {r.kind === 'ORDER' && r.orderID ? (
            <Link to={`/admin/orders/rentals/${r.orderID}`}>{r.orderNumber ? `for ${r.orderNumber}` : 'for an order'}</Link>
          ) : null}
          <span style={{ color: 'rgba(0,0,0,0.65)' }}> until {formatBusinessDate(r.until)}</span>
        </span>
      )}
    </Space>
  );
}

interface QueryLike {
  data?: StockListResponse;
  isLoading: boolean;
  isFetching: boolean;
  error?: unknown;
  refetch: () => unknown;
}

/** Stock items with status tags (SPEC §4), a QR download (QR_Code.png) and the batch's label sheet. */
export function StockTable({
  query,
  page,
  pageSize,
  onPage,
  qrPayload = 'serial',
  showProduct = false,
}: {
  query: QueryLike;
  page: number;
  pageSize: number;
  onPage: (p: number) => void;
  qrPayload?: 'serial' | 'id';
  showProduct?: boolean;
}) {
  if (query.error) return <LazyErrorState message={errorMessage(query.error)} onRetry={() => query.refetch()} />;
  return (
    <ResponsiveTable<StockItem>
      rowKey="id"
      size="middle"
      loading={query.isLoading || query.isFetching}
      dataSource={query.data?.items ?? []}
      locale={{ emptyText: <EmptyState description="No stock yet." /> }}
      pagination={{ current: page, pageSize, total: query.data?.total ?? 0, onChange: onPage, showSizeChanger: false }}
      scroll={{ x: true }}
      columns={[
        // A unit's page: its steps and whole history (issue 26).
        { title: 'Serial Code', dataIndex: 'serialCode', render: (s: string) => <Link to={`/admin/units/${encodeURIComponent(s)}`}><code>{s}</code></Link> },
        ...(showProduct ? [{ title: 'Product', dataIndex: 'productName', render: (n: string) => <Truncated text={n} /> }] : []),
        {
          title: 'Variant',
          key: 'variant',
          render: (_: unknown, s: StockItem) =>
            s.variantName ? <Truncated text={[s.variantName, s.subVariantName].filter(Boolean).join(' / ')} max={40} /> : '—',
        },
        { title: 'Warehouse Bin', key: 'bin', render: (_: unknown, s: StockItem) => s.warehouseBin.name },
        { title: 'Status', key: 'status', render: (_: unknown, s: StockItem) => <StockStatusCell item={s} /> },
        { title: 'Inventory', dataIndex: 'inventoryType' },
        { title: 'Added', dataIndex: 'createdAt', render: (d: string) => formatManilaDateTime(d) },
        {
          title: 'QR',
          key: 'qr',
          render: (_: unknown, s: StockItem) => (
            <Space>
              <a href={`/api/stocks/${s.id}/qr.png${qrPayload === 'id' ? '?payload=id' : ''}`} download="QR_Code.png" aria-label={`Download QR of ${s.serialCode}`}>
                Download QR
              </a>
              <a href={`/api/stock-batches/${s.batchID}/labels.pdf`} target="_blank" rel="noreferrer">
                Labels
              </a>
            </Space>
          ),
        },
      ]}
    />
  );
}
