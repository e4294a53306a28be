import { describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { formatManilaDateTime, MESSAGE_TEMPLATES, OUTBOX_MESSAGES, type MessageDetail } from '@dme/contracts';
import { App } from '../App';
import { chooseOption, makeUser, mockApi, on, problem, renderWithShell, storeUser, type Call } from '../test/utils';

// Issue 24: the superadmin's Messages screen.
const admin = makeUser('SUPERADMIN', { id: '00000000-0000-4000-8000-0000000000aa', username: 'superadmin' });
const me = on('GET', '/api/auth/me', { status: 200, body: { user: admin, permissions: [] } });

const sent: MessageDetail = {
  id: '00000000-0000-4000-8000-000000000101',
  recipient: 'maria@example.com',
  template: 'payment-received',
  subject: 'Payment received for order BUY-000001',
  status: 'SENT',
  attempts: 1,
  lastError: null,
  ref: '00000000-0000-4000-8000-000000000201',
  createdAt: '2026-03-02T01:05:00.000Z',
  sentAt: '2026-03-02T01:20:03.000Z',
  attachments: [{ filename: 'INVOICE.pdf', contentType: 'application/pdf', size: 20480 }],
  html: '<p>Thank you for your <b>payment</b>.</p><script>parent.document.title = "pwned"</script>',
  text: 'Thank you for your payment.',
  messageId: '<0101@dme-shop.local>',
};
const failed: MessageDetail = {
  ...sent,
  id: '00000000-0000-4000-8000-000000000102',
  recipient: 'juan@example.com',
  template: 'verify-email',
  subject: 'Confirm your e-mail address for DME Supply',
  status: 'FAILED',
  lastError: 'Message failed: 550 Mailbox unavailable',
  sentAt: null,
  attachments: [],
  messageId: '<0102@dme-shop.local>',
};
const summary = ({ html: _h, text: _t, messageId: _m, ...s }: MessageDetail) => s;
const params = (c: Call) => Object.fromEntries(new URL(c.url, 'http://x').searchParams);
const row = (text: string) => screen.getByText(text).closest('tr') as HTMLElement;

function openMessages() {
  storeUser(admin);
  return renderWithShell(<App />, '/admin/messages');
}

describe('superadmin: messages', () => {
  it('lists the messages with their times in Manila and status tags, and filters by status, template and search', async () => {
    const { calls } = mockApi(
      me,
      on('GET', '/api/messages', (c) => {
        const q = params(c);
        const items = [sent, failed].filter((m) => (!q.status || m.status === q.status) && (!q.search || m.recipient.includes(q.search)));
        return { status: 200, body: { items: items.map(summary), total: items.length } };
      }),
    );
    openMessages();
    expect(await screen.findByText('maria@example.com')).toBeInTheDocument();
    for (const title of ['Queued', 'Recipient', 'Subject', 'Template', 'Status', 'Attempts', 'Sent']) {
      expect(screen.getByRole('columnheader', { name: title })).toBeInTheDocument();
    }
    const r = row('maria@example.com');
    expect(within(r).getByText(formatManilaDateTime(sent.createdAt))).toBeInTheDocument();
    expect(within(r).getByText(formatManilaDateTime(sent.sentAt!))).toBeInTheDocument();
    expect(within(r).getByText('SENT')).toHaveClass('ant-tag-green');
    expect(within(r).queryByRole('button', { name: 'Send again' })).toBeNull();
    expect(within(row('juan@example.com')).getByText('FAILED')).toHaveClass('ant-tag-red');
    expect(within(row('juan@example.com')).getByRole('button', { name: 'Send again' })).toBeInTheDocument();
    expect(params(calls.find((c) => c.url.startsWith('/api/messages'))!)).toEqual({ limit: '20', offset: '0' });

    await chooseOption('Status', 'FAILED');
    await waitFor(() => expect(screen.queryByText('maria@example.com')).toBeNull());
    expect(params(calls.filter((c) => c.url.startsWith('/api/messages?')).at(-1)!)).toMatchObject({ status: 'FAILED' });

    fireEvent.mouseDown(screen.getByRole('combobox', { name: 'Template' }));
    await waitFor(() => expect(document.querySelectorAll('.ant-select-item-option[title="verify-email"]').length).toBe(1));
    expect([...document.querySelectorAll('.ant-select-item-option')].map((o) => o.getAttribute('title')).slice(-MESSAGE_TEMPLATES.length)).toEqual([...MESSAGE_TEMPLATES]);
    fireEvent.click(document.querySelector('.ant-select-item-option[title="verify-email"]')!);
    await waitFor(() => expect(params(calls.at(-1)!)).toMatchObject({ status: 'FAILED', template: 'verify-email' }));

    const search = screen.getByRole('searchbox', { name: 'Search messages' });
    fireEvent.change(search, { target: { value: ' nobody ' } });
    fireEvent.keyDown(search, { key: 'Enter', code: 'Enter', keyCode: 13 });
    expect(await screen.findByText('No messages match these filters.')).toBeInTheDocument();
    expect(params(calls.at(-1)!)).toMatchObject({ search: 'nobody', status: 'FAILED', template: 'verify-email', offset: '0' });
  });

  it('says so when there are no messages yet, and shows an error with Retry', async () => {
    let fail = true;
    mockApi(me, on('GET', '/api/messages', () => (fail ? problem(503, 'The service is unavailable.') : { status: 200, body: { items: [], total: 0 } })));
    openMessages();
    expect(await screen.findByText('The service is unavailable.')).toBeInTheDocument();
    fail = false;
    fireEvent.click(screen.getByRole('button', { name: 'Retry' }));
    expect(await screen.findByText(OUTBOX_MESSAGES.empty)).toBeInTheDocument();
  });

  it('opens a message in a drawer: headers, the HTML in a sandboxed frame, the text and the attachments', async () => {
    mockApi(
      me,
      on('GET', '/api/messages', { status: 200, body: { items: [summary(sent)], total: 1 } }),
      on('GET', `/api/messages/${sent.id}`, { status: 200, body: { message: sent } }),
    );
    openMessages();
    fireEvent.click(await screen.findByText('maria@example.com'));
    const drawer = (await screen.findByText('Message-ID')).closest('.ant-drawer') as HTMLElement;
    expect(within(drawer).getByText('<0101@dme-shop.local>')).toBeInTheDocument();
    expect(within(drawer).getAllByText(sent.subject).length).toBeGreaterThan(0);
    expect(within(drawer).getByText('INVOICE.pdf (20.0 KB)')).toBeInTheDocument();
    expect(within(drawer).getByText('Thank you for your payment.')).toBeInTheDocument();
    const frame = within(drawer).getByTitle('Message content');
    expect(frame).toHaveAttribute('sandbox', '');
    expect(frame.getAttribute('srcdoc')).toBe(sent.html);
    expect(within(drawer).queryByRole('button', { name: 'Send again' })).toBeNull();
  });

  it("keeps the rows clickable while it polls for a message in flight: a click during the poll opens the message", async () => {
    const queued: MessageDetail = { ...sent, status: 'QUEUED', sentAt: null, attempts: 0 };
    let lists = 0;
    let held: (() => void) | undefined;
    mockApi(
      me,
      on('GET', '/api/messages', async () => {
        lists += 1;
        // The poll's answer is held while the click comes.
        if (lists > 1) await new Promise<void>((r) => (held = r));
        return { status: 200, body: { items: [summary(queued)], total: 1 } };
      }),
      on('GET', `/api/messages/${sent.id}`, { status: 200, body: { message: queued } }),
    );
    openMessages();
    expect(await screen.findByText('maria@example.com')).toBeInTheDocument();
    await waitFor(() => expect(held).toBeDefined(), { timeout: 8000 });
    expect(row('maria@example.com').closest('[aria-busy="true"]')).toBeNull();
    fireEvent.click(screen.getByText('maria@example.com'));
    expect(await screen.findByText('Message-ID')).toBeInTheDocument();
    held!();
  }, 20_000);

  it('sends a failed message again after a confirm, with a toast; Cancel sends nothing', async () => {
    let current: MessageDetail = failed;
    const { calls } = mockApi(
      me,
      on('GET', '/api/messages', () => ({ status: 200, body: { items: [summary(current)], total: 1 } })),
      on('GET', `/api/messages/${failed.id}`, () => ({ status: 200, body: { message: current } })),
      on('POST', `/api/messages/${failed.id}/resend`, () => {
        current = { ...failed, status: 'QUEUED', attempts: 0, lastError: null };
        return { status: 200, body: { message: current } };
      }),
    );
    openMessages();
    fireEvent.click(await screen.findByText('juan@example.com'));
    const drawer = (await screen.findByText('Last SMTP answer')).closest('.ant-drawer') as HTMLElement;
    expect(within(drawer).getByText('Message failed: 550 Mailbox unavailable')).toBeInTheDocument();

    fireEvent.click(within(drawer).getByRole('button', { name: 'Send again' }));
    const first = (await screen.findAllByText(OUTBOX_MESSAGES.resendTitle)).at(-1)!.closest('.ant-modal') as HTMLElement;
    fireEvent.click(within(first).getByRole('button', { name: 'Cancel' }));
    await new Promise((r) => setTimeout(r, 50));
    expect(calls.some((c) => c.method === 'POST')).toBe(false);

    fireEvent.click(within(drawer).getByRole('button', { name: 'Send again' }));
    // The cancelled confirm stays in the page (happy-dom runs no leave motion): take the new one.
    const modal = await waitFor(() => {
      const open = [...document.querySelectorAll<HTMLElement>('.ant-modal')].find((m) => m !== first);
      if (!open) throw new Error('no second confirm yet');
      return open;
    });
    fireEvent.click(within(modal).getByRole('button', { name: 'Send again' }));
    expect(await screen.findByText(OUTBOX_MESSAGES.resent)).toBeInTheDocument();
    expect(calls.filter((c) => c.method === 'POST')).toHaveLength(1);
    // The list and the drawer refresh at once: QUEUED, and no more "Send again".
    const listed = () => document.querySelector<HTMLElement>(`tr[data-row-key="${failed.id}"]`)!;
    await waitFor(() => expect(within(listed()).getByText('QUEUED')).toBeInTheDocument());
    await waitFor(() => expect(within(drawer).queryByRole('button', { name: 'Send again' })).toBeNull());
  });

  it('shows the server\'s reason when a message cannot be sent again', async () => {
    mockApi(
      me,
      on('GET', '/api/messages', { status: 200, body: { items: [summary(failed)], total: 1 } }),
      on('POST', `/api/messages/${failed.id}/resend`, problem(409, OUTBOX_MESSAGES.notFailed)),
    );
    openMessages();
    await screen.findByText('juan@example.com');
    fireEvent.click(within(row('juan@example.com')).getByRole('button', { name: 'Send again' }));
    const modal = (await screen.findAllByText(OUTBOX_MESSAGES.resendTitle)).at(-1)!.closest('.ant-modal') as HTMLElement;
    fireEvent.click(within(modal).getByRole('button', { name: 'Send again' }));
    expect(await screen.findByText(OUTBOX_MESSAGES.notFailed)).toBeInTheDocument();
    expect(screen.getByText(OUTBOX_MESSAGES.resendErrorTitle)).toBeInTheDocument();
  });
});
