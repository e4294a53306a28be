import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OUTBOX_MESSAGES, type MessageDetail, type MessageSummary } from '@dme/contracts';
import { queueMail } from '@dme/platform';
import { eventually } from '@dme/testing';
import { startIdentity, type Harness } from '../../test/harness';
import { TEMPLATES } from './templates';

// Issue 24: the superadmin's Messages screen — the message outbox read back, against a real SMTP
// server that can refuse. Who may call it (message:read, message:manage) is checked again here,
// as mountRoutes does behind the gateway.
let h: Harness;
beforeAll(async () => {
  h = await startIdentity();
});
afterAll(() => h?.close());

const asAdmin = () => ({ as: h.admin });
type List = { items: MessageSummary[]; total: number };
const list = async (query: Record<string, string>) => {
  const res = await h.api.get(`/api/messages?${new URLSearchParams(query)}`, asAdmin());
  expect(res.status, res.text).toBe(200);
  return res.body as List;
};
const one = async (id: string) => (await h.api.get(`/api/messages/${id}`, asAdmin())).body.message as MessageDetail;

async function register(email: string) {
  const res = await h.api.post('/api/auth/register', h.person({ email }));
  expect(res.status).toBe(201);
  return res.body.user as { id: string };
}

/** The confirmation e-mail of `email`, once it reached `status`. */
async function confirmationOf(email: string, status: MessageSummary['status']) {
  return eventually(async () => {
    const { items } = await list({ search: email });
    return items.find((m) => m.template === TEMPLATES.verifyEmail && m.status === status);
  }, 15_000);
}

describe('the list and one message', () => {
  it('lists every message newest first, with filters that combine and a total over every page', async () => {
    const tag = randomUUID().slice(0, 8);
    const emails = [0, 1, 2].map((i) => `list-${tag}-${i}@example.com`);
    const users = [];
    for (const e of emails) users.push(await register(e));
    for (const e of emails) await h.mailTo(e);
    await confirmationOf(emails[2]!, 'SENT');

    const all = await list({ search: `list-${tag}` });
    expect(all.total).toBe(3);
    expect(all.items.map((m) => m.recipient)).toEqual([...emails].reverse());
    const first = all.items[0]!;
    expect(first).toMatchObject({ template: 'verify-email', status: 'SENT', attempts: 1, lastError: null, ref: users[2]!.id, attachments: [] });
    expect(first.subject).toBe('Confirm your e-mail address for DME Supply');
    expect(Date.parse(first.sentAt!)).toBeGreaterThanOrEqual(Date.parse(first.createdAt));
    expect(first).not.toHaveProperty('html');

    // Paging: the total counts every match; the pages follow each other.
    const page1 = await list({ search: `list-${tag}`, limit: '2', offset: '0' });
    const page2 = await list({ search: `list-${tag}`, limit: '2', offset: '2' });
    expect([page1.total, page2.total]).toEqual([3, 3]);
    expect([...page1.items, ...page2.items].map((m) => m.id)).toEqual(all.items.map((m) => m.id));
    expect((await list({ search: `list-${tag}`, offset: '10' })).items).toEqual([]);

    // Search by a part of the recipient (any case) or of the subject; status and template combine with it.
    expect((await list({ search: emails[1]!.toUpperCase() })).items.map((m) => m.recipient)).toEqual([emails[1]]);
    expect((await list({ search: 'confirm your e-mail', template: 'verify-email' })).total).toBeGreaterThanOrEqual(3);
    expect((await list({ search: `list-${tag}`, status: 'SENT', template: 'verify-email' })).total).toBe(3);
    expect((await list({ search: `list-${tag}`, status: 'FAILED' })).total).toBe(0);
    expect((await list({ search: `list-${tag}`, template: 'password-reset' })).total).toBe(0);
    // A LIKE wildcard is a plain character.
    expect((await list({ search: 'list-%' })).total).toBe(0);

    const bad = await h.api.get('/api/messages?status=LOST&limit=500', asAdmin());
    expect(bad.status).toBe(400);
  });

  it('one message has its HTML and text bodies and its Message-ID; attachments are listed with their sizes, never their bytes', async () => {
    const email = `detail-${randomUUID().slice(0, 8)}@example.com`;
    await register(email);
    const [sent] = await h.mailTo(email);
    const summary = await confirmationOf(email, 'SENT');
    const m = await one(summary.id);
    expect(m.html).toContain('Confirm my e-mail address');
    expect(m.text).toContain('/verify-email?token=');
    expect(m.messageId).toBe(sent!.messageId);

    // Sizes of 1, 2 and 3 bytes: base64 with two, one and no padding characters.
    const id = await queueMail(h.orm.em.fork(), 'shop@example.com', {
      to: 'att@example.com',
      template: 'payment-received',
      subject: `Attachments ${randomUUID()}`,
      text: 't',
      html: '<p>h</p>',
      attachments: [1, 2, 3, 100_000].map((n, i) => ({ filename: `f${i}.pdf`, contentType: 'application/pdf', content: Buffer.alloc(n, 7) })),
    });
    const withFiles = await one(id);
    expect(withFiles.attachments).toEqual([1, 2, 3, 100_000].map((size, i) => ({ filename: `f${i}.pdf`, contentType: 'application/pdf', size })));
    const listed = await list({ search: withFiles.subject });
    expect(listed.items[0]!.attachments.map((a) => a.size)).toEqual([1, 2, 3, 100_000]);
    expect(JSON.stringify(listed)).not.toContain('content"');
  });

  it('an unknown id is 404 "Message not found."; a malformed one is 404 like elsewhere', async () => {
    const unknown = await h.api.get(`/api/messages/${randomUUID()}`, asAdmin());
    expect(unknown.status).toBe(404);
    expect(unknown.body.detail).toBe(OUTBOX_MESSAGES.notFound);
    expect((await h.api.get('/api/messages/not-a-uuid', asAdmin())).status).toBe(404);
    const resend = await h.api.post(`/api/messages/${randomUUID()}/resend`, undefined, asAdmin());
    expect(resend.status).toBe(404);
    expect(resend.body.detail).toBe(OUTBOX_MESSAGES.notFound);
    expect((await h.api.post('/api/messages/nope/resend', undefined, asAdmin())).status).toBe(404);
  });

  it('only the superadmin: a customer or other staff get 403', async () => {
    const id = randomUUID();
    for (const userType of ['CUSTOMER', 'WAREHOUSE_ADMIN', 'ACCOUNTING_ADMIN', 'DRIVER'] as const) {
      const as = { as: { userId: id, userType } };
      expect((await h.api.get('/api/messages', as)).status, userType).toBe(403);
      expect((await h.api.get(`/api/messages/${id}`, as)).status, userType).toBe(403);
      expect((await h.api.post(`/api/messages/${id}/resend`, undefined, as)).status, userType).toBe(403);
    }
    expect((await h.api.get('/api/messages')).status).toBe(401);
  });
});

