import { Link } from 'react-router-dom';
import { formatManilaDateTime, ONGOING_RENTAL_TAB_LABELS, ONGOING_RENTAL_TABS } from '@dme/contracts/browser';
import type { OngoingRental } from '@dme/contracts';
import { errorMessage, listBusy } from '@dme/api-client';
import { CycleCounts, FilterTabs, EmptyState, LazyErrorState, money, PageHeader, SearchBox, useListAddress, ResponsiveTable } from '@dme/ui';
import { useOngoingRentalsQuery } from './api';
import { dateText, DisplayStatusTag, ONGOING_BASE } from '../../lib/rentalStatus';

export const ONGOING_PAGE_SIZE = 20;

/**
 * Ongoing rentals (SPEC §2 /admin/ongoing-rentals): tabs Ongoing, Due Date, For Return and Picked
 * up, each a filter of the server. Tab, search and page are in the address
 * (?tab=DUE_DATE&search=...&page=2), so reload and back keep them.
 */
export default function OngoingRentalsPage() {
  const address = useListAddress(ONGOING_RENTAL_TABS, 'tab');
  const { tab, search, page, go } = address;

  const q = useOngoingRentalsQuery({ tab, ...(search ? { search } : {}), limit: ONGOING_PAGE_SIZE, offset: (page - 1) * ONGOING_PAGE_SIZE });
  const rows = q.data?.items ?? [];
  const total = q.data?.total ?? 0;
  // Each tab's count for this search (the last answer's, kept while the next one loads).
  const counts = q.data?.counts;

  return (
    <section>
      <PageHeader
        title="Ongoing Rentals"
        extra={
          <SearchBox key={search} defaultValue={search} label="Search rentals" placeholder="Order number or customer name" onSearch={(v) => go({ search: v.trim() })} />
        }
      />
      <FilterTabs
        label="Rentals"
        active={tab}
        onChange={(k) => go({ tab: k })}
        items={ONGOING_RENTAL_TABS.map((t) => ({ key: t, label: ONGOING_RENTAL_TAB_LABELS[t], count: counts?.[t], attention: t === 'DUE_DATE' }))}
      >
      {q.error ? (
        <LazyErrorState title="The rentals could not be loaded" message={errorMessage(q.error)} onRetry={() => void q.refetch()} />
      ) : (
        <ResponsiveTable<OngoingRental>
          rowKey="id"
          loading={listBusy(q)}
          dataSource={rows}
          scroll={{ x: true }}
          pagination={{
            current: page,
            pageSize: ONGOING_PAGE_SIZE,
            total,
            showSizeChanger: false,
            hideOnSinglePage: true,
            showTotal: (n, [from, to]) => `${from}–${to} of ${n}`,
            onChange: (p) => go({ page: p }),
          }}
          locale={{ emptyText: <EmptyState description={search ? `No rentals in this tab match "${search}".` : 'No rentals in this tab.'} /> }}
          columns={[
            { title: 'Order Number', dataIndex: 'orderNumber' },
            { title: 'Customer Name', dataIndex: 'customerName', render: (n: string) => n || '—' },
            { title: 'Date', dataIndex: 'createdAt', render: (d: string) => formatManilaDateTime(d) },
            { title: 'Status', dataIndex: 'displayStatus', render: (s: string) => <DisplayStatusTag status={s} /> },
            { title: 'Initial Payment', dataIndex: 'initialPayment', align: 'right' as const, render: (v: string | null) => (v === null ? '—' : money(v)) },
            { title: 'Due Date', dataIndex: 'dueDate', render: (d: string | null) => (d ? dateText(d) : '—') },
            // Issue 29: a rental billed by cycles, how many are paid and due.
            { title: 'Cycles', dataIndex: 'cycles', render: (c: OngoingRental['cycles']) => <CycleCounts cycles={c} /> },
            {
              title: 'Action',
              key: 'view',
              render: (_: unknown, o: OngoingRental) => (
                <Link to={`${ONGOING_BASE}/${o.id}`} state={address.backState} aria-label={`View ${o.orderNumber}`}>
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
