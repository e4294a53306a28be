import { describe, expect, it, vi } from 'vitest';
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import { RENTAL_MESSAGES, type Order, type OrderRequest } from '@dme/contracts';
import App from '../../app';
import { stubApi } from '../../test/api';
import { customer, initial, line, order, ORDER_ID, serial, unpaid } from '../../test/orders';

const BED = '22222222-2222-4222-8222-222222222222';
const CHAIR = '44444444-4444-4444-8444-444444444444';
const ORDER_PATH = `/api/my/orders/${ORDER_ID}`;
const REQUESTS_PATH = `POST ${ORDER_PATH}/requests`;

/** A rental delivered on Nov 25: its bed is due Nov 28, its wheelchair Dec 2. */
const delivered = (over: Partial<Order> = {}): Order =>
  order({
    status: 'DELIVERED',
    deliveredAt: '2026-11-25T02:00:00.000Z',
    driverID: '55555555-5555-4555-8555-555555555555',
    payment: { ...unpaid, status: 'INITIAL_PAYMENT', records: [initial] },
    products: [
      line({
        id: BED,
        variant: { name: 'Electric', price: '45.00' },
        subVariant: { name: 'Large', price: '45.00' },
        serialCodes: [serial('HOS-0000101')],
        dueDate: '2026-11-28',
      }),
      line({ id: CHAIR, productName: 'Wheelchair', quantity: 1, noOfRentalDays: 7, serialCodes: [serial('WHE-0000007')], dueDate: '2026-12-02' }),
    ],
    ...over,
  });

const request = (over: Partial<OrderRequest>): OrderRequest => ({
  id: '66666666-6666-4666-8666-666666666661',
  orderID: ORDER_ID,
  type: 'FIX',
  status: 'PENDING',
  userNote: '',
  products: [{ lineID: BED, productName: 'Hospital Bed', variantName: 'Electric', subVariantName: 'Large' }],
  createdAt: '2026-11-26T01:00:00.000Z',
  updatedAt: '2026-11-26T01:00:00.000Z',
  ...over,
});

function show(o: Order, routes: Parameters<typeof stubApi>[0] = {}) {
  const api = stubApi({ [ORDER_PATH]: { status: 200, body: { order: o } }, ...routes });
  render(
    <MemoryRouter initialEntries={[`/orders/${o.type === 'RENT' ? 'rentals' : 'purchased'}/${ORDER_ID}`]}>
      <App user={customer} />
    </MemoryRouter>,
  );
  return api;
}

const heading = (o: Order) => screen.findByRole('heading', { name: `Order ${o.orderNumber}` });
const requestButtons = () => ['Request Fix', 'Request Replace'].map((name) => screen.queryByRole('button', { name }));
const requests = () => within(screen.getByRole('region', { name: 'Requests' }));
const posts = (api: ReturnType<typeof stubApi>) => api.calls.filter((c) => c.method === 'POST');

