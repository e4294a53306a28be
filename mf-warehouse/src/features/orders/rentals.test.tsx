import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter, useLocation } from 'react-router-dom';
import { formatManilaDateTime, LATE_FEE_MESSAGES, RENTAL_MESSAGES, type Handover, type OngoingRental, type Order, type OrderLine, type OrderRequest, type User } from '@dme/contracts';
import App from '../../app';
import { mockApi, on, problem, query, serialEntry, type Call } from '@dme/ui/testing';
import { FOR_RETURN_NOT_DUE, FOR_RETURN_PROMPT, FULL_PAYMENT_PROMPT, NO_REQUESTS } from './RentalSteps';

const staff = { id: '00000000-0000-4000-8000-0000000000a1', username: 'warehouse', firstName: 'Wendy', lastName: 'Ramos', userType: 'WAREHOUSE_ADMIN' } as User;

const ORDER = 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa';
const CUSTOMER = 'dddddddd-dddd-4ddd-8ddd-dddddddddddd';
const LINE_A = 'bbbbbbbb-bbbb-4bbb-8bbb-bbbbbbbbbbbb';
const LINE_B = 'cccccccc-cccc-4ccc-8ccc-cccccccccccc';
const REQ = 'eeeeeeee-eeee-4eee-8eee-eeeeeeeeeeee';

/** A serial code entry (SPEC §3) packed for a line and not returned yet. */
const packed = (serialCode: string, productID = '11111111-1111-4111-8111-111111111111') => serialEntry(serialCode, { productID });
const lineA: OrderLine = {
  id: LINE_A,
  productID: '11111111-1111-4111-8111-111111111111',
  productName: 'Wheelchair',
  productImage: '/api/uploads/wheelchair.png',
  productVariantID: '33333333-3333-4333-8333-333333333333',
  productSubVariantID: '55555555-5555-4555-8555-555555555555',
  variant: { name: 'Standard', price: null },
  subVariant: { name: 'Large', price: '50.00' },
  quantity: 2,
  noOfRentalDays: 3,
  productAmount: '50.00',
  productDamageCharges: '500.00',
  lineTotal: '300.00',
  serialCodes: [packed('WHE-0000001'), packed('WHE-0000002')],
  // Long past: the line is overdue whatever day the test runs.
  dueDate: '2020-01-04',
  startDate: '2020-01-01',
  rentalTerms: null,
  deposit: '0.00',
};
const lineB: OrderLine = {
  ...lineA,
  id: LINE_B,
  productID: '22222222-2222-4222-8222-222222222222',
  productName: 'Oxygen Tank',
  productImage: '/api/uploads/oxygen.png',
  productVariantID: null,
  productSubVariantID: null,
  variant: null,
  subVariant: null,
  quantity: 1,
  noOfRentalDays: 30,
  productAmount: '20.00',
  productDamageCharges: '150.00',
  lineTotal: '600.00',
  serialCodes: [packed('OXY-0000001', '22222222-2222-4222-8222-222222222222')],
  dueDate: '2099-02-01',
};

