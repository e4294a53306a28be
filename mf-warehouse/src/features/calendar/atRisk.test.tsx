import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { MemoryRouter, useLocation } from 'react-router-dom';
import type { AtRiskBooking, User } from '@dme/contracts';
import App from '../../app';
import { mockApi, on, problem } from '@dme/ui/testing';

const staff = { id: '00000000-0000-4000-8000-0000000000a1', username: 'warehouse', firstName: 'Wendy', lastName: 'Ramos', userType: 'WAREHOUSE_ADMIN' } as User;
const ORDER = 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa';

const risk = (over: Partial<AtRiskBooking> = {}): AtRiskBooking => ({
  bookingID: '11111111-1111-4111-8111-111111111111',
  orderID: ORDER,
  orderNumber: 'ORD-20261201-000007',
  customerName: 'Jose Cruz',
  productID: '22222222-2222-4222-8222-222222222222',
  productName: 'Hospital Bed',
  serialCode: 'HOS-0000101',
  start: '2026-12-03',
  end: '2026-12-10',
  overdueOrderNumber: 'ORD-20261120-000003',
  overdueSince: '2026-12-01',
  suggestion: { stockItemID: '33333333-3333-4333-8333-333333333333', serialCode: 'HOS-0000102' },
  reason: 'OVERDUE',
  unitStatus: null,
  ...over,
});

function Where() {
  const l = useLocation();
  return <output data-testid="location">{l.pathname}</output>;
}

function open() {
  render(
    <MemoryRouter initialEntries={['/admin/calendar']}>
      <App user={staff} />
      <Where />
    </MemoryRouter>,
  );
}

const products = on('GET', '/api/admin/products', { status: 200, body: { items: [], total: 0 } });
const panel = async () => within(await screen.findByRole('region', { name: 'Bookings at risk' }));

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

describe('the calendar: bookings at risk (issue 25)', () => {
  it('lists each booking at risk with what to do, and opens its order', async () => {
    mockApi(
      products,
      on('GET', '/api/bookings/at-risk', {
        status: 200,
        body: {
          items: [
            risk(),
            risk({ bookingID: '44444444-4444-4444-8444-444444444444', orderNumber: 'ORD-20261201-000008', customerName: null, serialCode: 'HOS-0000103', overdueOrderNumber: null, suggestion: null }),
            // Issue 26: a unit that went to repair is booked for a later rental.
            risk({ bookingID: '55555555-5555-4555-8555-555555555555', orderNumber: 'ORD-20261201-000009', serialCode: 'HOS-0000104', overdueOrderNumber: null, reason: 'OUT_OF_SERVICE', unitStatus: 'IN_REPAIR' }),
          ],
        },
      }),
    );
    open();
    const p = await panel();
    await p.findByText('ORD-20261201-000007');
    expect(p.getByRole('alert')).toHaveTextContent('3 bookings start while their units are still out past the due date or out of service.');
    expect(p.getAllByRole('columnheader').map((h) => h.textContent)).toEqual(['Order', 'Customer', 'Product', 'Unit', 'Start', 'Since', 'Why', 'Suggestion']);
    const cells = p
      .getAllByRole('row')
      .slice(1)
      .map((r) => within(r).getAllByRole('cell').map((c) => c.textContent));
    expect(cells).toEqual([
      ['ORD-20261201-000007', 'Jose Cruz', 'Hospital Bed', 'HOS-0000101', 'Dec 3, 2026', 'Dec 1, 2026', 'Overdue from ORD-20261120-000003', 'Pack HOS-0000102 instead'],
      ['ORD-20261201-000008', '—', 'Hospital Bed', 'HOS-0000103', 'Dec 3, 2026', 'Dec 1, 2026', 'Overdue', 'No other unit free: call the customer'],
      ['ORD-20261201-000009', 'Jose Cruz', 'Hospital Bed', 'HOS-0000104', 'Dec 3, 2026', 'Dec 1, 2026', 'Unit in repair', 'Pack HOS-0000102 instead'],
    ]);
    fireEvent.click(p.getByRole('button', { name: 'ORD-20261201-000007' }));
    await vi.waitFor(() => expect(screen.getByTestId('location').textContent).toBe(`/admin/orders/rentals/${ORDER}`));
  });

  it('says when no booking is at risk', async () => {
    mockApi(products, on('GET', '/api/bookings/at-risk', { status: 200, body: { items: [] } }));
    open();
    const p = await panel();
    expect(await p.findByText('No booking is at risk: every unit out is due back in time, and every unit booked can serve.')).toBeInTheDocument();
    expect(p.queryByRole('alert')).toBeNull();
  });

  it("shows the server's problem when the list cannot be loaded", async () => {
    mockApi(products, on('GET', '/api/bookings/at-risk', problem(503, 'The catalog is not available.')));
    open();
    const p = await panel();
    expect(await p.findByText('The bookings at risk could not be loaded')).toBeInTheDocument();
    expect(p.getByText('The catalog is not available.')).toBeInTheDocument();
  });
});
