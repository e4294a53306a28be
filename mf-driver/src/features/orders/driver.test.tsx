import { describe, expect, it, vi } from 'vitest';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { HANDOVER_ACKNOWLEDGEMENT, HANDOVER_MESSAGES, LIVE_EVENTS_PATH, RENTAL_MESSAGES, type OrderSummary } from '@dme/contracts';
import { fakeLiveStream, mockApi, on, problem, query } from '@dme/ui/testing';
import { REPEAT_SCAN_MS } from './purpose';
import { answer, CUSTOMER, list, lists, ORDER, open, openScanner, order, scans, summary, typeCode } from '../../test/fixtures';

// happy-dom draws nothing: the hand-over screen's signature pad is a stand-in.
vi.mock('./SignaturePad', () => import('../../test/SignaturePad.stub'));

describe('For Delivery list', () => {
  it("lists the driver's orders out for delivery with order number, customer ID and name, status and a View link", async () => {
    const { calls } = mockApi(on('GET', '/api/driver/orders', list([summary(1), summary(2, { customerName: '' }), summary(3, { customerNumber: undefined })])));
    open('/admin/for-delivery');
    expect(await screen.findByRole('heading', { name: 'For Delivery' })).toBeInTheDocument();
    const table = (await screen.findByText('ORD-20261123-000001')).closest('table')!;
    const headers = within(table).getAllByRole('columnheader').map((h) => h.textContent);
    expect(headers).toEqual(['Order Number', 'Customer ID', 'Customer Name', 'Status', 'Action']);
    const row = screen.getByText('ORD-20261123-000001').closest('tr')!;
    // The customer's number (CUS-…), never the internal id (issue 28).
    expect(within(row).getByText('CUS-000007')).toBeInTheDocument();
    expect(table.textContent).not.toContain(CUSTOMER);
    expect(document.body.textContent).not.toMatch(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/);
    expect(within(row).getByText('Maria Santos')).toBeInTheDocument();
    // The status tag, coloured as SPEC §4 says (out for delivery: cyan).
    const tag = within(row).getByText('OUT FOR DELIVERY');
    expect(tag.className).toMatch(/cyan/);
    expect(within(row).getByRole('link', { name: 'View ORD-20261123-000001' })).toHaveAttribute('href', `/admin/for-delivery/${summary(1).id}`);
    // A name the order service does not know shows a dash.
    expect(within(screen.getByText('ORD-20261123-000002').closest('tr')!).getByText('—')).toBeInTheDocument();
    // An older server without the number: a dash, not the id.
    const third = screen.getByText('ORD-20261123-000003').closest('tr')!;
    expect(within(third).getAllByRole('cell').map((c) => c.textContent)).toEqual(['ORD-20261123-000003', '—', 'Maria Santos', 'OUT FOR DELIVERY', 'View']);
    // The View action is in every row (on a phone, the card's last line: the Action column has no label).
    expect(within(third).getByRole('link', { name: 'View ORD-20261123-000003' }).closest('td')).toHaveAttribute('data-label', '');
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

    typeCode(dialog, 'ord-20261123-000007');
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
    // a second scan would open its hand-over at once.
    typeCode(dialog, 'ord-20261123-000007');
    await new Promise((r) => setTimeout(r, 50));
    expect(scans(calls)).toHaveLength(1);

    // Not even later while the scanner stays open (delivering is a new scan at the customer's door).
    const realNow = Date.now.bind(Date);
    vi.spyOn(Date, 'now').mockImplementation(() => realNow() + REPEAT_SCAN_MS + 1);
    typeCode(dialog, 'ord-20261123-000007');
    await new Promise((r) => setTimeout(r, 50));
    expect(scans(calls)).toHaveLength(1);
    vi.restoreAllMocks();

    // The QR payload (JSON) is sent as read: the server parses it.
    const qr = JSON.stringify({ orderID: ORDER, orderNumber: 'ORD-20261123-000123' });
    typeCode(dialog, qr);
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
          : { status: 200, body: { order: summary(1), message: RENTAL_MESSAGES.takenOut('ORD-20261123-000001') } },
      ),
    );
    open('/admin/for-delivery');
    const dialog = await openScanner();
    typeCode(dialog, 'ORD-20261123-000009');
    await answer(dialog, refused);
    expect(within(within(dialog).getByTestId('scan-answer')).getByRole('alert').className).toMatch(/error/);
    // Also as an error toast.
    await waitFor(() => expect(screen.getAllByText(refused).length).toBeGreaterThanOrEqual(2));
    expect(screen.getByRole('dialog', { name: 'Scan Order' })).toBeInTheDocument();

    typeCode(dialog, 'ORD-20261123-000001');
    await answer(dialog, 'Order ORD-20261123-000001 is out for delivery with you.');
    expect(scans(calls)).toHaveLength(2);
  });

  it("an order the driver may not take or does not have (404, like a code naming no order): the server's message, no link", async () => {
    mockApi(on('GET', '/api/driver/orders', list([])), on('POST', '/api/driver/scan', problem(404, RENTAL_MESSAGES.unknownOrder)));
    open('/admin/for-delivery');
    const dialog = await openScanner();
    typeCode(dialog, 'ORD-20261123-000009');
    await answer(dialog, RENTAL_MESSAGES.unknownOrder);
    const alert = within(within(dialog).getByTestId('scan-answer')).getByRole('alert');
    expect(alert.className).toMatch(/error/);
    expect(within(alert).queryByRole('link')).not.toBeInTheDocument();
  });
});

