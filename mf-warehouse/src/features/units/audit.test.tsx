import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import type { BinAudit, User } from '@dme/contracts';
import App from '../../app';
import { mockApi, on, type Call } from '@dme/ui/testing';

const staff = { id: '00000000-0000-4000-8000-0000000000a1', username: 'wendy', firstName: 'Wendy', lastName: 'Ramos', userType: 'WAREHOUSE_STAFF' } as User;
const BIN = '99999999-9999-4999-8999-999999999999';
const unit = (serialCode: string, binName = 'Aisle A') => ({ serialCode, productName: 'Walker', status: 'AVAILABLE' as const, binName });

const result: BinAudit = {
  id: '88888888-8888-4888-8888-888888888888',
  binID: BIN,
  binName: 'Aisle A',
  by: 'wendy',
  at: '2026-11-28T02:00:00.000Z',
  expected: 2,
  scanned: 2,
  found: [unit('WAL-0000001')],
  wrongBin: [unit('WAL-0000009', 'Aisle B')],
  missing: [unit('WAL-0000002')],
  unknown: [],
};

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

describe('a physical audit of a bin (issue 26)', () => {
  it('scans labels (a repeat is said once), finishes with the server\'s comparison, and moves a unit from another bin here', async () => {
    const { calls } = mockApi(
      on('GET', `/api/warehouse-bins/${BIN}`, { status: 200, body: { bin: { id: BIN, name: 'Aisle A', description: '', createdAt: '2026-11-01T00:00:00.000Z', updatedAt: '2026-11-01T00:00:00.000Z' } } }),
      on('GET', `/api/warehouse-bins/${BIN}/audits`, { status: 200, body: { items: [], total: 0 } }),
      on('POST', `/api/warehouse-bins/${BIN}/audits`, { status: 201, body: { audit: result } }),
      on('POST', '/api/units/WAL-0000009/move', { status: 200, body: {} }),
    );
    render(
      <MemoryRouter initialEntries={[`/admin/warehouse-bins/${BIN}/audit`]}>
        <App user={staff} />
      </MemoryRouter>,
    );
    expect(await screen.findByRole('heading', { name: 'Audit of Aisle A' })).toBeInTheDocument();
    // The bin and its audits are two answers: the empty list is waited for, not read with the heading.
    expect(await screen.findByText('No audit of this bin yet.')).toBeInTheDocument();
    const scan = screen.getByRole('textbox', { name: 'Scan a label' });
    for (const code of ['wal-0000001', '{"productID":"x","serialCode":"WAL-0000009"}', 'WAL-0000001']) {
      fireEvent.change(scan, { target: { value: code } });
      fireEvent.submit(scan.closest('form')!);
    }
    expect(screen.getByRole('alert')).toHaveTextContent('WAL-0000001 is scanned already.');
    expect(screen.getByTestId('scanned-count')).toHaveTextContent('2 scanned');
    fireEvent.click(screen.getByRole('button', { name: 'Finish audit' }));
    const done = await screen.findByTestId('audit-result');
    expect(done).toHaveTextContent('1 of 2 expected found · 1 from other bins · 1 missing · 0 unknown');
    expect(calls.filter((c: Call) => c.method === 'POST').map((c) => c.body)).toEqual([{ serialCodes: ['WAL-0000009', 'WAL-0000001'] }]);
    const wrong = within(screen.getByRole('region', { name: 'In the wrong bin' }));
    fireEvent.click(wrong.getByRole('button', { name: 'Move WAL-0000009 here' }));
    await waitFor(() => expect(wrong.getByText('Moved here')).toBeInTheDocument());
    expect(calls.filter((c: Call) => c.method === 'POST').at(-1)).toMatchObject({ url: '/api/units/WAL-0000009/move', body: { warehouseBinID: BIN } });
    expect(within(screen.getByRole('region', { name: 'Missing' })).getByText('WAL-0000002')).toBeInTheDocument();
  });
});
