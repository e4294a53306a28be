import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter, useLocation } from 'react-router-dom';
import { UNIT_MESSAGES, type CustodyEntry, type UnitResponse, type UnitSummary, type User } from '@dme/contracts';
import { nextUnitStep, unitStepsOf, type StockStatus } from '@dme/contracts/browser';
import App from '../../app';
import { mockApi, on, problem, query, type Call } from '@dme/ui/testing';
import { stepRequest } from './StepDialog';

const staff = { id: '00000000-0000-4000-8000-0000000000a1', username: 'wendy', firstName: 'Wendy', lastName: 'Ramos', userType: 'WAREHOUSE_STAFF' } as User;
const SHELF = '99999999-9999-4999-8999-999999999999';

function summary(code: string, status: StockStatus): UnitSummary {
  return {
    id: `6f1c3a9e-2b7d-4c1e-9a55-${code.slice(-6).padStart(12, '0')}`,
    serialCode: code,
    status,
    inventoryType: 'IN',
    productID: '11111111-1111-4111-8111-111111111111',
    productName: 'Oxygen Concentrator',
    level: null,
    warehouseBin: { id: '88888888-8888-4888-8888-888888888888', name: 'Returns' },
    since: '2026-11-27T02:00:00.000Z',
    steps: unitStepsOf(status),
    nextStep: nextUnitStep(status),
    service: null,
  };
}

const entry = (kind: CustodyEntry['kind'], over: Partial<CustodyEntry> = {}): CustodyEntry => ({
  id: `${kind}-1`,
  kind,
  at: '2026-11-27T02:00:00.000Z',
  by: 'wendy',
  status: null,
  bin: 'Returns',
  orderNumber: null,
  party: null,
  condition: null,
  note: '',
  checklist: null,
  ...over,
});

function unit(code: string, status: StockStatus, history: CustodyEntry[] = []): UnitResponse {
  return { unit: { ...summary(code, status), checklist: ['Filter replaced', 'Alarm tested'], serviceChecklist: ['Filter changed'], orderNumber: null, repair: null, repairs: [] }, history };
}

function open(path: string) {
  function Where() {
    return <output data-testid="where">{useLocation().pathname}</output>;
  }
  render(
    <MemoryRouter initialEntries={[path]}>
      <App user={staff} />
      <Where />
    </MemoryRouter>,
  );
}

const posts = (calls: Call[]) => calls.filter((c) => c.method === 'POST').map((c) => [c.url, c.body]);

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

