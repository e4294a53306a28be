import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { HANDOVER_ACKNOWLEDGEMENT, HANDOVER_MESSAGES, type Handover, type HandoverRequest, type Order, type OrderLine, type OrderSummary } from '@dme/contracts';
import { mockApi, on, problem, serialEntry, type Call } from '@dme/ui/testing';
import { PAD } from '../../test/SignaturePad.stub';
import { PHOTO_MESSAGES } from './photo';
import { HANDOVER_TEXTS } from './HandoverPage';
import { line, list, ORDER, open, openScanner, order, scans, summary, typeCode } from '../../test/fixtures';

// happy-dom draws nothing: the pad is a stand-in a test "signs" (PAD.signed = true).
vi.mock('./SignaturePad', () => import('../../test/SignaturePad.stub'));

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const walker: OrderLine = { ...line, id: 'cccccccc-cccc-4ccc-8ccc-cccccccccccc', productName: 'Walker', quantity: 1, serialCodes: [serialEntry('WAL-0000001')] };
const SERIALS = ['WHE-0000001', 'WHE-0000002', 'WAL-0000001'];

/** An order at the door: out for delivery (or for return, for a pick-up), two lines, three units. */
const atDoor = (over: Partial<Order> = {}) => order({ status: 'OUT_FOR_DELIVERY', products: [line, walker], ...over });
const DELIVERY_PATH = `/admin/for-delivery/${ORDER}/handover`;
const PICKUP_PATH = `/admin/for-pickup/${ORDER}/handover`;

const posts = (calls: Call[]) => calls.filter((c) => c.method === 'POST' && c.url === `/api/driver/orders/${ORDER}/handover`);
const bodyOf = (c: Call) => c.body as HandoverRequest;

const recorded = (over: Partial<Handover> = {}): Handover => ({
  id: 'eeeeeeee-eeee-4eee-8eee-eeeeeeeeeeee',
  leg: 'DELIVERY',
  outcome: 'HANDED_OVER',
  attempt: 1,
  recipientName: 'Jose Santos',
  relation: 'FAMILY',
  reason: '',
  serials: SERIALS,
  acknowledgement: HANDOVER_ACKNOWLEDGEMENT.DELIVERY,
  driverName: 'Dan Cruz',
  signedAt: '2026-11-24T03:00:00.000Z',
  recordedAt: '2026-11-24T03:00:01.000Z',
  hasSignature: true,
  hasPhoto: false,
  ...over,
});
const answered = (message: string, status: OrderSummary['status'], h: Handover = recorded()) => ({ status: 200, body: { order: summary(1, { id: ORDER, status }), handover: h, message } });

async function openHandover(path = DELIVERY_PATH) {
  open(path);
  return screen.findByRole('heading', { name: 'Hand-over ORD-20261123-000123' });
}

/** Everything a hand-over needs: the units checked, who signs, their relation, the sentence confirmed, the signature. */
function fillHandover() {
  for (const code of SERIALS) fireEvent.click(screen.getByRole('checkbox', { name: new RegExp(code) }));
  fireEvent.change(screen.getByLabelText('Name of the person signing'), { target: { value: '  Jose Santos ' } });
  fireEvent.change(screen.getByLabelText('Relation to the patient'), { target: { value: 'FAMILY' } });
  fireEvent.click(screen.getByRole('checkbox', { name: 'They confirm this' }));
  PAD.signed = true;
}

// A regex: antd's loading icon (named "loading") stays in the name after a press, its leave motion never ends in happy-dom.
const confirm = () => fireEvent.click(screen.getByRole('button', { name: /Confirm hand-over$/ }));

beforeEach(() => {
  PAD.signed = false;
});
afterEach(() => {
  vi.restoreAllMocks();
});

