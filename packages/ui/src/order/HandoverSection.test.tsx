// @vitest-environment happy-dom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import type { Handover } from '@dme/contracts';
import { FeedbackRoot } from '../feedback';
import { HandoverSection } from './HandoverSection';

const ORDER = 'o-1';
const handover = (over: Partial<Handover> = {}): Handover => ({
  id: 'h-1',
  leg: 'DELIVERY',
  outcome: 'HANDED_OVER',
  attempt: 1,
  recipientName: 'Ana Santos',
  relation: 'FAMILY',
  reason: '',
  serials: ['WHE-0000001', 'WHE-0000002'],
  acknowledgement: 'I received the equipment listed above.',
  driverName: 'Dario Cruz',
  signedAt: '2026-11-24T02:00:00.000Z',
  recordedAt: '2026-11-24T02:01:00.000Z',
  hasSignature: true,
  hasPhoto: true,
  ...over,
});

const show = (handovers: Handover[], base: '/api/orders' | '/api/my/orders' = '/api/orders') =>
  render(
    <FeedbackRoot>
      <HandoverSection order={{ id: ORDER, handovers }} base={base} />
    </FeedbackRoot>,
  );

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
});

describe('HandoverSection', () => {
  it('shows nothing before the first hand-over', () => {
    show([]);
    expect(screen.queryByRole('region', { name: 'Proof of delivery' })).toBeNull();
    expect(screen.queryByRole('heading', { name: 'Proof of delivery' })).toBeNull();
  });

  it('a delivery handed over: recipient and relation, serials, driver, time in Manila, signature, photo and the ticket', async () => {
    const fetchMock = vi.fn(async () => new Response(new Blob(['%PDF']), { status: 200 }));
    vi.stubGlobal('fetch', fetchMock);
    vi.spyOn(URL, 'createObjectURL').mockReturnValue('blob:ticket');
    const clicked: string[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      clicked.push(`${this.href} ${this.download}`);
    });
    show([handover()], '/api/my/orders');

    const section = screen.getByRole('region', { name: 'Proof of delivery' });
    expect(within(section).getByRole('heading', { level: 2, name: 'Proof of delivery' })).toBeInTheDocument();
    const card = within(section).getByRole('article', { name: 'Delivery, attempt 1' });
    expect(within(card).getByText('Handed over')).toHaveClass('ant-tag-green');
    expect(within(card).getByText('Ana Santos, Family member')).toBeInTheDocument();
    expect(within(card).getByText('WHE-0000001')).toBeInTheDocument();
    expect(within(card).getByText('WHE-0000002')).toBeInTheDocument();
    expect(within(card).getByText('Dario Cruz')).toBeInTheDocument();
    // 02:00 UTC is 10:00 AM in Manila.
    expect(within(card).getByText('Nov 24, 2026, 10:00 AM')).toBeInTheDocument();
    expect(within(card).queryByText('Reason')).toBeNull();
    const signature = within(card).getByRole('img', { name: 'Signature of Ana Santos' });
    expect(signature).toHaveAttribute('src', `/api/my/orders/${ORDER}/handovers/h-1/signature`);
    expect(signature).toHaveAttribute('loading', 'lazy');
    const photo = within(card).getByRole('link', { name: /^Photo/ });
    expect(photo).toHaveAttribute('href', `/api/my/orders/${ORDER}/handovers/h-1/photo`);
    expect(photo).toHaveAttribute('target', '_blank');

    // Only the leg handed over has a ticket.
    expect(screen.queryByRole('button', { name: 'Pick-up ticket' })).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Delivery ticket' }));
    await waitFor(() => expect(clicked).toEqual(['blob:ticket DELIVERY_TICKET.pdf']));
    expect(fetchMock).toHaveBeenCalledWith(`/api/my/orders/${ORDER}/tickets/delivery`, { credentials: 'same-origin' });
  });

  it('a failed attempt shows its reason, no signature and no ticket; a later pick-up offers its own ticket', async () => {
    const fetchMock = vi.fn(async () => new Response('', { status: 404 }));
    vi.stubGlobal('fetch', fetchMock);
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
    const refused = handover({ id: 'h-2', outcome: 'REFUSED', recipientName: '', relation: null, reason: 'The bed does not fit the stairs.', serials: [], hasSignature: false, hasPhoto: false });
    show([refused]);
    const card = screen.getByRole('article', { name: 'Delivery, attempt 1' });
    expect(within(card).getByText('Refused')).toHaveClass('ant-tag-red');
    expect(within(card).getByText('Reason')).toBeInTheDocument();
    expect(within(card).getByText('The bed does not fit the stairs.')).toBeInTheDocument();
    expect(within(card).queryByRole('img')).toBeNull();
    expect(within(card).queryByRole('link')).toBeNull();
    expect(screen.queryByRole('button', { name: /ticket/ })).toBeNull();
    cleanup();

    show([
      handover({ id: 'h-3', outcome: 'NOBODY_HOME', reason: 'No answer at the gate.', recipientName: '', relation: null, serials: [], hasSignature: false, hasPhoto: false }),
      handover({ id: 'h-4', attempt: 2 }),
      handover({ id: 'h-5', leg: 'PICKUP', recipientName: 'Jose Santos', relation: 'PATIENT', hasPhoto: false }),
    ]);
    expect(screen.getAllByRole('article').map((a) => within(a).getByRole('heading').textContent)).toEqual([
      'Delivery, attempt 1',
      'Delivery, attempt 2',
      'Pick-up, attempt 1',
    ]);
    expect(within(screen.getByRole('article', { name: 'Delivery, attempt 1' })).getByText('Nobody home')).toHaveClass('ant-tag-orange');
    expect(within(screen.getByRole('article', { name: 'Pick-up, attempt 1' })).getByText('Jose Santos, Patient')).toBeInTheDocument();
    expect(screen.getByRole('img', { name: 'Signature of Jose Santos' })).toHaveAttribute('src', `/api/orders/${ORDER}/handovers/h-5/signature`);
    expect(screen.getByRole('button', { name: 'Delivery ticket' })).toBeInTheDocument();

    // A ticket that cannot be fetched saves nothing and is told.
    fireEvent.click(screen.getByRole('button', { name: 'Pick-up ticket' }));
    await waitFor(() => expect(logged).toHaveBeenCalledWith('Hand-over ticket download failed', expect.any(Error)));
    expect(fetchMock).toHaveBeenCalledWith(`/api/orders/${ORDER}/tickets/pickup`, { credentials: 'same-origin' });
    expect(await screen.findByText('The pick-up ticket could not be downloaded. Please try again.')).toBeInTheDocument();
  });
});