describe('a rental in progress: requests, due dates and notices', () => {
  it("offers 'Request Fix' and 'Request Replace' only while the rental is DELIVERED", async () => {
    const o = delivered();
    show(o);
    await heading(o);
    for (const b of requestButtons()) expect(b).toBeInTheDocument();
  });

  it.each(['PREPARING', 'OUT_FOR_DELIVERY', 'FOR_RETURN', 'FOR_FULL_PAYMENT', 'COMPLETED'] as const)('offers no request buttons when the rental is %s', async (status) => {
    const o = delivered({ status });
    show(o);
    await heading(o);
    expect(screen.getByRole('region', { name: 'Requests' })).toBeInTheDocument();
    for (const b of requestButtons()) expect(b).toBeNull();
  });

  it('a purchase has neither the requests table nor the buttons', async () => {
    const o = delivered({ type: 'BUY', products: [line({ noOfRentalDays: null })] });
    show(o);
    await heading(o);
    expect(screen.queryByRole('region', { name: 'Requests' })).toBeNull();
    for (const b of requestButtons()) expect(b).toBeNull();
  });

  it("submitting with no product ticked says 'Select at least 1 product!' and sends nothing", async () => {
    const o = delivered();
    const api = show(o, { [REQUESTS_PATH]: { status: 201, body: { request: request({}) } } });
    await heading(o);
    fireEvent.click(screen.getByRole('button', { name: 'Request Fix' }));
    const dialog = await screen.findByRole('dialog', { name: 'Request Fix' });
    // Every product of the order, by name with its variant and sub-variant.
    expect(within(dialog).getByRole('checkbox', { name: 'Hospital Bed — Electric / Large' })).not.toBeChecked();
    expect(within(dialog).getByRole('checkbox', { name: 'Wheelchair' })).not.toBeChecked();
    fireEvent.change(within(dialog).getByLabelText('Note'), { target: { value: 'The rail is loose' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Submit' }));
    expect(await within(dialog).findByText(RENTAL_MESSAGES.selectProduct)).toBeInTheDocument();
    expect(posts(api)).toEqual([]);
    expect(screen.getByRole('dialog', { name: 'Request Fix' })).toBeInTheDocument();
  });

  it('a valid request sends its type, products and note, says so, closes and shows the request', async () => {
    let current = delivered();
    const filed = request({ type: 'REPLACE', userNote: 'Squeaky wheel', products: [{ lineID: CHAIR, productName: 'Wheelchair', variantName: null, subVariantName: null }] });
    const api = show(current, {
      [ORDER_PATH]: () => ({ status: 200, body: { order: current } }),
      [REQUESTS_PATH]: () => {
        current = { ...current, requests: [filed] };
        return { status: 201, body: { request: filed } };
      },
    });
    await heading(current);
    expect(requests().getByText('No requests yet.')).toBeInTheDocument();
    const loads = () => api.calls.filter((c) => c.method === 'GET' && c.path === ORDER_PATH).length;
    const before = loads();

    fireEvent.click(screen.getByRole('button', { name: 'Request Replace' }));
    const dialog = await screen.findByRole('dialog', { name: 'Request Replace' });
    fireEvent.click(within(dialog).getByRole('checkbox', { name: 'Wheelchair' }));
    fireEvent.change(within(dialog).getByLabelText('Note'), { target: { value: 'Squeaky wheel' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Submit' }));

    expect(await screen.findByText(RENTAL_MESSAGES.requestSubmitted)).toBeInTheDocument();
    expect(posts(api)).toEqual([{ method: 'POST', path: `${ORDER_PATH}/requests`, body: { type: 'REPLACE', lineIDs: [CHAIR], note: 'Squeaky wheel' } }]);
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Request Replace' })).toBeNull());
    // The order (with its payment and requests) loaded again.
    const row = (await waitFor(() => requests().getByText('Squeaky wheel'))).closest('tr') as HTMLElement;
    expect(loads()).toBeGreaterThan(before);
    for (const text of ['Replace', 'Wheelchair', 'PENDING']) expect(within(row).getByText(text)).toBeInTheDocument();
  });

  it("shows the server's problem when a request is refused, and keeps the dialog open", async () => {
    const o = delivered();
    show(o, { [REQUESTS_PATH]: { status: 409, body: { type: 'about:blank', title: 'Conflict', status: 409, detail: RENTAL_MESSAGES.requestNotOngoing } } });
    await heading(o);
    fireEvent.click(screen.getByRole('button', { name: 'Request Fix' }));
    const dialog = await screen.findByRole('dialog', { name: 'Request Fix' });
    fireEvent.click(within(dialog).getByRole('checkbox', { name: 'Hospital Bed — Electric / Large' }));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Submit' }));
    expect(await screen.findByText(RENTAL_MESSAGES.requestNotOngoing)).toBeInTheDocument();
    expect(screen.queryByText(RENTAL_MESSAGES.requestSubmitted)).toBeNull();
    expect(screen.getByRole('dialog', { name: 'Request Fix' })).toBeInTheDocument();
  });

  it('lists the requests with type, products, note, date and a coloured status tag', async () => {
    const o = delivered({
      status: 'FOR_RETURN',
      requests: [
        request({ userNote: 'The rail is loose' }),
        request({
          id: '66666666-6666-4666-8666-666666666662',
          type: 'REPLACE',
          status: 'ON_PROGRESS',
          products: [
            { lineID: BED, productName: 'Hospital Bed', variantName: 'Electric', subVariantName: 'Large' },
            { lineID: CHAIR, productName: 'Wheelchair', variantName: null, subVariantName: null },
          ],
          createdAt: '2026-11-27T05:30:00.000Z',
        }),
        request({ id: '66666666-6666-4666-8666-666666666663', status: 'DONE', createdAt: '2026-11-28T00:00:00.000Z' }),
      ],
    });
    show(o);
    await heading(o);
    const header = requests().getAllByRole('columnheader').map((h) => h.textContent);
    expect(header).toEqual(['Type', 'Products', 'Note', 'Date', 'Status']);
    const rows = requests().getAllByRole('row').slice(1);
    const cells = rows.map((r) => within(r).getAllByRole('cell').map((c) => c.textContent));
    expect(cells).toEqual([
      ['Fix', 'Hospital Bed — Electric / Large', 'The rail is loose', 'Nov 26, 2026, 9:00 AM', 'PENDING'],
      ['Replace', 'Hospital Bed — Electric / LargeWheelchair', '—', 'Nov 27, 2026, 1:30 PM', 'ON PROGRESS'],
      ['Fix', 'Hospital Bed — Electric / Large', '—', 'Nov 28, 2026, 8:00 AM', 'DONE'],
    ]);
    // SPEC §4: pending blue, on progress orange, done green.
    const tag = (r: HTMLElement) => within(r).getAllByRole('cell')[4]!.querySelector('.ant-tag') as HTMLElement;
    expect(tag(rows[0]!)).toHaveClass('ant-tag-blue');
    expect(tag(rows[1]!)).toHaveClass('ant-tag-orange');
    expect(tag(rows[2]!)).toHaveClass('ant-tag-green');
  });

  it('shows a due date per product once delivered, and RETURNED on the serial codes that came back', async () => {
    const o = delivered({
      status: 'FOR_PICK_UP',
      products: [
        line({ id: BED, serialCodes: [serial('HOS-0000101', { status: 'OK', updatedAt: '2026-11-29T02:00:00.000Z', returnedAt: '2026-11-29T02:00:00.000Z', inventoryType: 'IN' }), serial('HOS-0000102')], dueDate: '2026-11-28' }),
      ],
    });
    show(o);
    await heading(o);
    const products = within(screen.getByRole('region', { name: 'Products' }));
    expect(products.getByRole('columnheader', { name: 'Due Date' })).toBeInTheDocument();
    const row = products.getByText('Hospital Bed').closest('tr') as HTMLElement;
    expect(within(row).getByText('Nov 28, 2026')).toBeInTheDocument();
    expect(within(row).getByText(/HOS-0000101/)).toHaveTextContent('HOS-0000101 RETURNED');
    // When it came back (the entry's updatedAt; 02:00 UTC is 10:00 AM in Manila).
    expect(within(row).getByText('Nov 29, 2026, 10:00 AM')).toBeInTheDocument();
    expect(within(row).getByText(/HOS-0000102/)).toHaveTextContent(/^HOS-0000102$/);
  });

  it('shows no due date column before delivery', async () => {
    const o = order({ status: 'PREPARING', payment: { ...unpaid, status: 'INITIAL_PAYMENT', records: [initial] } });
    show(o);
    await heading(o);
    expect(within(screen.getByRole('region', { name: 'Products' })).queryByRole('columnheader', { name: 'Due Date' })).toBeNull();
  });

  it.each([
    ['OVERDUE', RENTAL_MESSAGES.hasDueProducts],
    ['DUE_TODAY', RENTAL_MESSAGES.dueToday],
  ] as const)('a rental with the due notice %s says so', async (dueNotice, text) => {
    const o = delivered({ dueNotice });
    show(o);
    await heading(o);
    expect(screen.getByRole('alert')).toHaveTextContent(text);
  });

  it('shows no due notice when nothing is due', async () => {
    const o = delivered();
    show(o);
    await heading(o);
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('changes without reload when the live event stream reports a change of the order', async () => {
    const sources: FakeEventSource[] = [];
    class FakeEventSource extends EventTarget {
      constructor(readonly url: string) {
        super();
        sources.push(this);
      }
      close() {}
    }
    vi.stubGlobal('EventSource', FakeEventSource);
    let current = delivered();
    show(current, { [ORDER_PATH]: () => ({ status: 200, body: { order: current } }) });
    await heading(current);
    // The stream opens a moment after the page has loaded (api-client: afterPageLoad).
    await vi.waitFor(() => expect(sources.map((s) => s.url)).toEqual(['/api/events']), { timeout: 3000 });
    current = { ...current, status: 'FOR_RETURN' };
    act(() => {
      const data = JSON.stringify({ kind: 'order', orderId: ORDER_ID, orderType: 'RENT', status: 'FOR_RETURN', at: '2026-11-28T01:00:00.000Z' });
      sources[0]!.dispatchEvent(new MessageEvent('change', { data }));
    });
    expect(await screen.findByText('FOR RETURN')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Request Fix' })).toBeNull();
  });
});