describe('hand-over screen', () => {
  it('shows the order at the door: number, customer, address, the serials to check and a way back', async () => {
    mockApi(on('GET', `/api/driver/orders/${ORDER}`, { status: 200, body: { order: atDoor() } }));
    await openHandover();
    const customer = screen.getByRole('region', { name: 'Customer' });
    expect(within(customer).getByText('Maria Santos')).toBeInTheDocument();
    expect(within(customer).getByText('12 Rizal St, Makati, Metro Manila 123456')).toBeInTheDocument();
    expect(within(customer).getByRole('link', { name: '09171234567' })).toHaveAttribute('href', 'tel:09171234567');
    expect(screen.getByRole('link', { name: 'Back to the order' })).toHaveAttribute('href', `/admin/for-delivery/${ORDER}`);

    const serials = screen.getByRole('group', { name: 'Serials handed over' });
    expect(within(serials).getAllByRole('checkbox').map((c) => c.closest('label')!.textContent)).toEqual(['Wheelchair WHE-0000001', 'Wheelchair WHE-0000002', 'Walker WAL-0000001']);
    expect(serials).toHaveAccessibleDescription('Check each unit as you hand it over: 0 of 3 checked.');
    fireEvent.click(within(serials).getByRole('checkbox', { name: /WHE-0000001/ }));
    expect(serials).toHaveAccessibleDescription('Check each unit as you hand it over: 1 of 3 checked.');

    expect(screen.getByText(HANDOVER_ACKNOWLEDGEMENT.DELIVERY)).toBeInTheDocument();
    expect(screen.getByRole('img', { name: 'Signature' })).toBeInTheDocument();
    const photo = screen.getByLabelText('Photo (optional)');
    expect(photo).toHaveAttribute('accept', 'image/*');
    expect(photo).toHaveAttribute('capture', 'environment');
    expect(screen.getByRole('combobox', { name: 'Relation to the patient' }).querySelectorAll('option')).toHaveLength(6);
  });

  it('sends every serial, the trimmed name, relation, confirmation, signature and time; a retry after a lost answer sends the same key; success goes back to the list', async () => {
    let lost = true;
    const message = HANDOVER_MESSAGES.delivered('ORD-20261123-000123', 'Jose Santos');
    const { calls } = mockApi(
      on('GET', `/api/driver/orders/${ORDER}`, { status: 200, body: { order: atDoor() } }),
      on('GET', '/api/driver/orders', list([])),
      on('POST', `/api/driver/orders/${ORDER}/handover`, () => {
        if (lost) {
          lost = false;
          return 'network-error';
        }
        return answered(message, 'DELIVERED');
      }),
    );
    await openHandover();
    fillHandover();
    const before = Date.now();
    confirm();

    // The connection failed: said at the top, nothing typed is lost.
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('The server cannot be reached. Check your connection and try again.');
    expect(screen.getByLabelText('Name of the person signing')).toHaveValue('  Jose Santos ');
    expect(screen.getByLabelText('Relation to the patient')).toHaveValue('FAMILY');
    expect(screen.getByRole('checkbox', { name: 'They confirm this' })).toBeChecked();
    expect(screen.getByRole('checkbox', { name: /WAL-0000001/ })).toBeChecked();
    confirm();
    expect(await screen.findByRole('heading', { name: 'For Delivery' })).toBeInTheDocument();
    expect(await screen.findByText(message)).toBeInTheDocument();

    const sent = posts(calls);
    expect(sent).toHaveLength(2);
    const [first, second] = sent.map(bodyOf);
    expect(first).toEqual({
      key: expect.stringMatching(UUID),
      leg: 'DELIVERY',
      outcome: 'HANDED_OVER',
      recipientName: 'Jose Santos',
      relation: 'FAMILY',
      acknowledged: true,
      serials: SERIALS,
      signature: PAD.dataUrl,
      signedAt: expect.any(String),
    });
    expect(second!.key).toBe(first!.key);
    expect(Date.parse(first!.signedAt!)).toBeGreaterThanOrEqual(before - 1000);
    expect(new Date(first!.signedAt!).toISOString()).toBe(first!.signedAt);
  });

  it('refuses to send without the serials, name, relation, confirmation or signature, with the messages under the fields', async () => {
    const { calls } = mockApi(on('GET', `/api/driver/orders/${ORDER}`, { status: 200, body: { order: atDoor() } }));
    await openHandover();
    confirm();

    const name = screen.getByLabelText('Name of the person signing');
    await waitFor(() => expect(name).toHaveAccessibleDescription(HANDOVER_MESSAGES.recipientRequired));
    expect(name).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getByRole('group', { name: 'Serials handed over' })).toHaveAccessibleDescription(HANDOVER_MESSAGES.serialsMissing(SERIALS));
    expect(screen.getByLabelText('Relation to the patient')).toHaveAccessibleDescription(HANDOVER_MESSAGES.relationRequired);
    expect(screen.getByRole('checkbox', { name: 'They confirm this' })).toHaveAccessibleDescription(`${HANDOVER_ACKNOWLEDGEMENT.DELIVERY} ${HANDOVER_MESSAGES.acknowledgeRequired}`);
    expect(screen.getByRole('img', { name: 'Signature' })).toHaveAccessibleDescription(HANDOVER_MESSAGES.signatureRequired);
    // The first field in error gets the focus: the first unit not checked.
    await waitFor(() => expect(screen.getByRole('checkbox', { name: /WHE-0000001/ })).toHaveFocus());
    expect(posts(calls)).toHaveLength(0);

    // All but one unit checked: still refused, naming the unit.
    fillHandover();
    fireEvent.click(screen.getByRole('checkbox', { name: /WAL-0000001/ }));
    confirm();
    await waitFor(() => expect(screen.getByRole('group', { name: 'Serials handed over' })).toHaveAccessibleDescription(expect.stringContaining(HANDOVER_MESSAGES.serialsMissing(['WAL-0000001']))));
    expect(screen.getByLabelText('Name of the person signing')).not.toHaveAccessibleDescription();
    expect(screen.getByRole('img', { name: 'Signature' })).not.toHaveAccessibleDescription();

    // Signed, then cleared: the signature is asked for again.
    fireEvent.click(screen.getByRole('checkbox', { name: /WAL-0000001/ }));
    fireEvent.click(screen.getByRole('button', { name: 'Clear' }));
    confirm();
    await waitFor(() => expect(screen.getByRole('img', { name: 'Signature' })).toHaveAccessibleDescription(HANDOVER_MESSAGES.signatureRequired));
    expect(screen.getByRole('group', { name: 'Serials handed over' })).not.toHaveAccessibleDescription();
    // Only spaces are no name.
    fireEvent.change(screen.getByLabelText('Name of the person signing'), { target: { value: '   ' } });
    PAD.signed = true;
    confirm();
    await waitFor(() => expect(screen.getByLabelText('Name of the person signing')).toHaveAccessibleDescription(HANDOVER_MESSAGES.recipientRequired));
    await waitFor(() => expect(screen.getByLabelText('Name of the person signing')).toHaveFocus());
    expect(posts(calls)).toHaveLength(0);
  });

  it('records a failed attempt with its outcome and reason (both required), then goes back to the list', async () => {
    const message = HANDOVER_MESSAGES.deliveryFailed('ORD-20261123-000123');
    const { calls } = mockApi(
      on('GET', `/api/driver/orders/${ORDER}`, { status: 200, body: { order: atDoor() } }),
      on('GET', '/api/driver/orders', list([])),
      on('POST', `/api/driver/orders/${ORDER}/handover`, answered(message, 'TO_SHIP', recorded({ outcome: 'NOBODY_HOME', recipientName: '', relation: null, reason: 'Gate locked', serials: [], hasSignature: false }))),
    );
    await openHandover();
    expect(screen.queryByRole('button', { name: 'Record failed attempt' })).not.toBeInTheDocument();
    const toggle = screen.getByRole('button', { name: 'Could not hand over' });
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    fireEvent.click(toggle);
    expect(toggle).toHaveAttribute('aria-expanded', 'true');
    const failed = screen.getByRole('region', { name: 'Could not hand over' });

    fireEvent.click(within(failed).getByRole('button', { name: 'Record failed attempt' }));
    await waitFor(() => expect(within(failed).getByLabelText('Reason')).toHaveAccessibleDescription(HANDOVER_MESSAGES.reasonRequired));
    expect(within(failed).getByRole('group', { name: 'What happened' })).toHaveAccessibleDescription(HANDOVER_TEXTS.chooseOutcome);
    // The hand-over's own checks do not apply to a failed attempt.
    expect(screen.queryByText(HANDOVER_MESSAGES.signatureRequired)).not.toBeInTheDocument();
    expect(posts(calls)).toHaveLength(0);

    fireEvent.click(within(failed).getByRole('radio', { name: 'Nobody home' }));
    fireEvent.change(within(failed).getByLabelText('Reason'), { target: { value: ' Gate locked ' } });
    fireEvent.click(within(failed).getByRole('button', { name: 'Record failed attempt' }));
    expect(await screen.findByRole('heading', { name: 'For Delivery' })).toBeInTheDocument();
    expect(await screen.findByText(message)).toBeInTheDocument();
    expect(posts(calls).map(bodyOf)).toEqual([{ key: expect.stringMatching(UUID), leg: 'DELIVERY', outcome: 'NOBODY_HOME', reason: 'Gate locked', serials: [], signedAt: expect.any(String) }]);
  });

  it("shows the server's refusal at the top and its field errors under the fields, keeping what was typed", async () => {
    const { calls } = mockApi(
      on('GET', `/api/driver/orders/${ORDER}`, { status: 200, body: { order: atDoor() } }),
      on('POST', `/api/driver/orders/${ORDER}/handover`, problem(400, 'Invalid input.', [{ field: 'recipientName', message: 'The name is at most 120 characters.' }, { field: 'key', message: HANDOVER_MESSAGES.keyRequired }])),
    );
    await openHandover();
    fillHandover();
    confirm();
    const name = screen.getByLabelText('Name of the person signing');
    await waitFor(() => expect(name).toHaveAccessibleDescription('The name is at most 120 characters.'));
    expect(name).toHaveValue('  Jose Santos ');
    // Every message of the answer at the top (a field the form has no place for too).
    const alert = screen.getByRole('alert');
    expect(alert).toHaveTextContent('The name is at most 120 characters.');
    expect(alert).toHaveTextContent(HANDOVER_MESSAGES.keyRequired);
    expect(posts(calls)).toHaveLength(1);
    // Still on the hand-over screen.
    expect(screen.getByRole('heading', { name: 'Hand-over ORD-20261123-000123' })).toBeInTheDocument();

    // Typing again clears the field's message.
    fireEvent.change(name, { target: { value: 'Jose' } });
    expect(name).not.toHaveAccessibleDescription();
  });

  it('a 409 (the order moved meanwhile) is shown at the top', async () => {
    const refusal = HANDOVER_MESSAGES.wrongStatus('DELIVERY', 'ORD-20261123-000123', 'DELIVERED');
    mockApi(on('GET', `/api/driver/orders/${ORDER}`, { status: 200, body: { order: atDoor() } }), on('POST', `/api/driver/orders/${ORDER}/handover`, problem(409, refusal)));
    await openHandover();
    fillHandover();
    confirm();
    expect(await screen.findByRole('alert')).toHaveTextContent(refusal);
  });

  it('the pick-up: leg PICKUP, its sentence, and back to For Pickup', async () => {
    const message = HANDOVER_MESSAGES.pickedUp('ORD-20261123-000123', 'Jose Santos');
    const { calls } = mockApi(
      on('GET', `/api/driver/orders/${ORDER}`, { status: 200, body: { order: atDoor({ status: 'FOR_RETURN' }) } }),
      on('GET', '/api/driver/orders', list([])),
      on('POST', `/api/driver/orders/${ORDER}/handover`, answered(message, 'FOR_PICK_UP', recorded({ leg: 'PICKUP', acknowledgement: HANDOVER_ACKNOWLEDGEMENT.PICKUP }))),
    );
    await openHandover(PICKUP_PATH);
    expect(screen.getByText(HANDOVER_ACKNOWLEDGEMENT.PICKUP)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Back to the order' })).toHaveAttribute('href', `/admin/for-pickup/${ORDER}`);
    fillHandover();
    confirm();
    expect(await screen.findByRole('heading', { name: 'For Pickup' })).toBeInTheDocument();
    expect(bodyOf(posts(calls)[0]!)).toMatchObject({ leg: 'PICKUP', outcome: 'HANDED_OVER', serials: SERIALS, acknowledged: true });
  });

  it('an order not at this step (delivered already) offers no form', async () => {
    mockApi(on('GET', `/api/driver/orders/${ORDER}`, { status: 200, body: { order: atDoor({ status: 'DELIVERED' }) } }));
    await openHandover();
    expect(screen.getByText(HANDOVER_MESSAGES.wrongStatus('DELIVERY', 'ORD-20261123-000123', 'DELIVERED'))).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Confirm hand-over' })).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Back to For Delivery' })).toHaveAttribute('href', '/admin/for-delivery');
  });

  it("answers an order that is not the driver's with 'Order not found'", async () => {
    mockApi(on('GET', `/api/driver/orders/${ORDER}`, problem(404, 'Not found.')));
    open(DELIVERY_PATH);
    expect(await screen.findByText('Order not found')).toBeInTheDocument();
  });
});

