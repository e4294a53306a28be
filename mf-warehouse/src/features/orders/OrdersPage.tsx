import { useMemo } from 'react';
import { Link } from 'react-router-dom';
import { Button } from 'antd';
import { formatManilaDateTime, PURCHASE_ORDER_STATUSES, RENTAL_ORDER_STATUSES } from '@dme/contracts/browser';
import type { OrderStatus, OrderSummary, OrderType } from '@dme/contracts';
import { errorMessage, listBusy } from '@dme/api-client';
import { FilterTabs, EmptyState, LazyErrorState, PageHeader, SearchBox, StatusTag, uniqueRows, useListAddress, ResponsiveTable } from '@dme/ui';
import { useStaffOrdersInfiniteQuery } from './api';
import { ordersBase, statusLabel } from './format';

/** The spec's tabs per order type, and CANCELLED (DESIGN §5) last so cancelled orders can be found. */
export function orderTabs(type: OrderType): OrderStatus[] {
  return [...(type === 'RENT' ? RENTAL_ORDER_STATUSES : PURCHASE_ORDER_STATUSES), 'CANCELLED'];
}

/**
 * Staff lists of purchased or rental orders, in tabs by status (SPEC §2). The tab and the search
 * are in the address (?status=PREPARING&search=...), so reload and back keep them. Tables are not
 * paginated: 100 orders are loaded and "Load more" brings the next 100.
 */
export default function OrdersPage({ type }: { type: OrderType }) {
  const address = useListAddress(orderTabs(type), 'status');
  const { tab: status, search } = address;
  const base = ordersBase(type);

  const q = useStaffOrdersInfiniteQuery({ type, status, ...(search ? { search } : {}) });
  // Offsets shift when orders change status between pages: an order is shown once.
  const rows = useMemo(() => uniqueRows(q.data?.pages), [q.data]);
  const total = q.data?.pages.at(-1)?.total ?? 0;
  // Each tab's count for this search, from the server's last answer (live updates reload it).
  const counts = q.data?.pages.at(-1)?.counts;

  return (
    <section>
      <PageHeader
        title={type === 'RENT' ? 'Rental Orders' : 'Purchased Orders'}
        extra={
          <SearchBox key={search} defaultValue={search} label="Search orders" placeholder="Order number or customer name" onSearch={(v) => address.go({ search: v.trim() })} />
        }
      />
      <FilterTabs
        label="Order status"
        active={status}
        onChange={(k) => address.go({ tab: k })}
        items={orderTabs(type).map((s) => ({ key: s, label: statusLabel(s), count: counts ? (counts[s] ?? 0) : undefined }))}
      >
      {q.error ? (
        <LazyErrorState title="The orders could not be loaded" message={errorMessage(q.error)} onRetry={() => void q.refetch()} />
      ) : (
        <>
          <ResponsiveTable<OrderSummary>
            rowKey="id"
            loading={listBusy(q)}
            dataSource={rows}
            pagination={false}
            scroll={{ x: true }}
            locale={{ emptyText: <EmptyState description={search ? `No orders in this status match "${search}".` : 'No orders in this status.'} /> }}
            columns={[
              { title: 'Order Number', dataIndex: 'orderNumber' },
              { title: 'Date', dataIndex: 'createdAt', render: (d: string) => formatManilaDateTime(d) },
              { title: 'Customer', dataIndex: 'customerName', render: (n: string) => n || '—' },
              { title: 'Status', dataIndex: 'status', render: (s: string) => <StatusTag kind="order" status={s} /> },
              {
                title: 'Action',
                key: 'view',
                render: (_: unknown, o: OrderSummary) => (
                  <Link to={`${base}/${o.id}`} state={address.backState} aria-label={`View ${o.orderNumber}`}>
                    View
                  </Link>
                ),
              },
            ]}
          />
          {rows.length > 0 && (
            <div style={{ display: 'flex', gap: 12, alignItems: 'center', justifyContent: 'center', marginTop: 16 }}>
              <span style={{ color: 'rgba(0,0,0,0.6)' }}>
                Showing {rows.length} of {Math.max(total, rows.length)}
              </span>
              {q.hasNextPage && (
                <Button onClick={() => void q.fetchNextPage()} loading={q.isFetchingNextPage}>
                  Load more
                </Button>
              )}
            </div>
          )}
        </>
      )}
      </FilterTabs>
    </section>
  );
}
