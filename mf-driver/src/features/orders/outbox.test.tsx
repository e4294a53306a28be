import 'fake-indexeddb/auto';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { HANDOVER_MESSAGES, SCAN_KEY_MESSAGES, type HandoverRequest, type Order } from '@dme/contracts';
import { mockApi, on, problem, type Call } from '@dme/ui/testing';
import { PAD } from '../../test/SignaturePad.stub';
import { driver, line, list, ORDER, open, openScanner, order, summary, typeCode } from '../../test/fixtures';
import { outboxOf, removeItem, verdictOf } from './outbox';
import { OUTBOX_TEXTS } from './Outbox';

// happy-dom draws nothing: the pad is a stand-in a test "signs" (PAD.signed = true).
vi.mock('./SignaturePad', () => import('../../test/SignaturePad.stub'));

const atDoor = (over: Partial<Order> = {}) => order({ status: 'OUT_FOR_DELIVERY', products: [{ ...line, quantity: 1, serialCodes: [line.serialCodes[0]!] }], ...over });
const handovers = (calls: Call[]) => calls.filter((c) => c.method === 'POST' && c.url === `/api/driver/orders/${ORDER}/handover`);
const scansOf = (calls: Call[]) => calls.filter((c) => c.method === 'POST' && c.url === '/api/driver/scan');
const delivered = { status: 200, body: { order: summary(1, { id: ORDER, status: 'DELIVERED' }), handover: {}, message: 'Order ORD-20261123-000123 delivered to Jose Santos.' } };

let online = true;
function goOffline() {
  online = false;
  window.dispatchEvent(new Event('offline'));
}
function goOnline() {
  online = true;
  window.dispatchEvent(new Event('online'));
}

/** Signs the one unit over to Jose Santos and presses Confirm. */
async function signAndConfirm() {
  await screen.findByRole('heading', { name: 'Hand-over ORD-20261123-000123' });
  fireEvent.click(screen.getByRole('checkbox', { name: /WHE-0000001/ }));
  fireEvent.change(screen.getByLabelText('Name of the person signing'), { target: { value: 'Jose Santos' } });
  fireEvent.change(screen.getByLabelText('Relation to the patient'), { target: { value: 'FAMILY' } });
  fireEvent.click(screen.getByRole('checkbox', { name: 'They confirm this' }));
  PAD.signed = true;
  fireEvent.click(screen.getByRole('button', { name: /Confirm hand-over$/ }));
}

const panel = () => screen.findByRole('region', { name: 'Waiting to send' });

beforeEach(async () => {
  PAD.signed = false;
  online = true;
  vi.spyOn(navigator, 'onLine', 'get').mockImplementation(() => online);
  for (const i of await outboxOf(driver.id)) await removeItem(i.seq);
});
afterEach(() => {
  vi.restoreAllMocks();
});

