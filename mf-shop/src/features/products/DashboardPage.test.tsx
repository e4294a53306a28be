import { describe, expect, it } from 'vitest';
import { fireEvent, render, screen, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import { BOOKING_MESSAGES, RECALL_MESSAGES, RENTAL_MESSAGES, type Notice } from '@dme/contracts';
import App from '../../app';
import { stubApi } from '../../test/api';
import { customer } from '../../test/orders';

const overdue: Notice = { kind: 'OVERDUE', message: RENTAL_MESSAGES.hasDueProducts, orderID: '11111111-1111-4111-8111-111111111111', orderNumber: 'ORD-20261123-000042' };
const dueToday: Notice = { kind: 'DUE_TODAY', message: RENTAL_MESSAGES.dueToday, orderID: '77777777-7777-4777-8777-777777777777', orderNumber: 'ORD-20261124-000007' };

function dashboard(notices: { status: number; body: unknown }, bookingNotices: { status: number; body: unknown } = { status: 200, body: { items: [] } }) {
  const api = stubApi({ '/api/products': { status: 200, body: { items: [], total: 0 } }, '/api/my/notices': notices, '/api/my/booking-notices': bookingNotices });
  render(
    <MemoryRouter initialEntries={['/dashboard']}>
      <App user={customer} />
    </MemoryRouter>,
  );
  return api;
}

describe('the due notices on the dashboard', () => {
  it('shows each notice of /api/my/notices verbatim with a link to its rental', async () => {
    const api = dashboard({ status: 200, body: { items: [overdue, dueToday] } });
    const alerts = await screen.findAllByRole('alert');
    expect(alerts).toHaveLength(2);
    expect(alerts[0]).toHaveTextContent(RENTAL_MESSAGES.hasDueProducts);
    expect(within(alerts[0]!).getByRole('link', { name: 'Order ORD-20261123-000042' })).toHaveAttribute('href', `/orders/rentals/${overdue.orderID}`);
    expect(alerts[1]).toHaveTextContent(RENTAL_MESSAGES.dueToday);
    expect(within(alerts[1]!).getByRole('link', { name: 'Order ORD-20261124-000007' })).toHaveAttribute('href', `/orders/rentals/${dueToday.orderID}`);
    // The products grids still show.
    expect(await screen.findAllByText('No items yet.')).toHaveLength(2);
    expect(api.filter((p) => p === '/api/my/notices')).toHaveLength(1);
  });

  it('a dismissed notice stays dismissed while the page is open (it is not repeated on re-render)', async () => {
    dashboard({ status: 200, body: { items: [overdue, dueToday] } });
    await screen.findAllByRole('alert');
    fireEvent.click(screen.getByRole('button', { name: 'Dismiss the notice of order ORD-20261123-000042' }));
    expect(screen.getAllByRole('alert')).toHaveLength(1);
    // A re-render of the page (a search) does not bring it back.
    fireEvent.change(screen.getByRole('searchbox', { name: 'Search products' }), { target: { value: 'bed' } });
    fireEvent.click(screen.getByRole('button', { name: 'Search' }));
    await screen.findAllByText(/No (rental|sale) items match/);
    expect(screen.getAllByRole('alert')).toHaveLength(1);
    expect(screen.getByRole('alert')).toHaveTextContent(RENTAL_MESSAGES.dueToday);
  });

  it('a booking at risk (issue 25) is told after the due notices, with a link to its rental', async () => {
    const atRisk: Notice = { kind: 'AT_RISK', message: BOOKING_MESSAGES.atRiskNotice('Hospital Bed', '2026-12-03'), orderID: '22222222-2222-4222-8222-222222222222', orderNumber: 'ORD-20261125-000003' };
    dashboard({ status: 200, body: { items: [overdue] } }, { status: 200, body: { items: [atRisk] } });
    await expect.poll(() => screen.queryAllByRole('alert').length).toBe(2);
    const alerts = screen.getAllByRole('alert');
    expect(alerts[1]).toHaveTextContent('The Hospital Bed booked for you from Dec 3, 2026 is overdue from its previous rental.');
    expect(within(alerts[1]!).getByRole('link', { name: 'Order ORD-20261125-000003' })).toHaveAttribute('href', `/orders/rentals/${atRisk.orderID}`);
  });

  it('a recall of a unit the customer bought (issue 26) links to the purchase', async () => {
    const recall: Notice = { kind: 'RECALL', message: RECALL_MESSAGES.customerNotice('Oxygen Concentrator', 'ORD-20261125-000009'), orderID: '33333333-3333-4333-8333-333333333333', orderNumber: 'ORD-20261125-000009', orderType: 'BUY' };
    dashboard({ status: 200, body: { items: [] } }, { status: 200, body: { items: [recall] } });
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('A safety recall concerns the Oxygen Concentrator of your order ORD-20261125-000009.');
    expect(within(alert).getByRole('link', { name: 'Order ORD-20261125-000009' })).toHaveAttribute('href', `/orders/purchased/${recall.orderID}`);
  });

  it('shows nothing when no rental is due', async () => {
    dashboard({ status: 200, body: { items: [] } });
    expect(await screen.findAllByText('No items yet.')).toHaveLength(2);
    expect(screen.queryByRole('alert')).toBeNull();
    expect(screen.queryByRole('region', { name: 'Notices' })).toBeNull();
  });

  it('says so when the notices cannot be loaded, and retries', async () => {
    const api = dashboard({ status: 503, body: { type: 'about:blank', title: 'Service Unavailable', status: 503, detail: 'Try again later.' } });
    expect(await screen.findByText('Your rental notices could not be loaded.')).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Retry' }));
    await expect.poll(() => api.filter((p) => p === '/api/my/notices').length).toBe(2);
  });
});
