import { useState } from 'react';
import { Link } from 'react-router-dom';
import type { Notice } from '@dme/contracts';
import { useMyBookingNoticesQuery, useMyNoticesQuery } from './api';

/*
 * The customer's due notices on /dashboard (SPEC §8): 'Has to due products' for a rental with
 * products past due, 'Some products are due for return today.' for one due today, each linking to
 * the rental; a booking at risk (issue 25: its unit is overdue from the rental before); and a
 * recall concerning a unit the customer has (issue 26, a rental's or a purchase's). Plain elements, no antd: the dashboard stays antd-free (DESIGN §12). They show once
 * per visit of the page: a dismissed notice stays dismissed until the customer comes back.
 */

const STYLE: Record<Notice['kind'], { background: string; border: string; accent: string }> = {
  OVERDUE: { background: '#fff2f0', border: '#ffccc7', accent: '#a8071a' },
  DUE_TODAY: { background: '#fffbe6', border: '#ffe58f', accent: '#874d00' },
  AT_RISK: { background: '#fff7e6', border: '#ffd591', accent: '#873800' },
  RECALL: { background: '#fff2f0', border: '#ffa39e', accent: '#a8071a' },
};

const box = { display: 'flex', alignItems: 'center', gap: 12, padding: '8px 12px', borderRadius: 8, fontSize: 14, lineHeight: 1.5714, color: 'rgba(0,0,0,0.88)' } as const;
const plainButton = { background: 'transparent', border: 'none', cursor: 'pointer', fontSize: 14, padding: '2px 6px', color: 'rgba(0,0,0,0.65)' } as const;

const key = (n: Notice) => `${n.orderID}:${n.kind}`;

export function DueNotices() {
  const q = useMyNoticesQuery();
  // Bookings at risk (issue 25) come from the catalog; shown once they are known, after the due notices.
  const risk = useMyBookingNoticesQuery();
  const [dismissed, setDismissed] = useState<ReadonlySet<string>>(new Set());
  if (q.isLoading) return null;
  return (
    <NoticesView
      items={[...(q.data?.items ?? []), ...(risk.data?.items ?? [])].filter((n) => !dismissed.has(key(n)))}
      failed={!!q.error}
      onRetry={() => void q.refetch()}
      onDismiss={(n) => setDismissed((d) => new Set(d).add(key(n)))}
    />
  );
}

/** The notices shown (plain props: the server-rendered first screen draws them too). */
export function NoticesView({ items, failed, onRetry, onDismiss }: { items: Notice[]; failed: boolean; onRetry?: () => void; onDismiss?: (n: Notice) => void }) {
  if (failed) {
    return (
      <div role="status" style={{ ...box, background: '#fafafa', border: '1px solid #f0f0f0', marginBottom: 16 }}>
        <span style={{ flex: 1 }}>Your rental notices could not be loaded.</span>
        <button type="button" style={plainButton} onClick={onRetry}>
          Retry
        </button>
      </div>
    );
  }
  if (items.length === 0) return null;
  return (
    <section aria-label="Notices" style={{ display: 'flex', flexDirection: 'column', gap: 8, marginBottom: 16 }}>
      {items.map((n) => {
        const s = STYLE[n.kind];
        return (
          <div key={key(n)} role="alert" style={{ ...box, background: s.background, border: `1px solid ${s.border}` }}>
            <span aria-hidden="true" style={{ width: 8, height: 8, borderRadius: '50%', background: s.accent, flex: 'none' }} />
            <span style={{ flex: 1 }}>
              <strong>{n.message}</strong>{' '}
              <Link to={`/orders/${n.orderType === 'BUY' ? 'purchased' : 'rentals'}/${n.orderID}`} style={{ color: '#0b5cad' }}>
                Order {n.orderNumber}
              </Link>
            </span>
            <button type="button" aria-label={`Dismiss the notice of order ${n.orderNumber}`} style={plainButton} onClick={() => onDismiss?.(n)}>
              ✕
            </button>
          </div>
        );
      })}
    </section>
  );
}
