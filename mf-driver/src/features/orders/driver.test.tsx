import { describe, expect, it, vi } from 'vitest';
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import { LIVE_EVENTS_PATH, RENTAL_MESSAGES, type LiveEvent, type Order, type OrderLine, type OrderSummary, type User } from '@dme/contracts';
import { SCANNER_MESSAGES } from '@dme/ui';
import App from '../../app';
import { mockApi, on, problem, query, serialEntry, type Call } from '@dme/ui/testing';
import { REPEAT_SCAN_MS, SCAN_INPUT_LABEL } from './purpose';

const driver = { id: '00000000-0000-4000-8000-0000000000d1', username: 'driver', firstName: 'Dan', lastName: 'Cruz', userType: 'DRIVER' } as User;

const ORDER = 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa';
const CUSTOMER = 'dddddddd-dddd-4ddd-8ddd-dddddddddddd';

const summary = (i: number, over: Partial<OrderSummary> = {}): OrderSummary => ({
  id: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
  orderNumber: `ORD-20261123-${String(i).padStart(6, '0')}`,
  createdAt: '2026-11-23T16:30:00.000Z',
  status: 'OUT_FOR_DELIVERY',
  type: 'BUY',
  typeOfOrder: null,
  totalAmount: '150.00',
  customerID: CUSTOMER,
  customerName: 'Maria Santos',
  ...over,
});

const line: OrderLine = {
  id: 'bbbbbbbb-bbbb-4bbb-8bbb-bbbbbbbbbbbb',
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
  serialCodes: [
    serialEntry('WHE-0000001'),
    serialEntry('WHE-0000002', { status: 'OK', updatedAt: '2026-11-27T02:00:00.000Z', returnedAt: '2026-11-27T02:00:00.000Z', inventoryType: 'IN' }),
  ],
  dueDate: '2026-11-27',
  startDate: '2026-11-20',
};

function order(over: Partial<Order> = {}): Order {
  return {
    ...summary(1, { id: ORDER, orderNumber: 'ORD-20261123-000123', type: 'RENT', status: 'FOR_PICK_UP', totalAmount: '300.00' }),
    deliveryAddress: '12 Rizal St',
    deliveryCity: 'Makati',
    deliveryState: 'Metro Manila',
    deliveryZipcode: '123456',
    note: 'Call before delivery',
    partialPayment: '100.00',
    payment: { status: 'INITIAL_PAYMENT', totalOrderPayment: '300.00', totalPartialPayment: '100.00', extraCharge: null, overallTotal: null, balance: '200.00', dueDate: null, records: [] },
    orderTracker: [
      { title: 'Order placed', status: 'PENDING', createdAt: '2026-11-23T05:00:00.000Z' },
      { title: 'Picked up by the driver', status: 'FOR_PICK_UP', createdAt: '2026-11-27T01:00:00.000Z' },
    ],
    products: [line],
    customer: { idNumber: 'CUS-000007', firstName: 'Maria', middleName: 'Luna', lastName: 'Santos', suffix: 'Jr.', email: 'maria@example.com', contactNumber: '09171234567' },
    allowedTransitions: [],
    deliveredAt: '2026-11-24T03:00:00.000Z',
    driverID: driver.id,
    requests: [],
    dueNotice: null,
    extensions: [],
    extendable: false,
    earlyEnd: null,
    ...over,
  };
}

function open(path: string) {
  render(
    <MemoryRouter initialEntries={[path]}>
      <App user={driver} />
    </MemoryRouter>,
  );
}

const lists = (calls: Call[]) => calls.filter((c) => c.method === 'GET' && c.url.startsWith('/api/driver/orders?'));
const scans = (calls: Call[]) => calls.filter((c) => c.method === 'POST' && c.url === '/api/driver/scan');
const list = (items: OrderSummary[]) => ({ status: 200, body: { items, total: items.length } });

async function openScanner() {
  fireEvent.click(await screen.findByRole('button', { name: 'Scan Order' }));
  const dialog = await screen.findByRole('dialog', { name: 'Scan Order' });
  // No camera in a test: the scanner says so, and the typed field works.
  expect(await within(dialog).findByText(SCANNER_MESSAGES.noCamera)).toBeInTheDocument();
  return dialog;
}
/** Types a code and presses Enter (the form's submit), as a keyboard-wedge scanner does. */
function type(dialog: HTMLElement, text: string) {
  const input = within(dialog).getByLabelText(SCAN_INPUT_LABEL);
  fireEvent.change(input, { target: { value: text } });
  fireEvent.submit(input.closest('form')!);
}
async function answer(dialog: HTMLElement, text: string) {
  await waitFor(() => expect(within(within(dialog).getByTestId('scan-answer')).getByRole('alert')).toHaveTextContent(text));
}