describe('hand-over photo', () => {
  /** A camera photo of width × height decodes; the canvas records what is drawn and answers a JPEG. */
  function camera(width: number, height: number) {
    const close = vi.fn();
    vi.stubGlobal('createImageBitmap', vi.fn(async () => ({ width, height, close })));
    const drawImage = vi.fn();
    const ctx = { fillStyle: '', fillRect: vi.fn(), drawImage } as unknown as CanvasRenderingContext2D;
    vi.spyOn(HTMLCanvasElement.prototype, 'getContext').mockReturnValue(ctx);
    const toDataURL = vi.spyOn(HTMLCanvasElement.prototype, 'toDataURL').mockReturnValue('data:image/jpeg;base64,/9j/4AAQSkZJRg==');
    return { drawImage, toDataURL, close };
  }
  const choose = () => fireEvent.change(screen.getByLabelText('Photo (optional)'), { target: { files: [new File([new Uint8Array(10)], 'door.jpg', { type: 'image/jpeg' })] } });

  it('is shrunk to 1600 px on the long side as a JPEG (quality 0.8), shown, sent, and can be removed', async () => {
    const { drawImage, toDataURL, close } = camera(4000, 3000);
    const { calls } = mockApi(
      on('GET', `/api/driver/orders/${ORDER}`, { status: 200, body: { order: atDoor() } }),
      on('GET', '/api/driver/orders', list([])),
      on('POST', `/api/driver/orders/${ORDER}/handover`, answered('Order ORD-20261123-000123 delivered to Jose Santos.', 'DELIVERED')),
    );
    await openHandover();
    choose();
    const thumb = await screen.findByRole('img', { name: 'The photo to send' });
    expect(thumb).toHaveAttribute('src', 'data:image/jpeg;base64,/9j/4AAQSkZJRg==');
    expect(drawImage).toHaveBeenCalledWith(expect.anything(), 0, 0, 1600, 1200);
    expect(toDataURL).toHaveBeenCalledWith('image/jpeg', 0.8);
    expect(close).toHaveBeenCalled();

    fireEvent.click(screen.getByRole('button', { name: 'Remove photo' }));
    expect(screen.queryByRole('img', { name: 'The photo to send' })).not.toBeInTheDocument();
    choose();
    await screen.findByRole('img', { name: 'The photo to send' });

    fillHandover();
    confirm();
    expect(await screen.findByRole('heading', { name: 'For Delivery' })).toBeInTheDocument();
    expect(bodyOf(posts(calls)[0]!).photo).toBe('data:image/jpeg;base64,/9j/4AAQSkZJRg==');
  });

  it('says so clearly when the phone cannot read the photo, and the hand-over can go without it', async () => {
    vi.stubGlobal('createImageBitmap', vi.fn(async () => Promise.reject(new DOMException('The source image could not be decoded.', 'InvalidStateError'))));
    const { calls } = mockApi(
      on('GET', `/api/driver/orders/${ORDER}`, { status: 200, body: { order: atDoor() } }),
      on('GET', '/api/driver/orders', list([])),
      on('POST', `/api/driver/orders/${ORDER}/handover`, answered('Order ORD-20261123-000123 delivered to Jose Santos.', 'DELIVERED')),
    );
    await openHandover();
    choose();
    await waitFor(() => expect(screen.getByLabelText('Photo (optional)')).toHaveAccessibleDescription(PHOTO_MESSAGES.unreadable));
    expect(screen.queryByRole('img', { name: 'The photo to send' })).not.toBeInTheDocument();
    fillHandover();
    confirm();
    expect(await screen.findByRole('heading', { name: 'For Delivery' })).toBeInTheDocument();
    expect(bodyOf(posts(calls)[0]!)).not.toHaveProperty('photo');
  });
});

