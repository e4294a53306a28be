import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import { BOOKING_MESSAGES, type Order, type OrderLine, type User } from '@dme/contracts';
import { earlyEndPreview } from './ExtendRental';
import App from '../../app';
import { mockApi, on, problem, serialEntry, type Call } from '@dme/ui/testing';
import { REFRESH_FAILED_TEXT } from '@dme/ui';

const staff = { id: '00000000-0000-4000-8000-0000000000a1', username: 'warehouse', firstName: 'Wendy', lastName: 'Ramos', userType: 'WAREHOUSE_ADMIN' } as User;
const ORDER = 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa';
const ORDER_PATH = `/api/orders/${ORDER}`;
const P1 = '11111111-1111-4111-8111-111111111111';

/** 2 wheelchairs at $50.00 a day for 3 days, due Dec 4; an oxygen tank at $20.00 a day for 30 days, due Dec 31. */
const lineA: OrderLine = {
  id: 'bbbbbbbb-bbbb-4bbb-8bbb-bbbbbbbbbbbb',
  productID: P1,
  productName: 'Wheelchair',
  productImage: '/api/uploads/wheelchair.png',
  productVariantID: null,
  productSubVariantID: null,
  variant: null,
  subVariant: null,
  quantity: 2,
  noOfRentalDays: 3,
  productAmount: '50.00',
  productDamageCharges: '500.00',
  lineTotal: '300.00',
  serialCodes: [serialEntry('WHE-0000001', { productID: P1 }), serialEntry('WHE-0000002', { productID: P1 })],
  dueDate: '2026-12-04',
  startDate: '2026-12-01',
  rentalTerms: null,
  deposit: '0.00',
};
const lineB: OrderLine = { ...lineA, id: 'cccccccc-cccc-4ccc-8ccc-cccccccccccc', productName: 'Oxygen Tank', quantity: 1, noOfRentalDays: 30, productAmount: '20.00', lineTotal: '600.00', serialCodes: [], dueDate: '2026-12-31' };

function rental(over: Partial<Order> = {}): Order {
  return {
    id: ORDER,
    orderNumber: 'ORD-20261123-000123',
    createdAt: '2026-11-23T05:00:00.000Z',
    status: 'DELIVERED',
    type: 'RENT',
    typeOfOrder: null,
    totalAmount: '900.00',
    customerID: 'dddddddd-dddd-4ddd-8ddd-dddddddddddd',
    customerName: 'Maria Santos',
    deliveryAddress: '12 Rizal St',
    deliveryCity: 'Makati',
    deliveryState: 'Metro Manila',
    deliveryZipcode: '123456',
    note: '',
    partialPayment: '120.00',
    payment: { status: 'INITIAL_PAYMENT', totalOrderPayment: '900.00', totalPartialPayment: '120.00', extraCharge: null, overallTotal: null, balance: null, dueDate: null, records: [], deposit: '0.00', lateFees: null, depositApplied: null, depositRefund: null, refunds: [] },
    orderTracker: [{ title: 'Order placed', status: 'PENDING', createdAt: '2026-11-23T05:00:00.000Z' }],
    products: [lineA, lineB],
    customer: null,
    allowedTransitions: [],
    deliveredAt: '2026-12-01T02:00:00.000Z',
    driverID: null,
    requests: [],
    dueNotice: null,
    extensions: [],
    extendable: true,
    earlyEnd: null,
    assignment: null,
    handovers: [],
    lateFees: null,
    lateFeeWaivers: [],
    billing: 'UPFRONT',
    cycles: [],
    rentToOwn: [],
    ...over,
  };
}

function open(path: string) {
  render(
    <MemoryRouter initialEntries={[path]}>
      <App user={staff} />
    </MemoryRouter>,
  );
}

const posts = (calls: Call[]) => calls.filter((c) => c.method === 'POST');
const openDialog = async () => {
  fireEvent.click(await screen.findByRole('button', { name: 'Extend rental' }));
  return screen.findByRole('dialog', { name: 'Extend rental' });
};

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

