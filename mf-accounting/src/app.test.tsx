import { describe, expect, it, vi } from 'vitest';
import { act, render, screen, waitFor } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import { LIVE_EVENTS_PATH, type User } from '@dme/contracts';
import App from './app';

const user = { id: 'u-1', username: 'demo', firstName: 'Demo', lastName: 'User', userType: 'ACCOUNTING_ADMIN' } as User;

function open(path: string, as: User = user) {
  // Every list answers empty.
  vi.stubGlobal('fetch', vi.fn(async () => new Response(JSON.stringify({ items: [], total: 0 }), { status: 200, headers: { 'content-type': 'application/json' } })));
  render(
    <MemoryRouter initialEntries={[path]}>
      <App user={as} />
    </MemoryRouter>,
  );
}

describe('mf-accounting ./app', () => {
  it('renders its home /admin/payments with its title and an empty state', async () => {
    open('/admin/payments');
    expect(await screen.findByRole('heading', { name: 'Payments' })).toBeInTheDocument();
    expect(await screen.findByText('No pending payments.')).toBeInTheDocument();
  });

  it("answers an unknown path with 'Page not found'", async () => {
    open('/admin/payments/no/such/page');
    expect(await screen.findByText('Page not found')).toBeInTheDocument();
  });

  it('shows Reports to the superadmin only', async () => {
    open('/admin/reports');
    expect(await screen.findByText('Not available')).toBeInTheDocument();
    open('/admin/reports', { ...user, userType: 'SUPERADMIN' });
    expect(await screen.findByRole('heading', { name: 'Reports' })).toBeInTheDocument();
  });

  it('refetches the payments on screen when the live event stream reports a change', async () => {
    const sources: Array<{ url: string; listeners: Array<(m: MessageEvent<string>) => void>; closed: boolean }> = [];
    vi.stubGlobal(
      'EventSource',
      class {
        listeners: Array<(m: MessageEvent<string>) => void> = [];
        closed = false;
        constructor(public url: string) {
          sources.push(this);
        }
        addEventListener(type: string, l: (m: MessageEvent<string>) => void) {
          if (type === 'change') this.listeners.push(l);
        }
        removeEventListener(_type: string, l: (m: MessageEvent<string>) => void) {
          this.listeners = this.listeners.filter((x) => x !== l);
        }
        close() {
          this.closed = true;
        }
      },
    );
    open('/admin/payments');
    expect(await screen.findByText('No pending payments.')).toBeInTheDocument();
    const fetchMock = globalThis.fetch as unknown as ReturnType<typeof vi.fn>;
    const paymentLists = () => fetchMock.mock.calls.filter(([input]) => new URL(input instanceof Request ? input.url : String(input), 'http://x').pathname === '/api/payments').length;
    const before = paymentLists();
    expect(before).toBeGreaterThanOrEqual(1);
    // The stream opens a moment after the page has loaded (api-client: afterPageLoad).
    const source = await vi.waitFor(() => {
      const open = sources.find((s) => !s.closed);
      if (!open) throw new Error('the live stream is not open yet');
      return open;
    }, { timeout: 3000 });
    expect(source.url).toBe(LIVE_EVENTS_PATH);
    const event = { kind: 'payment', orderId: 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa', orderType: 'BUY', status: null, at: '2026-11-24T01:00:00.000Z' };
    act(() => source.listeners.forEach((l) => l(new MessageEvent('change', { data: JSON.stringify(event) }))));
    await waitFor(() => expect(paymentLists()).toBeGreaterThan(before));
  });
});