describe('sending a failed message again', () => {
  it('a message the server refused (550) is FAILED with its answer; sent again once the server accepts, under the same Message-ID', async () => {
    const email = `refused-${randomUUID().slice(0, 8)}@example.com`;
    h.smtp.refuseWith({ code: 550, message: 'Mailbox unavailable' });
    let failed: MessageSummary;
    try {
      await register(email);
      failed = await confirmationOf(email, 'FAILED');
    } finally {
      h.smtp.refuseWith(null);
    }
    expect(failed.lastError).toContain('550');
    expect(failed.lastError).toContain('Mailbox unavailable');
    expect(failed.sentAt).toBeNull();
    expect((await list({ search: email, status: 'FAILED' })).total).toBe(1);
    const before = await one(failed.id);

    const res = await h.api.post(`/api/messages/${failed.id}/resend`, undefined, asAdmin());
    expect(res.status, res.text).toBe(200);
    expect(res.body.message).toMatchObject({ id: failed.id, status: 'QUEUED', lastError: null, attempts: 0 });
    expect(res.body.message.html).toContain('Confirm my e-mail address');

    const sent = await confirmationOf(email, 'SENT');
    expect(sent.id).toBe(failed.id);
    const [mail, ...more] = await h.mailTo(email);
    expect(more).toHaveLength(0);
    expect(mail!.messageId).toBe(before.messageId);

    // A message that did not fail cannot be sent again.
    const again = await h.api.post(`/api/messages/${failed.id}/resend`, undefined, asAdmin());
    expect(again.status).toBe(409);
    expect(again.body.detail).toBe(OUTBOX_MESSAGES.notFailed);
    expect((await one(failed.id)).status).toBe('SENT');
  });
});
