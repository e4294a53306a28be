import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import dayjs from 'dayjs';
import { RECALL_MESSAGES, type RecallResponse, type RecallUnit, type User } from '@dme/contracts';
import App from '../../app';
import { mockApi, on, type Call } from '@dme/ui/testing';
import { recallRequest } from './RecallsPage';

const admin = { id: '00000000-0000-4000-8000-0000000000a9', username: 'superadmin', firstName: 'Sara', lastName: 'Admin', userType: 'SUPERADMIN' } as User;
const RECALL = '77777777-7777-4777-8777-777777777777';
const ORDER = 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa';

const unit = (serialCode: string, over: Partial<RecallUnit> = {}): RecallUnit => ({
  serialCode,
  status: 'ON_HOLD',
  state: 'ON_HOLD',
  resolution: null,
  note: '',
  resolvedAt: null,
  resolvedBy: null,
  orderID: null,
  orderNumber: null,
  orderType: null,
  customerName: null,
  ...over,
});

function recall(units: RecallUnit[]): RecallResponse {
  const n = (s: string) => units.filter((u) => u.state === s).length;
  return {
    recall: {
      id: RECALL,
      number: 'RCL-000003',
      title: 'Battery may overheat',
      reason: 'Notice 14',
      productID: '11111111-1111-4111-8111-111111111111',
      productName: 'Oxygen Concentrator',
      status: 'OPEN',
      openedAt: '2026-11-28T01:00:00.000Z',
      openedBy: 'superadmin',
      closedAt: null,
      counts: { total: units.length, onHold: n('ON_HOLD'), withCustomer: n('WITH_CUSTOMER'), other: n('LOST') + n('IN_WAREHOUSE'), resolved: n('RESOLVED') },
      units,
    },
  };
}

function open(path: string) {
  render(
    <MemoryRouter initialEntries={[path]}>
      <App user={admin} />
    </MemoryRouter>,
  );
}

const posts = (calls: Call[]) => calls.filter((c) => c.method === 'POST').map((c) => [c.url, c.body]);

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

describe('a recall (issue 26)', () => {
  it('lists its units with where they stand; a rented one gets a replace request or is settled; it closes only once all are resolved', async () => {
    let current = recall([
      unit('OXY-0000001'),
      unit('OXY-0000002', { status: 'RENTED', state: 'WITH_CUSTOMER', orderID: ORDER, orderNumber: 'ORD-20261127-000004', orderType: 'RENT', customerName: 'Jose Rizal' }),
    ]);
    const { calls } = mockApi(
      on('GET', `/api/recalls/${RECALL}`, () => ({ status: 200, body: current })),
      on('POST', `/api/orders/${ORDER}/requests`, { status: 201, body: { request: { id: 'x' } } }),
      on('POST', `/api/recalls/${RECALL}/units/OXY-0000002/settle`, () => {
        current = recall([unit('OXY-0000001', { state: 'RESOLVED', resolution: 'RELEASED', status: 'RETURNED' }), unit('OXY-0000002', { state: 'RESOLVED', resolution: 'SETTLED', note: 'Replaced', status: 'RENTED' })]);
        return { status: 200, body: current };
      }),
      on('POST', `/api/recalls/${RECALL}/close`, () => ({ status: 200, body: { recall: { ...current.recall, status: 'CLOSED', closedAt: '2026-11-29T01:00:00.000Z' } } })),
    );
    open(`/admin/recalls/${RECALL}`);
    expect(await screen.findByRole('heading', { name: 'Recall RCL-000003' })).toBeInTheDocument();
    expect(screen.getByTestId('recall-progress')).toHaveTextContent('0 of 2 resolved');
    expect(screen.getByText(RECALL_MESSAGES.notAllResolved(2))).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Close recall' })).toBeDisabled();
    const rows = within(screen.getByRole('region', { name: 'Recalled units' })).getAllByRole('row').slice(1);
    expect(within(rows[0]!).getByRole('button', { name: 'Release' })).toBeInTheDocument();
    expect(within(rows[0]!).getByRole('button', { name: 'Scrap' })).toBeInTheDocument();
    expect(rows[1]).toHaveTextContent('Jose Rizal');
    expect(within(rows[1]!).getByRole('link', { name: 'ORD-20261127-000004' })).toHaveAttribute('href', `/admin/orders/rentals/${ORDER}`);

    fireEvent.click(within(rows[1]!).getByRole('button', { name: 'Replace request' }));
    await waitFor(() => expect(posts(calls)).toEqual([[`/api/orders/${ORDER}/requests`, { type: 'REPLACE', serialCodes: ['OXY-0000002'], note: RECALL_MESSAGES.holdNote('RCL-000003', 'Battery may overheat') }]]));

    fireEvent.click(within(rows[1]!).getByRole('button', { name: 'Settle' }));
    const dialog = await screen.findByRole('dialog', { name: 'Settle OXY-0000002' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Settle' }));
    expect(await within(dialog).findByText(RECALL_MESSAGES.noteRequired)).toBeInTheDocument();
    fireEvent.change(within(dialog).getByLabelText('How it was settled'), { target: { value: 'Replaced' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Settle' }));
    await waitFor(() => expect(screen.getByTestId('recall-progress')).toHaveTextContent('2 of 2 resolved'));

    fireEvent.click(screen.getByRole('button', { name: 'Close recall' }));
    const confirmDialog = await screen.findByRole('dialog', { name: 'Close recall RCL-000003?' });
    fireEvent.click(within(confirmDialog).getByRole('button', { name: 'Close recall' }));
    await waitFor(() => expect(posts(calls).at(-1)).toEqual([`/api/recalls/${RECALL}/close`, undefined]));
  });
});

describe('recallRequest: what opening a recall sends', () => {
  it('serial codes one per line or by commas, a scanned label read; days as Manila dates; empty narrowings left out', () => {
    expect(
      recallRequest({
        title: ' Battery ',
        productID: '11111111-1111-4111-8111-111111111111',
        serialCodes: 'oxy-0000001, OXY-0000004\n{"productID":"x","serialCode":"OXY-0000002"}\nOXY-0000003\n\n',
        receivedFrom: dayjs('2026-10-01'),
      }),
    ).toEqual({ title: 'Battery', reason: '', productID: '11111111-1111-4111-8111-111111111111', serialCodes: ['OXY-0000001', 'OXY-0000004', 'OXY-0000002', 'OXY-0000003'], receivedFrom: '2026-10-01' });
    expect(recallRequest({ title: 'All', productID: '11111111-1111-4111-8111-111111111111' })).toEqual({ title: 'All', reason: '', productID: '11111111-1111-4111-8111-111111111111' });
  });
});
