import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';

/** A card like antd's, as a plain element: antd Card brings Tabs and Menu along (~45 KB gzip). */
export function AuthCard({ title, maxWidth, children }: { title: string; maxWidth: number; children: ReactNode }) {
  return (
    <section
      aria-labelledby="auth-title"
      style={{ width: '100%', maxWidth, boxSizing: 'border-box', background: '#fff', border: '1px solid #f0f0f0', borderRadius: 8, padding: 24, boxShadow: '0 1px 2px rgba(0,0,0,0.03)' }}
    >
      <h1 id="auth-title" style={{ margin: '0 0 16px', fontSize: 24, fontWeight: 600, lineHeight: 1.35, color: 'rgba(0,0,0,0.88)' }}>
        {title}
      </h1>
      {children}
    </section>
  );
}

export function AuthFrame({ children }: { children: ReactNode }) {
  return (
    <div style={{ minHeight: '100vh', background: 'linear-gradient(160deg, #e6f4f5 0%, #f7fafc 60%)', display: 'flex', flexDirection: 'column' }}>
      <header style={{ padding: '16px 24px' }}>
        <Link to="/" style={{ fontWeight: 700, fontSize: 18, color: '#0b6e79' }}>
          DME Supply
        </Link>
      </header>
      <main style={{ flex: 1, display: 'flex', justifyContent: 'center', alignItems: 'flex-start', padding: '24px 16px 48px' }}>{children}</main>
    </div>
  );
}