describe('the outbox: what the driver does without signal is kept and sent once when online (issue 28)', () => {
  it('a hand-over signed offline is kept (not sent), shown as waiting, survives the screen, and is sent with its key once online', async () => {
    let answer: 'network-error' | typeof delivered = 'network-error';
    const api = mockApi(
      on('GET', `/api/driver/orders/${ORDER}`, { status: 200, body: { order: atDoor() } }),
      on('GET', '/api/driver/orders', list([])),
      on('POST', `/api/driver/orders/${ORDER}/handover`, () => answer),
    );
    open(`/admin/for-delivery/${ORDER}/handover`);
    await screen.findByRole('heading', { name: 'Hand-over ORD-20261123-000123' });
    goOffline();
    await signAndConfirm();
    // Back on the list; nothing was sent; the outbox holds it, and says so.
    await screen.findByRole('heading', { name: 'For Delivery' });
    expect(handovers(api.calls)).toHaveLength(0);
    const kept = await outboxOf(driver.id);
    expect(kept).toHaveLength(1);
    expect(kept[0]).toMatchObject({ kind: 'handover', state: 'WAITING', label: 'Hand-over of ORD-20261123-000123 (delivery)', args: { id: ORDER } });
    const body = (kept[0]!.args as { body: HandoverRequest }).body;
    expect(body).toMatchObject({ leg: 'DELIVERY', outcome: 'HANDED_OVER', recipientName: 'Jose Santos', relation: 'FAMILY', serials: ['WHE-0000001'], acknowledged: true });
    const shown = await panel();
    expect(within(shown).getByText(OUTBOX_TEXTS.offline)).toBeInTheDocument();
    expect(within(shown).getByText(OUTBOX_TEXTS.waiting(1))).toBeInTheDocument();
    expect(within(shown).getByText('Hand-over of ORD-20261123-000123 (delivery)')).toBeInTheDocument();

    // Online, but the connection drops on the way: still waiting, sent again with the same key later.
    goOnline();
    await waitFor(() => expect(handovers(api.calls)).toHaveLength(1));
    expect((await outboxOf(driver.id))[0]?.state).toBe('WAITING');
    answer = delivered;
    fireEvent.click(within(await panel()).getByRole('button', { name: OUTBOX_TEXTS.sendNow }));
    await waitFor(async () => expect(await outboxOf(driver.id)).toEqual([]));
    const sent = handovers(api.calls);
    expect(sent).toHaveLength(2);
    expect(sent.map((c) => (c.body as HandoverRequest).key)).toEqual([body.key, body.key]);
    expect(sent[1]!.body).toEqual(body);
    expect(await screen.findByText(delivered.body.message)).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('region', { name: 'Waiting to send' })).toBeNull());
  });

  it('a hand-over the server refuses is kept with the reason until the driver dismisses it; the next one is still sent', async () => {
    const reason = HANDOVER_MESSAGES.wrongStatus('DELIVERY', 'ORD-20261123-000123', 'CANCELLED');
    const api = mockApi(
      on('GET', `/api/driver/orders/${ORDER}`, { status: 200, body: { order: atDoor() } }),
      on('GET', '/api/driver/orders', list([])),
      on('POST', `/api/driver/orders/${ORDER}/handover`, problem(409, reason)),
      on('POST', '/api/driver/scan', { status: 200, body: { order: summary(2, { status: 'OUT_FOR_DELIVERY' }), message: 'Order ORD-20261123-000002 is out for delivery with you.' } }),
    );
    open(`/admin/for-delivery/${ORDER}/handover`);
    await screen.findByRole('heading', { name: 'Hand-over ORD-20261123-000123' });
    goOffline();
    await signAndConfirm();
    await screen.findByRole('heading', { name: 'For Delivery' });
    // A take-out scan kept after it, offline, with its own key.
    const dialog = await openScanner();
    typeCode(dialog, 'ORD-20261123-000002');
    await within(dialog).findByText(OUTBOX_TEXTS.queued('Scan of ORD-20261123-000002'));
    expect(scansOf(api.calls)).toHaveLength(0);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Done' }));

    goOnline();
    await waitFor(async () => expect((await outboxOf(driver.id)).map((i) => [i.kind, i.state])).toEqual([['handover', 'REFUSED']]));
    // Sent in order: the hand-over first, then the scan (with its Idempotency-Key).
    expect(api.calls.filter((c) => c.method === 'POST').map((c) => c.url)).toEqual([`/api/driver/orders/${ORDER}/handover`, '/api/driver/scan']);
    expect(scansOf(api.calls)[0]!.headers.get('idempotency-key')).toMatch(/^[0-9a-f-]{36}$/);
    const shown = await panel();
    expect(within(shown).getByText(OUTBOX_TEXTS.refused('Hand-over of ORD-20261123-000123 (delivery)'))).toBeInTheDocument();
    expect(within(shown).getByText(reason)).toBeInTheDocument();
    fireEvent.click(within(shown).getByRole('button', { name: `${OUTBOX_TEXTS.dismiss}: Hand-over of ORD-20261123-000123 (delivery)` }));
    await waitFor(async () => expect(await outboxOf(driver.id)).toEqual([]));
    await waitFor(() => expect(screen.queryByRole('region', { name: 'Waiting to send' })).toBeNull());
  });

  it('offline, a scan of an order the phone knows at the door opens its hand-over; a kept hand-over is not signed twice', async () => {
    mockApi(
      on('GET', '/api/driver/orders', list([summary(1, { id: ORDER, orderNumber: 'ORD-20261123-000123', status: 'OUT_FOR_DELIVERY' })])),
      on('GET', `/api/driver/orders/${ORDER}`, { status: 200, body: { order: atDoor() } }),
    );
    open('/admin/for-delivery');
    await screen.findByRole('row', { name: /ORD-20261123-000123/ });
    goOffline();
    const dialog = await openScanner();
    typeCode(dialog, 'ORD-20261123-000123');
    await signAndConfirm();
    await screen.findByRole('heading', { name: 'For Delivery' });
    expect(await outboxOf(driver.id)).toHaveLength(1);
    // Opening its hand-over again: it says one is waiting, instead of a second form.
    const again = await openScanner();
    typeCode(again, 'ORD-20261123-000123');
    expect(await screen.findByText(OUTBOX_TEXTS.handoverWaiting)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Confirm hand-over$/ })).toBeNull();
  });
});

describe('verdictOf: what an answer means for a kept action', () => {
  it.each([
    ['no answer', { status: 'FETCH_ERROR', error: 'TypeError' }, 'retry'],
    ['a server error', { status: 503, data: {} }, 'retry'],
    ['too many requests', { status: 429, data: {} }, 'retry'],
    ['the session ended', { status: 401, data: {} }, 'retry'],
    ['a scan still being handled', { status: 409, data: { detail: SCAN_KEY_MESSAGES.inProgress } }, 'retry'],
    ['another conflict', { status: 409, data: { detail: 'Order X is not out for delivery (it is CANCELLED).' } }, 'refused'],
    ['not found', { status: 404, data: { detail: 'Order not found.' } }, 'refused'],
    ['a bad body', { status: 400, data: { detail: 'Ask them to sign in the box.' } }, 'refused'],
    ['too large', { status: 413, data: {} }, 'refused'],
  ])('%s → %s', (_name, error, kind) => {
    expect(verdictOf(error, 'why').kind).toBe(kind);
  });
});