describe('staff extend a rental (issue 25)', () => {
  it.each([
    ['the ongoing rental', `/admin/ongoing-rentals/${ORDER}`, 'Rental ORD-20261123-000123'],
    ['the rental order', `/admin/orders/rentals/${ORDER}`, 'Order ORD-20261123-000123'],
  ])('%s offers no "Extend rental" when the order is not extendable', async (_name, path, title) => {
    mockApi(on('GET', ORDER_PATH, { status: 200, body: { order: rental({ extendable: false }) } }));
    open(path);
    expect(await screen.findByRole('heading', { name: title })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Extend rental' })).toBeNull();
    expect(screen.queryByRole('region', { name: 'Extensions' })).toBeNull();
  });

  it('the ongoing rental: previews, sends the days to the staff route, says what the server says and lists the extension', async () => {
    let current = rental();
    const message = BOOKING_MESSAGES.extended(2, '2027-01-02');
    const { calls } = mockApi(
      on('GET', ORDER_PATH, () => ({ status: 200, body: { order: current } })),
      on('POST', `${ORDER_PATH}/extend`, () => {
        current = { ...current, extendable: true, extensions: [{ kind: 'EXTEND', days: 2, amount: '240.00', returnOn: null, by: 'STAFF', createdAt: '2026-12-02T01:00:00.000Z' }] };
        return { status: 200, body: { order: current, message } };
      }),
    );
    open(`/admin/ongoing-rentals/${ORDER}`);
    const dialog = await openDialog();
    // A day more: 2 × $50.00 + $20.00; the last line due Dec 31 moves to Jan 1.
    expect(await within(dialog).findByTestId('extend-preview')).toHaveTextContent('Adds $120.00 · due back on 2027-01-01');
    fireEvent.change(within(dialog).getByLabelText('Extra days'), { target: { value: '2' } });
    await waitFor(() => expect(within(dialog).getByTestId('extend-preview')).toHaveTextContent('Adds $240.00 · due back on 2027-01-02'));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Extend' }));

    expect(await screen.findByText(message)).toBeInTheDocument();
    expect(posts(calls).map((c) => [c.url, c.body])).toEqual([[`${ORDER_PATH}/extend`, { days: 2 }]]);
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Extend rental' })).toBeNull());
    const extensions = within(await screen.findByRole('region', { name: 'Extensions' }));
    const cells = within(extensions.getAllByRole('row')[1]!).getAllByRole('cell').map((c) => c.textContent);
    expect(cells).toEqual(['Extended', '2 days', '$240.00', 'Staff', 'Dec 2, 2026, 9:00 AM']);
  });

  it("the rental order (booked ahead): shows the server's reason for a refusal in the dialog, which stays open", async () => {
    const detail = BOOKING_MESSAGES.extendRefused(0, '2026-12-31');
    const { calls } = mockApi(
      on('GET', ORDER_PATH, { status: 200, body: { order: rental({ status: 'PREPARING', deliveredAt: null, products: [{ ...lineA, dueDate: null, serialCodes: [] }] }) } }),
      on('POST', `${ORDER_PATH}/extend`, problem(409, detail)),
    );
    open(`/admin/orders/rentals/${ORDER}`);
    const dialog = await openDialog();
    // Before delivery: the booked start (Dec 1) + 3 days, a day more.
    expect(await within(dialog).findByTestId('extend-preview')).toHaveTextContent('Adds $100.00 · due back on 2026-12-05');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Extend' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(detail);
    expect(posts(calls).map((c) => c.body)).toEqual([{ days: 1 }]);
    expect(screen.getByRole('dialog', { name: 'Extend rental' })).toBeInTheDocument();
  });
});

describe('staff end a rental early (issue 25)', () => {
  // Delivered Dec 1 (Manila): the wheelchairs due Dec 4, the oxygen tank Dec 31.
  const window = { from: '2026-12-02', to: '2026-12-30' };
  const openEndEarly = async () => {
    fireEvent.click(await screen.findByRole('button', { name: 'End early' }));
    return screen.findByRole('dialog', { name: 'End rental early' });
  };

  it('earlyEndPreview: lines due later are charged from delivery to the return day (terms endedEarlyLine)', () => {
    // Back Dec 11: the tank 10 days (20 × 10 = 200 of 600); the wheelchairs are due before.
    expect(earlyEndPreview(rental(), '2026-12-11')).toEqual({ offCents: 40_000, totalCents: 50_000 });
    // Back Dec 3: the wheelchairs 2 days (2 × 50 × 2 = 200 of 300), the tank 2 days (40 of 600).
    expect(earlyEndPreview(rental(), '2026-12-03')).toEqual({ offCents: 66_000, totalCents: 24_000 });
  });

  it.each([
    ['the ongoing rental', `/admin/ongoing-rentals/${ORDER}`, 'Rental ORD-20261123-000123'],
    ['the rental order', `/admin/orders/rentals/${ORDER}`, 'Order ORD-20261123-000123'],
  ])('%s offers no "End early" when the server gives no window', async (_name, path, title) => {
    mockApi(on('GET', ORDER_PATH, { status: 200, body: { order: rental({ earlyEnd: null }) } }));
    open(path);
    expect(await screen.findByRole('heading', { name: title })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'End early' })).toBeNull();
  });

  it('the ongoing rental: the first day of the window is offered, days outside it are greyed out; sends the day, says what the server says and lists the change', async () => {
    let current = rental({ earlyEnd: window });
    const message = BOOKING_MESSAGES.endedEarly('2026-12-02');
    const { calls } = mockApi(
      on('GET', ORDER_PATH, () => ({ status: 200, body: { order: current } })),
      on('POST', `${ORDER_PATH}/end-early`, () => {
        current = { ...current, earlyEnd: null, extensions: [{ kind: 'END_EARLY', days: -29, amount: '-740.00', returnOn: '2026-12-02', by: 'STAFF', createdAt: '2026-12-02T01:00:00.000Z' }] };
        return { status: 200, body: { order: current, message } };
      }),
    );
    open(`/admin/ongoing-rentals/${ORDER}`);
    const dialog = await openEndEarly();
    expect(within(dialog).getByLabelText('Return day')).toHaveValue('2026-12-02');
    // Back Dec 2: the wheelchairs 1 day (100 of 300), the tank 1 day (20 of 600).
    expect(await within(dialog).findByTestId('end-early-preview')).toHaveTextContent('Takes $780.00 off · new total $120.00');
    fireEvent.mouseDown(within(dialog).getByLabelText('Return day'));
    fireEvent.click(within(dialog).getByLabelText('Return day'));
    const cell = (day: string) => document.querySelector(`.ant-picker-dropdown td[title="${day}"]`);
    await waitFor(() => expect(cell('2026-12-02')).not.toBeNull());
    expect(cell('2026-12-01')).toHaveClass('ant-picker-cell-disabled');
    expect(cell('2026-12-02')).not.toHaveClass('ant-picker-cell-disabled');
    expect(cell('2026-12-30')).not.toHaveClass('ant-picker-cell-disabled');
    expect(cell('2026-12-31')).toHaveClass('ant-picker-cell-disabled');
    fireEvent.click(within(dialog).getByRole('button', { name: 'End early' }));

    expect(await screen.findByText(message)).toBeInTheDocument();
    expect(posts(calls).map((c) => [c.url, c.body])).toEqual([[`${ORDER_PATH}/end-early`, { returnOn: '2026-12-02' }]]);
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'End rental early' })).toBeNull());
    const extensions = within(await screen.findByRole('region', { name: 'Extensions' }));
    const cells = within(extensions.getAllByRole('row')[1]!).getAllByRole('cell').map((c) => c.textContent);
    expect(cells).toEqual(['Ended early: back on 2026-12-02', '-29 days', '-$740.00', 'Staff', 'Dec 2, 2026, 9:00 AM']);
    expect(screen.queryByRole('button', { name: 'End early' })).toBeNull();
  });

  it("shows the server's reason for a refusal in the dialog, which stays open", async () => {
    const detail = BOOKING_MESSAGES.endEarlyRange('2026-12-03', '2026-12-30');
    const { calls } = mockApi(
      on('GET', ORDER_PATH, { status: 200, body: { order: rental({ earlyEnd: window }) } }),
      on('POST', `${ORDER_PATH}/end-early`, problem(400, detail)),
    );
    open(`/admin/orders/rentals/${ORDER}`);
    const dialog = await openEndEarly();
    fireEvent.click(within(dialog).getByRole('button', { name: 'End early' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(detail);
    expect(posts(calls).map((c) => c.body)).toEqual([{ returnOn: '2026-12-02' }]);
    expect(screen.getByRole('dialog', { name: 'End rental early' })).toBeInTheDocument();
  });

  it("a refusal whose refetch of the order fails keeps the dialog open with the reason, the page as it was and a Retry; the next days are sent", async () => {
    const detail = BOOKING_MESSAGES.extendRefused(2, '2026-12-07');
    let gets = 0;
    let refused = false;
    const { calls } = mockApi(
      on('GET', ORDER_PATH, () => {
        gets += 1;
        // The refetch after the refusal meets a lost connection (a loaded machine, a dropped line).
        return refused && gets === 2 ? 'network-error' : { status: 200, body: { order: rental({ status: 'PREPARING', deliveredAt: null, products: [{ ...lineA, dueDate: null, serialCodes: [] }] }) } };
      }),
      on('POST', `${ORDER_PATH}/extend`, (c) => {
        if ((c.body as { days: number }).days > 2) {
          refused = true;
          return problem(409, detail);
        }
        return { status: 200, body: { order: rental({ status: 'PREPARING', deliveredAt: null }), message: BOOKING_MESSAGES.extended(2, '2026-12-06') } };
      }),
    );
    open(`/admin/orders/rentals/${ORDER}`);
    const dialog = await openDialog();
    fireEvent.change(within(dialog).getByLabelText('Extra days'), { target: { value: '5' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Extend' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(detail);
    await waitFor(() => expect(gets).toBe(2));
    expect(await screen.findByTestId('refresh-failed')).toHaveTextContent(REFRESH_FAILED_TEXT);
    expect(screen.getByRole('dialog', { name: 'Extend rental' })).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Order ORD-20261123-000123' })).toBeInTheDocument();

    fireEvent.change(within(dialog).getByLabelText('Extra days'), { target: { value: '2' } });
    await waitFor(() => expect(within(dialog).getByTestId('extend-preview')).toHaveTextContent('Adds $200.00'));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Extend' }));
    expect(await screen.findByText(BOOKING_MESSAGES.extended(2, '2026-12-06'))).toBeInTheDocument();
    expect(posts(calls).map((c) => c.body)).toEqual([{ days: 5 }, { days: 2 }]);
    // The refetch after the extension succeeds: the notice goes.
    await waitFor(() => expect(screen.queryByTestId('refresh-failed')).toBeNull());
  });
});
