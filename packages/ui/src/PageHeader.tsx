import type { ReactNode } from 'react';

/** A page title with actions on the right (plain elements: antd Typography is heavy). */
export function PageHeader({ title, extra }: { title: ReactNode; extra?: ReactNode }) {
  return (
    <div style={{ display: 'flex', justifyContent: 'space-between', alignItems: 'center', flexWrap: 'wrap', gap: 12, marginBottom: 16 }}>
      <h1 style={{ margin: 0, fontSize: 24, fontWeight: 600, lineHeight: 1.35, color: 'rgba(0,0,0,0.88)' }}>{title}</h1>
      {extra}
    </div>
  );
}
