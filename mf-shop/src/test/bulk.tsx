import { render } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import type { Product, ProductCard } from '@dme/contracts';
import { mockApi, on, query } from '@dme/ui/testing';
import App from '../app';
import { customer } from './orders';

/** The bulk purchase page's tests: 150 products for sale and the page opened on them. */
export const id = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
export const card = (n: number): ProductCard => ({
  id: id(n),
  name: `Sale item ${n}`,
  brand: 'Acme',
  image: '/api/uploads/x.png',
  type: 'FOR_SALE',
  priceMin: '12.50',
  priceMax: '12.50',
  availableQuantity: 5,
  soldQuantity: 0,
  inStock: true,
});
const counts = { quantity: 5, availableQuantity: 5, rentedQuantity: 0, damagedQuantity: 0, lostQuantity: 0, soldQuantity: 0, servicingQuantity: 0, repairQuantity: 0, heldQuantity: 0, retiredQuantity: 0 };
export const product = (c: ProductCard): Product => ({
  ...counts,
  id: c.id,
  name: c.name,
  brand: c.brand,
  description: '',
  turnaroundDays: 1,
  inspectionChecklist: [],
  rentalTerms: null,
  maintenance: null,
  type: c.type,
  image: c.image,
  price: '12.50',
  damageCharges: '0.00',
  priceMin: c.priceMin,
  priceMax: c.priceMax,
  archived: false,
  variants: [],
  createdAt: '2026-11-01T00:00:00.000Z',
  updatedAt: '2026-11-01T00:00:00.000Z',
});

/** 150 products for sale, named "Sale item 1" to "Sale item 150": more than the API's page of 100. */
export const sales = Array.from({ length: 150 }, (_, i) => card(i + 1));

export function open(...more: Parameters<typeof mockApi>) {
  const api = mockApi(
    ...more,
    on('GET', '/api/products', (c) => {
      const q = query(c);
      const all = sales.filter((p) => !q.search || `${p.name} ${p.brand}`.toLowerCase().includes(q.search.toLowerCase()));
      const offset = Number(q.offset ?? 0);
      return { status: 200, body: { items: all.slice(offset, offset + Number(q.limit)), total: all.length } };
    }),
    (c) => {
      const m = /^\/api\/products\/([\w-]+)$/.exec(c.url);
      const found = m && sales.find((p) => p.id === m[1]);
      return found ? { status: 200, body: { product: product(found) } } : undefined;
    },
  );
  render(
    <MemoryRouter initialEntries={['/bulk-order-purchased']}>
      <App user={customer} />
    </MemoryRouter>,
  );
  return api;
}