describe('scanning at the door', () => {
  it('a delivery scan answered with `handover` closes the scanner on the hand-over screen of that order', async () => {
    const out = summary(1, { id: ORDER, orderNumber: 'ORD-20261123-000123', status: 'OUT_FOR_DELIVERY' });
    const { calls } = mockApi(
      on('GET', '/api/driver/orders', list([out])),
      on('POST', '/api/driver/scan', { status: 200, body: { order: out, message: HANDOVER_MESSAGES.handoverNeeded(out.orderNumber), handover: 'DELIVERY' } }),
      on('GET', `/api/driver/orders/${ORDER}`, { status: 200, body: { order: atDoor() } }),
    );
    open('/admin/for-delivery');
    const dialog = await openScanner();
    typeCode(dialog, out.orderNumber);
    expect(await screen.findByRole('heading', { name: 'Hand-over ORD-20261123-000123' })).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Scan Order' })).not.toBeInTheDocument());
    expect(screen.getByText(HANDOVER_ACKNOWLEDGEMENT.DELIVERY)).toBeInTheDocument();
    expect(await screen.findByText(HANDOVER_MESSAGES.handoverNeeded(out.orderNumber))).toBeInTheDocument();
    expect(scans(calls).map((c) => c.body)).toEqual([{ purpose: 'DELIVERY', code: out.orderNumber }]);
  });
});

