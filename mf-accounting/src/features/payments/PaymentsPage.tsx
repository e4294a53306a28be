import { useEffect, useState } from 'react';
import { Link } from 'react-router-dom';
import type { PaymentStatus, PaymentSummary } from '@dme/contracts';
import { errorMessage, listBusy } from '@dme/api-client';
import { FilterTabs, EmptyState, LazyErrorState, money, PageHeader, SearchBox, StatusTag, useListAddress, ResponsiveTable } from '@dme/ui';
import { usePaymentsQuery } from './api';
import { nextStepText, orderTypeLabel, PAYMENT_TABS, REFUNDS_TAB } from './labels';

const PAGE = 20;
type TabKey = PaymentStatus | typeof REFUNDS_TAB.key;
const TABS: ReadonlyArray<{ key: TabKey; status: PaymentStatus | null; label: string; empty: string }> = [
  ...PAYMENT_TABS.map((t) => ({ ...t, key: t.status })),
  { ...REFUNDS_TAB, status: null },
];
const TAB_KEYS = TABS.map((t) => t.key);

/** Payments in tabs by status (SPEC §2, and Refund Due and Cancelled), searched by order number or customer name, with each tab's count. */
export function PaymentsPage() {
  const address = useListAddress(TAB_KEYS, 'status');
  const { search, page } = address;
  const tab = TABS.find((t) => t.key === address.tab)!;
  const [text, setText] = useState(search);
  useEffect(() => setText(search), [search]);
  const list = usePaymentsQuery({
    ...(tab.status ? { status: tab.status } : { refunds: 'DUE' as const }),
    limit: PAGE,
    offset: (page - 1) * PAGE,
    ...(search ? { search } : {}),
  });
  const { data, error, refetch } = list;
  // The counts of the last answer stay on the tabs while the next one loads.
  const [counts, setCounts] = useState<Partial<Record<TabKey, number>>>();
  useEffect(() => {
    if (data?.counts) setCounts({ ...data.counts, [REFUNDS_TAB.key]: data.refundsDue ?? 0 });
  }, [data?.counts, data?.refundsDue]);

  return (
    <section>
      <PageHeader
        title="Payments"
        extra={
          <SearchBox label="Search payments" placeholder="Order number or customer name" value={text} onChange={setText} onSearch={(v) => address.go({ search: v.trim() })} />
        }
      />
      <FilterTabs
        label="Payment status"
        active={tab.key}
        onChange={(k) => address.go({ tab: k })}
        items={TABS.map((t) => ({ key: t.key, label: t.label, count: counts?.[t.key], attention: t.key === 'REFUND_DUE' || t.key === REFUNDS_TAB.key }))}
      >
      {error ? (
        <LazyErrorState title="The payments could not be loaded" message={errorMessage(error)} onRetry={refetch} />
      ) : (
        <ResponsiveTable<PaymentSummary>
          rowKey="id"
          loading={listBusy(list)}
          dataSource={data?.items ?? []}
          locale={{ emptyText: <EmptyState description={search ? 'No payments match your search.' : tab.empty} /> }}
          pagination={{ current: page, pageSize: PAGE, total: data?.total ?? 0, onChange: (p) => address.go({ page: p }), showSizeChanger: false, hideOnSinglePage: true }}
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
                <Link to={`/admin/payments/${p.id}`} state={address.backState}>
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
