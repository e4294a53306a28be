import type { ReactNode } from 'react';
import { Empty, Spin } from 'antd';

export function Loading({ label = 'Loading...' }: { label?: string }) {
  return (
    <div role="status" aria-live="polite" style={{ display: 'flex', justifyContent: 'center', padding: 48 }}>
      <Spin description={label}>
        <div style={{ width: 120, height: 40 }} />
      </Spin>
    </div>
  );
}

export function EmptyState({ description, children }: { description: ReactNode; children?: ReactNode }) {
  return (
    <Empty description={description} style={{ padding: 32 }}>
      {children}
    </Empty>
  );
}