describe('order detail and its hand-overs', () => {
  it('an order out for delivery links to its hand-over; the hand-overs recorded are listed', async () => {
    const failed = recorded({ id: 'ffffffff-ffff-4fff-8fff-ffffffffffff', outcome: 'REFUSED', recipientName: '', relation: null, reason: 'Wrong size', serials: [], hasSignature: false, signedAt: '2026-11-23T03:00:00.000Z' });
    mockApi(on('GET', `/api/driver/orders/${ORDER}`, { status: 200, body: { order: atDoor({ handovers: [failed, recorded({ attempt: 2 })] }) } }));
    open(`/admin/for-delivery/${ORDER}`);
    expect(await screen.findByRole('heading', { name: 'Order ORD-20261123-000123' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Record hand-over' })).toHaveAttribute('href', `/admin/for-delivery/${ORDER}/handover`);

    const section = screen.getByRole('region', { name: 'Hand-overs' });
    const items = within(section).getAllByRole('listitem');
    expect(items).toHaveLength(2);
    expect(items[0]).toHaveTextContent('Delivery · attempt 1: Refused');
    expect(items[0]).toHaveTextContent('Reason: Wrong size');
    expect(items[0]).toHaveTextContent('Dan Cruz');
    expect(items[1]).toHaveTextContent('Delivery · attempt 2: Handed over');
    expect(items[1]).toHaveTextContent('Signed by Jose Santos (Family member)');
    // Manila time (UTC+8).
    expect(items[1]).toHaveTextContent(/11:00/);
  });

  it('a pick-up screen links to the hand-over of a rental FOR RETURN, not of one already picked up; no section without hand-overs', async () => {
    mockApi(on('GET', `/api/driver/orders/${ORDER}`, { status: 200, body: { order: atDoor({ status: 'FOR_RETURN' }) } }));
    open(`/admin/for-pickup/${ORDER}`);
    expect(await screen.findByRole('link', { name: 'Record hand-over' })).toHaveAttribute('href', `/admin/for-pickup/${ORDER}/handover`);
    expect(screen.queryByRole('region', { name: 'Hand-overs' })).not.toBeInTheDocument();
  });

  it('no hand-over link for an order at another step', async () => {
    mockApi(on('GET', `/api/driver/orders/${ORDER}`, { status: 200, body: { order: atDoor({ status: 'FOR_PICK_UP' }) } }));
    open(`/admin/for-pickup/${ORDER}`);
    expect(await screen.findByRole('heading', { name: 'Order ORD-20261123-000123' })).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Record hand-over' })).not.toBeInTheDocument();
  });
});
