// @vitest-environment happy-dom
import { describe, expect, it } from 'vitest';
import { render, screen, within } from '@testing-library/react';
import type { RentalCycle } from '@dme/contracts';
import { CycleCounts, CyclesTable, cycleDueText, OrderCycles, RentToOwnTable } from './CyclesTable';

// A 70-day rental delivered on Mar 1: cycle 1 paid, cycle 2 due, cycle 3 to come.
const cycles: RentalCycle[] = [
  { n: 1, from: '2026-03-01', to: '2026-03-30', dueOn: '2026-03-01', days: 30, amount: '2700.00', state: 'PAID' },
  { n: 2, from: '2026-03-31', to: '2026-04-29', dueOn: '2026-03-31', days: 30, amount: '2700.00', state: 'DUE' },
  { n: 3, from: '2026-04-30', to: '2026-05-09', dueOn: '2026-04-30', days: 10, amount: '900.00', state: 'UPCOMING' },
];

const section = () => screen.getByRole('region', { name: 'Billing cycles' });
const row = (n: string) => within(section()).getByRole('cell', { name: n }).closest('tr') as HTMLElement;

describe('CyclesTable', () => {
  it('says how cycles are billed and shows each cycle with its days, due day, rent and state', () => {
    render(<CyclesTable cycles={cycles} deliveredOn="2026-03-01" />);
    expect(within(section()).getByRole('heading', { name: 'Billing cycles' })).toBeInTheDocument();
    expect(within(section()).getByText('Billed every 30 days from delivery (delivered Mar 1, 2026)')).toBeInTheDocument();
    expect(within(section()).getAllByRole('columnheader').map((h) => h.textContent)).toEqual(['Cycle', 'Days', 'Due on', 'Rent', 'Status']);
    for (const text of ['Mar 1, 2026 – Mar 30, 2026', 'Mar 1, 2026', '$2,700.00']) expect(within(row('1')).getByText(text)).toBeInTheDocument();
    expect(within(row('1')).getByText('Paid')).toHaveClass('ant-tag-green');
    for (const text of ['Mar 31, 2026 – Apr 29, 2026', 'Mar 31, 2026', '$2,700.00']) expect(within(row('2')).getByText(text)).toBeInTheDocument();
    expect(within(row('2')).getByText('Due')).toHaveClass('ant-tag-red');
    for (const text of ['Apr 30, 2026 – May 9, 2026', '$900.00']) expect(within(row('3')).getByText(text)).toBeInTheDocument();
    const upcoming = within(row('3')).getByText('Upcoming');
    expect(upcoming).toHaveClass('ant-tag');
    expect(upcoming).not.toHaveClass('ant-tag-green');
    expect(upcoming).not.toHaveClass('ant-tag-red');
    expect(within(section()).queryByText('Cycles start on the delivery day.')).toBeNull();
  });

  it('before delivery: says the cycles start on the delivery day, with no table', () => {
    render(<CyclesTable cycles={[]} deliveredOn={null} />);
    expect(within(section()).getByText('Billed every 30 days from delivery')).toBeInTheDocument();
    expect(within(section()).getByText('Cycles start on the delivery day.')).toBeInTheDocument();
    expect(within(section()).queryByRole('table')).toBeNull();
  });

  it('names a cycle with its days', () => {
    expect(cycleDueText(cycles[1]!)).toBe('Cycle 2: Mar 31, 2026 – Apr 29, 2026');
  });
});

describe('OrderCycles', () => {
  it("an order billed by cycles: its cycles, delivered on the Manila day of its delivery", () => {
    // 17:00 UTC on Feb 28 is 1 AM on Mar 1 in Manila.
    render(<OrderCycles order={{ billing: 'CYCLES', cycles, deliveredAt: '2026-02-28T17:00:00.000Z' }} />);
    expect(within(section()).getByText('Billed every 30 days from delivery (delivered Mar 1, 2026)')).toBeInTheDocument();
    expect(within(row('2')).getByText('Due')).toBeInTheDocument();
  });

  it('an upfront order shows nothing', () => {
    const { container } = render(<OrderCycles order={{ billing: 'UPFRONT', cycles: [], deliveredAt: '2026-02-28T17:00:00.000Z' }} />);
    expect(container).toBeEmptyDOMElement();
  });
});

