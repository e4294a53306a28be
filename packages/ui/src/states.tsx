import type { ReactNode } from 'react';
import { Button, Empty, Result, Spin } from 'antd';

export function Loading({ label = 'Loading...' }: { label?: string }) {
  return (
    <div role="status" aria-live="polite" style={{ display: 'flex', justifyContent: 'center', padding: 48 }}>
      <Spin description={label}>
        <div style={{ width: 120, height: 40 }} />
      </Spin>
    </div>
  );
}

export function ErrorState({ title = 'Something went wrong', message, onRetry }: { title?: string; message?: string; onRetry?: () => void }) {
  return (
    <Result
      status="error"
      title={title}
      subTitle={message}
      extra={onRetry ? <Button type="primary" onClick={onRetry}>Retry</Button> : undefined}
    />
  );
}

export function EmptyState({ description, children }: { description: ReactNode; children?: ReactNode }) {
  return (
    <Empty description={description} style={{ padding: 32 }}>
      {children}
    </Empty>
  );
}

export function NotAvailable() {
  return <Result status="403" title="Not available" subTitle="This page is not available for your account." />;
}

export function PageNotFound() {
  return <Result status="404" title="Page not found" subTitle="There is no page at this address." />;
}
