import { describe, expect, it, vi } from 'vitest';
import { render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import { MY_NOTICES_URL, productCardsUrl, RENTAL_MESSAGES, type Notice, type ProductCard } from '@dme/contracts';
import { SCREEN_READY_EVENT } from '@dme/ui';
import { markupShape, mockApi, on, query } from '@dme/ui/testing';
import App from './app';
import { renderScreen } from '../ssr/first-screen';
import { customer } from './test/orders';

/*
 * The server-rendered first screen (issue 13) must be the page itself: the gateway shows it until
 * the app's screen replaces it, and any difference would be a visible jump at the hand-over.
 */
const card = (n: number, type: ProductCard['type'], inStock = true): ProductCard => ({
  id: `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`,
  name: `${type === 'FOR_RENT' ? 'Rental' : 'Sale'} item ${n} <b>&`,
  brand: 'Acme',
  image: `/api/uploads/${n}.png`,
  type,
  priceMin: '10.00',
  priceMax: type === 'FOR_RENT' ? '25.50' : '10.00',
  availableQuantity: inStock ? 5 : 0,
  soldQuantity: n,
  inStock,
});
const notice: Notice = { kind: 'OVERDUE', message: RENTAL_MESSAGES.hasDueProducts, orderID: '11111111-1111-4111-8111-111111111111', orderNumber: 'ORD-20261123-000042' };

/** 101 rentals (a "Load more" row) and three sale items, one sold out; one notice. */
const rentals = Array.from({ length: 101 }, (_, i) => card(i + 1, 'FOR_RENT'));
const sales = [card(500, 'FOR_SALE'), card(501, 'FOR_SALE', false), card(502, 'FOR_SALE')];
const reads = {
  [productCardsUrl('FOR_RENT')]: { items: rentals.slice(0, 100), total: rentals.length },
  [productCardsUrl('FOR_SALE')]: { items: sales, total: sales.length },
  [MY_NOTICES_URL]: { items: [notice] },
};

describe("the shop's server-rendered first screen", () => {
  it("is the dashboard's own markup for the same answers, and the page announces when it has them", async () => {
    mockApi(
      on('GET', '/api/my/notices', { status: 200, body: reads[MY_NOTICES_URL] }),
      on('GET', '/api/products', (c) => ({ status: 200, body: reads[productCardsUrl(query(c).type as 'FOR_RENT' | 'FOR_SALE')] })),
    );
    const ready = vi.fn();
    window.addEventListener(SCREEN_READY_EVENT, ready);
    render(
      <MemoryRouter initialEntries={['/dashboard']}>
        <App user={customer} />
      </MemoryRouter>,
    );
    await screen.findByRole('heading', { name: 'For Sale Items' });
    await screen.findByRole('alert');
    await vi.waitFor(() => expect(ready).toHaveBeenCalled());
    window.removeEventListener(SCREEN_READY_EVENT, ready);
    const page = screen.getByRole('heading', { level: 1, name: 'Products' }).parentElement!.parentElement!;

    const html = renderScreen('/dashboard', reads);
    expect(html).toBeDefined();
    // React's server renderer adds a preload link for the high-priority picture before the markup.
    const drawn = document.createElement('div');
    drawn.innerHTML = html!;
    const preloads = drawn.querySelectorAll('link[rel="preload"]');
    expect([...preloads].map((l) => l.getAttribute('href'))).toEqual(['/api/uploads/1.png']);
    preloads.forEach((l) => l.remove());
    expect(drawn.children).toHaveLength(1);
    expect(markupShape(drawn.firstElementChild!)).toBe(markupShape(page));
    // What the customer sees first: the first picture asked for first, the names escaped.
    expect(html).toContain('src="/api/uploads/1.png"');
    expect(html).toMatch(/<img[^>]*src="\/api\/uploads\/1\.png"[^>]*fetchPriority="high"|<img[^>]*fetchPriority="high"[^>]*src="\/api\/uploads\/1\.png"/);
    expect(html).toMatch(/<img[^>]*elementtiming="first-picture"[^>]*src="\/api\/uploads\/1\.png"|<img[^>]*src="\/api\/uploads\/1\.png"[^>]*elementtiming="first-picture"/);
    expect(html?.match(/elementtiming=/g)).toHaveLength(1);
    expect(html).toContain('Rental item 1 &lt;b&gt;&amp;');
    expect(html).toContain('Load more');
  });

  it('draws nothing for another path, or from an answer that is not what the API promises', () => {
    expect(renderScreen('/cart', reads)).toBeUndefined();
    expect(renderScreen('/dashboard', { ...reads, [MY_NOTICES_URL]: undefined })).toBeUndefined();
    expect(renderScreen('/dashboard', { ...reads, [productCardsUrl('FOR_SALE')]: { items: [{ id: 'x' }], total: 1 } })).toBeUndefined();
    expect(renderScreen('/dashboard', {})).toBeUndefined();
  });

  it('draws an empty shop as the page does', () => {
    const empty = { ...reads, [productCardsUrl('FOR_RENT')]: { items: [], total: 0 }, [productCardsUrl('FOR_SALE')]: { items: [], total: 0 }, [MY_NOTICES_URL]: { items: [] } };
    const html = renderScreen('/dashboard', empty)!;
    expect(html.match(/No items yet\./g)).toHaveLength(2);
    expect(html).not.toContain('role="alert"');
  });
});
