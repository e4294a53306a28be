import { describe, expect, it, vi } from 'vitest';
import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { MemoryRouter, useLocation } from 'react-router-dom';
import { LIVE_EVENTS_PATH, type LiveEvent, type User } from '@dme/contracts';
import { fakeLiveStream } from '@dme/ui/testing';
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
    const live = fakeLiveStream();
    open('/admin/payments');
    expect(await screen.findByText('No pending payments.')).toBeInTheDocument();
    const fetchMock = globalThis.fetch as unknown as ReturnType<typeof vi.fn>;
    const paymentLists = () => fetchMock.mock.calls.filter(([input]) => new URL(input instanceof Request ? input.url : String(input), 'http://x').pathname === '/api/payments').length;
    const before = paymentLists();
    expect(before).toBeGreaterThanOrEqual(1);
    const source = await live.opened();
    expect(source.url).toBe(LIVE_EVENTS_PATH);
    act(() => source.send(LIVE_CHANGE));
    await waitFor(() => expect(paymentLists()).toBeGreaterThan(before));
  });

  it("a live refresh keeps the rows as they are and clickable: a click on a row's View is not lost to it", async () => {
    const live = fakeLiveStream();
    let held: (() => void) | undefined;
    let lists = 0;
    const row = { id: 'bbbbbbbb-bbbb-4bbb-8bbb-bbbbbbbbbbbb', orderID: 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa', orderNumber: 'ORD-20261130-000042', orderType: 'BUY', orderStatus: 'FOR_PAYMENT', customerID: 'cccccccc-cccc-4ccc-8ccc-cccccccccccc', customerName: 'Maria Santos', status: 'PENDING', type: null, totalOrderPayment: '100.00', totalPartialPayment: null, balance: '100.00', nextAction: 'MARK_AS_PAID', refundDue: null, dueNow: null, refundsDue: null, createdAt: '2026-11-30T02:00:00.000Z', updatedAt: '2026-11-30T02:00:00.000Z' };
    const json = (body: unknown) => new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json' } });
    vi.stubGlobal(
      'fetch',
      vi.fn(async (input: RequestInfo | URL) => {
        const url = new URL(input instanceof Request ? input.url : String(input), 'http://x');
        if (url.pathname === '/api/payments' && url.searchParams.get('limit') === '20') {
          lists += 1;
          // The refresh's answer is held: the list is refreshing while the click comes.
          if (lists > 1) await new Promise<void>((r) => (held = r));
          return json({ items: [row], total: 1 });
        }
        return json({ items: [], total: 0 });
      }),
    );
    render(
      <MemoryRouter initialEntries={['/admin/payments']}>
        <App user={user} />
        <Where />
      </MemoryRouter>,
    );
    expect(await screen.findByText('ORD-20261130-000042')).toBeInTheDocument();
    const source = await live.opened();
    act(() => source.send(LIVE_CHANGE));
    await waitFor(() => expect(held).toBeDefined());
    // Refreshing: no mask over the rows, and View opens the payment.
    expect(screen.queryByRole('status', { name: 'Loading' })).toBeNull();
    expect(screen.getByText('ORD-20261130-000042').closest('[aria-busy="true"]')).toBeNull();
    fireEvent.click(screen.getByRole('link', { name: 'View' }));
    await waitFor(() => expect(screen.getByTestId('location').textContent).toBe(`/admin/payments/${row.id}`));
    act(() => held!());
  });
});

const LIVE_CHANGE: LiveEvent = { kind: 'payment', orderId: 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa', orderType: 'BUY', status: null, at: '2026-11-24T01:00:00.000Z' };

function Where() {
  return <output data-testid="location">{useLocation().pathname}</output>;
}