describe('CycleCounts', () => {
  it('how many cycles are paid of how many, and a red tag for those due', () => {
    render(<CycleCounts cycles={{ paid: 1, due: 1, count: 2 }} />);
    expect(screen.getByText('1 of 2 paid')).toBeInTheDocument();
    expect(screen.getByText('1 due')).toHaveClass('ant-tag-red');
  });

  it('no tag when none is due; a dash for a rental not billed by cycles', () => {
    const { container, unmount } = render(<CycleCounts cycles={{ paid: 2, due: 0, count: 3 }} />);
    expect(container).toHaveTextContent(/^2 of 3 paid$/);
    expect(container.querySelector('.ant-tag')).toBeNull();
    unmount();
    const dash = render(<CycleCounts cycles={null} />);
    expect(dash.container).toHaveTextContent(/^—$/);
  });
});

describe('RentToOwnTable (issue 29)', () => {
  const line = { lineId: '00000000-0000-4000-8000-000000000001', productName: 'Hospital Bed', rentPaid: '6000.00', credited: '3000.00', buyOut: '27000.00', cyclesPaid: 2, afterCycles: 12, owned: false };
  it('each line: rent paid, credited, the buy-out price now and how far from ownership', () => {
    render(<RentToOwnTable lines={[line]} />);
    const region = screen.getByRole('region', { name: 'Rent-to-own' });
    expect(within(region).getAllByRole('columnheader').map((h) => h.textContent)).toEqual(['Product', 'Rent paid', 'Rent credited', 'Buy-out price now', 'Ownership']);
    const r = within(region).getByRole('cell', { name: 'Hospital Bed' }).closest('tr') as HTMLElement;
    for (const text of ['$6,000.00', '$3,000.00', '$27,000.00', '2 of 12 cycles paid']) expect(within(r).getByText(text)).toBeInTheDocument();
  });

  it('owned: "Yours", no buy-out price; the order pages show it with the cycles, not without rent-to-own', () => {
    render(<RentToOwnTable lines={[{ ...line, owned: true, cyclesPaid: 12 }]} />);
    const r = within(screen.getByRole('region', { name: 'Rent-to-own' })).getByRole('cell', { name: 'Hospital Bed' }).closest('tr') as HTMLElement;
    expect(within(r).getByText('Yours')).toHaveClass('ant-tag-green');
    expect(within(r).queryByText('$27,000.00')).toBeNull();
  });

  it('OrderCycles shows rent-to-own under the cycles when the order has it', () => {
    const { rerender } = render(<OrderCycles order={{ billing: 'CYCLES', cycles, deliveredAt: '2026-03-01T04:00:00.000Z', rentToOwn: [line] }} />);
    expect(screen.getByRole('region', { name: 'Rent-to-own' })).toBeInTheDocument();
    rerender(<OrderCycles order={{ billing: 'CYCLES', cycles, deliveredAt: '2026-03-01T04:00:00.000Z', rentToOwn: [] }} />);
    expect(screen.queryByRole('region', { name: 'Rent-to-own' })).toBeNull();
    expect(screen.getByRole('region', { name: 'Billing cycles' })).toBeInTheDocument();
  });
});

describe('a closed cycle (issue 29)', () => {
  it('back or the customer\'s: a cycle not paid on its own says Closed', () => {
    render(<CyclesTable cycles={[cycles[0]!, { ...cycles[1]!, state: 'CLOSED' }]} deliveredOn="2026-03-01" />);
    expect(within(row('2')).getByText('Closed')).toBeInTheDocument();
    expect(within(row('1')).getByText('Paid')).toBeInTheDocument();
  });
});
