import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';

export function AuthFrame({ children }: { children: ReactNode }) {
  return (
    <div style={{ minHeight: '100vh', background: 'linear-gradient(160deg, #e6f4f5 0%, #f7fafc 60%)', display: 'flex', flexDirection: 'column' }}>
      <header style={{ padding: '16px 24px' }}>
        <Link to="/" style={{ fontWeight: 700, fontSize: 18, color: '#0b6e79' }}>
          DME Supply
        </Link>
      </header>
      <div style={{ flex: 1, display: 'flex', justifyContent: 'center', alignItems: 'flex-start', padding: '24px 16px 48px' }}>{children}</div>
    </div>
  );
}
