import { describe, expect, it } from 'vitest';
import { act, fireEvent, render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import type { OrderStatus, OrderSummary } from '@dme/contracts';
import { baseApi } from '@dme/api-client';
import { mockApi, on, problem, query, type Call } from '@dme/ui/testing';
import App from '../../app';
import { store } from '../../store';
import { customer } from '../../test/orders';

const orderNumber = (n: number) => `ORD-20261123-${String(n).padStart(6, '0')}`;
const summary = (n: number, status: OrderStatus = 'PENDING'): OrderSummary => ({
  id: `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`,
  orderNumber: orderNumber(n),
  createdAt: '2026-11-23T02:00:00.000Z',
  status,
  type: 'BUY',
  typeOfOrder: null,
  totalAmount: '270.00',
  customerID: customer.id,
  customerName: 'Maria Santos',
});

/** The server's list of my orders: `db` filtered by the call's status, then limit/offset. */
function server(db: { orders: OrderSummary[] }, fail?: (c: Call) => ReturnType<typeof problem> | undefined) {
  return mockApi(
    on('GET', '/api/my/orders', (c) => {
      const failed = fail?.(c);
      if (failed) return failed;
      const q = query(c);
      const matching = db.orders.filter((o) => o.type === q.type && (!q.status || o.status === q.status));
      const offset = Number(q.offset ?? 0);
      const counts: Record<string, number> = {};
      for (const o of db.orders.filter((x) => x.type === q.type)) counts[o.status] = (counts[o.status] ?? 0) + 1;
      return { status: 200, body: { items: matching.slice(offset, offset + Number(q.limit)), total: matching.length, counts } };
    }),
  );
}

const lists = (calls: Call[]) => calls.filter((c) => c.method === 'GET' && c.url.startsWith('/api/my/orders?'));
const shownRows = () => screen.queryAllByRole('link', { name: /^View ORD/ }).length;
const loadMore = () => screen.queryByRole('button', { name: /Load more/ });

function open(at = '/orders/purchased') {
  render(
    <MemoryRouter initialEntries={[at]}>
      <App user={customer} />
    </MemoryRouter>,
  );
}

describe("the customer's order lists past 100 orders", () => {
  it('shows the first 100, "Load more" asks offset=100 and shows the 101st, then the button goes', async () => {
    const { calls } = server({ orders: Array.from({ length: 101 }, (_, i) => summary(i + 1)) });
    open();
    expect(await screen.findByText(orderNumber(100))).toBeInTheDocument();
    expect(shownRows()).toBe(100);
    expect(screen.queryByText(orderNumber(101))).toBeNull();
    expect(screen.getByText('Showing 100 of 101')).toBeInTheDocument();
    expect(query(lists(calls)[0]!)).toMatchObject({ type: 'BUY', status: 'PENDING', limit: '100', offset: '0' });

    fireEvent.click(loadMore()!);
    expect(await screen.findByText(orderNumber(101))).toBeInTheDocument();
    expect(query(lists(calls).at(-1)!)).toMatchObject({ type: 'BUY', status: 'PENDING', limit: '100', offset: '100' });
    expect(shownRows()).toBe(101);
    expect(loadMore()).toBeNull();
    expect(screen.queryByText(/^Showing/)).toBeNull();
  });

  it('shows no "Load more" when everything fits in the first 100', async () => {
    server({ orders: Array.from({ length: 100 }, (_, i) => summary(i + 1)) });
    open();
    expect(await screen.findByText(orderNumber(100))).toBeInTheDocument();
    expect(loadMore()).toBeNull();
    // Every column has a header a screen reader can announce (the View links' column too).
    expect(screen.getAllByRole('columnheader').map((h) => h.textContent)).toEqual(['Order Number', 'Date', 'Status', 'Total', 'Action']);
  });

  it('switching tab starts again at the first 100 (offset 0), also coming back to a tab', async () => {
    const { calls } = server({
      orders: [...Array.from({ length: 101 }, (_, i) => summary(i + 1)), ...Array.from({ length: 150 }, (_, i) => summary(1000 + i, 'FOR_PAYMENT'))],
    });
    open();
    await screen.findByText(orderNumber(100));
    fireEvent.click(loadMore()!);
    expect(await screen.findByText(orderNumber(101))).toBeInTheDocument();

    fireEvent.click(screen.getByRole('tab', { name: 'For Payment 150' }));
    expect(await screen.findByText(orderNumber(1099))).toBeInTheDocument();
    expect(query(lists(calls).at(-1)!)).toMatchObject({ status: 'FOR_PAYMENT', offset: '0' });
    expect(shownRows()).toBe(100);
    expect(screen.queryByText(orderNumber(1))).toBeNull();
    expect(screen.getByText('Showing 100 of 150')).toBeInTheDocument();

    fireEvent.click(screen.getByRole('tab', { name: 'Pending 101' }));
    expect(await screen.findByText(orderNumber(1))).toBeInTheDocument();
    await expect.poll(() => shownRows()).toBe(100);
    expect(query(lists(calls).at(-1)!)).toMatchObject({ status: 'PENDING', offset: '0' });
    expect(screen.queryByText(orderNumber(101))).toBeNull();
    expect(screen.getByText('Showing 100 of 101')).toBeInTheDocument();
  });

  it('an error on page 2 keeps page 1 and shows the server message with Retry', async () => {
    let down = true;
    const { calls } = server({ orders: Array.from({ length: 101 }, (_, i) => summary(i + 1)) }, (c) =>
      down && query(c).offset === '100' ? problem(503, 'The order service is not answering.') : undefined,
    );
    open();
    await screen.findByText(orderNumber(100));
    fireEvent.click(loadMore()!);
    expect(await screen.findByText('The order service is not answering.')).toBeInTheDocument();
    expect(screen.getByText('More orders could not be loaded')).toBeInTheDocument();
    expect(shownRows()).toBe(100);
    expect(screen.getByText(orderNumber(1))).toBeInTheDocument();

    down = false;
    fireEvent.click(screen.getByRole('button', { name: 'Retry' }));
    expect(await screen.findByText(orderNumber(101))).toBeInTheDocument();
    expect(query(lists(calls).at(-1)!)).toMatchObject({ offset: '100' });
    expect(shownRows()).toBe(101);
    expect(screen.queryByText('The order service is not answering.')).toBeNull();
    expect(loadMore()).toBeNull();
  });

  it('after an invalidation (live update) the pages shown load again from offset 0: no stale row, no duplicate', async () => {
    const db = { orders: Array.from({ length: 101 }, (_, i) => summary(i + 1)) };
    const { calls } = server(db);
    open();
    await screen.findByText(orderNumber(100));
    fireEvent.click(loadMore()!);
    await screen.findByText(orderNumber(101));

    // Order 1 moves on to FOR_PAYMENT: the PENDING list is now orders 2..101; 102 and 103 come in.
    db.orders = [{ ...db.orders[0]!, status: 'FOR_PAYMENT' }, ...db.orders.slice(1), summary(102), summary(103)];
    const before = lists(calls).length;
    act(() => {
      store.dispatch(baseApi.util.invalidateTags(['Order', 'Payment']));
    });
    await expect.poll(() => screen.queryByText(orderNumber(1))).toBeNull();
    expect(await screen.findByText(orderNumber(103))).toBeInTheDocument();
    expect(lists(calls).slice(before).map((c) => query(c).offset)).toEqual(['0', '100']);
    // Each order once: 102 rows, and no "Load more" (102 of 102).
    expect(shownRows()).toBe(102);
    for (const n of [2, 100, 101, 102]) expect(screen.getAllByText(orderNumber(n))).toHaveLength(1);
    expect(loadMore()).toBeNull();
  });
});

describe('the tabs (issue 27)', () => {
  it("show each tab's count from the server, and the tab named in the address opens", async () => {
    const { calls } = server({ orders: [summary(1), summary(2), summary(3, 'FOR_PAYMENT'), summary(4, 'DELIVERED')] });
    open('/orders/purchased?status=FOR_PAYMENT');
    expect(await screen.findByRole('tab', { name: 'For Payment 1', selected: true })).toBeInTheDocument();
    expect(await screen.findByText(orderNumber(3))).toBeInTheDocument();
    expect(query(lists(calls)[0]!)).toMatchObject({ type: 'BUY', status: 'FOR_PAYMENT' });
    expect(screen.getAllByRole('tab').map((t) => t.textContent)).toEqual(['Pending 2', 'For Payment 1', 'Preparing 0', 'To Ship 0', 'Out For Delivery 0', 'Delivered 1', 'Cancelled 0']);
    // The order's link brings the list as it is back with it (Back returns to this tab).
    expect(screen.getByRole('link', { name: orderNumber(3) })).toHaveAttribute('href', `/orders/purchased/${summary(3).id}`);
    fireEvent.click(screen.getByRole('tab', { name: 'Pending 2' }));
    expect(await screen.findByText(orderNumber(1))).toBeInTheDocument();
    expect(query(lists(calls).at(-1)!)).toMatchObject({ status: 'PENDING' });
  });
});
