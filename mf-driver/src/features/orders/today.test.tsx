import { describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { DRIVER_DAY_MESSAGES, RENTAL_MESSAGES, type DriverDayResponse, type DriverStop } from '@dme/contracts';
import { mockApi, on, problem, type Call } from '@dme/ui/testing';
import { answer, CUSTOMER, open, openScanner, summary, typeCode } from '../../test/fixtures';

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/;

/** A stop of the driver's day: a delivery out with the driver, unless `over` says otherwise. */
const stop = (i: number, over: Partial<DriverStop> = {}): DriverStop => ({
  id: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
  orderNumber: `ORD-20261123-${String(i).padStart(6, '0')}`,
  type: 'BUY',
  status: 'OUT_FOR_DELIVERY',
  leg: 'DELIVERY',
  stage: 'OUT_FOR_DELIVERY',
  day: '2026-11-28',
  customerName: 'Maria Santos',
  customerNumber: `CUS-${String(i).padStart(6, '0')}`,
  contactNumber: '09171234567',
  address: '12 Rizal St',
  city: 'Makati',
  state: 'Metro Manila',
  zipcode: '1200',
  note: '',
  items: [{ name: 'Wheelchair', quantity: 2 }],
  ...over,
});
const dayOf = (stops: DriverStop[], waiting: DriverDayResponse['waiting'] = []): DriverDayResponse => ({ day: '2026-11-28', stops, waiting });
const ok = (body: DriverDayResponse) => ({ status: 200, body });

const days = (calls: Call[]) => calls.filter((c) => c.method === 'GET' && c.url === '/api/driver/today');
const reorders = (calls: Call[]) => calls.filter((c) => c.method === 'PUT' && c.url === '/api/driver/today/stops');
const stopsList = () => screen.findByRole('list', { name: 'Stops' });
/** The stops' headings, in the order shown. */
const order = () => within(screen.getByRole('list', { name: 'Stops' })).getAllByRole('heading', { level: 2 }).map((h) => h.textContent);
const card = (name: string) => screen.getByRole('article', { name });

describe('Today', () => {
  it('shows the day and each stop: stage, leg, customer name and number (no internal id), address with map, navigation and call links, items and note', async () => {
    const first = stop(1, { note: 'Gate code 1234', items: [{ name: 'Wheelchair', quantity: 2 }, { name: 'Walker', quantity: 1 }] });
    const second = stop(2, { type: 'RENT', status: 'FOR_RETURN', leg: 'PICKUP', stage: 'TO_COLLECT', day: '2026-11-27', customerName: 'Jose Reyes', address: '3 Mabini Ave', city: 'Pasig', zipcode: '', contactNumber: '0917 765 4321' });
    const { calls } = mockApi(on('GET', '/api/driver/today', ok(dayOf([first, second]))));
    open('/admin/today');
    expect(await screen.findByRole('heading', { level: 1, name: 'Today' })).toBeInTheDocument();
    expect(await screen.findByText('Saturday, 28 November 2026')).toHaveAttribute('datetime', '2026-11-28');
    await stopsList();
    expect(order()).toEqual(['1. ORD-20261123-000001', '2. ORD-20261123-000002']);

    const one = card('1. ORD-20261123-000001');
    expect(within(one).getByText('Out for delivery')).toBeInTheDocument();
    expect(within(one).getByText('Delivery')).toBeInTheDocument();
    expect(within(one).getByText('Maria Santos')).toBeInTheDocument();
    expect(within(one).getByText(/CUS-000001/)).toBeInTheDocument();
    expect(within(one).getByText('12 Rizal St, Makati, Metro Manila 1200')).toBeInTheDocument();
    const address = encodeURIComponent('12 Rizal St, Makati, Metro Manila 1200');
    const maps = within(one).getByRole('link', { name: 'Open in Maps' });
    expect(maps).toHaveAttribute('href', `https://www.google.com/maps/search/?api=1&query=${address}`);
    expect(maps).toHaveAttribute('target', '_blank');
    expect(maps.getAttribute('rel')).toMatch(/\bnoopener\b/);
    expect(within(one).getByRole('link', { name: 'Navigate' })).toHaveAttribute('href', `geo:0,0?q=${address}`);
    expect(within(one).getByRole('link', { name: 'Call 09171234567' })).toHaveAttribute('href', 'tel:09171234567');
    expect(within(within(one).getByRole('list', { name: 'Items of ORD-20261123-000001' })).getAllByRole('listitem').map((l) => l.textContent)).toEqual(['2 × Wheelchair', '1 × Walker']);
    expect(within(one).getByText('Note: Gate code 1234')).toBeInTheDocument();
    expect(within(one).getByRole('link', { name: 'Details' })).toHaveAttribute('href', `/admin/for-delivery/${first.id}`);

    const two = card('2. ORD-20261123-000002');
    expect(within(two).getByText('To collect')).toBeInTheDocument();
    expect(within(two).getByText('Pick-up')).toBeInTheDocument();
    expect(within(two).getByText('Jose Reyes')).toBeInTheDocument();
    expect(within(two).getByText(/CUS-000002/)).toBeInTheDocument();
    // Planned for an earlier day: said so.
    expect(within(two).getByText('Planned for Nov 27, 2026')).toBeInTheDocument();
    expect(within(two).getByRole('link', { name: 'Navigate' })).toHaveAttribute('href', `geo:0,0?q=${encodeURIComponent('3 Mabini Ave, Pasig, Metro Manila')}`);
    // The number as written, dialled without its spaces.
    expect(within(two).getByRole('link', { name: 'Call 0917 765 4321' })).toHaveAttribute('href', 'tel:09177654321');
    expect(within(two).queryByText(/^Note:/)).not.toBeInTheDocument();
    expect(within(two).getByRole('link', { name: 'Details' })).toHaveAttribute('href', `/admin/for-pickup/${second.id}`);

    // No internal id anywhere on the screen.
    expect(document.body.textContent).not.toMatch(UUID);
    expect(document.body.textContent).not.toContain(CUSTOMER);
    // Nothing waiting: no section.
    expect(screen.queryByRole('heading', { name: 'Waiting for a driver' })).not.toBeInTheDocument();
    expect(days(calls)).toHaveLength(1);
  });

  it('offers the hand-over only for a stop at the door: out for delivery or to collect', async () => {
    const stops = [
      stop(1, { stage: 'TO_TAKE_OUT', status: 'TO_SHIP' }),
      stop(2, { stage: 'OUT_FOR_DELIVERY' }),
      stop(3, { type: 'RENT', status: 'FOR_RETURN', leg: 'PICKUP', stage: 'TO_COLLECT' }),
      stop(4, { type: 'RENT', status: 'FOR_PICK_UP', leg: 'PICKUP', stage: 'COLLECTED' }),
    ];
    mockApi(on('GET', '/api/driver/today', ok(dayOf(stops))));
    open('/admin/today');
    await stopsList();
    const handover = (name: string) => within(card(name)).queryByRole('link', { name: 'Hand-over' });
    expect(handover('1. ORD-20261123-000001')).not.toBeInTheDocument();
    expect(within(card('1. ORD-20261123-000001')).getByText('To take out')).toBeInTheDocument();
    expect(within(card('1. ORD-20261123-000001')).getByText('Scan it at the warehouse to take it out.')).toBeInTheDocument();
    expect(handover('2. ORD-20261123-000002')).toHaveAttribute('href', `/admin/for-delivery/${stops[1]!.id}/handover`);
    expect(handover('3. ORD-20261123-000003')).toHaveAttribute('href', `/admin/for-pickup/${stops[2]!.id}/handover`);
    expect(handover('4. ORD-20261123-000004')).not.toBeInTheDocument();
    expect(within(card('4. ORD-20261123-000004')).getByText('Collected')).toBeInTheDocument();
  });

  it('Move down sends the whole new order and shows it; the ends cannot move further', async () => {
    const [a, b, c] = [stop(1), stop(2), stop(3)];
    let server = [a!, b!, c!];
    const { calls } = mockApi(
      on('GET', '/api/driver/today', () => ok(dayOf(server))),
      on('PUT', '/api/driver/today/stops', (call) => {
        const ids = (call.body as { orderIds: string[] }).orderIds;
        server = ids.map((id) => server.find((s) => s.id === id)!);
        return ok(dayOf(server));
      }),
    );
    open('/admin/today');
    await stopsList();
    expect(screen.getByRole('button', { name: 'Move ORD-20261123-000001 up' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Move ORD-20261123-000003 down' })).toBeDisabled();

    fireEvent.click(screen.getByRole('button', { name: 'Move ORD-20261123-000001 down' }));
    await waitFor(() => expect(order()).toEqual(['1. ORD-20261123-000002', '2. ORD-20261123-000001', '3. ORD-20261123-000003']));
    await waitFor(() => expect(reorders(calls)).toHaveLength(1));
    expect(reorders(calls)[0]!.body).toEqual({ orderIds: [b!.id, a!.id, c!.id] });
    // The moved stop keeps the focus, for the next move.
    await waitFor(() => expect(screen.getByRole('button', { name: 'Move ORD-20261123-000001 down' })).toHaveFocus());
    // And a screen reader hears where it went.
    expect(screen.getByText('ORD-20261123-000001 is stop 2 of 3.')).toHaveAttribute('role', 'status');

    fireEvent.click(screen.getByRole('button', { name: 'Move ORD-20261123-000003 up' }));
    await waitFor(() => expect(reorders(calls)).toHaveLength(2));
    expect(reorders(calls)[1]!.body).toEqual({ orderIds: [b!.id, c!.id, a!.id] });
    await waitFor(() => expect(order()).toEqual(['1. ORD-20261123-000002', '2. ORD-20261123-000003', '3. ORD-20261123-000001']));
    expect(screen.getByRole('button', { name: 'Move ORD-20261123-000001 down' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Move ORD-20261123-000002 up' })).toBeDisabled();
    // The answer is the day: no second read.
    expect(days(calls)).toHaveLength(1);
  });

  it("a refused reorder shows the server's message and the server's order again", async () => {
    let refuse = () => {};
    const refused = new Promise<void>((r) => (refuse = r));
    const { calls } = mockApi(
      on('GET', '/api/driver/today', ok(dayOf([stop(1), stop(2), stop(3)]))),
      on('PUT', '/api/driver/today/stops', async () => {
        await refused;
        return problem(422, DRIVER_DAY_MESSAGES.notYourStops);
      }),
    );
    open('/admin/today');
    await stopsList();
    fireEvent.click(screen.getByRole('button', { name: 'Move ORD-20261123-000002 up' }));
    // Shown at once, before the server answers.
    await waitFor(() => expect(order()).toEqual(['1. ORD-20261123-000002', '2. ORD-20261123-000001', '3. ORD-20261123-000003']));
    refuse();
    expect(await screen.findByText(DRIVER_DAY_MESSAGES.notYourStops)).toBeInTheDocument();
    expect(reorders(calls)).toHaveLength(1);
    expect(order()).toEqual(['1. ORD-20261123-000001', '2. ORD-20261123-000002', '3. ORD-20261123-000003']);
  });

  it('lists the work waiting for a driver as counts per city, with no customer details', async () => {
    mockApi(
      on(
        'GET',
        '/api/driver/today',
        ok(
          dayOf(
            [stop(1)],
            [
              { city: 'Makati', deliveries: 2, pickups: 1 },
              { city: 'Pasig', deliveries: 0, pickups: 3 },
            ],
          ),
        ),
      ),
    );
    open('/admin/today');
    const waiting = await screen.findByRole('list', { name: 'Waiting for a driver' });
    expect(screen.getByRole('heading', { level: 2, name: 'Waiting for a driver' })).toBeInTheDocument();
    expect(within(waiting).getAllByRole('listitem').map((l) => l.textContent)).toEqual(['Makati: 2 deliveries, 1 pick-up', 'Pasig: 0 deliveries, 3 pick-ups']);
  });

  it('says when nothing is planned, with a hint to scan at the warehouse; the waiting work still shows', async () => {
    mockApi(on('GET', '/api/driver/today', ok(dayOf([], [{ city: 'Makati', deliveries: 1, pickups: 0 }]))));
    open('/admin/today');
    expect(await screen.findByText('Nothing planned for you today.')).toBeInTheDocument();
    expect(screen.getByText('Scan an order at the warehouse to take it out for delivery.')).toBeInTheDocument();
    expect(screen.queryByRole('list', { name: 'Stops' })).not.toBeInTheDocument();
    expect(within(screen.getByRole('list', { name: 'Waiting for a driver' })).getByRole('listitem')).toHaveTextContent('Makati: 1 delivery, 0 pick-ups');
  });

  it("shows the server's message when the day fails, and Retry loads it again", async () => {
    let fail = true;
    const { calls } = mockApi(on('GET', '/api/driver/today', () => (fail ? problem(503, 'The order service is unavailable.') : ok(dayOf([stop(1)])))));
    open('/admin/today');
    expect(await screen.findByText('The order service is unavailable.')).toBeInTheDocument();
    fail = false;
    fireEvent.click(screen.getByRole('button', { name: 'Retry' }));
    expect(await screen.findByRole('heading', { name: '1. ORD-20261123-000001' })).toBeInTheDocument();
    expect(days(calls).length).toBeGreaterThanOrEqual(2);
  });

  it('Scan Order scans for delivery, and the day refreshes after the scan', async () => {
    let stops: DriverStop[] = [];
    const taken = summary(7);
    const { calls } = mockApi(
      on('GET', '/api/driver/today', () => ok(dayOf(stops))),
      on('POST', '/api/driver/scan', () => {
        stops = [stop(7)];
        return { status: 200, body: { order: taken, message: RENTAL_MESSAGES.takenOut(taken.orderNumber) } };
      }),
    );
    open('/admin/today');
    expect(await screen.findByText('Nothing planned for you today.')).toBeInTheDocument();
    const dialog = await openScanner();
    typeCode(dialog, 'ORD-20261123-000007');
    await answer(dialog, RENTAL_MESSAGES.takenOut(taken.orderNumber));
    expect(calls.find((c) => c.method === 'POST')!.body).toEqual({ purpose: 'DELIVERY', code: 'ORD-20261123-000007' });
    expect(await screen.findByRole('heading', { name: '1. ORD-20261123-000007' })).toBeInTheDocument();
    expect(days(calls).length).toBeGreaterThanOrEqual(2);
  });
});
