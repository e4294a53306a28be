import { useState } from 'react';
import { Link } from 'react-router-dom';
import { Table, Tabs } from 'antd';
import { formatManilaDateTime, PURCHASE_ORDER_STATUSES, RENTAL_ORDER_STATUSES, type OrderStatus, type OrderSummary } from '@dme/contracts';
import { errorMessage } from '@dme/api-client';
import { money } from '../../lib/money';
import { EmptyState, LazyErrorState, PageHeader, StatusTag } from '@dme/ui';
import { useMyOrdersQuery } from '../../api';

const label = (s: string) => s.replace(/_/g, ' ').replace(/\b\w/g, (c) => c.toUpperCase()).replace(/\B\w+/g, (w) => w.toLowerCase());

/** My purchased or rental orders, in tabs by status (SPEC §2); tables are not paginated. */
export default function OrdersPage({ type }: { type: 'BUY' | 'RENT' }) {
  const statuses: OrderStatus[] = [...(type === 'RENT' ? RENTAL_ORDER_STATUSES : PURCHASE_ORDER_STATUSES), 'CANCELLED'];
  const [status, setStatus] = useState<OrderStatus>('PENDING');
  const q = useMyOrdersQuery({ type, status });
  const base = type === 'RENT' ? '/orders/rentals' : '/orders/purchased';
  return (
    <section>
      <PageHeader title={type === 'RENT' ? 'Rental Orders' : 'Purchased Orders'} />
      <Tabs activeKey={status} onChange={(k) => setStatus(k as OrderStatus)} items={statuses.map((s) => ({ key: s, label: label(s) }))} />
      {q.error ? (
        <LazyErrorState message={errorMessage(q.error)} onRetry={q.refetch} />
      ) : (
        <Table<OrderSummary>
          rowKey="id"
          loading={q.isLoading || q.isFetching}
          dataSource={q.data?.items ?? []}
          pagination={false}
          locale={{ emptyText: <EmptyState description={`No ${label(status).toLowerCase()} orders.`} /> }}
          columns={[
            { title: 'Order Number', dataIndex: 'orderNumber' },
            { title: 'Date', dataIndex: 'createdAt', render: (d: string) => formatManilaDateTime(d) },
            { title: 'Status', dataIndex: 'status', render: (s: string) => <StatusTag kind="order" status={s} /> },
            { title: 'Total', dataIndex: 'totalAmount', align: 'right', render: (v: string) => money(v) },
            { title: '', key: 'view', render: (_: unknown, o: OrderSummary) => <Link to={`${base}/${o.id}`}>View</Link> },
          ]}
        />
      )}
    </section>
  );
}
