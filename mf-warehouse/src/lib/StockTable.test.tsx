import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, render, screen, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import type { StockItem } from '@dme/contracts';
import { StockTable } from './StockTable';

afterEach(cleanup);

const ORDER = '44444444-4444-4444-8444-444444444444';
const unit = (n: number, reservedFor: StockItem['reservedFor'] = null): StockItem => ({
  id: `00000000-0000-4000-8000-00000000000${n}`,
  serialCode: `WHE-000000${n}`,
  status: 'AVAILABLE',
  inventoryType: 'IN',
  productID: '11111111-1111-4111-8111-111111111111',
  productName: 'Wheelchair',
  productVariantID: null,
  variantName: null,
  productSubVariantID: null,
  subVariantName: null,
  warehouseBinID: '22222222-2222-4222-8222-222222222222',
  warehouseBin: { name: 'A-01 Mobility' },
  batchID: '33333333-3333-4333-8333-333333333333',
  createdAt: '2026-11-20T02:00:00.000Z',
  updatedAt: '2026-11-20T02:00:00.000Z',
  reservedFor,
});

describe('the stock list marks reserved units (issue 27)', () => {
  it('shows Reserved with its order on the unit a rental holds; the other AVAILABLE rows are unmarked', () => {
    const items = [unit(1), unit(2, { kind: 'ORDER', orderID: ORDER, orderNumber: 'ORD-20261201-000042', until: '2026-12-03' }), unit(3), unit(4)];
    render(
      <MemoryRouter>
        <StockTable query={{ data: { items, total: 4 }, isLoading: false, isFetching: false, refetch: () => undefined }} page={1} pageSize={20} onPage={() => undefined} />
      </MemoryRouter>,
    );
    const row = (code: string) => screen.getByText(code).closest('tr') as HTMLElement;
    const held = within(row('WHE-0000002'));
    expect(held.getByText('AVAILABLE')).toBeInTheDocument();
    expect(held.getByText('Reserved')).toBeInTheDocument();
    expect(held.getByRole('link', { name: 'for ORD-20261201-000042' })).toHaveAttribute('href', `/admin/orders/rentals/${ORDER}`);
    expect(held.getByText(/until Dec 3, 2026/)).toBeInTheDocument();
    for (const code of ['WHE-0000001', 'WHE-0000003', 'WHE-0000004']) expect(within(row(code)).queryByText('Reserved')).toBeNull();
    expect(screen.getAllByText('Reserved')).toHaveLength(1);
  });

  it('says "for an order" while the order number is not known yet, and Downtime for a downtime', () => {
    const items = [unit(1, { kind: 'ORDER', orderID: ORDER, orderNumber: null, until: '2026-12-03' }), unit(2, { kind: 'DOWNTIME', orderID: null, orderNumber: null, until: '2026-12-01' })];
    render(
      <MemoryRouter>
        <StockTable query={{ data: { items, total: 2 }, isLoading: false, isFetching: false, refetch: () => undefined }} page={1} pageSize={20} onPage={() => undefined} />
      </MemoryRouter>,
    );
    expect(within(screen.getByText('WHE-0000001').closest('tr')!).getByRole('link', { name: 'for an order' })).toBeInTheDocument();
    expect(within(screen.getByText('WHE-0000002').closest('tr')!).getByText('Downtime')).toBeInTheDocument();
  });
});
