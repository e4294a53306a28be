import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import { mockApi, on, query } from '@dme/ui/testing';
import App from '../../app';
import { customer } from '../../test/orders';
import { cartItem } from '../../test/cart';

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

const item = cartItem;

const wheelchairs = item({ quantity: 2, noOfRentalDays: 3, lineTotal: '120.00' });
const bed = item({
  id: 'bbbbbbbb-bbbb-4bbb-8bbb-bbbbbbbbbbbb',
  productID: '00000000-0000-4000-8000-000000000002',
  name: 'Hospital Bed',
  variant: { name: 'Electric', price: '45.00' },
  price: '45.00',
  quantity: 1,
  noOfRentalDays: 2,
  lineTotal: '90.00',
});

describe('Review Address (issue 27)', () => {
  it("The confirmation dialog shows the server's total for the order it is about to place", async () => {
    // The server's total on purpose differs from any sum the browser could make of the lines: the
    // dialog must show the server's figure, not compute one.
    const { calls } = mockApi(
      on('GET', '/api/cart', (c) => ({ status: 200, body: query(c).type === 'RENT' ? { items: [wheelchairs, bed], total: '211.11' } : { items: [], total: '0.00' } })),
      on('GET', '/api/products/00000000-0000-4000-8000-000000000001/availability', { status: 500 }),
      on('GET', '/api/products/00000000-0000-4000-8000-000000000002/availability', { status: 500 }),
      on('POST', '/api/orders', { status: 201, body: { order: { id: '11111111-1111-4111-8111-111111111111' } } }),
    );
    render(
      <MemoryRouter initialEntries={['/cart']}>
        <App user={{ ...customer, address: '5 Mabini St', city: 'Quezon City', state: 'Metro Manila', zipcode: '110100' }} />
      </MemoryRouter>,
    );
    const rent = within(await screen.findByRole('region', { name: 'To Rent Products' }));
    await rent.findByText('Hospital Bed');
    fireEvent.click(rent.getByRole('button', { name: 'Rent Now' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Review Address' }));
    const order = within(await dialog.findByRole('region', { name: 'Your order' }));
    const lines = order.getAllByRole('listitem');
    expect(lines).toHaveLength(2);
    expect(lines[0]).toHaveTextContent('Wheelchair × 2, 3 days');
    expect(lines[0]).toHaveTextContent('$120.00');
    expect(lines[1]).toHaveTextContent('Hospital Bed / Electric × 1, 2 days');
    expect(lines[1]).toHaveTextContent('$90.00');
    expect(order.getByTestId('confirm-total')).toHaveTextContent('$211.11');

    // Confirm Order places exactly those cart lines.
    fireEvent.click(dialog.getByRole('button', { name: 'Confirm Order' }));
    await waitFor(() => expect(calls.some((c) => c.method === 'POST' && c.url === '/api/orders')).toBe(true));
    expect(calls.find((c) => c.method === 'POST')!.body).toMatchObject({ type: 'RENT', cartItemIDs: [wheelchairs.id, bed.id] });
  });
});
