import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import type { AvailabilityResponse, CartItem } from '@dme/contracts';
import { addDays, manilaDate, ORDER_MESSAGES } from '@dme/contracts/browser';
import { mockApi, on, problem, query, type Call } from '@dme/ui/testing';
import App from '../../app';
import { customer } from '../../test/orders';
import { CART_PRODUCT, cartItem } from '../../test/cart';

const PRODUCT = CART_PRODUCT;
const today = manilaDate();

/** A wheelchair in the rental cart: 1 for 3 days from the day after tomorrow. */
const item = cartItem;

/** The level's days from today: booked (no unit free for the whole rental) from day 5 to day 8. */
function availability(c: Call): { status: number; body: AvailabilityResponse } {
  const q = query(c);
  const days = Array.from({ length: 181 }, (_, i) => {
    const date = addDays(q.from!, i);
    const taken = date >= addDays(today, 5) && date <= addDays(today, 8);
    return { date, free: taken ? 0 : 1, freeForRental: taken ? 0 : 1, startable: !taken };
  });
  return {
    status: 200,
    body: { productID: PRODUCT, variantID: null, subVariantID: null, quantity: 1, rentalDays: Number(q.days), turnaroundDays: 1, units: 1, days, firstStartDate: q.from! },
  };
}

function open(patch: (c: Call) => { status: number; body: unknown }) {
  let current = item();
  const api = mockApi(
    on('GET', '/api/cart', (c) => ({ status: 200, body: query(c).type === 'RENT' ? { items: [current], total: current.lineTotal } : { items: [], total: '0.00' } })),
    on('GET', `/api/products/${PRODUCT}/availability`, availability),
    on('PATCH', `/api/cart/${current.id}`, (c) => {
      const res = patch(c);
      if (res.status === 200) current = (res.body as { item: CartItem }).item;
      return res;
    }),
  );
  render(
    <MemoryRouter initialEntries={['/cart']}>
      <App user={customer} />
    </MemoryRouter>,
  );
  return api;
}

/** Opens the line's start-date picker; the cell of a day, moving the picker on a month where the day is not shown. */
async function openPicker() {
  const input = await screen.findByLabelText('Start date of Wheelchair');
  fireEvent.mouseDown(input);
  fireEvent.click(input);
  await waitFor(() => expect(document.querySelector('.ant-picker-dropdown td')).not.toBeNull());
  return (day: string) => {
    for (let i = 0; i < 2 && !document.querySelector(`.ant-picker-dropdown td[title="${day}"]`); i++) {
      fireEvent.click(document.querySelector('.ant-picker-dropdown .ant-picker-header-next-btn')!);
    }
    return document.querySelector(`.ant-picker-dropdown td[title="${day}"]`);
  };
}

afterEach(cleanup);

describe('the cart: a rental line’s start date (issue 25)', () => {
  it('shows the chosen start, greys out days its quantity is not free for the whole rental, and sends a new start', async () => {
    const { calls } = open((c) => ({ status: 200, body: { item: item({ startDate: (c.body as { startDate: string }).startDate }) } }));
    const input = await screen.findByLabelText('Start date of Wheelchair');
    expect(input).toHaveValue(addDays(today, 2));
    const cell = await openPicker();
    await waitFor(() => expect(cell(addDays(today, 5))).toHaveClass('ant-picker-cell-disabled'));
    expect(cell(addDays(today, 8))).toHaveClass('ant-picker-cell-disabled');
    expect(cell(addDays(today, 4))).not.toHaveClass('ant-picker-cell-disabled');
    expect(cell(addDays(today, 9))).not.toHaveClass('ant-picker-cell-disabled');
    // The level is asked for a rental of the line's days.
    expect(query(calls.find((c) => c.url.startsWith(`/api/products/${PRODUCT}/availability?`))!)).toMatchObject({ from: today, quantity: '1', days: '3' });

    fireEvent.click(cell(addDays(today, 4))!.querySelector('.ant-picker-cell-inner')!);
    await waitFor(() => expect(calls.filter((c) => c.method === 'PATCH').map((c) => c.body)).toEqual([{ quantity: 1, startDate: addDays(today, 4) }]));
    await waitFor(() => expect(screen.getByLabelText('Start date of Wheelchair')).toHaveValue(addDays(today, 4)));
  });

  it('a start taken meanwhile: the server refuses with the spec’s message, shown as an error, and the line keeps its start', async () => {
    open(() => problem(409, ORDER_MESSAGES.maxStock));
    const cell = await openPicker();
    await waitFor(() => expect(cell(addDays(today, 4))).not.toBeNull());
    fireEvent.click(cell(addDays(today, 4))!.querySelector('.ant-picker-cell-inner')!);
    expect(await screen.findByText(ORDER_MESSAGES.maxStock)).toBeInTheDocument();
    expect(screen.getByLabelText('Start date of Wheelchair')).toHaveValue(addDays(today, 2));
  });
});
