import type { ReactNode } from 'react';

/*
 * Pieces without antd, for what the shell shows before (or instead of) any antd screen: the
 * signed-in frame and the wait for a remote. Keeping antd off that path keeps a customer's first
 * load small (DESIGN §12); each remote brings its own antd.
 */

const SPIN_CSS = '@keyframes dme-spin{to{transform:rotate(360deg)}}';

/** A spinner with a text for screen readers. */
export function PlainLoading({ label = 'Loading...' }: { label?: string }) {
  return (
    <div role="status" aria-live="polite" style={{ display: 'flex', flexDirection: 'column', alignItems: 'center', gap: 12, padding: 48, color: 'rgba(0,0,0,0.62)' }}>
      <style>{SPIN_CSS}</style>
      <span
        aria-hidden="true"
        style={{ width: 28, height: 28, borderRadius: '50%', border: '3px solid #d9eef0', borderTopColor: '#0b6e79', animation: 'dme-spin 0.8s linear infinite' }}
      />
      <span style={{ fontSize: 14 }}>{label}</span>
    </div>
  );
}

/** An empty state like antd's Empty (simple image), as plain elements. */
export function PlainEmpty({ description, children }: { description: ReactNode; children?: ReactNode }) {
  return (
    <div style={{ padding: 32, textAlign: 'center', color: 'rgba(0,0,0,0.62)', fontSize: 14, lineHeight: 1.5714 }}>
      <svg aria-hidden="true" width="64" height="41" viewBox="0 0 64 41" style={{ display: 'block', margin: '0 auto 8px' }}>
        <g transform="translate(0 1)" fill="none" fillRule="evenodd">
          <ellipse fill="#f5f5f5" cx="32" cy="33" rx="32" ry="7" />
          <g fillRule="nonzero" stroke="#d9d9d9">
            <path d="M55 12.76L44.854 1.258C44.367.474 43.656 0 42.907 0H21.093c-.749 0-1.46.474-1.947 1.257L9 12.761V22h46v-9.24z" />
            <path
              d="M41.613 15.931c0-1.605.994-2.93 2.227-2.931H55v18.137C55 33.26 53.68 35 52.05 35h-40.1C10.32 35 9 33.259 9 31.137V13h11.16c1.233 0 2.227 1.323 2.227 2.928v.022c0 1.605 1.005 2.901 2.237 2.901h14.752c1.232 0 2.237-1.308 2.237-2.913v-.007z"
              fill="#fafafa"
            />
          </g>
        </g>
      </svg>
      <div>{description}</div>
      {children && <div style={{ marginTop: 16 }}>{children}</div>}
    </div>
  );
}
