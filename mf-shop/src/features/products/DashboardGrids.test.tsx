import { describe, expect, it } from 'vitest';
import { fireEvent, render, screen, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import type { ProductCard } from '@dme/contracts';
import { mockApi, on, problem, query, type Call } from '@dme/ui/testing';
import App from '../../app';
import { customer } from '../../test/orders';

const card = (n: number, type: ProductCard['type']): ProductCard => ({
  id: `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`,
  name: `${type === 'FOR_RENT' ? 'Rental' : 'Sale'} item ${n}`,
  brand: 'Acme',
  image: '/api/uploads/x.png',
  type,
  priceMin: '10.00',
  priceMax: '10.00',
  availableQuantity: 5,
  soldQuantity: 0,
  inStock: true,
});

/** 101 rental items and 3 for sale; the search matches by name. */
const rentals = Array.from({ length: 101 }, (_, i) => card(i + 1, 'FOR_RENT'));
const sales = Array.from({ length: 3 }, (_, i) => card(500 + i, 'FOR_SALE'));

function open(fail?: (c: Call) => ReturnType<typeof problem> | undefined) {
  const api = mockApi(
    on('GET', '/api/my/notices', { status: 200, body: { items: [] } }),
    on('GET', '/api/products', (c) => {
      const failed = fail?.(c);
      if (failed) return failed;
      const q = query(c);
      const all = (q.type === 'FOR_RENT' ? rentals : sales).filter((p) => !q.search || p.name.includes(q.search));
      const offset = Number(q.offset ?? 0);
      return { status: 200, body: { items: all.slice(offset, offset + Number(q.limit)), total: all.length } };
    }),
  );
  render(
    <MemoryRouter initialEntries={['/dashboard']}>
      <App user={customer} />
    </MemoryRouter>,
  );
  return api;
}

const grid = (name: string) => within(screen.getByRole('region', { name }));
const rentalCalls = (calls: Call[]) => calls.filter((c) => c.url.startsWith('/api/products?') && query(c).type === 'FOR_RENT');

describe('the dashboard grids past 100 products', () => {
  it('shows the first 100, "Load more" asks offset=100 and shows the 101st, then the button goes', async () => {
    const { calls } = open();
    expect(await screen.findByText('Rental item 100')).toBeInTheDocument();
    const rent = grid('For Rental Items');
    expect(rent.getAllByTestId('product-card')).toHaveLength(100);
    expect(rent.queryByText('Rental item 101')).toBeNull();
    expect(rent.getByText('Showing 100 of 101')).toBeInTheDocument();
    expect(query(rentalCalls(calls)[0]!)).toMatchObject({ limit: '100', offset: '0' });
    // The sale grid has all its 3: nothing more to load there.
    expect(grid('For Sale Items').getAllByTestId('product-card')).toHaveLength(3);
    expect(grid('For Sale Items').queryByRole('button', { name: 'Load more' })).toBeNull();

    fireEvent.click(rent.getByRole('button', { name: 'Load more' }));
    expect(await rent.findByText('Rental item 101')).toBeInTheDocument();
    expect(query(rentalCalls(calls).at(-1)!)).toMatchObject({ limit: '100', offset: '100' });
    expect(rent.getAllByTestId('product-card')).toHaveLength(101);
    expect(rent.queryByRole('button', { name: /Load more/ })).toBeNull();
  });

  it('a new search starts again at offset 0', async () => {
    const { calls } = open();
    await screen.findByText('Rental item 100');
    fireEvent.click(grid('For Rental Items').getByRole('button', { name: 'Load more' }));
    await screen.findByText('Rental item 101');
    fireEvent.change(screen.getByRole('searchbox', { name: 'Search products' }), { target: { value: 'item 1' } });
    fireEvent.click(screen.getByRole('button', { name: 'Search' }));
    // "item 1", "item 10".."item 19", "item 100", "item 101": 13 matches, one page.
    await expect.poll(() => grid('For Rental Items').queryAllByTestId('product-card').length).toBe(13);
    expect(query(rentalCalls(calls).at(-1)!)).toMatchObject({ search: 'item 1', offset: '0' });
    expect(grid('For Rental Items').queryByRole('button', { name: /Load more/ })).toBeNull();
  });

  it('an error on page 2 keeps page 1 and shows the server message with Retry', async () => {
    let down = true;
    const { calls } = open((c) => (down && query(c).offset === '100' ? problem(503, 'The catalog is not answering.') : undefined));
    await screen.findByText('Rental item 100');
    const rent = grid('For Rental Items');
    fireEvent.click(rent.getByRole('button', { name: 'Load more' }));
    expect(await rent.findByRole('alert')).toHaveTextContent('The catalog is not answering.');
    expect(rent.getAllByTestId('product-card')).toHaveLength(100);

    down = false;
    fireEvent.click(rent.getByRole('button', { name: 'Retry' }));
    expect(await rent.findByText('Rental item 101')).toBeInTheDocument();
    expect(query(rentalCalls(calls).at(-1)!)).toMatchObject({ offset: '100' });
    expect(rent.queryByRole('alert')).toBeNull();
    expect(rent.getAllByTestId('product-card')).toHaveLength(101);
  });
});

describe('the rental grid for a day (issue 25)', () => {
  it('"Free on" a day asks the availability of the cards in pages of 24 and shows each card free or booked with its first free day', async () => {
    const day = '2099-01-10'; // any day: the server decides what can be booked
    const api = mockApi(
      on('GET', '/api/my/notices', { status: 200, body: { items: [] } }),
      on('GET', '/api/products', (c) => {
        const q = query(c);
        const all = q.type === 'FOR_RENT' ? rentals.slice(0, 30) : sales;
        return { status: 200, body: { items: all, total: all.length } };
      }),
      on('GET', '/api/availability', (c) => {
        const q = query(c);
        const ids = String(q.productIDs).split(',');
        return {
          status: 200,
          body: {
            from: q.from,
            to: q.to,
            // Item 2 is booked that day and free from the 12th; the others are free.
            items: ids.map((id) => ({ productID: id, units: 1, turnaroundDays: 1, days: [{ date: day, free: id === rentals[1]!.id ? 0 : 1, startable: id !== rentals[1]!.id }], firstStartDate: id === rentals[1]!.id ? '2099-01-12' : day })),
          },
        };
      }),
    );
    render(
      <MemoryRouter initialEntries={['/dashboard']}>
        <App user={customer} />
      </MemoryRouter>,
    );
    expect(await screen.findByText('Rental item 30')).toBeInTheDocument();
    const rent = grid('For Rental Items');
    expect(rent.getAllByTestId('card-stock')[0]).toHaveTextContent('In-Stock');
    fireEvent.change(rent.getByLabelText('Free on'), { target: { value: day } });
    const stock = async (n: number) => (await rent.findAllByTestId('card-stock'))[n];
    await screen.findAllByText(/^Free on /);
    await expect.poll(async () => (await stock(1))?.textContent).toMatch(/^Booked on .* · free from /);
    expect((await stock(0))?.textContent).toMatch(/^Free on /);
    expect((await stock(29))?.textContent).toMatch(/^Free on /);
    // 30 cards: two requests (24 + 6), for that day.
    const asked = api.calls.filter((c) => c.url.startsWith('/api/availability?'));
    expect(asked.map((c) => String(query(c).productIDs).split(',').length).sort((a, b) => a - b)).toEqual([6, 24]);
    expect(asked.every((c) => query(c).from === day && query(c).to === day)).toBe(true);
    // "Any day" goes back to the stock of today.
    fireEvent.click(rent.getByRole('button', { name: 'Any day' }));
    expect(rent.getAllByTestId('card-stock')[1]).toHaveTextContent('In-Stock');
  });
});