function rental(over: Partial<Order> = {}): Order {
  return {
    id: ORDER,
    orderNumber: 'ORD-20261123-000123',
    createdAt: '2026-11-23T05:00:00.000Z',
    status: 'DELIVERED',
    type: 'RENT',
    typeOfOrder: null,
    totalAmount: '900.00',
    customerID: CUSTOMER,
    customerName: 'Maria Santos',
    deliveryAddress: '12 Rizal St',
    deliveryCity: 'Makati',
    deliveryState: 'Metro Manila',
    deliveryZipcode: '123456',
    note: 'Call before delivery',
    partialPayment: '120.00',
    payment: { status: 'INITIAL_PAYMENT', totalOrderPayment: '900.00', totalPartialPayment: '120.00', extraCharge: null, overallTotal: null, balance: null, dueDate: null, records: [], deposit: '0.00', lateFees: null, depositApplied: null, depositRefund: null, refunds: [] },
    orderTracker: [{ title: 'Order placed', status: 'PENDING', createdAt: '2026-11-23T05:00:00.000Z' }],
    products: [lineA, lineB],
    customer: { idNumber: 'CUS-000007', firstName: 'Maria', middleName: 'Luna', lastName: 'Santos', suffix: '', email: 'maria@example.com', contactNumber: '09171234567' },
    allowedTransitions: [],
    deliveredAt: '2020-01-01T02:00:00.000Z',
    driverID: '99999999-9999-4999-8999-999999999999',
    requests: [],
    dueNotice: null,
    extensions: [],
    extendable: false,
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

const ongoing = (i: number, over: Partial<OngoingRental> = {}): OngoingRental => ({
  id: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
  orderNumber: `ORD-20261123-${String(i).padStart(6, '0')}`,
  createdAt: '2026-11-23T16:30:00.000Z',
  status: 'DELIVERED',
  type: 'RENT',
  typeOfOrder: null,
  totalAmount: '900.00',
  customerID: CUSTOMER,
  customerName: 'Maria Santos',
  displayStatus: 'ON_GOING',
  initialPayment: '1234.5',
  dueDate: '2026-11-26',
  cycles: null,
  ...over,
});

function Where() {
  const l = useLocation();
  return <output data-testid="location">{l.pathname + l.search}</output>;
}

function open(path: string) {
  render(
    <MemoryRouter initialEntries={[path]}>
      <App user={staff} />
      <Where />
    </MemoryRouter>,
  );
}

const location = () => screen.getByTestId('location').textContent;
const lists = (calls: Call[]) => calls.filter((c) => c.method === 'GET' && c.url.startsWith('/api/ongoing-rentals?'));
const orderGets = (calls: Call[]) => calls.filter((c) => c.method === 'GET' && c.url === `/api/orders/${ORDER}`);
const writes = (calls: Call[]) => calls.filter((c) => c.method !== 'GET');
const region = (name: string) => screen.getByRole('region', { name });
const rowOf = (el: HTMLElement, text: string) => within(el).getByText(text).closest('tr') as HTMLElement;
/** Answers a Popconfirm or a confirm dialog with its 'Yes'. */
const yes = async () => fireEvent.click(await screen.findByRole('button', { name: 'Yes' }));

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

describe('ongoing rentals list', () => {
  it('a rental billed by cycles shows how many are paid and due (issue 29)', async () => {
    mockApi(on('GET', '/api/ongoing-rentals', { status: 200, body: { items: [ongoing(1, { cycles: { paid: 1, due: 1, count: 2 } }), ongoing(2)], total: 2 } }));
    open('/admin/ongoing-rentals');
    const table = await screen.findByRole('table');
    await within(table).findByText('ORD-20261123-000001');
    expect(within(table).getByRole('columnheader', { name: 'Cycles' })).toBeInTheDocument();
    const first = rowOf(table, 'ORD-20261123-000001');
    expect(within(first).getByText('1 of 2 paid')).toBeInTheDocument();
    expect(within(first).getByText('1 due')).toHaveClass('ant-tag-red');
    expect(within(rowOf(table, 'ORD-20261123-000002')).queryByText(/paid$/)).toBeNull();
  });

  it('tabs Ongoing, Due Date, For Return, Picked up; sends the tab; shows the columns; View opens the detail', async () => {
    const { calls } = mockApi(
      on('GET', '/api/ongoing-rentals', (c) => {
        const q = query(c);
        if (q.tab === 'ONGOING') return { status: 200, body: { items: [ongoing(1), ongoing(2, { customerName: 'Jose Cruz', initialPayment: null, dueDate: null })], total: 2 } };
        if (q.tab === 'FOR_RETURN') return { status: 200, body: { items: [ongoing(3, { status: 'FOR_RETURN', displayStatus: 'FOR_RETURN' })], total: 1 } };
        return { status: 200, body: { items: [], total: 0 } };
      }),
      on('GET', `/api/orders/${ongoing(1).id}`, { status: 200, body: { order: rental({ id: ongoing(1).id, orderNumber: ongoing(1).orderNumber }) } }),
    );
    open('/admin/ongoing-rentals');
    expect(await screen.findByRole('heading', { name: 'Ongoing Rentals' })).toBeInTheDocument();
    const table = await screen.findByRole('table');
    await within(table).findByText('ORD-20261123-000001');
    expect(screen.getAllByRole('tab').map((t) => t.textContent)).toEqual(['Ongoing', 'Due Date', 'For Return', 'Picked up']);
    expect(screen.getByRole('tab', { name: 'Ongoing', selected: true })).toBeInTheDocument();
    expect(query(lists(calls)[0]!)).toEqual({ tab: 'ONGOING', limit: '20', offset: '0' });
    for (const title of ['Order Number', 'Customer Name', 'Date', 'Status', 'Initial Payment', 'Due Date']) {
      expect(within(table).getByRole('columnheader', { name: title })).toBeInTheDocument();
    }

    const first = rowOf(table, 'ORD-20261123-000001');
    expect(within(first).getByText('Maria Santos')).toBeInTheDocument();
    // 16:30 UTC is half past midnight the next day in Manila.
    expect(within(first).getByText(/Nov 24, 2026/)).toBeInTheDocument();
    // A DELIVERED rental shows ON GOING, green like delivered.
    expect(within(first).getByText('ON GOING')).toHaveClass('ant-tag-green');
    expect(within(first).getByText('$1,234.50')).toBeInTheDocument();
    expect(within(first).getByText('2026-11-26')).toBeInTheDocument();
    const second = rowOf(table, 'ORD-20261123-000002');
    expect(within(second).getByText('Jose Cruz')).toBeInTheDocument();
    expect(within(second).getAllByText('—')).toHaveLength(3);

    fireEvent.click(screen.getByRole('tab', { name: 'For Return' }));
    expect(await screen.findByText('ORD-20261123-000003')).toBeInTheDocument();
    expect(location()).toBe('/admin/ongoing-rentals?tab=FOR_RETURN');
    expect(query(lists(calls).at(-1)!)).toMatchObject({ tab: 'FOR_RETURN' });
    expect(within(rowOf(screen.getByRole('table'), 'ORD-20261123-000003')).getByText('FOR RETURN')).toHaveClass('ant-tag-orange');

    fireEvent.click(screen.getByRole('tab', { name: 'Due Date' }));
    expect(await screen.findByText('No rentals in this tab.')).toBeInTheDocument();
    expect(query(lists(calls).at(-1)!)).toMatchObject({ tab: 'DUE_DATE' });

    fireEvent.click(screen.getByRole('tab', { name: 'Ongoing' }));
    fireEvent.click(await screen.findByRole('link', { name: 'View ORD-20261123-000001' }));
    expect(await screen.findByRole('heading', { name: 'Rental ORD-20261123-000001' })).toBeInTheDocument();
    expect(location()).toBe(`/admin/ongoing-rentals/${ongoing(1).id}`);
  });

  it('searches and pages through the server (search and offset sent, kept in the address)', async () => {
    const all = Array.from({ length: 45 }, (_, i) => ongoing(i + 1));
    const { calls } = mockApi(
      on('GET', '/api/ongoing-rentals', (c) => {
        const q = query(c);
        if (q.search) return { status: 200, body: { items: [], total: 0 } };
        const offset = Number(q.offset);
        return { status: 200, body: { items: all.slice(offset, offset + Number(q.limit)), total: all.length } };
      }),
    );
    open('/admin/ongoing-rentals?tab=PICKED_UP');
    expect(await screen.findByText('ORD-20261123-000001')).toBeInTheDocument();
    expect(screen.getByRole('tab', { name: 'Picked up', selected: true })).toBeInTheDocument();
    expect(screen.getByText('1–20 of 45')).toBeInTheDocument();
    fireEvent.click(screen.getByTitle('2'));
    expect(await screen.findByText('ORD-20261123-000021')).toBeInTheDocument();
    expect(location()).toBe('/admin/ongoing-rentals?tab=PICKED_UP&page=2');
    expect(query(lists(calls).at(-1)!)).toEqual({ tab: 'PICKED_UP', limit: '20', offset: '20' });

    const search = screen.getByRole('searchbox', { name: 'Search rentals' });
    fireEvent.change(search, { target: { value: ' Cruz ' } });
    fireEvent.keyDown(search, { key: 'Enter', code: 'Enter', keyCode: 13 });
    expect(await screen.findByText('No rentals in this tab match "Cruz".')).toBeInTheDocument();
    // A new search starts again on the first page.
    expect(location()).toBe('/admin/ongoing-rentals?tab=PICKED_UP&search=Cruz');
    expect(query(lists(calls).at(-1)!)).toEqual({ tab: 'PICKED_UP', search: 'Cruz', limit: '20', offset: '0' });
  });

  it("shows the server's message when the list cannot be loaded", async () => {
    mockApi(on('GET', '/api/ongoing-rentals', problem(503, 'The order service is not answering.')));
    open('/admin/ongoing-rentals');
    expect(await screen.findByText('The rentals could not be loaded')).toBeInTheDocument();
    expect(screen.getByText('The order service is not answering.')).toBeInTheDocument();
  });
});

describe('ongoing rental detail', () => {
  it('shows number, status, customer, shipping, products with rental days and due dates, and the overdue notice', async () => {
    mockApi(on('GET', `/api/orders/${ORDER}`, { status: 200, body: { order: rental({ dueNotice: 'OVERDUE', allowedTransitions: ['FOR_RETURN'] }) } }));
    open(`/admin/ongoing-rentals/${ORDER}`);
    expect(await screen.findByRole('heading', { name: 'Rental ORD-20261123-000123' })).toBeInTheDocument();
    expect(screen.getByText('Order Number: ORD-20261123-000123')).toBeInTheDocument();
    expect(screen.getByText('ON GOING')).toHaveClass('ant-tag-green');
    expect(screen.getByRole('alert')).toHaveTextContent(RENTAL_MESSAGES.hasDueProducts);
    expect(within(region('Customer Information')).getByText('CUS-000007')).toBeInTheDocument();
    expect(within(region('Customer Information')).getByText('maria@example.com')).toBeInTheDocument();
    expect(within(region('Shipping Information')).getByText('12 Rizal St')).toBeInTheDocument();
    expect(within(region('Shipping Information')).getByText('123456')).toBeInTheDocument();

    const products = region('Products');
    for (const title of ['Quantity', 'Rental Days', 'Due Date']) expect(within(products).getByRole('columnheader', { name: title })).toBeInTheDocument();
    const a = rowOf(products, 'Wheelchair');
    expect(within(a).getByText('3 days')).toBeInTheDocument();
    expect(within(a).getByText('2020-01-04')).toBeInTheDocument();
    expect(within(a).getByText('Overdue')).toBeInTheDocument();
    const b = rowOf(products, 'Oxygen Tank');
    expect(within(b).getByText('30 days')).toBeInTheDocument();
    expect(within(b).getByText('2099-02-01')).toBeInTheDocument();
    expect(within(b).queryByText('Overdue')).not.toBeInTheDocument();

    expect(within(region('Requests')).getByText(NO_REQUESTS)).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Back' }));
    await waitFor(() => expect(location()).toBe('/admin/ongoing-rentals'));
  });

  it('a rental billed by cycles: its cycles from the Manila delivery day, each with its days, due day, rent and state (issue 29)', async () => {
    const billed = rental({
      // 17:00 UTC on Feb 28 is 1 AM on Mar 1 in Manila.
      deliveredAt: '2026-02-28T17:00:00.000Z',
      billing: 'CYCLES',
      cycles: [
        { n: 1, from: '2026-03-01', to: '2026-03-30', dueOn: '2026-03-01', days: 30, amount: '600.00', state: 'PAID' },
        { n: 2, from: '2026-03-31', to: '2026-04-29', dueOn: '2026-03-31', days: 30, amount: '600.00', state: 'DUE' },
      ],
    });
    mockApi(on('GET', `/api/orders/${ORDER}`, { status: 200, body: { order: billed } }));
    open(`/admin/ongoing-rentals/${ORDER}`);
    const cycles = await screen.findByRole('region', { name: 'Billing cycles' });
    expect(within(cycles).getByText('Billed every 30 days from delivery (delivered Mar 1, 2026)')).toBeInTheDocument();
    expect(within(cycles).getAllByRole('columnheader').map((h) => h.textContent)).toEqual(['Cycle', 'Days', 'Due on', 'Rent', 'Status']);
    const cycleRow = (n: string) => within(cycles).getByRole('cell', { name: n }).closest('tr') as HTMLElement;
    for (const text of ['Mar 1, 2026 – Mar 30, 2026', 'Mar 1, 2026', '$600.00']) expect(within(cycleRow('1')).getByText(text)).toBeInTheDocument();
    expect(within(cycleRow('1')).getByText('Paid')).toHaveClass('ant-tag-green');
    for (const text of ['Mar 31, 2026 – Apr 29, 2026', 'Mar 31, 2026', '$600.00']) expect(within(cycleRow('2')).getByText(text)).toBeInTheDocument();
    expect(within(cycleRow('2')).getByText('Due')).toHaveClass('ant-tag-red');
    expect(within(cycles).getAllByRole('row')).toHaveLength(3);
  });

  it('an upfront rental shows no billing cycles (issue 29)', async () => {
    mockApi(on('GET', `/api/orders/${ORDER}`, { status: 200, body: { order: rental() } }));
    open(`/admin/ongoing-rentals/${ORDER}`);
    await screen.findByRole('region', { name: 'Payment Information' });
    expect(screen.queryByRole('region', { name: 'Billing cycles' })).toBeNull();
    expect(screen.queryByText(/Billed every 30 days/)).toBeNull();
  });

  it('an overdue rental shows its deposit and the late fees so far with the most days late (issue 29)', async () => {
    const late = rental({ dueNotice: 'OVERDUE', payment: { ...rental().payment, deposit: '500.00' }, lateFees: { amount: '50.00', days: 1 } });
    mockApi(on('GET', `/api/orders/${ORDER}`, { status: 200, body: { order: late } }));
    open(`/admin/ongoing-rentals/${ORDER}`);
    await screen.findByRole('heading', { name: 'Rental ORD-20261123-000123' });
    const payment = region('Payment Information');
    expect(within(payment).getByText('Deposit').closest('.ant-descriptions-item-label')!.nextElementSibling).toHaveTextContent('$500.00');
    expect(within(payment).getByTestId('late-fees-so-far')).toHaveTextContent('$50.00 (1 day late)');
  });

  it('shows the proof of delivery and pick-up, with a ticket per leg handed over (issue 28)', async () => {
    const delivered: Handover = {
      id: 'eeeeeeee-eeee-4eee-8eee-eeeeeeeeeeee',
      leg: 'DELIVERY',
      outcome: 'HANDED_OVER',
      attempt: 1,
      recipientName: 'Ana Santos',
      relation: 'FAMILY',
      reason: '',
      serials: ['WHE-0000001', 'WHE-0000002', 'OXY-0000001'],
      acknowledgement: 'I received the equipment listed above.',
      driverName: 'Dario Cruz',
      signedAt: '2026-11-24T02:00:00.000Z',
      recordedAt: '2026-11-24T02:01:00.000Z',
      hasSignature: true,
      hasPhoto: false,
    };
    const refused: Handover = { ...delivered, id: 'ffffffff-ffff-4fff-8fff-ffffffffffff', leg: 'PICKUP', outcome: 'REFUSED', relation: null, reason: 'The patient still needs the bed.', serials: [], hasSignature: false };
    mockApi(on('GET', `/api/orders/${ORDER}`, { status: 200, body: { order: rental({ status: 'FOR_RETURN', handovers: [delivered, refused] }) } }));
    open(`/admin/ongoing-rentals/${ORDER}`);
    const proof = within(await screen.findByRole('region', { name: 'Proof of delivery' }));
    expect(proof.getByRole('img', { name: 'Signature of Ana Santos' })).toHaveAttribute('src', `/api/orders/${ORDER}/handovers/${delivered.id}/signature`);
    expect(proof.getByText('The patient still needs the bed.')).toBeInTheDocument();
    expect(proof.getByRole('button', { name: 'Delivery ticket' })).toBeInTheDocument();
    expect(proof.queryByRole('button', { name: 'Pick-up ticket' })).not.toBeInTheDocument();
  });

  it("shows 'Some products are due for return today.' for a rental due today, and nothing when none is due", async () => {
    mockApi(on('GET', `/api/orders/${ORDER}`, { status: 200, body: { order: rental({ dueNotice: 'DUE_TODAY' }) } }));
    open(`/admin/ongoing-rentals/${ORDER}`);
    expect(await screen.findByText(RENTAL_MESSAGES.dueToday)).toBeInTheDocument();
    cleanup();

    mockApi(on('GET', `/api/orders/${ORDER}`, { status: 200, body: { order: rental({ allowedTransitions: ['FOR_RETURN'] }) } }));
    open(`/admin/ongoing-rentals/${ORDER}`);
    expect(await screen.findByRole('heading', { name: 'Rental ORD-20261123-000123' })).toBeInTheDocument();
    expect(screen.queryByText(RENTAL_MESSAGES.dueToday)).not.toBeInTheDocument();
    expect(screen.queryByText(RENTAL_MESSAGES.hasDueProducts)).not.toBeInTheDocument();
  });

  it('For Return is disabled, with the reason, while no product is due', async () => {
    const { calls } = mockApi(on('GET', `/api/orders/${ORDER}`, { status: 200, body: { order: rental() } }));
    open(`/admin/ongoing-rentals/${ORDER}`);
    const button = await screen.findByRole('button', { name: 'For Return' });
    expect(button).toBeDisabled();
    expect(screen.getByText(FOR_RETURN_NOT_DUE)).toBeInTheDocument();
    expect(writes(calls)).toHaveLength(0);
  });

  it('For Return asks first, then sends FOR_RETURN; the rental is fetched again', async () => {
    let current = rental({ allowedTransitions: ['FOR_RETURN'], dueNotice: 'OVERDUE' });
    const { calls } = mockApi(
      on('GET', `/api/orders/${ORDER}`, () => ({ status: 200, body: { order: current } })),
      on('POST', `/api/orders/${ORDER}/transitions`, () => {
        current = rental({ status: 'FOR_RETURN', allowedTransitions: [] });
        return { status: 200, body: { order: current } };
      }),
    );
    open(`/admin/ongoing-rentals/${ORDER}`);
    const button = await screen.findByRole('button', { name: 'For Return' });
    expect(button).toBeEnabled();
    expect(screen.queryByText(FOR_RETURN_NOT_DUE)).not.toBeInTheDocument();

    fireEvent.click(button);
    expect((await screen.findAllByText(FOR_RETURN_PROMPT)).length).toBeGreaterThan(0);
    await yes();
    await waitFor(() => expect(writes(calls)).toHaveLength(1));
    expect(writes(calls)[0]!.body).toEqual({ to: 'FOR_RETURN' });
    expect(await screen.findByText('FOR RETURN')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'For Return' })).not.toBeInTheDocument();
    expect(orderGets(calls).length).toBeGreaterThanOrEqual(2);
  });

  it.each([
    ['the ongoing rental', `/admin/ongoing-rentals/${ORDER}`],
    ['the rental order', `/admin/orders/rentals/${ORDER}`],
  ])('%s: For Return offers "Assign driver" for the pick-up; the day and driver are sent and shown (issue 28)', async (_name, path) => {
    const JUN = '77777777-7777-4777-8777-777777777777';
    let current = rental({ status: 'FOR_RETURN', allowedTransitions: [] });
    const { calls } = mockApi(
      on('GET', `/api/orders/${ORDER}`, () => ({ status: 200, body: { order: current } })),
      on('GET', '/api/assignable-drivers', { status: 200, body: { items: [{ id: JUN, name: 'Jun Dela Cruz' }] } }),
      on('PUT', `/api/orders/${ORDER}/assignment`, (c) => {
        current = { ...current, assignment: { driverId: JUN, driverName: 'Jun Dela Cruz', day: (c.body as { day: string }).day } };
        return { status: 200, body: { order: current } };
      }),
    );
    open(path);
    expect(await screen.findByTestId('driver-line')).toHaveTextContent('Driver: Any driver');
    fireEvent.click(screen.getByRole('button', { name: 'Assign driver' }));
    const dialog = await screen.findByRole('dialog', { name: 'Assign driver' });
    const select = within(dialog).getByLabelText('Driver') as HTMLSelectElement;
    await waitFor(() => expect(select).toBeEnabled());
    fireEvent.change(select, { target: { value: JUN } });
    fireEvent.change(within(dialog).getByLabelText('Day'), { target: { value: '2099-11-28' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(calls.filter((c) => c.method === 'PUT')).toHaveLength(1));
    expect(calls.find((c) => c.method === 'PUT')!.body).toEqual({ driverId: JUN, day: '2099-11-28' });
    await waitFor(() => expect(screen.getByTestId('driver-line')).toHaveTextContent('Driver: Jun Dela Cruz, Sat 28 Nov 2099'));
  });

  it('a delivered rental shows the driver who delivered it, read-only', async () => {
    mockApi(
      on('GET', `/api/orders/${ORDER}`, {
        status: 200,
        body: { order: rental({ assignment: { driverId: '99999999-9999-4999-8999-999999999999', driverName: 'Jun Dela Cruz', day: null } }) },
      }),
    );
    open(`/admin/ongoing-rentals/${ORDER}`);
    expect(await screen.findByTestId('driver-line')).toHaveTextContent('Driver: Jun Dela Cruz');
    expect(screen.queryByRole('button', { name: 'Assign driver' })).toBeNull();
  });
});

describe('rental order detail: due dates, returns, full payment, requests', () => {
  it('shows a Due Date column once delivered, not before', async () => {
    mockApi(
      on('GET', `/api/orders/${ORDER}`, {
        status: 200,
        body: { order: rental({ status: 'TO_SHIP', deliveredAt: null, products: [{ ...lineA, dueDate: null }] }) },
      }),
    );
    open(`/admin/orders/rentals/${ORDER}`);
    const products = await screen.findByRole('region', { name: 'Products' });
    expect(within(products).queryByRole('columnheader', { name: 'Due Date' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'For Return' })).not.toBeInTheDocument();
    cleanup();

    // Delivered, nothing due yet.
    mockApi(on('GET', `/api/orders/${ORDER}`, { status: 200, body: { order: rental({ products: [{ ...lineA, dueDate: '2099-01-04' }, lineB] }) } }));
    open(`/admin/orders/rentals/${ORDER}`);
    const delivered = await screen.findByRole('region', { name: 'Products' });
    expect(within(delivered).getByRole('columnheader', { name: 'Due Date' })).toBeInTheDocument();
    expect(within(rowOf(delivered, 'Wheelchair')).getByText('2099-01-04')).toBeInTheDocument();
    expect(within(rowOf(delivered, 'Oxygen Tank')).getByText('2099-02-01')).toBeInTheDocument();
    expect(within(delivered).queryByText('Overdue')).not.toBeInTheDocument();
    expect(screen.queryByText(RENTAL_MESSAGES.hasDueProducts)).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'For Return' })).toBeDisabled();
    expect(screen.getByText(FOR_RETURN_NOT_DUE)).toBeInTheDocument();
  });

  it('marks serial codes OK / LOST / DAMAGED after a confirmation; RETURNED with the mark and time after the refetch; For Full Payment once all are marked', async () => {
    const returnedAt = '2026-11-25T01:15:00.000Z';
    const marks: Record<string, string> = {};
    const current = () => {
      const mark = (s: OrderLine['serialCodes'][number]) =>
        marks[s.serialCode] ? { ...s, status: marks[s.serialCode]!, updatedAt: returnedAt, returnedAt, inventoryType: marks[s.serialCode] === 'LOST' ? ('OUT' as const) : ('IN' as const) } : s;
      const products = [lineA, lineB].map((l) => ({ ...l, serialCodes: l.serialCodes.map(mark) }));
      const all = Object.keys(marks).length === 3;
      // What the server says asking now would charge (it computes it; the screen shows it as given).
      const fullPaymentPreview = all
        ? { extraCharge: '650.00', chargedSerials: [{ serialCode: 'WHE-0000002', status: 'DAMAGED' as const }, { serialCode: 'OXY-0000001', status: 'LOST' as const }], balance: '1430.00', dueDate: '2026-11-26', lateFees: '0.00', depositApplied: '0.00', depositRefund: '0.00' }
        : null;
      return rental({ status: 'FOR_PICK_UP', products, allowedTransitions: all ? ['FOR_FULL_PAYMENT'] : [], fullPaymentPreview });
    };
    const { calls } = mockApi(
      on('GET', `/api/orders/${ORDER}`, () => ({ status: 200, body: { order: current() } })),
      (c) => {
        const m = new RegExp(`^/api/orders/${ORDER}/serials/([^/]+)/return$`).exec(c.url);
        if (c.method !== 'POST' || !m) return undefined;
        const code = decodeURIComponent(m[1]!);
        if (marks[code]) return problem(409, RENTAL_MESSAGES.alreadyReturned);
        marks[code] = (c.body as { status: string }).status;
        return { status: 200, body: { order: current() } };
      },
      on('POST', `/api/orders/${ORDER}/transitions`, { status: 200, body: { order: rental({ status: 'FOR_FULL_PAYMENT' }) } }),
    );
    open(`/admin/orders/rentals/${ORDER}`);
    const full = await screen.findByRole('button', { name: 'For Full Payment' });
    expect(full).toBeDisabled();
    expect(screen.getByText(/0 of 3 marked/)).toBeInTheDocument();
    const products = region('Products');
    for (const choice of ['OK', 'LOST', 'DAMAGED']) expect(within(products).getByRole('button', { name: `Mark WHE-0000002 as ${choice}` })).toBeInTheDocument();

    // Cancelling the Popconfirm sends nothing.
    fireEvent.click(within(products).getByRole('button', { name: 'Mark WHE-0000002 as DAMAGED' }));
    expect(await screen.findByText('Mark WHE-0000002 as DAMAGED?')).toBeInTheDocument();
    expect(screen.getByText('Its damage or lost fee ($500.00) is added to the full payment.')).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'No' }));
    expect(writes(calls)).toHaveLength(0);

    fireEvent.click(within(products).getByRole('button', { name: 'Mark WHE-0000002 as DAMAGED' }));
    await yes();
    await waitFor(() => expect(writes(calls)).toHaveLength(1));
    expect(writes(calls)[0]).toMatchObject({ method: 'POST', url: `/api/orders/${ORDER}/serials/WHE-0000002/return`, body: { status: 'DAMAGED' } });
    const marked = await within(products).findByTestId('serial-WHE-0000002');
    await waitFor(() => expect(within(marked).getByText('RETURNED')).toBeInTheDocument());
    expect(within(marked).getByText('DAMAGED')).toBeInTheDocument();
    expect(within(marked).getByText(formatManilaDateTime(returnedAt))).toBeInTheDocument();
    // 01:15 UTC is 9:15 AM in Manila.
    expect(within(marked).getByText(/9:15/)).toBeInTheDocument();
    expect(within(marked).queryByRole('button')).not.toBeInTheDocument();
    expect(screen.getByText(/1 of 3 marked/)).toBeInTheDocument();
    expect(orderGets(calls).length).toBeGreaterThanOrEqual(2);

    fireEvent.click(within(products).getByRole('button', { name: 'Mark WHE-0000001 as OK' }));
    await yes();
    await waitFor(() => expect(within(within(products).getByTestId('serial-WHE-0000001')).queryByText('RETURNED')).toBeInTheDocument());
    fireEvent.click(within(products).getByRole('button', { name: 'Mark OXY-0000001 as LOST' }));
    await yes();
    await waitFor(() => expect(within(within(products).getByTestId('serial-OXY-0000001')).queryByText('RETURNED')).toBeInTheDocument());
    expect(writes(calls).map((c) => [c.url, c.body])).toEqual([
      [`/api/orders/${ORDER}/serials/WHE-0000002/return`, { status: 'DAMAGED' }],
      [`/api/orders/${ORDER}/serials/WHE-0000001/return`, { status: 'OK' }],
      [`/api/orders/${ORDER}/serials/OXY-0000001/return`, { status: 'LOST' }],
    ]);

    // Every code is marked: the order now allows the full payment.
    await waitFor(() => expect(screen.getByRole('button', { name: 'For Full Payment' })).toBeEnabled());
    expect(screen.queryByText(/of 3 marked/)).not.toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'For Full Payment' }));
    expect((await screen.findAllByText(FULL_PAYMENT_PROMPT)).length).toBeGreaterThan(0);
    // The damage fee of the damaged wheelchair and the lost fee of the oxygen tank, not the OK one.
    expect(
      screen.getByText(
        'The extra charge will be the damage or lost fees of every serial code not marked OK: $650.00 (WHE-0000002 (DAMAGED), OXY-0000001 (LOST)). The full payment is due one day from now.',
      ),
    ).toBeInTheDocument();
    await yes();
    await waitFor(() => expect(writes(calls)).toHaveLength(4));
    expect(writes(calls)[3]).toMatchObject({ url: `/api/orders/${ORDER}/transitions`, body: { to: 'FOR_FULL_PAYMENT' } });
  });

  it("a refused return shows the server's message", async () => {
    mockApi(
      on('GET', `/api/orders/${ORDER}`, { status: 200, body: { order: rental({ status: 'FOR_PICK_UP' }) } }),
      on('POST', `/api/orders/${ORDER}/serials/OXY-0000001/return`, problem(409, RENTAL_MESSAGES.notPickingUp)),
    );
    open(`/admin/orders/rentals/${ORDER}`);
    fireEvent.click(await screen.findByRole('button', { name: 'Mark OXY-0000001 as OK' }));
    await yes();
    expect(await screen.findByText('Return Error')).toBeInTheDocument();
    expect(screen.getByText(RENTAL_MESSAGES.notPickingUp)).toBeInTheDocument();
  });

  it('no return buttons outside FOR_PICK_UP; For Full Payment only in FOR_PICK_UP', async () => {
    mockApi(on('GET', `/api/orders/${ORDER}`, { status: 200, body: { order: rental({ status: 'FOR_RETURN' }) } }));
    open(`/admin/orders/rentals/${ORDER}`);
    await screen.findByRole('heading', { name: 'Order ORD-20261123-000123' });
    expect(screen.queryByRole('button', { name: /^Mark .* as / })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'For Full Payment' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'For Return' })).not.toBeInTheDocument();
  });

  it('requests: type, products, note, date and status; Mark as On Progress then Mark as Done (PATCH), refetched after each', async () => {
    let status: OrderRequest['status'] = 'PENDING';
    const request = (): OrderRequest => ({
      id: REQ,
      orderID: ORDER,
      type: 'REPLACE',
      status,
      userNote: 'The wheel squeaks',
      products: [
        { lineID: LINE_A, productName: 'Wheelchair', variantName: 'Standard', subVariantName: 'Large' },
        { lineID: LINE_B, productName: 'Oxygen Tank', variantName: null, subVariantName: null },
      ],
      createdAt: '2026-11-24T02:00:00.000Z',
      updatedAt: '2026-11-24T02:00:00.000Z',
    });
    const { calls } = mockApi(
      on('GET', `/api/orders/${ORDER}`, () => ({ status: 200, body: { order: rental({ requests: [request()] }) } })),
      on('PATCH', `/api/orders/${ORDER}/requests/${REQ}`, (c) => {
        status = (c.body as { status: OrderRequest['status'] }).status;
        return { status: 200, body: { request: request() } };
      }),
    );
    open(`/admin/orders/rentals/${ORDER}`);
    const requests = await screen.findByRole('region', { name: 'Requests' });
    for (const title of ['Type', 'Products', 'Note', 'Date', 'Status']) expect(within(requests).getByRole('columnheader', { name: title })).toBeInTheDocument();
    const row = rowOf(requests, 'The wheel squeaks');
    expect(within(row).getByText('REPLACE')).toBeInTheDocument();
    expect(within(row).getByText('Wheelchair / Standard / Large')).toBeInTheDocument();
    expect(within(row).getByText('Oxygen Tank')).toBeInTheDocument();
    expect(within(row).getByText('Nov 24, 2026, 10:00 AM')).toBeInTheDocument();
    expect(within(row).getByText('PENDING')).toHaveClass('ant-tag-blue');
    expect(within(row).queryByRole('button', { name: RENTAL_MESSAGES.markDone })).not.toBeInTheDocument();

    fireEvent.click(within(row).getByRole('button', { name: RENTAL_MESSAGES.markOnProgress }));
    await yes();
    await waitFor(() => expect(writes(calls)).toHaveLength(1));
    expect(writes(calls)[0]).toMatchObject({ method: 'PATCH', url: `/api/orders/${ORDER}/requests/${REQ}`, body: { status: 'ON_PROGRESS' } });
    expect(await within(requests).findByText('ON PROGRESS')).toHaveClass('ant-tag-orange');

    fireEvent.click(await within(requests).findByRole('button', { name: RENTAL_MESSAGES.markDone }));
    await yes();
    await waitFor(() => expect(writes(calls)).toHaveLength(2));
    expect(writes(calls)[1]!.body).toEqual({ status: 'DONE' });
    expect(await within(requests).findByText('DONE')).toHaveClass('ant-tag-green');
    expect(within(requests).queryByRole('button')).not.toBeInTheDocument();
    expect(orderGets(calls).length).toBeGreaterThanOrEqual(3);
  });

  it("a refused request update shows the server's message", async () => {
    const req: OrderRequest = {
      id: REQ,
      orderID: ORDER,
      type: 'FIX',
      status: 'PENDING',
      userNote: '',
      products: [{ lineID: LINE_A, productName: 'Wheelchair', variantName: null, subVariantName: null }],
      createdAt: '2026-11-24T02:00:00.000Z',
      updatedAt: '2026-11-24T02:00:00.000Z',
    };
    mockApi(
      on('GET', `/api/orders/${ORDER}`, { status: 200, body: { order: rental({ requests: [req] }) } }),
      on('PATCH', `/api/orders/${ORDER}/requests/${REQ}`, problem(409, RENTAL_MESSAGES.requestStep('DONE', 'ON_PROGRESS'))),
    );
    open(`/admin/orders/rentals/${ORDER}`);
    fireEvent.click(await screen.findByRole('button', { name: RENTAL_MESSAGES.markOnProgress }));
    await yes();
    expect(await screen.findByText('Update Request Error')).toBeInTheDocument();
    expect(screen.getByText(RENTAL_MESSAGES.requestStep('DONE', 'ON_PROGRESS'))).toBeInTheDocument();
  });
});

