/*
 * Pieces without antd, for what the shell shows before (or instead of) any antd screen: the
 * signed-in frame and the wait for a remote. Keeping antd off that path keeps a customer's first
 * load small (DESIGN §12); each remote brings its own antd.
 */

const SPIN_CSS = '@keyframes dme-spin{to{transform:rotate(360deg)}}';

/** A spinner with a text for screen readers. */
export function PlainLoading({ label = 'Loading...' }: { label?: string }) {
  return (
    <div role="status" aria-live="polite" style={{ display: 'flex', flexDirection: 'column', alignItems: 'center', gap: 12, padding: 48, color: 'rgba(0,0,0,0.45)' }}>
      <style>{SPIN_CSS}</style>
      <span
        aria-hidden="true"
        style={{ width: 28, height: 28, borderRadius: '50%', border: '3px solid #d9eef0', borderTopColor: '#0b6e79', animation: 'dme-spin 0.8s linear infinite' }}
      />
      <span style={{ fontSize: 14 }}>{label}</span>
    </div>
  );
}
