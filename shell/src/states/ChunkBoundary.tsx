import { Component, type ReactNode } from 'react';

/**
 * Catches a screen that fails to render or whose code cannot be fetched (e.g. offline, or a new
 * deployment replaced the chunk): a message and a Reload button instead of a blank page. Plain
 * elements: antd may be what failed to load. A new `resetKey` (the path) clears it.
 */
export class ChunkBoundary extends Component<{ resetKey: string; children: ReactNode }, { error: unknown }> {
  override state: { error: unknown } = { error: undefined };
  static getDerivedStateFromError(error: unknown) {
    return { error };
  }
  override componentDidCatch(error: unknown) {
    console.error('A screen failed', error);
  }
  override componentDidUpdate(prev: { resetKey: string }) {
    if (prev.resetKey !== this.props.resetKey && this.state.error !== undefined) this.setState({ error: undefined });
  }
  override render() {
    if (this.state.error === undefined) return this.props.children;
    return (
      <div role="alert" style={{ padding: 48, textAlign: 'center' }}>
        <h1 style={{ fontSize: 20, margin: '0 0 8px' }}>This page could not be loaded</h1>
        <p style={{ color: 'rgba(0,0,0,0.55)', margin: '0 0 16px' }}>Check your connection and try again.</p>
        <button type="button" onClick={() => window.location.reload()} style={{ height: 32, padding: '0 15px', borderRadius: 8, border: '1px solid #0b6e79', background: '#0b6e79', color: '#fff', cursor: 'pointer' }}>
          Reload
        </button>
      </div>
    );
  }
}
