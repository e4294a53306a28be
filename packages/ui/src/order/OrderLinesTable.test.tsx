// @vitest-environment happy-dom
import { describe, expect, it } from 'vitest';
import { render, screen, within } from '@testing-library/react';
import { days, OrderLinesTable } from './OrderLinesTable';

interface Line {
  id: string;
  productName: string;
  variant: string | null;
  subVariant: string | null;
  quantity: number;
  noOfRentalDays: number | null;
  unitPrice: string;
  lineTotal: string;
}

const line: Line = { id: 'l-1', productName: 'Wheelchair', variant: 'Standard', subVariant: 'Large', quantity: 2, noOfRentalDays: 3, unitPrice: '19.99', lineTotal: '119.94' };

function show(rent: boolean, extra: Partial<Parameters<typeof OrderLinesTable<Line>>[0]> = {}) {
  render(
    <OrderLinesTable<Line>
      lines={[line]}
      rowKey="id"
      rent={rent}
      image={() => '/img/w.png'}
      name={(l) => ({ product: l.productName, variant: l.variant, subVariant: l.subVariant })}
      rentalDays={{ title: 'Rental Days', render: (l) => days(l.noOfRentalDays ?? 0) }}
      prices={{ unit: (l) => l.unitPrice, total: (l) => l.lineTotal }}
      {...extra}
    />,
  );
  return {
    headers: screen.getAllByRole('columnheader').map((h) => h.textContent),
    cells: within(screen.getAllByRole('row')[1]!).getAllByRole('cell'),
  };
}

describe('OrderLinesTable', () => {
  it('shows a purchase: image, name with its variant tags, quantity, price and total', () => {
    const { headers, cells } = show(false);
    expect(headers).toEqual(['Image', 'Name', 'Quantity', 'Price', 'Total']);
    expect(within(cells[0]!).getByRole('img', { name: 'Wheelchair' })).toHaveAttribute('src', '/img/w.png');
    expect(cells[1]!.textContent).toBe('WheelchairStandardLarge');
    expect(cells.slice(2).map((c) => c.textContent)).toEqual(['2', '$19.99', '$119.94']);
  });

  it('shows a rental with its rental days and the price per day', () => {
    const { headers, cells } = show(true);
    expect(headers).toEqual(['Image', 'Name', 'Quantity', 'Rental Days', 'Price / day', 'Total']);
    expect(cells.slice(2).map((c) => c.textContent)).toEqual(['2', '3 days', '$19.99', '$119.94']);
  });

  it("puts a screen's own columns before the prices and at the end, and leaves out what it does not ask for", () => {
    const { headers, cells } = show(true, {
      image: undefined,
      nameTitle: 'Product',
      beforePrices: [{ title: 'Due Date', key: 'due', render: () => '2026-11-24' }],
      after: [{ title: 'Serial Codes', key: 'serials', render: () => 'SN-1' }],
    });
    expect(headers).toEqual(['Product', 'Quantity', 'Rental Days', 'Due Date', 'Price / day', 'Total', 'Serial Codes']);
    expect(cells.map((c) => c.textContent)).toEqual(['WheelchairStandardLarge', '2', '3 days', '2026-11-24', '$19.99', '$119.94', 'SN-1']);
  });

  it('shows no price columns when not asked, and the empty text for no lines', () => {
    render(<OrderLinesTable<Line> lines={[]} rowKey="id" rent={false} name={(l) => ({ product: l.productName })} emptyText="No products." />);
    expect(screen.getAllByRole('columnheader').map((h) => h.textContent)).toEqual(['Name', 'Quantity']);
    expect(screen.getByText('No products.')).toBeInTheDocument();
  });

  it('says days in words', () => {
    expect(days(1)).toBe('1 day');
    expect(days(7)).toBe('7 days');
  });
});
