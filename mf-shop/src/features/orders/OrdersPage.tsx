import { useMemo } from 'react';
import { Link } from 'react-router-dom';
import { Alert, Button } from 'antd';
import { formatManilaDateTime, PURCHASE_ORDER_STATUSES, RENTAL_ORDER_STATUSES } from '@dme/contracts/browser';
import type { OrderStatus, OrderSummary } from '@dme/contracts';
import { errorMessage, listBusy } from '@dme/api-client';
import { FilterTabs, EmptyState, LazyErrorState, money, PageHeader, ResponsiveTable, StatusTag, uniqueRows, useListAddress } from '@dme/ui';
import { useMyOrdersInfiniteQuery } from './api';

const label = (s: string) => s.replace(/_/g, ' ').replace(/\b\w/g, (c) => c.toUpperCase()).replace(/\B\w+/g, (w) => w.toLowerCase());

/**
 * My purchased or rental orders, in tabs by status (SPEC §2); tables are not paginated: 100 orders
 * are loaded and "Load more" brings the next 100. A tab opens with its first 100 again; a change
 * of an order (live updates too) reloads the pages shown, from the first.
 */
export default function OrdersPage({ type }: { type: 'BUY' | 'RENT' }) {
  const statuses: OrderStatus[] = [...(type === 'RENT' ? RENTAL_ORDER_STATUSES : PURCHASE_ORDER_STATUSES), 'CANCELLED'];
  // The tab is in the address (?status=DELIVERED): back from an order, or a reload, keeps it (issue 27).
  const address = useListAddress(statuses, 'status');
  const status = address.tab;
  const from = address.backState;
  // Opening a tab (or the page) loads its first page afresh, not the pages loaded on a past visit.
  const q = useMyOrdersInfiniteQuery({ type, status }, { refetchOnMountOrArgChange: true, refetchCachedPages: false });
  // currentData: the rows of this tab only (never the previous tab's while this one loads).
  const data = q.currentData;
  const rows = useMemo(() => uniqueRows(data?.pages), [data]);
  const total = data?.pages.at(-1)?.total ?? 0;
  // Each tab's count, from the server's last answer (live updates reload it).
  const counts = q.data?.pages.at(-1)?.counts;
  const base = type === 'RENT' ? '/orders/rentals' : '/orders/purchased';
  // A failed "Load more" retries that page; a failed reload of the pages shown reloads them all.
  const retry = () => void (q.isFetchNextPageError ? q.fetchNextPage() : q.refetch({ refetchCachedPages: true }));
  return (
    <section>
      <PageHeader title={type === 'RENT' ? 'Rental Orders' : 'Purchased Orders'} />
      <FilterTabs label="Order status" active={status} onChange={(k) => address.go({ tab: k })} items={statuses.map((s) => ({ key: s, label: label(s), count: counts ? (counts[s] ?? 0) : undefined }))}>
      {q.error && !data ? (
        <LazyErrorState message={errorMessage(q.error)} onRetry={retry} />
      ) : (
        <>
          <ResponsiveTable<OrderSummary>
            rowKey="id"
            loading={listBusy(q)}
            dataSource={rows}
            pagination={false}
            locale={{ emptyText: <EmptyState description={`No ${label(status).toLowerCase()} orders.`} /> }}
            columns={[
              // The order number opens the order too (issue 27: on a phone it is the card's first line).
              {
                title: 'Order Number',
                dataIndex: 'orderNumber',
                render: (n: string, o: OrderSummary) => (
                  <Link to={`${base}/${o.id}`} state={from}>
                    {n}
                  </Link>
                ),
              },
              { title: 'Date', dataIndex: 'createdAt', render: (d: string) => formatManilaDateTime(d) },
              { title: 'Status', dataIndex: 'status', render: (s: string) => <StatusTag kind="order" status={s} /> },
              { title: 'Total', dataIndex: 'totalAmount', align: 'right', render: (v: string) => money(v) },
              {
                title: 'Action',
                key: 'view',
                render: (_: unknown, o: OrderSummary) => (
                  <Link to={`${base}/${o.id}`} state={from} aria-label={`View ${o.orderNumber}`}>
                    View
                  </Link>
                ),
              },
            ]}
          />
          {q.error ? (
            <Alert
              type="error"
              showIcon
              style={{ marginTop: 16 }}
              title={q.isFetchNextPageError ? 'More orders could not be loaded' : 'The orders could not be refreshed'}
              description={errorMessage(q.error)}
              action={
                <Button size="small" onClick={retry} loading={q.isFetching}>
                  Retry
                </Button>
              }
            />
          ) : (
            q.hasNextPage && (
              <div style={{ display: 'flex', gap: 12, alignItems: 'center', justifyContent: 'center', marginTop: 16 }}>
                <span style={{ color: 'rgba(0,0,0,0.6)' }}>
                  Showing {rows.length} of {Math.max(total, rows.length)}
                </span>
                <Button onClick={() => void q.fetchNextPage()} loading={q.isFetchingNextPage}>
                  Load more
                </Button>
              </div>
            )
          )}
        </>
      )}
      </FilterTabs>
    </section>
  );
}
