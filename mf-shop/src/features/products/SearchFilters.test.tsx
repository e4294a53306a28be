import { describe, expect, it } from 'vitest';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter, useLocation } from 'react-router-dom';
import type { ProductCard } from '@dme/contracts';
import { CATALOG_MESSAGES } from '@dme/contracts';
import { mockApi, on, query, type Call } from '@dme/ui/testing';
import App from '../../app';
import { customer } from '../../test/orders';
import { filtersFromUrl, filtersToUrl } from './filters';

/** The shop's search and filters (issue 27): they live in the URL, combine in the request, and an empty result says so. */
const card = (n: number, type: ProductCard['type'], name: string, inStock: boolean): ProductCard => ({
  id: `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`,
  name,
  brand: 'Acme',
  image: '/api/uploads/x.png',
  type,
  priceMin: '10.00',
  priceMax: '20.00',
  availableQuantity: inStock ? 2 : 0,
  soldQuantity: 0,
  inStock,
});
const all = [card(1, 'FOR_RENT', 'Wheelchair', true), card(2, 'FOR_RENT', 'Hospital Bed', false), card(3, 'FOR_SALE', 'Thermometer', true)];

let location = '';
/** A search's answer waits for this (a slow network). */
let held: Promise<void> | undefined;
function Where() {
  const l = useLocation();
  location = `${l.pathname}${l.search}`;
  return null;
}

function open(url = '/dashboard') {
  const api = mockApi(
    on('GET', '/api/my/notices', { status: 200, body: { items: [] } }),
    on('GET', '/api/my/booking-notices', { status: 200, body: { items: [] } }),
    on('GET', '/api/products', async (c) => {
      const q = query(c);
      if (q.search) await held;
      const items = all.filter((p) => p.type === q.type && (!q.search || p.name.toLowerCase().startsWith(q.search.slice(0, 2))) && (q.available !== 'true' || p.inStock));
      return { status: 200, body: { items, total: items.length } };
    }),
  );
  render(
    <MemoryRouter initialEntries={[url]}>
      <App user={customer} />
      <Where />
    </MemoryRouter>,
  );
  return api;
}

const productCalls = (calls: Call[]) => calls.filter((c) => c.url.startsWith('/api/products?')).map(query);
const section = (name: string) => within(screen.getByRole('region', { name }));

