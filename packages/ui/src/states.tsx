import type { ReactNode } from 'react';
import { Alert, Button, Empty } from 'antd';
import { PlainLoading } from './plain';

/**
 * A screen or a part of one on its way: plain elements, not antd's Spin (issue 27, part 5: it is
 * every remote's Suspense fallback, so Spin and its motion were part of every first screen).
 */
export function Loading({ label = 'Loading...' }: { label?: string }) {
  return <PlainLoading label={label} />;
}

export function EmptyState({ description, children }: { description: ReactNode; children?: ReactNode }) {
  return (
    <Empty description={description} style={{ padding: 32 }}>
      {children}
    </Empty>
  );
}

/** Ours: a page whose data is on screen but could not be refreshed. */
export const REFRESH_FAILED_TEXT = 'This page could not be refreshed: it shows what was last loaded.';

/**
 * A page already loaded whose refresh failed (a live update's or a change's refetch under load, a
 * lost connection): the page stays as it was, with what it holds open (a dialog, a form's edits),
 * and says so with Retry, instead of being replaced by an error screen.
 */
export function RefreshFailed({ error, onRetry }: { error: unknown; onRetry: () => void }) {
  if (!error) return null;
  return (
    <Alert
      type="warning"
      showIcon
      role="status"
      data-testid="refresh-failed"
      style={{ marginBottom: 16 }}
      title={REFRESH_FAILED_TEXT}
      action={
        <Button size="small" onClick={onRetry}>
          Retry
        </Button>
      }
    />
  );
}
