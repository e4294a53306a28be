import { describe, expect, it } from 'vitest';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter, useLocation } from 'react-router-dom';
import type { ReconciliationRun, ReconciliationRunResponse, User } from '@dme/contracts';
import App from '../../app';
import { mockApi, on } from '@dme/ui/testing';
import { RECONCILIATION_TEXTS } from './ReconciliationPage';

const accountant = { id: '00000000-0000-4000-8000-0000000000ac', username: 'accounting', firstName: 'Ana', lastName: 'Reyes', userType: 'ACCOUNTING_ADMIN' } as User;
const ids = { daily: '11111111-1111-4111-8111-111111111111', older: '22222222-2222-4222-8222-222222222222', manual: '33333333-3333-4333-8333-333333333333', payment: '44444444-4444-4444-8444-444444444444' };

const run = (over: Partial<ReconciliationRun>): ReconciliationRun => ({
  id: ids.daily,
  day: '2026-11-29',
  kind: 'DAILY',
  status: 'DONE',
  startedAt: '2026-11-28T17:00:00.000Z',
  finishedAt: '2026-11-28T17:00:02.000Z',
  checked: 120,
  mismatches: 1,
  startedByName: null,
  ...over,
});
const daily: ReconciliationRunResponse = {
  run: run({}),
  mismatches: [{ paymentId: ids.payment, orderNumber: 'ORD-20261120-000007', check: 'DUPLICATE_CHARGE', expected: '1', actual: '2', detail: 'Full payment recorded 2 times' }],
};
const older: ReconciliationRunResponse = { run: run({ id: ids.older, day: '2026-11-28', mismatches: 0, startedAt: '2026-11-27T17:00:00.000Z' }), mismatches: [] };

function Where() {
  const l = useLocation();
  return <output data-testid="location">{l.pathname + l.search}</output>;
}
function open(path: string, user: User = accountant) {
  render(
    <MemoryRouter initialEntries={[path]}>
      <App user={user} />
      <Where />
    </MemoryRouter>,
  );
}

describe('reconciliation screen (issue 29)', () => {
  it("shows the newest run's mismatches, each linking to its payment, and the runs; another run on Show", async () => {
    mockApi(
      on('GET', '/api/reconciliation/runs', { status: 200, body: { items: [daily.run, older.run] } }),
      on('GET', `/api/reconciliation/runs/${ids.daily}`, { status: 200, body: daily }),
      on('GET', `/api/reconciliation/runs/${ids.older}`, { status: 200, body: older }),
    );
    open('/admin/reconciliation');
    expect(await screen.findByRole('heading', { name: 'Reconciliation' })).toBeInTheDocument();
    const mismatches = screen.getByRole('region', { name: 'Mismatches' });
    const link = await within(mismatches).findByRole('link', { name: 'ORD-20261120-000007' });
    expect(link).toHaveAttribute('href', `/admin/payments/${ids.payment}`);
    expect(link.closest('tr')).toHaveTextContent('Charged twice');
    expect(link.closest('tr')).toHaveTextContent('Full payment recorded 2 times');
    expect(screen.getByTestId('run-summary')).toHaveTextContent('Nov 29, 2026 · Daily · 120 payments checked · 1 mismatch');

    const runs = screen.getByRole('region', { name: 'Runs' });
    expect(within(runs).getAllByRole('row')).toHaveLength(3);
    fireEvent.click(within(runs).getByRole('link', { name: /Show the run of Nov 28, 2026/ }));
    expect(await within(mismatches).findByText(RECONCILIATION_TEXTS.clean)).toBeInTheDocument();
    expect(screen.getByTestId('location')).toHaveTextContent(`/admin/reconciliation?run=${ids.older}`);
  });

  it('Run now checks every payment at once, says what it found and shows that run', async () => {
    const manual: ReconciliationRunResponse = { run: run({ id: ids.manual, kind: 'MANUAL', mismatches: 0, startedByName: 'Ana Reyes' }), mismatches: [] };
    let items = [older.run];
    const { calls } = mockApi(
      on('GET', '/api/reconciliation/runs', () => ({ status: 200, body: { items } })),
      on('GET', `/api/reconciliation/runs/${ids.older}`, { status: 200, body: older }),
      on('GET', `/api/reconciliation/runs/${ids.manual}`, { status: 200, body: manual }),
      on('POST', '/api/reconciliation/runs', () => {
        items = [manual.run, older.run];
        return { status: 201, body: manual };
      }),
    );
    open('/admin/reconciliation');
    await screen.findByTestId('run-summary');
    fireEvent.click(screen.getByRole('button', { name: 'Run now' }));
    expect(await screen.findByText(RECONCILIATION_TEXTS.done(0))).toBeInTheDocument();
    expect(calls.filter((c) => c.method === 'POST')).toHaveLength(1);
    await waitFor(() => expect(screen.getByTestId('run-summary')).toHaveTextContent('Nov 29, 2026 · Run now · 120 payments checked · 0 mismatches'));
    expect(screen.getByTestId('location')).toHaveTextContent(`/admin/reconciliation?run=${ids.manual}`);
    expect(within(screen.getByRole('region', { name: 'Runs' })).getByText('Ana Reyes')).toBeInTheDocument();
  });

  it('says when nothing has run yet, and shows a refused start', async () => {
    mockApi(
      on('GET', '/api/reconciliation/runs', { status: 200, body: { items: [] } }),
      on('POST', '/api/reconciliation/runs', { status: 503, body: { type: 'about:blank', title: 'Unavailable', status: 503, detail: 'The payment service is not answering.' } }),
    );
    open('/admin/reconciliation');
    expect((await screen.findAllByText(RECONCILIATION_TEXTS.none)).length).toBeGreaterThan(0);
    fireEvent.click(screen.getByRole('button', { name: 'Run now' }));
    expect(await screen.findByText('The payment service is not answering.')).toBeInTheDocument();
  });

  it('is not for the warehouse', async () => {
    mockApi();
    open('/admin/reconciliation', { ...accountant, userType: 'WAREHOUSE_STAFF' });
    expect(await screen.findByText('Not available')).toBeInTheDocument();
  });
});
