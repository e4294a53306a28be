import { Timeline } from 'antd';
import { formatManilaDateTime } from '@dme/contracts/browser';
import { StatusTag } from './StatusTag';

export interface OrderTrackerEntry {
  title: string;
  status: string;
  createdAt: string;
}

/**
 * An order's tracker (SPEC §2): its steps in order, each with its title, status tag and time in
 * Manila. Steps behind are green, the current one blue, a cancellation red.
 */
export function OrderTracker({ entries }: { entries: readonly OrderTrackerEntry[] }) {
  if (entries.length === 0) return <p style={{ color: 'rgba(0,0,0,0.6)' }}>No steps yet.</p>;
  return (
    <Timeline
      items={entries.map((e, i) => ({
        key: `${i}-${e.status}`,
        color: e.status === 'CANCELLED' ? 'red' : i === entries.length - 1 ? 'blue' : 'green',
        content: (
          <div data-testid="tracker-entry">
            <div style={{ display: 'flex', gap: 8, alignItems: 'center', flexWrap: 'wrap' }}>
              <strong>{e.title}</strong>
              <StatusTag kind="order" status={e.status} />
            </div>
            <div style={{ color: 'rgba(0,0,0,0.6)' }}>{formatManilaDateTime(e.createdAt)}</div>
          </div>
        ),
      }))}
    />
  );
}
