import { useMemo } from 'react';
import { Link, useLocation, useNavigate } from 'react-router-dom';
import { Button, Input, Table } from 'antd';
import { formatManilaDateTime, PURCHASE_ORDER_STATUSES, RENTAL_ORDER_STATUSES } from '@dme/contracts/browser';
import type { OrderStatus, OrderSummary, OrderType } from '@dme/contracts';
import { errorMessage } from '@dme/api-client';
import { FilterTabs, EmptyState, LazyErrorState, PageHeader, StatusTag, uniqueRows } from '@dme/ui';
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
  const location = useLocation();
  const navigate = useNavigate();
  const tabs = orderTabs(type);
  const params = new URLSearchParams(location.search);
  const asked = params.get('status');
  const status: OrderStatus = tabs.find((s) => s === asked) ?? 'PENDING';
  const search = (params.get('search') ?? '').trim();
  const base = ordersBase(type);

  const go = (next: { status: OrderStatus; search: string }) => {
    const p = new URLSearchParams({ status: next.status });
    if (next.search) p.set('search', next.search);
    navigate({ search: `?${p.toString()}` });
  };

  const q = useStaffOrdersInfiniteQuery({ type, status, ...(search ? { search } : {}) });
  // Offsets shift when orders change status between pages: an order is shown once.
  const rows = useMemo(() => uniqueRows(q.data?.pages), [q.data]);
  const total = q.data?.pages.at(-1)?.total ?? 0;

  return (
    <section>
      <PageHeader
        title={type === 'RENT' ? 'Rental Orders' : 'Purchased Orders'}
        extra={
          <Input.Search
            key={search}
            defaultValue={search}
            allowClear
            aria-label="Search orders"
            placeholder="Order number or customer name"
            style={{ width: 300 }}
            onSearch={(v) => go({ status, search: v.trim() })}
          />
        }
      />
      <FilterTabs label="Order status" active={status} onChange={(k) => go({ status: k, search })} items={tabs.map((s) => ({ key: s, label: statusLabel(s) }))}>
      {q.error ? (
        <LazyErrorState title="The orders could not be loaded" message={errorMessage(q.error)} onRetry={() => void q.refetch()} />
      ) : (
        <>
          <Table<OrderSummary>
            rowKey="id"
            loading={q.isLoading || (q.isFetching && !q.isFetchingNextPage)}
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
                  <Link to={`${base}/${o.id}`} aria-label={`View ${o.orderNumber}`}>
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