describe('the units board (issue 26)', () => {
  it('shows each column with its count; a row opens its next step; a scan opens the scanned unit\'s next step', async () => {
    const units: Record<string, UnitResponse> = { 'OXY-0000001': unit('OXY-0000001', 'RETURNED'), 'OXY-0000002': unit('OXY-0000002', 'CLEANED') };
    const { calls } = mockApi(
      on('GET', '/api/units', (c) => {
        const col = query(c).column;
        const items = Object.values(units).map((u) => summary(u.unit.serialCode, u.unit.status)).filter((u) => (col === 'TO_CLEAN' ? u.status === 'RETURNED' : u.status === 'CLEANED'));
        return { status: 200, body: { counts: { TO_CLEAN: 1, TO_INSPECT: 1, TO_PUT_AWAY: 0, DAMAGED: 0, IN_REPAIR: 0, ON_HOLD: 2 }, items, total: items.length } };
      }),
      (c) => {
        const m = /^\/api\/units\/([A-Z0-9-]+)$/.exec(c.url);
        return m && c.method === 'GET' ? (units[m[1]!] ? { status: 200, body: units[m[1]!] } : problem(404, UNIT_MESSAGES.notFound)) : undefined;
      },
      (c) => {
        const m = /^\/api\/units\/([A-Z0-9-]+)\/steps$/.exec(c.url);
        if (!m || c.method !== 'POST') return undefined;
        const next = (c.body as { step: string }).step === 'CLEAN' ? 'CLEANED' : 'INSPECTED';
        units[m[1]!] = unit(m[1]!, next);
        return { status: 200, body: { ...units[m[1]!], message: UNIT_MESSAGES.done(m[1]!, next.toLowerCase()) } };
      },
    );
    open('/admin/units');
    expect(await screen.findByRole('heading', { name: 'Units' })).toBeInTheDocument();
    expect(await screen.findByRole('tab', { name: 'To clean 1' })).toHaveAttribute('aria-selected', 'true');
    expect(screen.getByRole('tab', { name: 'On hold 2' })).toBeInTheDocument();
    const row = (await screen.findByRole('cell', { name: 'OXY-0000001' })).closest('tr')!;
    fireEvent.click(within(row).getByRole('button', { name: 'Cleaned OXY-0000001' }));
    const dialog = await screen.findByRole('dialog', { name: 'Clean OXY-0000001' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cleaned' }));
    expect(await screen.findByText(UNIT_MESSAGES.done('OXY-0000001', 'cleaned'))).toBeInTheDocument();
    expect(posts(calls)).toEqual([['/api/units/OXY-0000001/steps', { step: 'CLEAN', note: '' }]]);

    // A scanner types the label's QR and Enter: the unit's next step (inspect, with its checklist) opens.
    const scan = screen.getByRole('textbox', { name: 'Scan a unit' });
    fireEvent.change(scan, { target: { value: '{"productID":"11111111-1111-4111-8111-111111111111","serialCode":"OXY-0000002"}' } });
    fireEvent.submit(scan.closest('form')!);
    const inspect = await screen.findByRole('dialog', { name: 'Inspect OXY-0000002' });
    fireEvent.click(within(inspect).getByRole('button', { name: 'Save inspection' }));
    expect(await within(inspect).findAllByText(UNIT_MESSAGES.checklistRequired)).toHaveLength(2);
    fireEvent.click(within(within(inspect).getByRole('radiogroup', { name: 'Filter replaced' })).getByText('Pass'));
    fireEvent.click(within(within(inspect).getByRole('radiogroup', { name: 'Alarm tested' })).getByText('Fail'));
    fireEvent.click(within(inspect).getByRole('button', { name: 'Save inspection' }));
    await waitFor(() =>
      expect(posts(calls).at(-1)).toEqual([
        '/api/units/OXY-0000002/steps',
        { step: 'INSPECT', note: '', checklist: [{ point: 'Filter replaced', ok: true }, { point: 'Alarm tested', ok: false }] },
      ]),
    );

    // A code that is no unit: the server's answer, nothing opens.
    fireEvent.change(scan, { target: { value: 'NOPE-0000009' } });
    fireEvent.submit(scan.closest('form')!);
    expect(await screen.findByText(UNIT_MESSAGES.notFound)).toBeInTheDocument();
  });
});

describe('the board refreshing after a step', () => {
  it("keeps its rows as they are and clickable: the next unit's step opens while the refresh is on its way", async () => {
    const units: Record<string, UnitResponse> = { 'OXY-0000011': unit('OXY-0000011', 'RETURNED'), 'OXY-0000012': unit('OXY-0000012', 'RETURNED') };
    let boards = 0;
    let held: (() => void) | undefined;
    mockApi(
      on('GET', '/api/units', async () => {
        boards += 1;
        // The refresh after the step: its answer is held while the next click comes.
        if (boards > 1) await new Promise<void>((r) => (held = r));
        const items = Object.values(units).filter((u) => u.unit.status === 'RETURNED').map((u) => summary(u.unit.serialCode, u.unit.status));
        return { status: 200, body: { counts: { TO_CLEAN: items.length, TO_INSPECT: 0, TO_PUT_AWAY: 0, DAMAGED: 0, IN_REPAIR: 0, ON_HOLD: 0 }, items, total: items.length } };
      }),
      (c) => {
        const m = /^\/api\/units\/([A-Z0-9-]+)$/.exec(c.url);
        return m && c.method === 'GET' ? { status: 200, body: units[m[1]!] } : undefined;
      },
      (c) => {
        const m = /^\/api\/units\/([A-Z0-9-]+)\/steps$/.exec(c.url);
        if (!m || c.method !== 'POST') return undefined;
        units[m[1]!] = unit(m[1]!, 'CLEANED');
        return { status: 200, body: { ...units[m[1]!], message: UNIT_MESSAGES.done(m[1]!, 'cleaned') } };
      },
    );
    open('/admin/units');
    const first = (await screen.findByRole('cell', { name: 'OXY-0000011' })).closest('tr')!;
    fireEvent.click(within(first).getByRole('button', { name: 'Cleaned OXY-0000011' }));
    const dialog = await screen.findByRole('dialog', { name: 'Clean OXY-0000011' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cleaned' }));
    expect(await screen.findByText(UNIT_MESSAGES.done('OXY-0000011', 'cleaned'))).toBeInTheDocument();
    await waitFor(() => expect(held).toBeDefined());
    // Refreshing: no mask over the rows, and the next unit's step opens.
    const second = screen.getByRole('cell', { name: 'OXY-0000012' });
    expect(second.closest('[aria-busy="true"]')).toBeNull();
    fireEvent.click(within(second.closest('tr')!).getByRole('button', { name: 'Cleaned OXY-0000012' }));
    expect(await screen.findByRole('dialog', { name: 'Clean OXY-0000012' })).toBeInTheDocument();
    held!();
    await waitFor(() => expect(screen.queryByRole('cell', { name: 'OXY-0000011' })).toBeNull());
  });
});

describe('a scan right after a step (found by CI)', () => {
  it('is not swallowed while the unit refreshes after the step, and opens the next step, not the one just done', async () => {
    let status: StockStatus = 'RETURNED';
    const { calls } = mockApi(
      on('GET', '/api/units', { status: 200, body: { counts: { TO_CLEAN: 1, TO_INSPECT: 0, TO_PUT_AWAY: 0, DAMAGED: 0, IN_REPAIR: 0, ON_HOLD: 0 }, items: [], total: 0 } }),
      // The unit's answers come slowly (a busy server): a scan must wait for its own.
      on('GET', '/api/units/OXY-0000007', async () => {
        const now = status;
        await new Promise((r) => setTimeout(r, now === 'RETURNED' ? 50 : 600));
        return { status: 200, body: unit('OXY-0000007', now) };
      }),
      on('POST', '/api/units/OXY-0000007/steps', () => {
        status = 'CLEANED';
        return { status: 200, body: { ...unit('OXY-0000007', 'CLEANED'), message: UNIT_MESSAGES.done('OXY-0000007', 'cleaned') } };
      }),
    );
    open('/admin/units');
    const scan = await screen.findByRole('textbox', { name: 'Scan a unit' });
    const scanIt = () => {
      fireEvent.change(scan, { target: { value: 'OXY-0000007' } });
      fireEvent.submit(scan.closest('form')!);
    };
    scanIt();
    const clean = await screen.findByRole('dialog', { name: 'Clean OXY-0000007' });
    fireEvent.click(within(clean).getByRole('button', { name: 'Cleaned' }));
    expect(await screen.findByText(UNIT_MESSAGES.done('OXY-0000007', 'cleaned'))).toBeInTheDocument();
    // At once, with the Open button (as a scanner's Enter does), while the refresh after the step is
    // still on its way: the scan is not swallowed, and it opens what the server says now.
    fireEvent.change(scan, { target: { value: 'OXY-0000007' } });
    fireEvent.click(within(scan.closest('form')!).getByRole('button', { name: /Open$/, hidden: true }));
    expect(await screen.findByRole('dialog', { name: 'Inspect OXY-0000007' })).toBeInTheDocument();
    expect(screen.queryByRole('dialog', { name: 'Clean OXY-0000007' })).toBeNull();
    expect(calls.filter((c) => c.method === 'GET' && c.url === '/api/units/OXY-0000007').length).toBeGreaterThanOrEqual(2);
  });
});

describe("a unit's page (issue 26)", () => {
  it('shows what it is, the steps it can take, its history newest first, and the exports; a refused step says why in the dialog', async () => {
    const history = [
      entry('STOCKED', { status: 'AVAILABLE', by: null }),
      entry('DELIVERED', { orderNumber: 'ORD-20261127-000004', party: 'Jose Rizal', by: 'dan' }),
      entry('RETURNED', { status: 'RETURNED', condition: 'OK', orderNumber: 'ORD-20261127-000004', party: 'Jose Rizal' }),
    ];
    const detail = UNIT_MESSAGES.cannot('OXY-0000003', 'on hold', 'Cleaned');
    mockApi(on('GET', '/api/units/OXY-0000003', { status: 200, body: unit('OXY-0000003', 'RETURNED', history) }), on('POST', '/api/units/OXY-0000003/steps', problem(409, detail)));
    open('/admin/units/OXY-0000003');
    expect(await screen.findByRole('heading', { name: 'Unit OXY-0000003' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Cleaned' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Put on hold' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Put away' })).toBeNull();
    const entries = screen.getAllByTestId('custody-entry').map((e) => e.textContent);
    expect(entries[0]).toMatch(/^Returned.*OK.*customer Jose Rizal.*bin Returns.*order ORD-20261127-000004/);
    expect(entries[1]).toMatch(/^Delivered.*by dan.*customer Jose Rizal/);
    expect(entries[2]).toMatch(/^Stocked/);
    expect(screen.getByRole('link', { name: 'Download CSV' })).toHaveAttribute('href', '/api/units/OXY-0000003/custody?format=csv');
    expect(screen.getByRole('link', { name: 'Download EPCIS 2.0 (JSON-LD)' })).toHaveAttribute('href', '/api/units/OXY-0000003/custody?format=epcis');

    fireEvent.click(screen.getByRole('button', { name: 'Cleaned' }));
    const dialog = await screen.findByRole('dialog', { name: 'Clean OXY-0000003' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cleaned' }));
    expect(await within(dialog).findByTestId('step-error')).toHaveTextContent(detail);
  });

  it('a unit due for its service: says so, services it with the plan\'s checklist, and schedules the service on the calendar', async () => {
    const due = unit('OXY-0000004', 'AVAILABLE');
    due.unit.service = { servicedOn: '2026-10-01', dueOn: '2026-10-31', rentalDaysLeft: null, due: true };
    due.unit.nextStep = 'SERVICE';
    due.unit.steps = ['HOLD', 'SERVICE'];
    const { calls } = mockApi(
      on('GET', '/api/units/OXY-0000004', { status: 200, body: due }),
      on('POST', '/api/units/OXY-0000004/steps', { status: 200, body: { ...due, message: UNIT_MESSAGES.serviced('OXY-0000004') } }),
      on('POST', '/api/downtime', { status: 201, body: { message: '1 unit blocked.' } }),
    );
    open('/admin/units/OXY-0000004');
    expect(await screen.findByTestId('service')).toHaveTextContent('Serviced Oct 1, 2026 · due Oct 31, 2026Service due');
    fireEvent.click(screen.getByRole('button', { name: 'Service' }));
    const dialog = await screen.findByRole('dialog', { name: 'Service OXY-0000004' });
    fireEvent.click(within(within(dialog).getByRole('radiogroup', { name: 'Filter changed' })).getByText('Pass'));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save service' }));
    expect(await screen.findByText(UNIT_MESSAGES.serviced('OXY-0000004'))).toBeInTheDocument();
    expect(posts(calls)).toEqual([['/api/units/OXY-0000004/steps', { step: 'SERVICE', note: '', checklist: [{ point: 'Filter changed', ok: true }] }]]);

    fireEvent.click(screen.getByRole('button', { name: 'Schedule service' }));
    const schedule = await screen.findByRole('dialog', { name: 'Schedule the service of OXY-0000004' });
    fireEvent.click(within(schedule).getByRole('button', { name: 'Schedule' }));
    await waitFor(() => expect(posts(calls).at(-1)![0]).toBe('/api/downtime'));
    expect(posts(calls).at(-1)![1]).toMatchObject({ stockItemID: due.unit.id, productID: due.unit.productID, reason: 'MAINTENANCE' });
  });

  it('an unknown code: an error state, not a crash', async () => {
    mockApi(on('GET', '/api/units/NOPE-0000001', problem(404, UNIT_MESSAGES.notFound)));
    open('/admin/units/NOPE-0000001');
    expect(await screen.findByText(UNIT_MESSAGES.notFound)).toBeInTheDocument();
  });
});

describe('stepRequest: what each step sends', () => {
  const u = { checklist: ['A', 'B'], serviceChecklist: ['S'] };
  it.each([
    ['CLEAN', { note: ' wiped ' }, { step: 'CLEAN', note: 'wiped' }],
    ['INSPECT', { checklist: { A: 'PASS', B: 'FAIL' } }, { step: 'INSPECT', note: '', checklist: [{ point: 'A', ok: true }, { point: 'B', ok: false }] }],
    ['PUT_AWAY', { warehouseBinID: SHELF }, { step: 'PUT_AWAY', note: '', warehouseBinID: SHELF }],
    ['OPEN_REPAIR', { fault: ' Alarm silent ' }, { step: 'OPEN_REPAIR', note: '', fault: 'Alarm silent' }],
    ['CLOSE_REPAIR', { outcome: 'REPAIRED', cost: 120.5, parts: 'Buzzer', technician: '' }, { step: 'CLOSE_REPAIR', note: '', outcome: 'REPAIRED', cost: '120.50', parts: 'Buzzer' }],
    ['HOLD', { note: 'Recall' }, { step: 'HOLD', note: 'Recall' }],
    ['SERVICE', { checklist: { S: 'PASS' } }, { step: 'SERVICE', note: '', checklist: [{ point: 'S', ok: true }] }],
  ] as const)('%s', (step, values, expected) => {
    expect(stepRequest(step, u, values as never)).toEqual(expected);
  });
});