describe('For Delivery list', () => {
  it("lists the driver's orders out for delivery with order number, customer ID and name, status and a View link", async () => {
    const { calls } = mockApi(on('GET', '/api/driver/orders', list([summary(1), summary(2, { customerName: '' })])));
    open('/admin/for-delivery');
    expect(await screen.findByRole('heading', { name: 'For Delivery' })).toBeInTheDocument();
    const table = (await screen.findByText('ORD-20261123-000001')).closest('table')!;
    const headers = within(table).getAllByRole('columnheader').map((h) => h.textContent);
    expect(headers).toEqual(['Order Number', 'Customer ID', 'Customer Name', 'Status', 'Action']);
    const row = screen.getByText('ORD-20261123-000001').closest('tr')!;
    expect(within(row).getByText(CUSTOMER)).toBeInTheDocument();
    expect(within(row).getByText('Maria Santos')).toBeInTheDocument();
    // The status tag, coloured as SPEC §4 says (out for delivery: cyan).
    const tag = within(row).getByText('OUT FOR DELIVERY');
    expect(tag.className).toMatch(/cyan/);
    expect(within(row).getByRole('link', { name: 'View ORD-20261123-000001' })).toHaveAttribute('href', `/admin/for-delivery/${summary(1).id}`);
    // A name the order service does not know shows a dash.
    expect(within(screen.getByText('ORD-20261123-000002').closest('tr')!).getByText('—')).toBeInTheDocument();
    expect(query(lists(calls)[0]!)).toMatchObject({ purpose: 'DELIVERY' });
  });

  it('shows the empty state', async () => {
    mockApi(on('GET', '/api/driver/orders', list([])));
    open('/admin/for-delivery');
    expect(await screen.findByText('No orders out for delivery.')).toBeInTheDocument();
  });

  it("shows the server's message when the list fails, and Retry loads it again", async () => {
    let fail = true;
    const { calls } = mockApi(on('GET', '/api/driver/orders', () => (fail ? problem(503, 'The order service is unavailable.') : list([summary(1)]))));
    open('/admin/for-delivery');
    expect(await screen.findByText('The order service is unavailable.')).toBeInTheDocument();
    fail = false;
    fireEvent.click(screen.getByRole('button', { name: 'Retry' }));
    expect(await screen.findByText('ORD-20261123-000001')).toBeInTheDocument();
    expect(lists(calls).length).toBeGreaterThanOrEqual(2);
  });
});