describe('shop search and filters on the dashboard', () => {
  it('the URL carries search and filters; they combine in each grid request; a reload keeps them', async () => {
    const { calls } = open();
    await screen.findByText('Wheelchair');
    fireEvent.change(screen.getByRole('searchbox', { name: 'Search products' }), { target: { value: 'weelchair' } });
    fireEvent.change(screen.getByLabelText('Price from'), { target: { value: '5' } });
    fireEvent.change(screen.getByLabelText('to'), { target: { value: '50.50' } });
    fireEvent.click(screen.getByRole('button', { name: 'Search' }));
    fireEvent.click(screen.getByRole('checkbox', { name: 'In stock only' }));
    await expect.poll(() => location).toBe('/dashboard?search=weelchair&minPrice=5&maxPrice=50.50&available=true');
    await expect.poll(() => productCalls(calls).at(-1)).toMatchObject({ type: expect.any(String), search: 'weelchair', minPrice: '5', maxPrice: '50.50', available: 'true', offset: '0' });
    // A type: one section only, no jump bar.
    fireEvent.click(screen.getByRole('button', { name: 'For Rent', pressed: false }));
    await expect.poll(() => location).toContain('type=FOR_RENT');
    expect(screen.queryByRole('region', { name: 'For Sale Items' })).toBeNull();
    expect(screen.queryByRole('navigation', { name: 'Sections' })).toBeNull();
  });

  it('opened from a URL, the boxes show the filters and the request has them', async () => {
    const { calls } = open('/dashboard?search=ho&type=FOR_RENT&available=true');
    expect(await screen.findByRole('searchbox', { name: 'Search products' })).toHaveValue('ho');
    expect(screen.getByRole('checkbox', { name: 'In stock only' })).toBeChecked();
    expect(screen.getByRole('button', { name: 'For Rent' })).toHaveAttribute('aria-pressed', 'true');
    await expect.poll(() => productCalls(calls)).toEqual([expect.objectContaining({ type: 'FOR_RENT', search: 'ho', available: 'true' })]);
  });

  it('an empty result says so, and one click clears search and filters', async () => {
    open('/dashboard?search=zz&available=true');
    expect(await section('For Rental Items').findByText('No rental items match “zz” with these filters.')).toBeInTheDocument();
    fireEvent.click(section('For Rental Items').getByRole('button', { name: CATALOG_MESSAGES.search.clear }));
    expect(await screen.findByText('Wheelchair')).toBeInTheDocument();
    expect(location).toBe('/dashboard');
    expect(screen.getByRole('searchbox', { name: 'Search products' })).toHaveValue('');
  });

  it('a lowest price above the highest is said under the prices and not sent', async () => {
    const { calls } = open();
    await screen.findByText('Wheelchair');
    const before = productCalls(calls).length;
    fireEvent.change(screen.getByLabelText('Price from'), { target: { value: '50' } });
    fireEvent.change(screen.getByLabelText('to'), { target: { value: '10' } });
    fireEvent.click(screen.getByRole('button', { name: 'Search' }));
    expect(await screen.findByText(CATALOG_MESSAGES.search.priceOrder)).toBeInTheDocument();
    expect(productCalls(calls)).toHaveLength(before);
    expect(location).toBe('/dashboard');
  });

  it("while a new search loads, the last cards stay dimmed and cannot be clicked (a tap never lands on the card that replaces one), until the answer shows", async () => {
    open();
    await screen.findByText('Thermometer');
    let release!: () => void;
    held = new Promise((r) => (release = r));
    try {
      fireEvent.change(screen.getByRole('searchbox', { name: 'Search products' }), { target: { value: 'th' } });
      fireEvent.click(screen.getByRole('button', { name: 'Search' }));
      await waitFor(() => expect(section('For Rental Items').getByText('Wheelchair').closest('[inert]')).not.toBeNull());
      expect(section('For Rental Items').getByText('Wheelchair').closest('[aria-busy="true"]')).not.toBeNull();
      expect(section('For Sale Items').getByText('Thermometer').closest('[inert]')).not.toBeNull();
    } finally {
      release();
      held = undefined;
    }
    expect(await section('For Rental Items').findByText('No rental items match “th”.')).toBeInTheDocument();
    await waitFor(() => expect(section('For Sale Items').getByText('Thermometer').closest('[inert]')).toBeNull());
    expect(section('For Sale Items').getByText('Thermometer').closest('[aria-busy]')).toBeNull();
  });

  it('on a phone a bar jumps to For Rent or For Sale in one tap', async () => {
    open();
    await screen.findByText('Thermometer');
    // The bar is display:none above 767 px (a media query); the test DOM is a desktop window.
    const nav = document.querySelector<HTMLElement>('nav[aria-label="Sections"]')!;
    expect(nav).not.toBeNull();
    const bar = within(nav);
    fireEvent.click(bar.getByRole('button', { name: 'For Sale', hidden: true }));
    expect(document.activeElement).toBe(screen.getByRole('heading', { name: 'For Sale Items' }));
  });
});

describe('the filters in the URL', () => {
  it('round-trip, leave defaults out and drop what the API would refuse', () => {
    const f = { search: 'bed', type: 'FOR_SALE' as const, minPrice: '5', maxPrice: '9.50', available: true, page: 2 };
    expect(filtersFromUrl(filtersToUrl(f))).toEqual(f);
    expect(filtersToUrl({ ...f, search: '', type: '', minPrice: '', maxPrice: '', available: false, page: 1 }).toString()).toBe('');
    expect(filtersFromUrl(new URLSearchParams('type=X&minPrice=abc&maxPrice=1.999&page=-3&available=yes'))).toEqual({ search: '', type: '', minPrice: '', maxPrice: '', available: false, page: 1 });
    expect(filtersFromUrl(new URLSearchParams('minPrice=50&maxPrice=10'))).toMatchObject({ minPrice: '50', maxPrice: '' });
  });
});
