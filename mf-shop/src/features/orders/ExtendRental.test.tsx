import { describe, expect, it } from 'vitest';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import { BOOKING_MESSAGES, type Order } from '@dme/contracts';
import App from '../../app';
import { stubApi } from '../../test/api';
import { customer, initial, line, order, ORDER_ID, serial, unpaid } from '../../test/orders';
import { extensionPreview } from './ExtendRental';

const ORDER_PATH = `/api/my/orders/${ORDER_ID}`;
const EXTEND = `POST ${ORDER_PATH}/extend`;

/**
 * A rental delivered on Nov 25 that the customer may extend: 2 beds at $45.00 a day due Nov 28,
 * a wheelchair at $45.00 a day due Dec 2 (a day more adds $135.00 and moves the last due date to Dec 3).
 */
const delivered = (over: Partial<Order> = {}): Order =>
  order({
    status: 'DELIVERED',
    deliveredAt: '2026-11-25T02:00:00.000Z',
    payment: { ...unpaid, status: 'INITIAL_PAYMENT', records: [initial] },
    products: [
      line({ serialCodes: [serial('HOS-0000101'), serial('HOS-0000102')], dueDate: '2026-11-28' }),
      line({ id: '44444444-4444-4444-8444-444444444444', productName: 'Wheelchair', quantity: 1, noOfRentalDays: 7, lineTotal: '315.00', serialCodes: [serial('WHE-0000007')], dueDate: '2026-12-02' }),
    ],
    extensions: [],
    extendable: true,
    earlyEnd: null,
    ...over,
  });

function show(o: Order, routes: Parameters<typeof stubApi>[0] = {}) {
  const api = stubApi({ [ORDER_PATH]: { status: 200, body: { order: o } }, ...routes });
  render(
    <MemoryRouter initialEntries={[`/orders/rentals/${ORDER_ID}`]}>
      <App user={customer} />
    </MemoryRouter>,
  );
  return api;
}

const heading = (o: Order) => screen.findByRole('heading', { name: `Order ${o.orderNumber}` });
const posts = (api: ReturnType<typeof stubApi>) => api.calls.filter((c) => c.method === 'POST');
const openDialog = async () => {
  fireEvent.click(screen.getByRole('button', { name: 'Extend rental' }));
  return screen.findByRole('dialog', { name: 'Extend rental' });
};

describe('extending a rental (issue 25)', () => {
  it('previews by the terms rule: unit price × quantity × days, and the latest due date moved', () => {
    expect(extensionPreview(delivered(), 2)).toEqual({ extraCents: 27000, dueDate: '2026-12-04' });
    // Before delivery the due date is the booked start plus the days.
    expect(extensionPreview({ products: [line({ startDate: '2026-12-01', noOfRentalDays: 3 })] }, 1)).toEqual({ extraCents: 9000, dueDate: '2026-12-05' });
  });

  it('offers no "Extend rental" when the order is not extendable, and no extensions table when there are none', async () => {
    const o = delivered({ extendable: false });
    show(o);
    await heading(o);
    expect(screen.queryByRole('button', { name: 'Extend rental' })).toBeNull();
    expect(screen.queryByRole('region', { name: 'Extensions' })).toBeNull();
  });

  it('previews what the days add, sends them, says what the server says and shows the extension', async () => {
    let current = delivered();
    const message = BOOKING_MESSAGES.extended(2, '2026-12-04');
    const api = show(current, {
      [ORDER_PATH]: () => ({ status: 200, body: { order: current } }),
      [EXTEND]: () => {
        current = { ...current, extensions: [{ kind: 'EXTEND', days: 2, amount: '270.00', returnOn: null, by: 'CUSTOMER', createdAt: '2026-11-27T01:00:00.000Z' }] };
        return { status: 200, body: { order: current, message } };
      },
    });
    await heading(current);
    const dialog = await openDialog();
    const preview = await within(dialog).findByTestId('extend-preview');
    expect(preview).toHaveTextContent('Adds $135.00 · due back on Dec 3, 2026');
    expect(preview).toHaveTextContent('An estimate: the server confirms the price and the due date.');

    fireEvent.change(within(dialog).getByLabelText('Extra days'), { target: { value: '2' } });
    await waitFor(() => expect(within(dialog).getByTestId('extend-preview')).toHaveTextContent('Adds $270.00 · due back on Dec 4, 2026'));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Extend' }));

    expect(await screen.findByText(message)).toBeInTheDocument();
    expect(posts(api)).toEqual([{ method: 'POST', path: `${ORDER_PATH}/extend`, body: { days: 2 } }]);
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Extend rental' })).toBeNull());
    // The order loaded again, with its extension.
    const extensions = within(await screen.findByRole('region', { name: 'Extensions' }));
    expect(extensions.getAllByRole('columnheader').map((h) => h.textContent)).toEqual(['Change', 'Days', 'Amount', 'By', 'Date']);
    const cells = within(extensions.getAllByRole('row')[1]!).getAllByRole('cell').map((c) => c.textContent);
    expect(cells).toEqual(['Extended', '2 days', '$270.00', 'Customer', 'Nov 27, 2026, 9:00 AM']);
  });

  it("shows the server's reason when it refuses, and keeps the dialog open", async () => {
    const o = delivered();
    const detail = BOOKING_MESSAGES.extendRefused(1, '2026-12-03');
    show(o, { [EXTEND]: { status: 409, body: { type: 'about:blank', title: 'Conflict', status: 409, detail } } });
    await heading(o);
    const dialog = await openDialog();
    fireEvent.change(within(dialog).getByLabelText('Extra days'), { target: { value: '5' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Extend' }));
    const alert = await within(dialog).findByRole('alert');
    expect(alert).toHaveTextContent(detail);
    expect(within(dialog).getByTestId('extend-error')).toBe(alert);
    expect(screen.getByRole('dialog', { name: 'Extend rental' })).toBeInTheDocument();
  });

  it('asks for 1 to 365 days and sends nothing otherwise', async () => {
    const o = delivered();
    const api = show(o);
    await heading(o);
    const dialog = await openDialog();
    fireEvent.change(within(dialog).getByLabelText('Extra days'), { target: { value: '' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Extend' }));
    expect(await within(dialog).findByText('Enter a number of days from 1 to 365.')).toBeInTheDocument();
    expect(posts(api)).toEqual([]);
  });
});