describe('late fee waivers (issue 29)', () => {
  const REASON = 'Hospital stay, agreed with the manager';
  const late = (over: Partial<Order> = {}) => rental({ dueNotice: 'OVERDUE', lateFees: { amount: '300.00', days: 3, charged: '300.00', waived: '0.00' }, ...over });
  const openWaiver = async () => {
    fireEvent.click(await screen.findByRole('button', { name: 'Waive late fees' }));
    return screen.findByRole('dialog', { name: 'Waive Late Fees' });
  };
  const amountItem = (dialog: HTMLElement) => within(dialog).getByLabelText('Amount to waive').closest('.ant-form-item') as HTMLElement;

  it('no "Waive late fees" and no waivers while the rental has no late fees', async () => {
    mockApi(on('GET', `/api/orders/${ORDER}`, { status: 200, body: { order: rental() } }));
    open(`/admin/ongoing-rentals/${ORDER}`);
    await screen.findByRole('heading', { name: 'Rental ORD-20261123-000123' });
    expect(screen.queryByRole('button', { name: 'Waive late fees' })).toBeNull();
    expect(screen.queryByRole('region', { name: 'Late fee waivers' })).toBeNull();
  });

  it('the ongoing rental: the dialog shows the figures, asks for a reason, sends the waiver, says so and shows the order from the answer', async () => {
    let current = late();
    const { calls } = mockApi(
      on('GET', `/api/orders/${ORDER}`, () => ({ status: 200, body: { order: current } })),
      on('POST', `/api/orders/${ORDER}/late-fee-waivers`, () => {
        current = late({
          lateFees: { amount: '0.00', days: 3, charged: '300.00', waived: '300.00' },
          lateFeeWaivers: [{ amount: '300.00', reason: REASON, byName: 'Wendy Ramos', createdAt: '2026-12-02T01:00:00.000Z' }],
        });
        return { status: 201, body: { order: current } };
      }),
    );
    open(`/admin/ongoing-rentals/${ORDER}`);
    const dialog = await openWaiver();
    expect(within(dialog).getByTestId('waiver-charged')).toHaveTextContent('$300.00');
    expect(within(dialog).getByTestId('waiver-waived')).toHaveTextContent('$0.00');
    expect(within(dialog).getByTestId('waiver-left')).toHaveTextContent('$300.00');
    // What is left, at first.
    expect(within(dialog).getByLabelText('Amount to waive')).toHaveValue('300.00');

    fireEvent.click(within(dialog).getByRole('button', { name: 'Waive' }));
    expect(await within(dialog).findByText(LATE_FEE_MESSAGES.reason)).toBeInTheDocument();
    expect(writes(calls)).toEqual([]);

    fireEvent.change(within(dialog).getByLabelText('Reason'), { target: { value: REASON } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Waive' }));
    expect(await screen.findByText(LATE_FEE_MESSAGES.waived)).toBeInTheDocument();
    expect(writes(calls).map((c) => [c.method, c.url, c.body])).toEqual([['POST', `/api/orders/${ORDER}/late-fee-waivers`, { amount: '300.00', reason: REASON }]]);
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Waive Late Fees' })).toBeNull());

    const payment = region('Payment Information');
    await waitFor(() => expect(within(payment).getByTestId('late-fees-so-far')).toHaveTextContent('$0.00 (3 days late) — $300.00 waived'));
    // Nothing is left to waive.
    expect(within(payment).queryByRole('button', { name: 'Waive late fees' })).toBeNull();
    const waivers = within(region('Late fee waivers'));
    const cells = within(waivers.getAllByRole('row')[1]!).getAllByRole('cell').map((c) => c.textContent);
    expect(cells).toEqual(['$300.00', REASON, 'Wendy Ramos', 'Dec 2, 2026, 9:00 AM']);
  });

  it('the rental order: checks the amount, and shows the server\'s "too much" under the Amount field, the dialog staying open', async () => {
    const { calls } = mockApi(
      on('GET', `/api/orders/${ORDER}`, { status: 200, body: { order: late({ status: 'FOR_PICK_UP', lateFees: { amount: '300.00', days: 3, charged: '350.00', waived: '50.00' }, lateFeeWaivers: [{ amount: '50.00', reason: 'Rain', byName: 'Wendy Ramos', createdAt: '2026-12-01T01:00:00.000Z' }] }) } }),
      on('POST', `/api/orders/${ORDER}/late-fee-waivers`, problem(400, 'Validation failed', [{ field: 'amount', message: LATE_FEE_MESSAGES.tooMuch }])),
    );
    open(`/admin/orders/rentals/${ORDER}`);
    const payment = await screen.findByRole('region', { name: 'Payment Information' });
    expect(within(payment).getByTestId('late-fees-so-far')).toHaveTextContent('$300.00 (3 days late) — $50.00 waived');
    expect(within(region('Late fee waivers')).getByText('Rain')).toBeInTheDocument();
    const dialog = await openWaiver();
    expect(within(dialog).getByTestId('waiver-charged')).toHaveTextContent('$350.00');
    expect(within(dialog).getByTestId('waiver-waived')).toHaveTextContent('$50.00');
    fireEvent.change(within(dialog).getByLabelText('Reason'), { target: { value: REASON } });

    // Checked here first: more than is left, or nothing.
    fireEvent.change(within(dialog).getByLabelText('Amount to waive'), { target: { value: '400' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Waive' }));
    await waitFor(() => expect(amountItem(dialog)).toHaveTextContent(LATE_FEE_MESSAGES.tooMuch));
    fireEvent.change(within(dialog).getByLabelText('Amount to waive'), { target: { value: '0' } });
    await waitFor(() => expect(amountItem(dialog)).toHaveTextContent(LATE_FEE_MESSAGES.amount));
    expect(writes(calls)).toEqual([]);

    // The server counts otherwise (another waiver meanwhile): its message under the field.
    fireEvent.change(within(dialog).getByLabelText('Amount to waive'), { target: { value: '250' } });
    await waitFor(() => expect(amountItem(dialog)).not.toHaveTextContent(LATE_FEE_MESSAGES.amount));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Waive' }));
    await waitFor(() => expect(amountItem(dialog)).toHaveTextContent(LATE_FEE_MESSAGES.tooMuch));
    expect(writes(calls).map((c) => c.body)).toEqual([{ amount: '250.00', reason: REASON }]);
    expect(screen.getByRole('dialog', { name: 'Waive Late Fees' })).toBeInTheDocument();
    expect(screen.queryByText(LATE_FEE_MESSAGES.waived)).toBeNull();
  });
});

describe('live updates', () => {
  it("refetches the order on screen when the gateway's event stream reports a change", async () => {
    const sources: FakeEventSource[] = [];
    class FakeEventSource {
      listeners = new Map<string, (e: MessageEvent<string>) => void>();
      closed = false;
      constructor(readonly url: string) {
        sources.push(this);
      }
      addEventListener(type: string, fn: (e: MessageEvent<string>) => void) {
        this.listeners.set(type, fn);
      }
      removeEventListener(type: string) {
        this.listeners.delete(type);
      }
      close() {
        this.closed = true;
      }
    }
    vi.stubGlobal('EventSource', FakeEventSource);
    let current = rental({ status: 'FOR_RETURN' });
    const { calls } = mockApi(on('GET', `/api/orders/${ORDER}`, () => ({ status: 200, body: { order: current } })));
    open(`/admin/ongoing-rentals/${ORDER}`);
    expect(await screen.findByText('FOR RETURN')).toBeInTheDocument();
    // The stream opens a moment after the page has loaded (api-client: afterPageLoad).
    await vi.waitFor(() => expect(sources.map((s) => s.url)).toEqual(['/api/events']), { timeout: 3000 });
    const before = orderGets(calls).length;

    // A driver scans the order for pick-up elsewhere.
    current = rental({ status: 'FOR_PICK_UP' });
    const data = JSON.stringify({ kind: 'order', orderId: ORDER, orderType: 'RENT', status: 'FOR_PICK_UP', at: '2026-11-24T03:00:00.000Z' });
    sources[0]!.listeners.get('change')!(new MessageEvent('change', { data }));
    expect(await screen.findByText('FOR PICK UP')).toBeInTheDocument();
    expect(orderGets(calls).length).toBeGreaterThan(before);
    expect(screen.getByRole('button', { name: 'Mark OXY-0000001 as OK' })).toBeInTheDocument();

    cleanup();
    expect(sources[0]!.closed).toBe(true);
  });
});
