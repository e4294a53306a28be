import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { on } from '@dme/ui/testing';
import { id, open } from '../../test/bulk';

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});


describe('the bulk order confirmation (issue 27)', () => {
  it("shows the lines and the total as the server prices them (its quote), then places those lines", async () => {
    // The server's total on purpose differs from the page's own sum ($25.00): the dialog shows the server's.
    const { calls } = open(
      on('POST', '/api/orders/quote', {
        status: 200,
        body: { total: '24.99', items: [{ productID: id(1), productVariantID: null, productSubVariantID: null, name: 'Sale item 1', brand: 'Acme', image: '/api/uploads/x.png', variant: null, subVariant: null, price: '12.50', quantity: 2, noOfRentalDays: null, startDate: null, lineTotal: '24.99', available: true }] },
      }),
      on('POST', '/api/orders', { status: 201, body: { order: { id: '11111111-1111-4111-8111-111111111111' } } }),
    );
    await screen.findByRole('combobox', { name: 'Product of line 1' });
    fireEvent.mouseDown(screen.getByRole('combobox', { name: 'Product of line 1' }));
    fireEvent.click(await screen.findByText('Sale item 1 (Acme)'));
    expect(await screen.findByText('5 available')).toBeInTheDocument();
    fireEvent.change(screen.getByRole('spinbutton', { name: /Quantity/ }), { target: { value: '2' } });
    await waitFor(() => expect(screen.getByTestId('bulk-total')).toHaveTextContent('$25.00'));
    await waitFor(() => expect(screen.getByRole('button', { name: 'Place Order' })).toBeEnabled());
    fireEvent.click(screen.getByRole('button', { name: 'Place Order' }));

    // The only dialog (antd names every element "test-id" under test, so names by aria-labelledby clash with the picker's).
    const dialog = await screen.findByRole('dialog');
    expect(dialog).toHaveTextContent('Review Address');
    const order = await within(dialog).findByRole('region', { name: 'Your order' });
    expect(within(order).getByRole('listitem')).toHaveTextContent('Sale item 1 × 2');
    expect(within(order).getByTestId('confirm-total')).toHaveTextContent('$24.99');
    const quoted = calls.find((c) => c.url === '/api/orders/quote')!;
    expect(quoted.body).toEqual({ type: 'BUY', lines: [{ productID: id(1), productVariantID: null, productSubVariantID: null, quantity: 2 }] });

    const fill = (label: string, value: string) => fireEvent.change(within(dialog).getByLabelText(label), { target: { value } });
    fill('Address', '5 Mabini St');
    fill('City', 'Quezon City');
    fill('State', 'Metro Manila');
    fill('Zipcode', '110100');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Confirm Order' }));
    await waitFor(() => expect(calls.some((c) => c.method === 'POST' && c.url === '/api/orders')).toBe(true));
    expect(calls.find((c) => c.url === '/api/orders')!.body).toMatchObject({ type: 'BUY', typeOfOrder: 'BULK', lines: (quoted.body as { lines: unknown[] }).lines });
  });
});
