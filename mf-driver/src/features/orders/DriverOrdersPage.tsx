import { lazy, Suspense, useMemo, useState } from 'react';
import { Link } from 'react-router-dom';
import { Button } from 'antd';
import type { DriverScanPurpose, OrderSummary } from '@dme/contracts';
import { errorMessage, listBusy } from '@dme/api-client';
import { EmptyState, LazyErrorState, PageHeader, StatusTag, uniqueRows, ResponsiveTable } from '@dme/ui';
import { useDriverOrdersInfiniteQuery } from './api';
import { PURPOSE } from './purpose';

// The dialog (antd Modal, the camera scanner) is fetched when the driver opens it.
const ScanDialog = lazy(() => import('./ScanDialog'));

/** View is a touch target (≥ 44 px) in the phone card too, where the Action column comes last. */
const TOUCH_LINK = { display: 'inline-flex', alignItems: 'center', justifyContent: 'center', minHeight: 44, minWidth: 44 } as const;

/**
 * For Delivery and For Pickup (SPEC §2 DRIVER): a Scan Order button opening the QR scanner, and
 * the driver's orders out for delivery (or for pick-up). The list refreshes after each scan and
 * when an order changes elsewhere (live updates). 100 orders are loaded, "Load more" brings more.
 */
export function DriverOrdersPage({ purpose }: { purpose: DriverScanPurpose }) {
  const texts = PURPOSE[purpose];
  const [scanning, setScanning] = useState(false);
  const q = useDriverOrdersInfiniteQuery(purpose);
  // Offsets shift when orders change status between pages: an order is shown once.
  const rows = useMemo(() => uniqueRows(q.data?.pages), [q.data]);
  const total = q.data?.pages.at(-1)?.total ?? 0;

  return (
    <section>
      <PageHeader
        title={texts.title}
        extra={
          <Button type="primary" onClick={() => setScanning(true)}>
            Scan Order
          </Button>
        }
      />
      {q.error ? (
        <LazyErrorState title="The orders could not be loaded" message={errorMessage(q.error)} onRetry={() => void q.refetch()} />
      ) : (
        <>
          <ResponsiveTable<OrderSummary>
            rowKey="id"
            aria-label={texts.listLabel}
            loading={listBusy(q)}
            dataSource={rows}
            pagination={false}
            scroll={{ x: true }}
            locale={{ emptyText: <EmptyState description={texts.empty} /> }}
            columns={[
              { title: 'Order Number', dataIndex: 'orderNumber' },
              // The customer's number (CUS-…) as people read it, never the internal id.
              { title: 'Customer ID', dataIndex: 'customerNumber', render: (n?: string) => n || '—' },
              { title: 'Customer Name', dataIndex: 'customerName', render: (n: string) => n || '—' },
              { title: 'Status', dataIndex: 'status', render: (s: string) => <StatusTag kind="order" status={s} /> },
              {
                title: 'Action',
                key: 'view',
                render: (_: unknown, o: OrderSummary) => (
                  <Link to={`${texts.base}/${o.id}`} aria-label={`View ${o.orderNumber}`} style={TOUCH_LINK}>
                    View
                  </Link>
                ),
              },
            ]}
          />
          {rows.length > 0 && (q.hasNextPage || total > rows.length) && (
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
      {scanning && (
        <Suspense fallback={null}>
          <ScanDialog purpose={purpose} onClose={() => setScanning(false)} />
        </Suspense>
      )}
    </section>
  );
}
