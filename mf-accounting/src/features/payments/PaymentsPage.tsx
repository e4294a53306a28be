import { useEffect, useState } from 'react';
import { Link, useLocation, useNavigate } from 'react-router-dom';
import { Input, Table } from 'antd';
import type { PaymentStatus, PaymentSummary } from '@dme/contracts';
import { errorMessage } from '@dme/api-client';
import { FilterTabs, EmptyState, LazyErrorState, money, PageHeader, StatusTag } from '@dme/ui';
import { usePaymentsQuery } from './api';
import { nextStepText, orderTypeLabel, PAYMENT_TABS } from './labels';

const PAGE = 20;

/** What the list shows, read from the address (?status=&search=&page=), so Back and links keep it. */
function readQuery(search: string) {
  const q = new URLSearchParams(search);
  const tab = PAYMENT_TABS.find((t) => t.status === q.get('status')) ?? PAYMENT_TABS[0]!;
  const page = Number.parseInt(q.get('page') ?? '1', 10);
  return { tab, search: (q.get('search') ?? '').trim(), page: Number.isSafeInteger(page) && page > 0 ? page : 1 };
}

function queryString(status: PaymentStatus, search: string, page: number) {
  const q = new URLSearchParams({ status });
  if (search) q.set('search', search);
  if (page > 1) q.set('page', String(page));
  return `?${q}`;
}

const COUNT_CSS = `
.dme-tab-count{display:inline-block;min-width:20px;margin-left:2px;padding:0 6px;border-radius:10px;background:#f0f0f0;color:rgba(0,0,0,.65);font-size:12px;line-height:20px;text-align:center;font-weight:400}
.dme-tab-count[data-attention=true]{background:#cf1322;color:#fff}
`;

/** A tab's label with the number of its payments (for the current search), once known. */
function tabLabel(t: (typeof PAYMENT_TABS)[number], counts: Partial<Record<PaymentStatus, number>> | undefined) {
  const n = counts?.[t.status];
  if (n === undefined) return t.label;
  return (
    <>
      {t.label}{' '}
      <span className="dme-tab-count" data-attention={t.status === 'REFUND_DUE' && n > 0}>
        {n}
      </span>
    </>
  );
}

/** Payments in tabs by status (SPEC §2, and Refund Due and Cancelled), searched by order number or customer name, with each tab's count. */
export function PaymentsPage() {
  const location = useLocation();
  const navigate = useNavigate();
  const { tab, search, page } = readQuery(location.search);
  const [text, setText] = useState(search);
  useEffect(() => setText(search), [search]);
  const { data, isLoading, isFetching, error, refetch } = usePaymentsQuery({
    status: tab.status,
    limit: PAGE,
    offset: (page - 1) * PAGE,
    ...(search ? { search } : {}),
  });
  const go = (status: PaymentStatus, s: string, p: number) => navigate({ search: queryString(status, s, p) });
  // The counts of the last answer stay on the tabs while the next one loads.
  const [counts, setCounts] = useState<Partial<Record<PaymentStatus, number>>>();
  useEffect(() => {
    if (data?.counts) setCounts(data.counts);
  }, [data?.counts]);
  const here = `${location.pathname}${location.search}`;

  return (
    <section>
      <style href="dme-payment-tab-count" precedence="dme">
        {COUNT_CSS}
      </style>
      <PageHeader
        title="Payments"
        extra={
          <Input.Search
            aria-label="Search payments"
            placeholder="Order number or customer name"
            allowClear
            value={text}
            onChange={(e) => setText(e.target.value)}
            onSearch={(v) => go(tab.status, v.trim(), 1)}
            style={{ width: 300 }}
          />
        }
      />
      <FilterTabs label="Payment status" active={tab.status} onChange={(k) => go(k, search, 1)} items={PAYMENT_TABS.map((t) => ({ key: t.status, label: tabLabel(t, counts) }))}>
      {error ? (
        <LazyErrorState title="The payments could not be loaded" message={errorMessage(error)} onRetry={refetch} />
      ) : (
        <Table<PaymentSummary>
          rowKey="id"
          loading={isLoading || isFetching}
          dataSource={data?.items ?? []}
          locale={{ emptyText: <EmptyState description={search ? 'No payments match your search.' : tab.empty} /> }}
          pagination={{ current: page, pageSize: PAGE, total: data?.total ?? 0, onChange: (p) => go(tab.status, search, p), showSizeChanger: false, hideOnSinglePage: true }}
          scroll={{ x: true }}
          columns={[
            { title: 'Order Number', dataIndex: 'orderNumber' },
            { title: 'Customer', dataIndex: 'customerName', render: (n: string) => n || '—' },
            { title: 'Type', dataIndex: 'orderType', render: orderTypeLabel },
            { title: 'Order Status', dataIndex: 'orderStatus', render: (s: string) => <StatusTag kind="order" status={s} /> },
            {
              title: 'Amount / Balance',
              key: 'amount',
              align: 'right',
              render: (_: unknown, p: PaymentSummary) => (
                <div>
                  <div>{money(p.totalOrderPayment)}</div>
                  {p.refundDue !== null ? (
                    <div style={{ color: '#cf1322', fontSize: 12 }}>Refund due {money(p.refundDue)}</div>
                  ) : (
                    <div style={{ color: 'rgba(0,0,0,0.55)', fontSize: 12 }}>Balance {money(p.balance)}</div>
                  )}
                </div>
              ),
            },
            { title: 'Payment Status', dataIndex: 'status', render: (s: string) => <StatusTag kind="payment" status={s} /> },
            { title: 'Next Step', key: 'next', render: (_: unknown, p: PaymentSummary) => nextStepText(p) ?? '—' },
            {
              title: 'Action',
              key: 'view',
              render: (_: unknown, p: PaymentSummary) => (
                <Link to={`/admin/payments/${p.id}`} state={{ from: here }}>
                  View
                </Link>
              ),
            },
          ]}
        />
      )}
      </FilterTabs>
    </section>
  );
}