describe('scanning an order', () => {
  it("sends a typed code with purpose DELIVERY, shows the server's message and the refreshed list, and stays open", async () => {
    let listed: OrderSummary[] = [];
    const taken = summary(7);
    const { calls } = mockApi(
      on('GET', '/api/driver/orders', () => list(listed)),
      on('POST', '/api/driver/scan', () => {
        listed = [taken];
        return { status: 200, body: { order: taken, message: RENTAL_MESSAGES.takenOut(taken.orderNumber) } };
      }),
    );
    open('/admin/for-delivery');
    expect(await screen.findByText('No orders out for delivery.')).toBeInTheDocument();
    const dialog = await openScanner();

    type(dialog, 'ord-20261123-000007');
    await answer(dialog, 'Order ORD-20261123-000007 is out for delivery with you.');
    expect(scans(calls)).toHaveLength(1);
    expect(scans(calls)[0]!.body).toEqual({ purpose: 'DELIVERY', code: 'ord-20261123-000007' });
    // The list behind the dialog refreshed at once; the dialog stays open for the next order.
    expect(await screen.findByText('ORD-20261123-000007')).toBeInTheDocument();
    expect(screen.getByRole('dialog', { name: 'Scan Order' })).toBeInTheDocument();
    // The success toast too.
    await waitFor(() => expect(screen.getAllByText('Order ORD-20261123-000007 is out for delivery with you.').length).toBeGreaterThanOrEqual(2));
    // The answer links to the order.
    expect(within(dialog).getByRole('link', { name: 'View order' })).toHaveAttribute('href', `/admin/for-delivery/${taken.id}`);

    // The same code read again at once (the camera sees the label every second) is not sent again:
    // a second scan would mark the order delivered.
    type(dialog, 'ord-20261123-000007');
    await new Promise((r) => setTimeout(r, 50));
    expect(scans(calls)).toHaveLength(1);

    // Not even later while the scanner stays open (delivering is a new scan at the customer's door).
    const realNow = Date.now.bind(Date);
    vi.spyOn(Date, 'now').mockImplementation(() => realNow() + REPEAT_SCAN_MS + 1);
    type(dialog, 'ord-20261123-000007');
    await new Promise((r) => setTimeout(r, 50));
    expect(scans(calls)).toHaveLength(1);
    vi.restoreAllMocks();

    // The QR payload (JSON) is sent as read: the server parses it.
    const qr = JSON.stringify({ orderID: ORDER, orderNumber: 'ORD-20261123-000123' });
    type(dialog, qr);
    await waitFor(() => expect(scans(calls)).toHaveLength(2));
    expect(scans(calls)[1]!.body).toEqual({ purpose: 'DELIVERY', code: qr });

    fireEvent.click(within(dialog).getByRole('button', { name: 'Done' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Scan Order' })).not.toBeInTheDocument());
  });

  it("shows the server's message when a scan is refused, and takes the next scan", async () => {
    const refused = RENTAL_MESSAGES.otherDriver('ORD-20261123-000009');
    const { calls } = mockApi(
      on('GET', '/api/driver/orders', list([summary(1)])),
      on('POST', '/api/driver/scan', (c) =>
        (c.body as { code: string }).code === 'ORD-20261123-000009'
          ? problem(409, refused)
          : { status: 200, body: { order: summary(1, { status: 'DELIVERED' }), message: RENTAL_MESSAGES.delivered('ORD-20261123-000001') } },
      ),
    );
    open('/admin/for-delivery');
    const dialog = await openScanner();
    type(dialog, 'ORD-20261123-000009');
    await answer(dialog, refused);
    expect(within(within(dialog).getByTestId('scan-answer')).getByRole('alert').className).toMatch(/error/);
    // Also as an error toast.
    await waitFor(() => expect(screen.getAllByText(refused).length).toBeGreaterThanOrEqual(2));
    expect(screen.getByRole('dialog', { name: 'Scan Order' })).toBeInTheDocument();

    type(dialog, 'ORD-20261123-000001');
    await answer(dialog, 'Order ORD-20261123-000001 delivered.');
    expect(scans(calls)).toHaveLength(2);
  });

  it("an order the driver may not take or does not have (404, like a code naming no order): the server's message, no link", async () => {
    mockApi(on('GET', '/api/driver/orders', list([])), on('POST', '/api/driver/scan', problem(404, RENTAL_MESSAGES.unknownOrder)));
    open('/admin/for-delivery');
    const dialog = await openScanner();
    type(dialog, 'ORD-20261123-000009');
    await answer(dialog, RENTAL_MESSAGES.unknownOrder);
    const alert = within(within(dialog).getByTestId('scan-answer')).getByRole('alert');
    expect(alert.className).toMatch(/error/);
    expect(within(alert).queryByRole('link')).not.toBeInTheDocument();
  });
});

describe('For Pickup', () => {
  it('lists FOR_PICK_UP orders with purpose PICKUP and scans with purpose PICKUP', async () => {
    const pick = summary(3, { type: 'RENT', status: 'FOR_PICK_UP' });
    let listed: OrderSummary[] = [];
    const { calls } = mockApi(
      on('GET', '/api/driver/orders', () => list(listed)),
      on('POST', '/api/driver/scan', () => {
        listed = [pick];
        return { status: 200, body: { order: pick, message: RENTAL_MESSAGES.pickedUp(pick.orderNumber) } };
      }),
    );
    open('/admin/for-pickup');
    expect(await screen.findByRole('heading', { name: 'For Pickup' })).toBeInTheDocument();
    expect(await screen.findByText('No orders for pickup.')).toBeInTheDocument();
    expect(query(lists(calls)[0]!)).toMatchObject({ purpose: 'PICKUP' });

    const dialog = await openScanner();
    type(dialog, pick.orderNumber);
    await answer(dialog, `Order ${pick.orderNumber} is yours to pick up.`);
    expect(scans(calls)[0]!.body).toEqual({ purpose: 'PICKUP', code: pick.orderNumber });
    const row = (await screen.findByText(pick.orderNumber)).closest('tr')!;
    expect(within(row).getByText('FOR PICK UP')).toBeInTheDocument();
    expect(within(row).getByRole('link', { name: `View ${pick.orderNumber}` })).toHaveAttribute('href', `/admin/for-pickup/${pick.id}`);
    expect(lists(calls).every((c) => query(c).purpose === 'PICKUP')).toBe(true);
  });
});

describe('order detail', () => {
  it('shows the order read-only: number, status, tracker, customer, shipping, products with variants, quantity and serial codes', async () => {
    const { calls } = mockApi(on('GET', `/api/driver/orders/${ORDER}`, { status: 200, body: { order: order() } }));
    open(`/admin/for-pickup/${ORDER}`);
    expect(await screen.findByRole('heading', { name: 'Order ORD-20261123-000123' })).toBeInTheDocument();
    expect(screen.getAllByText('FOR PICK UP').length).toBeGreaterThanOrEqual(1);
    expect(screen.getByText('Rental')).toBeInTheDocument();

    const tracker = screen.getByRole('region', { name: 'Order Tracker' });
    expect(within(tracker).getByText('Picked up by the driver')).toBeInTheDocument();

    const customer = screen.getByRole('region', { name: 'Customer Information' });
    for (const t of ['CUS-000007', 'Maria', 'Luna', 'Santos', 'Jr.', '09171234567', 'maria@example.com']) expect(within(customer).getByText(t)).toBeInTheDocument();

    const shipping = screen.getByRole('region', { name: 'Shipping Information' });
    for (const t of ['12 Rizal St', 'Makati', 'Metro Manila', '123456', 'Call before delivery']) expect(within(shipping).getByText(t)).toBeInTheDocument();

    const products = screen.getByRole('region', { name: 'Products' });
    const row = within(products).getByText('Wheelchair').closest('tr')!;
    expect(within(row).getByText('Standard')).toBeInTheDocument();
    expect(within(row).getByText('Large')).toBeInTheDocument();
    expect(within(row).getByText('2')).toBeInTheDocument();
    expect(within(row).getByText('WHE-0000001')).toBeInTheDocument();
    // A code marked at the return inspection shows RETURNED (SPEC §4).
    expect(within(row).getByText(/WHE-0000002 · RETURNED/)).toBeInTheDocument();

    // Read-only: nothing to change here.
    expect(screen.queryByRole('button', { name: /Scan|Ship|Confirm|Cancel|Mark/ })).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Back to For Pickup' })).toHaveAttribute('href', '/admin/for-pickup');
    expect(calls.every((c) => c.method === 'GET')).toBe(true);
  });

  it("answers 404 with 'Order not found' and a way back", async () => {
    mockApi(on('GET', `/api/driver/orders/${ORDER}`, problem(404, 'Not found.')));
    open(`/admin/for-delivery/${ORDER}`);
    expect(await screen.findByText('Order not found')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Back to For Delivery' })).toHaveAttribute('href', '/admin/for-delivery');
  });

  it('shows other failures with Retry', async () => {
    let fail = true;
    mockApi(on('GET', `/api/driver/orders/${ORDER}`, () => (fail ? problem(503, 'The order service is unavailable.') : { status: 200, body: { order: order() } })));
    open(`/admin/for-delivery/${ORDER}`);
    expect(await screen.findByText('The order service is unavailable.')).toBeInTheDocument();
    fail = false;
    fireEvent.click(screen.getByRole('button', { name: 'Retry' }));
    expect(await screen.findByRole('heading', { name: 'Order ORD-20261123-000123' })).toBeInTheDocument();
  });
});

describe('live updates', () => {
  /** The browser's EventSource, replaced: the test sends the gateway's events itself. */
  class FakeEventSource {
    static instances: FakeEventSource[] = [];
    listeners: Array<(m: MessageEvent<string>) => void> = [];
    closed = false;
    constructor(public url: string) {
      FakeEventSource.instances.push(this);
    }
    addEventListener(type: string, l: (m: MessageEvent<string>) => void) {
      if (type === 'change') this.listeners.push(l);
    }
    removeEventListener(_type: string, l: (m: MessageEvent<string>) => void) {
      this.listeners = this.listeners.filter((x) => x !== l);
    }
    close() {
      this.closed = true;
    }
    send(event: LiveEvent) {
      for (const l of this.listeners) l(new MessageEvent('change', { data: JSON.stringify(event) }));
    }
  }

  it('refreshes the list without a reload when an order changes', async () => {
    FakeEventSource.instances = [];
    vi.stubGlobal('EventSource', FakeEventSource);
    let listed: OrderSummary[] = [];
    mockApi(on('GET', '/api/driver/orders', () => list(listed)));
    open('/admin/for-delivery');
    expect(await screen.findByText('No orders out for delivery.')).toBeInTheDocument();
    // The stream opens a moment after the page has loaded (api-client: afterPageLoad).
    const source = await vi.waitFor(() => {
      const open = FakeEventSource.instances.find((s) => !s.closed);
      if (!open) throw new Error('the live stream is not open yet');
      return open;
    }, { timeout: 3000 });
    expect(source.url).toBe(LIVE_EVENTS_PATH);

    listed = [summary(5)];
    act(() => source.send({ kind: 'order', orderId: summary(5).id, orderType: 'BUY', status: 'OUT_FOR_DELIVERY', at: '2026-11-24T01:00:00.000Z' }));
    expect(await screen.findByText('ORD-20261123-000005')).toBeInTheDocument();
  });
});