describe('For Pickup', () => {
  it('lists FOR_PICK_UP orders with purpose PICKUP; a scan (purpose PICKUP) at the door opens the pick-up hand-over', async () => {
    const pick = summary(3, { type: 'RENT', status: 'FOR_PICK_UP' });
    // Issue 28: a rental FOR RETURN scanned for pick-up is assigned to the driver and stays FOR
    // RETURN until the hand-over is recorded.
    const back = summary(4, { id: ORDER, type: 'RENT', status: 'FOR_RETURN' });
    const { calls } = mockApi(
      on('GET', '/api/driver/orders', list([pick])),
      on('POST', '/api/driver/scan', { status: 200, body: { order: back, message: HANDOVER_MESSAGES.handoverNeeded(back.orderNumber), handover: 'PICKUP' } }),
      on('GET', `/api/driver/orders/${ORDER}`, { status: 200, body: { order: order({ orderNumber: back.orderNumber, status: 'FOR_RETURN' }) } }),
    );
    open('/admin/for-pickup');
    expect(await screen.findByRole('heading', { name: 'For Pickup' })).toBeInTheDocument();
    const row = (await screen.findByText(pick.orderNumber)).closest('tr')!;
    expect(within(row).getByText('FOR PICK UP')).toBeInTheDocument();
    expect(within(row).getByRole('link', { name: `View ${pick.orderNumber}` })).toHaveAttribute('href', `/admin/for-pickup/${pick.id}`);
    expect(query(lists(calls)[0]!)).toMatchObject({ purpose: 'PICKUP' });

    const dialog = await openScanner();
    typeCode(dialog, back.orderNumber);
    expect(await screen.findByRole('heading', { name: `Hand-over ${back.orderNumber}` })).toBeInTheDocument();
    expect(scans(calls)[0]!.body).toEqual({ purpose: 'PICKUP', code: back.orderNumber });
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Scan Order' })).not.toBeInTheDocument());
    expect(screen.getByText(HANDOVER_ACKNOWLEDGEMENT.PICKUP)).toBeInTheDocument();
    // The server's message as a toast.
    expect(await screen.findByText(HANDOVER_MESSAGES.handoverNeeded(back.orderNumber))).toBeInTheDocument();
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
  it('refreshes the list without a reload when an order changes', async () => {
    const live = fakeLiveStream();
    let listed: OrderSummary[] = [];
    mockApi(on('GET', '/api/driver/orders', () => list(listed)));
    open('/admin/for-delivery');
    expect(await screen.findByText('No orders out for delivery.')).toBeInTheDocument();
    const source = await live.opened();
    expect(source.url).toBe(LIVE_EVENTS_PATH);

    listed = [summary(5)];
    act(() => source.send({ kind: 'order', orderId: summary(5).id, orderType: 'BUY', status: 'OUT_FOR_DELIVERY', at: '2026-11-24T01:00:00.000Z' }));
    expect(await screen.findByText('ORD-20261123-000005')).toBeInTheDocument();
  });
});
