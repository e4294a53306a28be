import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter, useLocation } from 'react-router-dom';
import { manilaDate, PACKING_MESSAGES, stockQrPayload, type Handover, type Order, type OrderLine, type OrderStatus, type OrderSummary, type User } from '@dme/contracts';
import { SCANNER_MESSAGES } from '@dme/ui';
import App from '../../app';
import { mockApi, on, problem, query, serialEntry, type Call } from '@dme/ui/testing';
import { CONFIRM_ORDER_PROMPT } from './OrderDetailPage';

const staff = { id: '00000000-0000-4000-8000-0000000000a1', username: 'warehouse', firstName: 'Wendy', lastName: 'Ramos', userType: 'WAREHOUSE_STAFF' } as User;

const ORDER = 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa';
const CUSTOMER = 'dddddddd-dddd-4ddd-8ddd-dddddddddddd';
const P1 = '11111111-1111-4111-8111-111111111111';
const P2 = '22222222-2222-4222-8222-222222222222';
const V1 = '33333333-3333-4333-8333-333333333333';
const S1 = '55555555-5555-4555-8555-555555555555';
const LINE_A = 'bbbbbbbb-bbbb-4bbb-8bbb-bbbbbbbbbbbb';
const LINE_B = 'cccccccc-cccc-4ccc-8ccc-cccccccccccc';

const lineA: OrderLine = {
  id: LINE_A,
  productID: P1,
  productName: 'Wheelchair',
  productImage: '/api/uploads/wheelchair.png',
  productVariantID: V1,
  productSubVariantID: S1,
  variant: { name: 'Standard', price: null },
  subVariant: { name: 'Large', price: '50.00' },
  quantity: 2,
  noOfRentalDays: null,
  productAmount: '50.00',
  productDamageCharges: '500.00',
  lineTotal: '100.00',
  serialCodes: [],
  dueDate: null,
  startDate: null,
  rentalTerms: null,
  deposit: '0.00',
};
const lineB: OrderLine = {
  ...lineA,
  id: LINE_B,
  productID: P2,
  productName: 'Oxygen Tank',
  productImage: '/api/uploads/oxygen.png',
  productVariantID: null,
  productSubVariantID: null,
  variant: null,
  subVariant: null,
  quantity: 1,
  productAmount: '50.00',
  lineTotal: '50.00',
};

/** A serial code entry (SPEC §3) packed for a line and not returned yet, from bin A. */
const packed = (serialCode: string, productID = P1) => serialEntry(serialCode, { productID });

function order(over: Partial<Order> = {}): Order {
  return {
    id: ORDER,
    orderNumber: 'ORD-20261123-000123',
    createdAt: '2026-11-23T05:00:00.000Z',
    status: 'PENDING',
    type: 'BUY',
    typeOfOrder: null,
    totalAmount: '150.00',
    customerID: CUSTOMER,
    customerName: 'Maria Santos',
    deliveryAddress: '12 Rizal St',
    deliveryCity: 'Makati',
    deliveryState: 'Metro Manila',
    deliveryZipcode: '123456',
    note: 'Call before delivery',
    partialPayment: null,
    payment: { status: 'UNPAID', totalOrderPayment: '150.00', totalPartialPayment: null, extraCharge: null, overallTotal: null, balance: null, dueDate: null, records: [], deposit: '0.00', lateFees: null, depositApplied: null, depositRefund: null, refunds: [] },
    orderTracker: [{ title: 'Order placed', status: 'PENDING', createdAt: '2026-11-23T05:00:00.000Z' }],
    products: [lineA, lineB],
    customer: { idNumber: 'CUS-000007', firstName: 'Maria', middleName: 'Luna', lastName: 'Santos', suffix: 'Jr.', email: 'maria@example.com', contactNumber: '09171234567' },
    allowedTransitions: ['FOR_PAYMENT', 'CANCELLED'],
    deliveredAt: null,
    driverID: null,
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

const summary = (i: number, over: Partial<OrderSummary> = {}): OrderSummary => ({
  id: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
  orderNumber: `ORD-20261123-${String(i).padStart(6, '0')}`,
  createdAt: '2026-11-23T16:30:00.000Z',
  status: 'PENDING',
  type: 'BUY',
  typeOfOrder: null,
  totalAmount: '150.00',
  customerID: CUSTOMER,
  customerName: 'Maria Santos',
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
const lists = (calls: Call[]) => calls.filter((c) => c.method === 'GET' && c.url.startsWith('/api/orders?'));
const posts = (calls: Call[]) => calls.filter((c) => c.method === 'POST');
const region = (name: string) => screen.getByRole('region', { name });
const rowOf = (text: string) => screen.getByText(text).closest('tr') as HTMLElement;

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

describe('staff order lists', () => {
  it('purchased: the spec tabs (and Cancelled), kept in the address, rows with number, date, customer, status and View', async () => {
    const { calls } = mockApi(
      on('GET', '/api/orders', (c) => {
        const q = query(c);
        if (q.status === 'PENDING') return { status: 200, body: { items: [summary(1), summary(2, { customerName: 'Jose Cruz' })], total: 2 } };
        return { status: 200, body: { items: [], total: 0 } };
      }),
      on('GET', `/api/orders/${summary(1).id}`, { status: 200, body: { order: order({ id: summary(1).id, orderNumber: summary(1).orderNumber }) } }),
    );
    open('/admin/orders/purchased');
    expect(await screen.findByRole('heading', { name: 'Purchased Orders' })).toBeInTheDocument();
    expect(await screen.findByText('ORD-20261123-000001')).toBeInTheDocument();
    expect(screen.getAllByRole('tab').map((t) => t.textContent)).toEqual(['Pending', 'For Payment', 'Preparing', 'To Ship', 'Out For Delivery', 'Delivered', 'Cancelled']);
    expect(screen.getByRole('tab', { name: 'Pending', selected: true })).toBeInTheDocument();
    expect(query(lists(calls)[0]!)).toEqual({ type: 'BUY', status: 'PENDING', limit: '100', offset: '0' });
    for (const title of ['Order Number', 'Date', 'Customer', 'Status']) expect(screen.getByRole('columnheader', { name: title })).toBeInTheDocument();

    const first = rowOf('ORD-20261123-000001');
    // 16:30 UTC is half past midnight the next day in Manila.
    expect(within(first).getByText(/Nov 24, 2026/)).toBeInTheDocument();
    expect(within(first).getByText('Maria Santos')).toBeInTheDocument();
    expect(within(first).getByText('PENDING')).toBeInTheDocument();
    expect(within(rowOf('ORD-20261123-000002')).getByText('Jose Cruz')).toBeInTheDocument();

    fireEvent.click(screen.getByRole('tab', { name: 'Preparing' }));
    expect(await screen.findByText('No orders in this status.')).toBeInTheDocument();
    expect(location()).toBe('/admin/orders/purchased?status=PREPARING');
    expect(query(lists(calls).at(-1)!)).toMatchObject({ type: 'BUY', status: 'PREPARING' });

    fireEvent.click(screen.getByRole('tab', { name: 'Pending' }));
    fireEvent.click(await screen.findByRole('link', { name: 'View ORD-20261123-000001' }));
    expect(await screen.findByRole('heading', { name: 'Order ORD-20261123-000001' })).toBeInTheDocument();
    expect(location()).toBe(`/admin/orders/purchased/${summary(1).id}`);
  });

  it('rentals: the tab comes from the address, with the rental statuses; search is sent and kept', async () => {
    const { calls } = mockApi(
      on('GET', '/api/orders', (c) => {
        const q = query(c);
        if (q.status === 'FOR_RETURN' && !q.search) return { status: 200, body: { items: [summary(5, { type: 'RENT', status: 'FOR_RETURN' })], total: 1 } };
        return { status: 200, body: { items: [], total: 0 } };
      }),
    );
    open('/admin/orders/rentals?status=FOR_RETURN');
    expect(await screen.findByRole('heading', { name: 'Rental Orders' })).toBeInTheDocument();
    expect(await screen.findByText('ORD-20261123-000005')).toBeInTheDocument();
    expect(screen.getAllByRole('tab').map((t) => t.textContent)).toEqual([
      'Pending',
      'For Payment',
      'Preparing',
      'To Ship',
      'Out For Delivery',
      'Delivered',
      'For Return',
      'For Pick Up',
      'For Full Payment',
      'Completed',
      'Cancelled',
    ]);
    expect(screen.getByRole('tab', { name: 'For Return', selected: true })).toBeInTheDocument();
    expect(query(lists(calls)[0]!)).toMatchObject({ type: 'RENT', status: 'FOR_RETURN' });

    const search = screen.getByRole('searchbox', { name: 'Search orders' });
    fireEvent.change(search, { target: { value: ' Cruz ' } });
    fireEvent.keyDown(search, { key: 'Enter', code: 'Enter', keyCode: 13 });
    expect(await screen.findByText('No orders in this status match "Cruz".')).toBeInTheDocument();
    expect(location()).toBe('/admin/orders/rentals?status=FOR_RETURN&search=Cruz');
    expect(query(lists(calls).at(-1)!)).toMatchObject({ type: 'RENT', status: 'FOR_RETURN', search: 'Cruz' });
  });

  it('loads 100 orders and offers "Load more" for the rest', async () => {
    const all = Array.from({ length: 130 }, (_, i) => summary(i + 1));
    const { calls } = mockApi(
      on('GET', '/api/orders', (c) => {
        const offset = Number(query(c).offset);
        return { status: 200, body: { items: all.slice(offset, offset + Number(query(c).limit)), total: all.length } };
      }),
    );
    open('/admin/orders/purchased?status=PENDING');
    expect(await screen.findByText('Showing 100 of 130')).toBeInTheDocument();
    expect(screen.queryByText('ORD-20261123-000101')).not.toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Load more' }));
    expect(await screen.findByText('ORD-20261123-000130')).toBeInTheDocument();
    expect(screen.getByText('Showing 130 of 130')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Load more' })).not.toBeInTheDocument();
    expect(query(lists(calls).at(-1)!)).toMatchObject({ limit: '100', offset: '100' });
  });

  it('shows an error state with the server message', async () => {
    mockApi(on('GET', '/api/orders', problem(503, 'The order service is not answering.')));
    open('/admin/orders/purchased');
    expect(await screen.findByText('The orders could not be loaded')).toBeInTheDocument();
    expect(screen.getByText('The order service is not answering.')).toBeInTheDocument();
  });
});

describe('staff order detail', () => {
  it('PENDING purchase: every section, no QR, no requests, Confirm Order behind the prompt, lists and detail refresh', async () => {
    let current = order();
    const { calls } = mockApi(
      on('GET', `/api/orders/${ORDER}`, () => ({ status: 200, body: { order: current } })),
      on('POST', `/api/orders/${ORDER}/transitions`, () => {
        current = order({
          status: 'FOR_PAYMENT',
          allowedTransitions: ['CANCELLED'],
          orderTracker: [...current.orderTracker, { title: 'Order confirmed, waiting for payment', status: 'FOR_PAYMENT', createdAt: '2026-11-23T06:00:00.000Z' }],
        });
        return { status: 200, body: { order: current } };
      }),
    );
    open(`/admin/orders/purchased/${ORDER}`);
    expect(await screen.findByRole('heading', { name: 'Order ORD-20261123-000123' })).toBeInTheDocument();
    // Dates in Manila: 05:00 UTC is 1:00 PM there.
    expect(screen.getAllByText('Nov 23, 2026, 1:00 PM').length).toBe(2);

    const tracker = region('Order Tracker');
    expect(within(tracker).getByText('Order placed')).toBeInTheDocument();
    expect(within(tracker).getByText('Nov 23, 2026, 1:00 PM')).toBeInTheDocument();
    const customer = region('Customer Information');
    for (const text of ['CUS-000007', 'Maria', 'Luna', 'Santos', 'Jr.', '09171234567', 'maria@example.com']) expect(within(customer).getByText(text)).toBeInTheDocument();
    const shipping = region('Shipping Information');
    for (const text of ['12 Rizal St', 'Makati', 'Metro Manila', '123456', 'Call before delivery']) expect(within(shipping).getByText(text)).toBeInTheDocument();
    const products = region('Products');
    const wheelchair = within(products).getByText('Wheelchair').closest('tr') as HTMLElement;
    expect(within(wheelchair).getByText('Standard')).toBeInTheDocument();
    expect(within(wheelchair).getByText('Large')).toBeInTheDocument();
    expect(within(wheelchair).getByText('$50.00')).toBeInTheDocument();
    expect(within(wheelchair).getByText('$100.00')).toBeInTheDocument();
    expect(within(wheelchair).getByRole('img', { name: 'Wheelchair' })).toHaveAttribute('src', '/api/uploads/wheelchair.png');
    expect(within(products).queryByRole('columnheader', { name: 'Rental Days' })).not.toBeInTheDocument();
    const payment = region('Payment Information');
    expect(within(payment).getByText('UNPAID')).toBeInTheDocument();
    expect(within(payment).getByText('$150.00')).toBeInTheDocument();
    expect(within(payment).getByText('No payment has been taken yet.')).toBeInTheDocument();
    expect(within(payment).queryByRole('link', { name: 'Download invoice' })).not.toBeInTheDocument();

    expect(screen.queryByRole('region', { name: 'QR Code' })).not.toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'Requests' })).not.toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'Proof of delivery' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'To Ship Order' })).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Cancel Order' })).toBeInTheDocument();

    // "No" changes nothing.
    fireEvent.click(screen.getByRole('button', { name: 'Confirm Order' }));
    expect((await screen.findAllByText(CONFIRM_ORDER_PROMPT)).length).toBeGreaterThan(0);
    fireEvent.click(screen.getByRole('button', { name: 'No' }));
    await new Promise((r) => setTimeout(r, 300));
    expect(posts(calls)).toHaveLength(0);

    fireEvent.click(screen.getByRole('button', { name: 'Confirm Order' }));
    await waitFor(() => expect(screen.getAllByRole('button', { name: 'Confirm' })).toHaveLength(2));
    fireEvent.click(screen.getAllByRole('button', { name: 'Confirm' }).at(-1)!);
    await waitFor(() => expect(posts(calls)).toHaveLength(1));
    expect(posts(calls)[0]!.body).toEqual({ to: 'FOR_PAYMENT' });
    // The detail is fetched again at once (tags), showing the new status and step.
    expect(await screen.findByText('Order confirmed, waiting for payment')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Confirm Order' })).not.toBeInTheDocument();
    expect(screen.getAllByText('FOR PAYMENT').length).toBeGreaterThan(0);
    expect(calls.filter((c) => c.method === 'GET' && c.url === `/api/orders/${ORDER}`).length).toBeGreaterThanOrEqual(2);
  });

  it("a refused step shows the server's message", async () => {
    mockApi(
      on('GET', `/api/orders/${ORDER}`, { status: 200, body: { order: order() } }),
      on('POST', `/api/orders/${ORDER}/transitions`, problem(409, 'This order was already confirmed.')),
    );
    open(`/admin/orders/purchased/${ORDER}`);
    fireEvent.click(await screen.findByRole('button', { name: 'Confirm Order' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Confirm' }));
    expect(await screen.findByText('Confirm Order Error')).toBeInTheDocument();
    expect(screen.getByText('This order was already confirmed.')).toBeInTheDocument();
  });

  it('Cancel Order asks first and sends CANCELLED', async () => {
    const { calls } = mockApi(
      on('GET', `/api/orders/${ORDER}`, { status: 200, body: { order: order() } }),
      on('POST', `/api/orders/${ORDER}/transitions`, { status: 200, body: { order: order({ status: 'CANCELLED', allowedTransitions: [] }) } }),
    );
    open(`/admin/orders/purchased/${ORDER}`);
    fireEvent.click(await screen.findByRole('button', { name: 'Cancel Order' }));
    expect((await screen.findAllByText('Cancel this order?')).length).toBeGreaterThan(0);
    fireEvent.click(screen.getByRole('button', { name: 'Yes, cancel' }));
    await waitFor(() => expect(posts(calls)).toHaveLength(1));
    expect(posts(calls)[0]!.body).toEqual({ to: 'CANCELLED' });
  });

  it('offers no step the order does not list for the caller', async () => {
    for (const status of ['PENDING', 'PREPARING'] as const) {
      mockApi(on('GET', `/api/orders/${ORDER}`, { status: 200, body: { order: order({ status, allowedTransitions: [] }) } }));
      open(`/admin/orders/purchased/${ORDER}`);
      expect(await screen.findByRole('heading', { name: 'Order ORD-20261123-000123' })).toBeInTheDocument();
      for (const name of ['Confirm Order', 'Cancel Order', 'To Ship Order']) expect(screen.queryByRole('button', { name })).not.toBeInTheDocument();
      expect(screen.queryByRole('button', { name: /^Scan / })).not.toBeInTheDocument();
      expect(screen.getByRole('button', { name: 'Back' })).toBeInTheDocument();
      cleanup();
    }
  });

  it('shows the QR block only from TO_SHIP on', async () => {
    const seen: Record<string, boolean> = {};
    for (const status of ['PENDING', 'FOR_PAYMENT', 'PREPARING', 'CANCELLED', 'TO_SHIP', 'OUT_FOR_DELIVERY', 'DELIVERED'] as OrderStatus[]) {
      mockApi(on('GET', `/api/orders/${ORDER}`, { status: 200, body: { order: order({ status, allowedTransitions: [] }) } }));
      open(`/admin/orders/purchased/${ORDER}`);
      await screen.findByRole('heading', { name: 'Order ORD-20261123-000123' });
      seen[status] = screen.queryByRole('region', { name: 'QR Code' }) !== null;
      cleanup();
    }
    expect(seen).toEqual({ PENDING: false, FOR_PAYMENT: false, PREPARING: false, CANCELLED: false, TO_SHIP: true, OUT_FOR_DELIVERY: true, DELIVERED: true });
  });

  it('TO_SHIP rental: QR with Download QR (QR_Code.png), rental days, serial codes, payment records with the invoice, requests', async () => {
    const rental = order({
      type: 'RENT',
      status: 'TO_SHIP',
      allowedTransitions: [],
      partialPayment: '100.00',
      products: [
        { ...lineA, noOfRentalDays: 3, lineTotal: '300.00', serialCodes: [packed('WHE-0000001'), packed('WHE-0000002')] },
      ],
      payment: {
        status: 'INITIAL_PAYMENT',
        totalOrderPayment: '300.00',
        totalPartialPayment: '100.00',
        extraCharge: null,
        overallTotal: null,
        balance: null,
        dueDate: null,
        records: [{ type: 'PARTIAL', invoiceNumber: 'INV-001', receiptNumber: 'OR-001', amount: '100.00', note: 'Cash', createdAt: '2026-11-23T06:00:00.000Z' }],
        deposit: '0.00',
        lateFees: null,
        depositApplied: null,
        depositRefund: null,
        refunds: [],
      },
    });
    const { calls } = mockApi(
      on('GET', `/api/orders/${ORDER}`, { status: 200, body: { order: rental } }),
      on('GET', `/api/orders/${ORDER}/qr.png`, { status: 200, bytes: new Uint8Array([137, 80, 78, 71]), contentType: 'image/png' }),
    );
    const clicked: HTMLAnchorElement[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      clicked.push(this);
    });
    open(`/admin/orders/rentals/${ORDER}`);
    const qr = await screen.findByRole('region', { name: 'QR Code' });
    expect(within(qr).getByRole('img', { name: 'QR code of order ORD-20261123-000123' })).toHaveAttribute('src', `/api/orders/${ORDER}/qr.png`);
    fireEvent.click(within(qr).getByRole('button', { name: 'Download QR' }));
    await waitFor(() => expect(clicked).toHaveLength(1));
    expect(clicked[0]!.download).toBe('QR_Code.png');
    expect(clicked[0]!.href).toMatch(/^blob:/);
    expect(calls.some((c) => c.url === `/api/orders/${ORDER}/qr.png`)).toBe(true);

    const products = region('Products');
    expect(within(products).getByRole('columnheader', { name: 'Rental Days' })).toBeInTheDocument();
    expect(within(products).getByText('3 days')).toBeInTheDocument();
    expect(within(products).getByText('$300.00')).toBeInTheDocument();
    expect(within(products).getByTestId('serial-WHE-0000001')).toHaveTextContent(/^WHE-0000001$/);
    expect(within(products).getByText(/WHE-0000002/)).toBeInTheDocument();
    // The bin each unit was packed from (SPEC §3 serial code entry).
    expect(within(products).getAllByText('Bin A-01 Mobility')).toHaveLength(2);

    const payment = region('Payment Information');
    expect(within(payment).getByText('INITIAL PAYMENT')).toBeInTheDocument();
    expect(within(payment).getByText('Partial Payment (first day)')).toBeInTheDocument();
    const rec = within(payment).getByText('INV-001').closest('tr') as HTMLElement;
    for (const text of ['Initial payment', 'OR-001', '$100.00', 'Cash', 'Nov 23, 2026, 2:00 PM']) expect(within(rec).getByText(text)).toBeInTheDocument();
    expect(within(payment).getByRole('link', { name: 'Download invoice' })).toHaveAttribute('href', `/api/orders/${ORDER}/invoice.pdf`);

    expect(within(region('Requests')).getByText('No requests')).toBeInTheDocument();
  });

  it('a rental with a deposit kept late: Deposit and Late Fees So Far with the days; no deposit or late fees: neither row (issue 29)', async () => {
    const late = order({
      type: 'RENT',
      status: 'DELIVERED',
      allowedTransitions: [],
      partialPayment: '100.00',
      products: [{ ...lineA, noOfRentalDays: 3, lineTotal: '300.00', deposit: '1000.00', dueDate: '2026-11-26' }],
      payment: { ...order().payment, status: 'INITIAL_PAYMENT', totalOrderPayment: '300.00', totalPartialPayment: '100.00', deposit: '1000.00' },
      lateFees: { amount: '150.00', days: 3 },
    });
    mockApi(on('GET', `/api/orders/${ORDER}`, { status: 200, body: { order: late } }));
    open(`/admin/orders/rentals/${ORDER}`);
    const payment = await screen.findByRole('region', { name: 'Payment Information' });
    expect(within(payment).getByText('Deposit').closest('.ant-descriptions-item-label')!.nextElementSibling).toHaveTextContent('$1,000.00');
    expect(within(payment).getByTestId('late-fees-so-far')).toHaveTextContent('$150.00 (3 days late)');
    for (const label of ['Late Fees', 'Deposit Applied', 'Deposit Refund']) expect(within(payment).queryByText(label)).toBeNull();
    cleanup();

    mockApi(on('GET', `/api/orders/${ORDER}`, { status: 200, body: { order: { ...late, payment: { ...late.payment, deposit: '0.00' }, lateFees: null } } }));
    open(`/admin/orders/rentals/${ORDER}`);
    const plain = await screen.findByRole('region', { name: 'Payment Information' });
    for (const label of ['Deposit', 'Late Fees So Far', 'Late Fees', 'Deposit Applied', 'Deposit Refund']) expect(within(plain).queryByText(label)).toBeNull();
  });

  it('a rental at its full payment: the late fees charged, the deposit applied and the deposit refund (issue 29)', async () => {
    const full = order({
      type: 'RENT',
      status: 'FOR_FULL_PAYMENT',
      allowedTransitions: [],
      partialPayment: '100.00',
      products: [{ ...lineA, noOfRentalDays: 3, lineTotal: '300.00', deposit: '1000.00', dueDate: '2026-11-26' }],
      payment: {
        ...order().payment,
        status: 'FOR_FULL_PAYMENT',
        totalOrderPayment: '300.00',
        totalPartialPayment: '100.00',
        extraCharge: '650.00',
        overallTotal: '950.00',
        balance: '200.00',
        dueDate: '2026-11-29',
        records: [{ type: 'PARTIAL', invoiceNumber: 'INV-001', receiptNumber: 'OR-001', amount: '1100.00', note: 'Cash', createdAt: '2026-11-23T06:00:00.000Z' }],
        deposit: '1000.00',
        lateFees: '150.00',
        depositApplied: '650.00',
        depositRefund: '350.00',
      },
      lateFees: { amount: '150.00', days: 3 },
    });
    mockApi(on('GET', `/api/orders/${ORDER}`, { status: 200, body: { order: full } }));
    open(`/admin/orders/rentals/${ORDER}`);
    const payment = await screen.findByRole('region', { name: 'Payment Information' });
    // Two figures a row: each figure is the cell after its label.
    const figure = (label: string) => within(payment).getByText(label).closest('.ant-descriptions-item-label')!.nextElementSibling;
    expect(figure('Deposit')).toHaveTextContent('$1,000.00');
    expect(within(payment).getByTestId('late-fees-so-far')).toHaveTextContent('$150.00 (3 days late)');
    expect(figure('Late Fees')).toHaveTextContent('$150.00');
    expect(figure('Deposit Applied')).toHaveTextContent('$650.00');
    expect(within(payment).getByTestId('deposit-refund')).toHaveTextContent('$350.00');
    expect(figure('Deposit Refund')).toHaveTextContent('$350.00');
    // The existing figures stay.
    expect(figure('Extra Charges')).toHaveTextContent('$650.00');
    expect(figure('Balance')).toHaveTextContent('$200.00');
  });

  it('a rental billed by cycles: a cycle record shows "Cycle 2 payment" (issue 29)', async () => {
    const cycles = order({
      type: 'RENT',
      status: 'DELIVERED',
      allowedTransitions: [],
      partialPayment: '100.00',
      products: [{ ...lineA, noOfRentalDays: 45, lineTotal: '4500.00', dueDate: '2027-01-07' }],
      payment: {
        ...order().payment,
        status: 'INITIAL_PAYMENT',
        totalOrderPayment: '4500.00',
        totalPartialPayment: '100.00',
        records: [
          { type: 'PARTIAL', invoiceNumber: 'INV-001', receiptNumber: 'OR-001', amount: '100.00', note: 'Cash', createdAt: '2026-11-23T06:00:00.000Z' },
          { type: 'CYCLE', cycle: 2, invoiceNumber: 'INV-002', receiptNumber: 'OR-002', amount: '1500.00', note: '', createdAt: '2026-12-23T06:00:00.000Z' },
          { type: 'BUYOUT', invoiceNumber: 'INV-003', receiptNumber: 'OR-003', amount: '27000.00', note: '', createdAt: '2026-12-24T06:00:00.000Z' },
        ],
      },
    });
    mockApi(on('GET', `/api/orders/${ORDER}`, { status: 200, body: { order: cycles } }));
    open(`/admin/orders/rentals/${ORDER}`);
    const payment = await screen.findByRole('region', { name: 'Payment Information' });
    expect(within(within(payment).getByText('INV-001').closest('tr') as HTMLElement).getByText('Initial payment')).toBeInTheDocument();
    const rec = within(payment).getByText('INV-002').closest('tr') as HTMLElement;
    for (const text of ['Cycle 2 payment', 'OR-002', '$1,500.00']) expect(within(rec).getByText(text)).toBeInTheDocument();
    // Rent-to-own: the buy-out is named as such, never as a full payment.
    expect(within(within(payment).getByText('INV-003').closest('tr') as HTMLElement).getByText('Buy-out')).toBeInTheDocument();
    expect(within(payment).queryByText('Full payment')).not.toBeInTheDocument();
  });

  it('a rental billed by cycles shows its billing cycles; an upfront one does not (issue 29)', async () => {
    const billed = order({
      type: 'RENT',
      status: 'DELIVERED',
      partialPayment: '100.00',
      products: [{ ...lineA, noOfRentalDays: 45, lineTotal: '4500.00', dueDate: '2027-01-07' }],
      deliveredAt: '2026-11-24T02:00:00.000Z',
      billing: 'CYCLES',
      cycles: [
        { n: 1, from: '2026-11-24', to: '2026-12-23', dueOn: '2026-11-24', days: 30, amount: '3000.00', state: 'PAID' },
        { n: 2, from: '2026-12-24', to: '2027-01-07', dueOn: '2026-12-24', days: 15, amount: '1500.00', state: 'DUE' },
      ],
    });
    mockApi(on('GET', `/api/orders/${ORDER}`, { status: 200, body: { order: billed } }));
    open(`/admin/orders/rentals/${ORDER}`);
    const cycles = await screen.findByRole('region', { name: 'Billing cycles' });
    expect(within(cycles).getByText('Billed every 30 days from delivery (delivered Nov 24, 2026)')).toBeInTheDocument();
    const cycleRow = (n: string) => within(cycles).getByRole('cell', { name: n }).closest('tr') as HTMLElement;
    for (const text of ['Nov 24, 2026 – Dec 23, 2026', '$3,000.00']) expect(within(cycleRow('1')).getByText(text)).toBeInTheDocument();
    expect(within(cycleRow('1')).getByText('Paid')).toHaveClass('ant-tag-green');
    for (const text of ['Dec 24, 2026 – Jan 7, 2027', 'Dec 24, 2026', '$1,500.00']) expect(within(cycleRow('2')).getByText(text)).toBeInTheDocument();
    expect(within(cycleRow('2')).getByText('Due')).toHaveClass('ant-tag-red');
    cleanup();

    mockApi(on('GET', `/api/orders/${ORDER}`, { status: 200, body: { order: { ...billed, billing: 'UPFRONT', cycles: [] } } }));
    open(`/admin/orders/rentals/${ORDER}`);
    await screen.findByRole('region', { name: 'Payment Information' });
    expect(screen.queryByRole('region', { name: 'Billing cycles' })).toBeNull();
    expect(screen.queryByText(/Billed every 30 days/)).toBeNull();
  });

  it('a delivered order shows its proof of delivery: the hand-over, its signature and the Delivery ticket (issue 28)', async () => {
    const handover: Handover = {
      id: 'eeeeeeee-eeee-4eee-8eee-eeeeeeeeeeee',
      leg: 'DELIVERY',
      outcome: 'HANDED_OVER',
      attempt: 1,
      recipientName: 'Ana Santos',
      relation: 'FAMILY',
      reason: '',
      serials: ['WHE-0000001'],
      acknowledgement: 'I received the equipment listed above.',
      driverName: 'Dario Cruz',
      signedAt: '2026-11-24T02:00:00.000Z',
      recordedAt: '2026-11-24T02:01:00.000Z',
      hasSignature: true,
      hasPhoto: false,
    };
    const { calls } = mockApi(
      on('GET', `/api/orders/${ORDER}`, { status: 200, body: { order: order({ status: 'DELIVERED', allowedTransitions: [], handovers: [handover] }) } }),
      on('GET', `/api/orders/${ORDER}/tickets/delivery`, { status: 200, bytes: new Uint8Array([37, 80, 68, 70]), contentType: 'application/pdf' }),
    );
    const clicked: HTMLAnchorElement[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      clicked.push(this);
    });
    open(`/admin/orders/purchased/${ORDER}`);
    const proof = await screen.findByRole('region', { name: 'Proof of delivery' });
    expect(within(proof).getByText('Ana Santos, Family member')).toBeInTheDocument();
    expect(within(proof).getByRole('img', { name: 'Signature of Ana Santos' })).toHaveAttribute('src', `/api/orders/${ORDER}/handovers/${handover.id}/signature`);
    fireEvent.click(within(proof).getByRole('button', { name: 'Delivery ticket' }));
    await waitFor(() => expect(clicked).toHaveLength(1));
    expect(clicked[0]!.download).toBe('DELIVERY_TICKET.pdf');
    expect(calls.some((c) => c.url === `/api/orders/${ORDER}/tickets/delivery`)).toBe(true);
  });

  it('an order opened under the other type goes to its own address', async () => {
    mockApi(on('GET', `/api/orders/${ORDER}`, { status: 200, body: { order: order({ type: 'RENT' }) } }));
    open(`/admin/orders/purchased/${ORDER}`);
    await waitFor(() => expect(location()).toBe(`/admin/orders/rentals/${ORDER}`));
    expect(await screen.findByRole('region', { name: 'Requests' })).toBeInTheDocument();
  });

  it('an unknown order shows an error state', async () => {
    mockApi();
    open(`/admin/orders/purchased/${ORDER}`);
    expect(await screen.findByText('This order could not be loaded')).toBeInTheDocument();
  });
});

describe('packing (PREPARING → TO_SHIP), kept on the server', () => {
  const preparing = (over: Partial<Order> = {}) => order({ status: 'PREPARING', allowedTransitions: ['TO_SHIP'], ...over });

  function scanInput(dialog: HTMLElement) {
    return within(dialog).getByLabelText('Serial code') as HTMLInputElement;
  }
  /** Types a code and presses Enter (the form's submit), as a keyboard-wedge scanner does. */
  function type(dialog: HTMLElement, text: string) {
    const input = scanInput(dialog);
    fireEvent.change(input, { target: { value: text } });
    fireEvent.submit(input.closest('form')!);
  }
  async function answer(dialog: HTMLElement, text: string) {
    await waitFor(() => expect(within(dialog).queryByText('Checking the code…')).not.toBeInTheDocument());
    expect(within(within(dialog).getByTestId('scan-answer')).getByRole('alert')).toHaveTextContent(text);
  }

  /**
   * The order service's packing progress for the order's lines: codes kept per line (as the
   * server keeps them across reloads), refusals as it answers them (the messages of
   * PACKING_MESSAGES, from the catalog's check).
   */
  function packingServer(lines: OrderLine[]) {
    const kept: Record<string, string[]> = Object.fromEntries(lines.map((l) => [l.id, []]));
    const refusals: Record<string, string> = {
      'OXY-0000001': PACKING_MESSAGES.wrongProduct('Wheelchair / Standard / Large'),
      'WHE-0000005': PACKING_MESSAGES.wrongProduct('Wheelchair / Standard / Large'),
      'WHE-0000009': PACKING_MESSAGES.notAvailable('WHE-0000009'),
      'NOPE-0000001': PACKING_MESSAGES.unknownCode('NOPE-0000001'),
    };
    const body = () => ({
      packing: {
        orderID: ORDER,
        lines: lines.map((l) => ({
          lineID: l.id,
          quantity: l.quantity,
          serialCodes: kept[l.id]!.map((serialCode) => ({ serialCode, warehouseBin: 'A-01 Mobility', scannedAt: '2026-11-23T06:00:00.000Z' })),
        })),
        complete: lines.every((l) => kept[l.id]!.length === l.quantity),
      },
    });
    const handler = (c: Call) => {
      if (c.method === 'GET' && c.url === `/api/orders/${ORDER}/packing`) return { status: 200, body: body() };
      const m = new RegExp(`^/api/orders/${ORDER}/packing/([^/]+)/serials(?:/([^/]+))?$`).exec(c.url);
      if (!m) return undefined;
      const line = m[1]!;
      if (c.method === 'POST') {
        const code = (c.body as { serialCode: string }).serialCode;
        if (line === LINE_B && code.startsWith('OXY')) {
          kept[line]!.push(code);
          return { status: 200, body: body() };
        }
        if (refusals[code]) return problem(409, refusals[code]!);
        kept[line]!.push(code);
        return { status: 200, body: body() };
      }
      if (c.method === 'DELETE') {
        kept[line] = kept[line]!.filter((x) => x !== decodeURIComponent(m[2]!));
        return { status: 200, body: body() };
      }
      return undefined;
    };
    return { handler, kept };
  }
  const saves = (calls: Call[]) => calls.filter((c) => c.method === 'POST' && c.url.includes('/packing/'));

  it("each scan is saved on the server at once and shows the server's answer (the spec's messages); repeats and full lines are answered at once; To Ship Order sends no codes", async () => {
    let current = preparing();
    const server = packingServer(current.products);
    const { calls } = mockApi(
      on('GET', `/api/orders/${ORDER}`, () => ({ status: 200, body: { order: current } })),
      server.handler,
      on('POST', `/api/orders/${ORDER}/transitions`, () => {
        current = order({
          status: 'TO_SHIP',
          allowedTransitions: [],
          products: [
            { ...lineA, serialCodes: [packed('WHE-0000001'), packed('WHE-0000002')] },
            { ...lineB, serialCodes: [packed('OXY-0000001', P2)] },
          ],
        });
        return { status: 200, body: { order: current } };
      }),
    );
    open(`/admin/orders/purchased/${ORDER}`);
    const ship = await screen.findByRole('button', { name: 'To Ship Order' });
    expect(ship).toBeDisabled();
    expect(await screen.findByTestId(`scanned-${LINE_A}`)).toHaveTextContent('0 / 2 scanned');
    expect(screen.queryByRole('region', { name: 'QR Code' })).not.toBeInTheDocument();

    fireEvent.click(screen.getByRole('button', { name: 'Scan Wheelchair / Standard / Large' }));
    const dialog = await screen.findByRole('dialog', { name: 'Scan Wheelchair / Standard / Large' });
    // No camera here: the scanner says so, and the typed field works.
    expect(within(dialog).getByText(SCANNER_MESSAGES.noCamera)).toBeInTheDocument();
    const ok = () => within(dialog).getByRole('button', { name: 'OK' });
    expect(ok()).toBeDisabled();

    type(dialog, 'OXY-0000001');
    await answer(dialog, 'Scanned product is not Wheelchair / Standard / Large. Please make sure that you only scanned the type of product you selected.');
    type(dialog, 'WHE-0000009');
    await answer(dialog, PACKING_MESSAGES.notAvailable('WHE-0000009'));
    type(dialog, 'NOPE-0000001');
    await answer(dialog, PACKING_MESSAGES.unknownCode('NOPE-0000001'));
    expect(within(dialog).getByText('Scanned 0 of 2')).toBeInTheDocument();

    // A code typed in lower case is sent as the catalog writes it, and kept with its bin.
    type(dialog, 'whe-0000001');
    await answer(dialog, 'WHE-0000001 added.');
    expect(saves(calls).at(-1)).toMatchObject({ url: `/api/orders/${ORDER}/packing/${LINE_A}/serials`, body: { serialCode: 'WHE-0000001' } });
    expect(within(dialog).getByText('Scanned 1 of 2')).toBeInTheDocument();
    expect(within(dialog).getByText('Bin A-01 Mobility')).toBeInTheDocument();
    expect(ok()).toBeDisabled();

    const before = saves(calls).length;
    type(dialog, 'WHE-0000001');
    await answer(dialog, 'Already scanned');
    expect(saves(calls)).toHaveLength(before);

    // A label's QR text (JSON) works as well as a typed code.
    type(dialog, stockQrPayload({ productID: P1, serialCode: 'WHE-0000002' }));
    await answer(dialog, 'WHE-0000002 added.');
    expect(within(dialog).getByText('Scanned 2 of 2')).toBeInTheDocument();
    expect(ok()).toBeEnabled();

    type(dialog, 'WHE-0000003');
    await answer(dialog, PACKING_MESSAGES.tooMany('Wheelchair / Standard / Large'));
    expect(saves(calls)).toHaveLength(before + 1);

    // A scanned code can be removed (on the server too); OK follows the count.
    fireEvent.click(within(dialog).getByRole('button', { name: 'Remove WHE-0000002' }));
    await answer(dialog, 'WHE-0000002 removed.');
    expect(calls.filter((c) => c.method === 'DELETE').map((c) => c.url)).toEqual([`/api/orders/${ORDER}/packing/${LINE_A}/serials/WHE-0000002`]);
    expect(server.kept[LINE_A]).toEqual(['WHE-0000001']);
    expect(within(dialog).getByText('Scanned 1 of 2')).toBeInTheDocument();
    expect(ok()).toBeDisabled();
    fireEvent.change(scanInput(dialog), { target: { value: 'WHE-0000002' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Add' }));
    await answer(dialog, 'WHE-0000002 added.');
    expect(ok()).toBeEnabled();
    fireEvent.click(ok());
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Scan Wheelchair / Standard / Large' })).not.toBeInTheDocument());

    expect(screen.getByTestId(`scanned-${LINE_A}`)).toHaveTextContent('2 / 2 scanned');
    expect(ship).toBeDisabled();

    // The other line: a code already scanned for the first line is a repeat.
    fireEvent.click(screen.getByRole('button', { name: 'Scan Oxygen Tank' }));
    const second = await screen.findByRole('dialog', { name: 'Scan Oxygen Tank' });
    type(second, 'WHE-0000002');
    await answer(second, 'Already scanned');
    type(second, 'OXY-0000001');
    await answer(second, 'OXY-0000001 added.');
    fireEvent.click(within(second).getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Scan Oxygen Tank' })).not.toBeInTheDocument());
    expect(screen.getByTestId(`scanned-${LINE_B}`)).toHaveTextContent('1 / 1 scanned');

    expect(ship).toBeEnabled();
    expect(posts(calls).filter((c) => c.url.endsWith('/transitions'))).toHaveLength(0);
    fireEvent.click(ship);
    await waitFor(() => expect(posts(calls).filter((c) => c.url.endsWith('/transitions'))).toHaveLength(1));
    // The server packs the codes it kept.
    expect(posts(calls).find((c) => c.url.endsWith('/transitions'))!.body).toEqual({ to: 'TO_SHIP' });
    // The order comes back TO_SHIP: its QR block appears and the assigned codes show.
    expect(await screen.findByRole('region', { name: 'QR Code' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'To Ship Order' })).not.toBeInTheDocument();
    expect(within(region('Products')).getByTestId('serial-OXY-0000001')).toHaveTextContent(/^OXY-0000001$/);
  });

  it('the page opened again (a reload, another packer) shows the scans kept on the server and continues from there', async () => {
    const current = preparing();
    const server = packingServer(current.products);
    server.kept[LINE_A] = ['WHE-0000001'];
    const { calls } = mockApi(on('GET', `/api/orders/${ORDER}`, { status: 200, body: { order: current } }), server.handler);
    open(`/admin/orders/purchased/${ORDER}`);
    expect(await screen.findByTestId(`scanned-${LINE_A}`)).toHaveTextContent('1 / 2 scanned');
    expect(screen.getByText('WHE-0000001')).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Scan Wheelchair / Standard / Large' }));
    const dialog = await screen.findByRole('dialog', { name: 'Scan Wheelchair / Standard / Large' });
    expect(within(dialog).getByText('Scanned 1 of 2')).toBeInTheDocument();
    expect(within(within(dialog).getByRole('list', { name: 'Scanned serial codes' })).getByText('WHE-0000001')).toBeInTheDocument();
    type(dialog, 'WHE-0000001');
    await answer(dialog, 'Already scanned');
    type(dialog, 'WHE-0000002');
    await answer(dialog, 'WHE-0000002 added.');
    expect(server.kept[LINE_A]).toEqual(['WHE-0000001', 'WHE-0000002']);
    expect(calls.filter((c) => c.url === `/api/orders/${ORDER}/packing`).length).toBeGreaterThanOrEqual(1);
  });

  it('the saved scans that cannot be loaded show an error with Retry; scanning waits for them', async () => {
    let fail = true;
    const current = preparing();
    const server = packingServer(current.products);
    mockApi(
      on('GET', `/api/orders/${ORDER}`, { status: 200, body: { order: current } }),
      (c) => (fail && c.url === `/api/orders/${ORDER}/packing` ? problem(503, 'The order service is not answering.') : undefined),
      server.handler,
    );
    open(`/admin/orders/purchased/${ORDER}`);
    expect(await screen.findByText('The scanned codes could not be loaded')).toBeInTheDocument();
    expect(screen.getByText('The order service is not answering.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Scan Wheelchair / Standard / Large' })).toBeDisabled();
    expect(screen.queryByTestId(`scanned-${LINE_A}`)).not.toBeInTheDocument();
    fail = false;
    fireEvent.click(screen.getByRole('button', { name: 'Retry' }));
    expect(await screen.findByTestId(`scanned-${LINE_A}`)).toHaveTextContent('0 / 2 scanned');
    expect(screen.queryByText('The scanned codes could not be loaded')).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Scan Wheelchair / Standard / Large' })).toBeEnabled();
  });

  it("keeps the scans when the server refuses to ship, and shows the server's message", async () => {
    const current = preparing({ products: [lineB] });
    const server = packingServer(current.products);
    server.kept[LINE_B] = ['OXY-0000001'];
    const { calls } = mockApi(
      on('GET', `/api/orders/${ORDER}`, { status: 200, body: { order: current } }),
      server.handler,
      on('POST', `/api/orders/${ORDER}/transitions`, problem(409, PACKING_MESSAGES.notAvailable('OXY-0000001'))),
    );
    open(`/admin/orders/purchased/${ORDER}`);
    expect(await screen.findByTestId(`scanned-${LINE_B}`)).toHaveTextContent('1 / 1 scanned');
    await waitFor(() => expect(screen.getByRole('button', { name: 'To Ship Order' })).toBeEnabled());
    fireEvent.click(screen.getByRole('button', { name: 'To Ship Order' }));
    await waitFor(() => expect(posts(calls).filter((c) => c.url.endsWith('/transitions'))).toHaveLength(1));
    expect(await screen.findByText(PACKING_MESSAGES.notAvailable('OXY-0000001'))).toBeInTheDocument();
    expect(screen.getByTestId(`scanned-${LINE_B}`)).toHaveTextContent('1 / 1 scanned');
    // The same scans can be sent again (e.g. after removing the refused code and scanning another).
    // (happy-dom never ends antd's loading-icon animation, so the name is matched loosely.)
    await waitFor(() => expect(screen.getByRole('button', { name: /To Ship Order/ })).toBeEnabled());
  });
});

describe('assign a driver and a day (issue 28)', () => {
  const JUN = '77777777-7777-4777-8777-777777777777';
  const ANA = '88888888-8888-4888-8888-888888888888';
  const DRIVERS = { status: 200, body: { items: [{ id: ANA, name: 'Ana Reyes' }, { id: JUN, name: 'Jun Dela Cruz' }] } };
  const ASSIGN_PATH = `/api/orders/${ORDER}/assignment`;
  const puts = (calls: Call[]) => calls.filter((c) => c.method === 'PUT');
  const driverLine = () => screen.getByTestId('driver-line');
  const openDialog = async () => {
    fireEvent.click(await screen.findByRole('button', { name: 'Assign driver' }));
    return screen.findByRole('dialog', { name: 'Assign driver' });
  };

  it('offers "Assign driver" only while the order waits for a driver (TO_SHIP); later shows read-only who has it', async () => {
    const seen: Record<string, { button: boolean; line: string | null }> = {};
    const jun = { driverId: JUN, driverName: 'Jun Dela Cruz', day: '2099-11-28' };
    const cases: Array<[OrderStatus, Order['assignment']]> = [
      ['PENDING', null],
      ['PREPARING', null],
      ['TO_SHIP', null],
      ['OUT_FOR_DELIVERY', { ...jun, day: null }],
      ['DELIVERED', jun],
      ['CANCELLED', null],
    ];
    for (const [status, assignment] of cases) {
      mockApi(on('GET', `/api/orders/${ORDER}`, { status: 200, body: { order: order({ status, allowedTransitions: [], assignment }) } }));
      open(`/admin/orders/purchased/${ORDER}`);
      await screen.findByRole('heading', { name: 'Order ORD-20261123-000123' });
      seen[status] = { button: screen.queryByRole('button', { name: 'Assign driver' }) !== null, line: screen.queryByTestId('driver-line')?.textContent ?? null };
      cleanup();
    }
    expect(seen).toEqual({
      PENDING: { button: false, line: null },
      PREPARING: { button: false, line: null },
      TO_SHIP: { button: true, line: 'Driver: Any driver' },
      OUT_FOR_DELIVERY: { button: false, line: 'Driver: Jun Dela Cruz' },
      DELIVERED: { button: false, line: 'Driver: Jun Dela Cruz, Sat 28 Nov 2099' },
      CANCELLED: { button: false, line: null },
    });
  });

  it('lists the active drivers (loading first), sends the driver and the day, says so and shows the new assignment', async () => {
    let current = order({ status: 'TO_SHIP', allowedTransitions: [] });
    let answerDrivers: () => void = () => undefined;
    const driversAnswered = new Promise<void>((r) => (answerDrivers = r));
    const { calls } = mockApi(
      on('GET', `/api/orders/${ORDER}`, () => ({ status: 200, body: { order: current } })),
      on('GET', '/api/assignable-drivers', async () => {
        await driversAnswered;
        return DRIVERS;
      }),
      on('PUT', ASSIGN_PATH, (c) => {
        const body = c.body as { driverId: string; day: string };
        current = { ...current, assignment: { driverId: body.driverId, driverName: 'Jun Dela Cruz', day: body.day } };
        return { status: 200, body: { order: current } };
      }),
    );
    open(`/admin/orders/purchased/${ORDER}`);
    expect(await screen.findByTestId('driver-line')).toHaveTextContent('Driver: Any driver');
    const dialog = await openDialog();
    const select = within(dialog).getByLabelText('Driver') as HTMLSelectElement;
    expect(select).toBeDisabled();
    expect(within(dialog).getByRole('status')).toHaveTextContent('Loading drivers…');
    expect(within(dialog).getByRole('button', { name: 'Save' })).toBeDisabled();

    answerDrivers();
    await waitFor(() => expect(select).toBeEnabled());
    expect([...select.options].map((o) => o.textContent)).toEqual(['Any driver', 'Ana Reyes', 'Jun Dela Cruz']);
    expect(select.value).toBe('');
    // The day: from today on in Manila, today by default.
    const day = within(dialog).getByLabelText('Day') as HTMLInputElement;
    expect(day).toHaveAttribute('type', 'date');
    expect(day).toHaveAttribute('min', manilaDate());
    expect(day.value).toBe(manilaDate());

    fireEvent.change(select, { target: { value: JUN } });
    fireEvent.change(day, { target: { value: '2099-11-28' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(puts(calls)).toHaveLength(1));
    expect(puts(calls)[0]!.body).toEqual({ driverId: JUN, day: '2099-11-28' });
    expect(await screen.findByText('Assigned.')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Assign driver' })).toBeNull());
    // The order loads again (its tag) and shows whom it is planned for.
    await waitFor(() => expect(driverLine()).toHaveTextContent('Driver: Jun Dela Cruz, Sat 28 Nov 2099'));
  });

  it('"Any driver" puts the order back to any driver (driverId null), from the current assignment', async () => {
    const assignment = { driverId: JUN, driverName: 'Jun Dela Cruz', day: '2099-11-28' };
    const { calls } = mockApi(
      on('GET', `/api/orders/${ORDER}`, { status: 200, body: { order: order({ status: 'TO_SHIP', allowedTransitions: [], assignment }) } }),
      on('GET', '/api/assignable-drivers', DRIVERS),
      on('PUT', ASSIGN_PATH, { status: 200, body: { order: order({ status: 'TO_SHIP', allowedTransitions: [] }), message: 'Order ORD-20261123-000123 is waiting for any driver.' } }),
    );
    open(`/admin/orders/purchased/${ORDER}`);
    const dialog = await openDialog();
    const select = within(dialog).getByLabelText('Driver') as HTMLSelectElement;
    await waitFor(() => expect(select).toBeEnabled());
    // The current assignment is where the dialog starts.
    expect(select.value).toBe(JUN);
    expect((within(dialog).getByLabelText('Day') as HTMLInputElement).value).toBe('2099-11-28');

    fireEvent.change(select, { target: { value: '' } });
    expect(within(dialog).getByLabelText('Day')).toBeDisabled();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(puts(calls)).toHaveLength(1));
    expect(puts(calls)[0]!.body).toEqual({ driverId: null, day: null });
    // The server's message when it gives one.
    expect(await screen.findByText('Order ORD-20261123-000123 is waiting for any driver.')).toBeInTheDocument();
  });

  it.each([
    [409, 'Order ORD-20261123-000123 is OUT FOR DELIVERY: only orders TO SHIP or FOR RETURN are assigned to a driver.'],
    [400, 'Choose a day from today on.'],
  ])("a refusal (%i) shows the server's message in the dialog and keeps what was chosen", async (status, detail) => {
    const { calls } = mockApi(
      on('GET', `/api/orders/${ORDER}`, { status: 200, body: { order: order({ status: 'TO_SHIP', allowedTransitions: [] }) } }),
      on('GET', '/api/assignable-drivers', DRIVERS),
      on('PUT', ASSIGN_PATH, problem(status, detail)),
    );
    open(`/admin/orders/purchased/${ORDER}`);
    const dialog = await openDialog();
    const select = within(dialog).getByLabelText('Driver') as HTMLSelectElement;
    await waitFor(() => expect(select).toBeEnabled());
    fireEvent.change(select, { target: { value: ANA } });
    fireEvent.change(within(dialog).getByLabelText('Day'), { target: { value: '2099-12-05' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByTestId('assign-error')).toHaveTextContent(detail);
    expect(puts(calls)[0]!.body).toEqual({ driverId: ANA, day: '2099-12-05' });
    expect(screen.getByRole('dialog', { name: 'Assign driver' })).toBeInTheDocument();
    expect(select.value).toBe(ANA);
    expect((within(dialog).getByLabelText('Day') as HTMLInputElement).value).toBe('2099-12-05');
    expect(screen.queryByText('Assigned.')).toBeNull();
  });

  it('a driver without a day is not sent', async () => {
    const { calls } = mockApi(
      on('GET', `/api/orders/${ORDER}`, { status: 200, body: { order: order({ status: 'TO_SHIP', allowedTransitions: [] }) } }),
      on('GET', '/api/assignable-drivers', DRIVERS),
    );
    open(`/admin/orders/purchased/${ORDER}`);
    const dialog = await openDialog();
    const select = within(dialog).getByLabelText('Driver') as HTMLSelectElement;
    await waitFor(() => expect(select).toBeEnabled());
    fireEvent.change(select, { target: { value: JUN } });
    fireEvent.change(within(dialog).getByLabelText('Day'), { target: { value: '' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByTestId('assign-error')).toHaveTextContent('Choose a day from today on.');
    expect(puts(calls)).toHaveLength(0);
  });

  it('drivers that cannot be loaded show an error with Retry; Save waits for them', async () => {
    let fail = true;
    const { calls } = mockApi(
      on('GET', `/api/orders/${ORDER}`, { status: 200, body: { order: order({ status: 'TO_SHIP', allowedTransitions: [] }) } }),
      on('GET', '/api/assignable-drivers', () => (fail ? problem(503, 'The order service is not answering.') : DRIVERS)),
    );
    open(`/admin/orders/purchased/${ORDER}`);
    const dialog = await openDialog();
    expect(await within(dialog).findByText('The drivers could not be loaded')).toBeInTheDocument();
    expect(within(dialog).getByText('The order service is not answering.')).toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: 'Save' })).toBeDisabled();
    fail = false;
    fireEvent.click(within(dialog).getByRole('button', { name: 'Retry' }));
    const select = within(dialog).getByLabelText('Driver') as HTMLSelectElement;
    await waitFor(() => expect(select).toBeEnabled());
    expect([...select.options].map((o) => o.textContent)).toEqual(['Any driver', 'Ana Reyes', 'Jun Dela Cruz']);
    expect(within(dialog).queryByText('The drivers could not be loaded')).toBeNull();
    expect(within(dialog).getByRole('button', { name: 'Save' })).toBeEnabled();
    expect(puts(calls)).toHaveLength(0);
  });
});
