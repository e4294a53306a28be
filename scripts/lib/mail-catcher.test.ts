import { randomBytes, randomUUID } from 'node:crypto';
import { createConnection } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMailer, type Mailer } from '@dme/platform';
import { freePort, type Json } from '@dme/testing';
import { acceptAllMail, allMail, linkIn, refuseMailTo, waitForMail } from '../../e2e/mail';
import { contentDisposition, startMailCatcher, type MailCatcher } from './mail-catcher';
import { escapeHtml } from './mail-inbox-html';

const FROM = '"DME Supply" <no-reply@dme-shop.local>';
let catcher: MailCatcher;
let mailer: Mailer;

beforeAll(async () => {
  catcher = await startMailCatcher({ smtpPort: await freePort(), httpPort: await freePort() });
  mailer = createMailer({ smtpUrl: catcher.smtpUrl, from: FROM, timeoutMs: 3000 });
});
afterAll(async () => {
  mailer?.close();
  await catcher?.stop();
});

const get = async (path: string) => {
  const res = await fetch(`${catcher.inboxUrl}${path}`);
  return { status: res.status, headers: res.headers, bytes: Buffer.from(await res.arrayBuffer()) };
};
const api = async (to?: string): Promise<Json[]> => (await (await fetch(`${catcher.inboxUrl}/api/messages${to ? `?to=${encodeURIComponent(to)}` : ''}`)).json()) as Json[];
const messageId = () => `<${randomUUID()}@dme-shop.local>`;

describe('the mail catcher', () => {
  const alice = `alice.${randomBytes(3).toString('hex')}@example.com`;
  const bob = `bob.${randomBytes(3).toString('hex')}@example.com`;
  const pdf = randomBytes(4096); // not text: any re-encoding would show
  const evil = 'Reset <script>alert(1)</script> & "more"';

  it('keeps each message sent over SMTP and lists it by recipient, newest first', async () => {
    await mailer.send({ to: alice, subject: 'Your invoice', text: 'See the PDF.\nhttp://localhost:8080/orders/1', html: '<p>See the PDF.</p>', messageId: messageId(), attachments: [{ filename: 'INVOICE.pdf', contentType: 'application/pdf', content: pdf }] });
    await mailer.send({ to: bob, subject: evil, text: 'Hello Bob', html: '<p>Hi</p><script>parent.document.title = "pwned"</script>', messageId: messageId() });

    const all = await api();
    expect(all.map((m) => m.subject)).toEqual([evil, 'Your invoice']);
    const forAlice = await api(alice.toUpperCase()); // recipients compare in any case
    expect(forAlice).toHaveLength(1);
    expect(forAlice[0]).toMatchObject({ envelopeTo: [alice], to: alice, from: FROM, subject: 'Your invoice', text: 'See the PDF.\nhttp://localhost:8080/orders/1', html: '<p>See the PDF.</p>' });
    expect(forAlice[0].attachments).toEqual([{ filename: 'INVOICE.pdf', contentType: 'application/pdf', size: pdf.length }]);
    expect(typeof forAlice[0].id).toBe('string');
    expect(Date.parse(forAlice[0].receivedAt)).not.toBeNaN();
    expect(forAlice[0].messageId).toMatch(/^<.+@dme-shop\.local>$/);
    expect((await api(bob)).map((m) => m.subject)).toEqual([evil]);
    expect(await api('nobody@example.com')).toEqual([]);
  });

  it('serves an attachment byte for byte, with its type and name', async () => {
    const [mail] = await api(alice);
    const res = await get(`/messages/${mail.id}/attachments/0`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/pdf');
    expect(res.headers.get('content-disposition')).toContain('filename="INVOICE.pdf"');
    expect(res.bytes.equals(pdf)).toBe(true);
    expect((await get(`/messages/${mail.id}/attachments/1`)).status).toBe(404);
  });

  it('shows the inbox and each message escaped, the HTML body only in a sandboxed iframe', async () => {
    const inbox = (await get('/')).bytes.toString('utf8');
    expect(inbox).toContain('<title>DME Supply — mail inbox</title>');
    expect(inbox).toContain(escapeHtml(evil));
    expect(inbox).not.toContain('<script');
    expect(inbox).toContain('INVOICE.pdf');
    expect(inbox.indexOf(escapeHtml(evil))).toBeLessThan(inbox.indexOf('Your invoice')); // newest first

    const [mail] = await api(bob);
    const page = await get(`/messages/${mail.id}`);
    expect(page.status).toBe(200);
    const html = page.bytes.toString('utf8');
    expect(html).not.toContain('<script');
    expect(html).toMatch(/<iframe sandbox srcdoc="[^"]*&lt;script&gt;parent\.document\.title = &quot;pwned&quot;&lt;\/script&gt;[^"]*"/);
    expect(html).toContain('<pre>Hello Bob</pre>');
    expect(html).toContain(escapeHtml(mail.messageId));
  });

  it('answers 404 to unknown messages and paths, and survives bad input', async () => {
    for (const path of ['/messages/999999', '/messages/abc', '/messages/1%00', '/messages/%E0%A4%A', '/nope', '/messages/1/attachments/x', '/api/messages/1']) {
      expect((await get(path)).status, path).toBe(404);
    }
    expect((await fetch(`${catcher.inboxUrl}/`, { method: 'POST' })).status).toBe(405);
    // A client that speaks nonsense and hangs up must not take the catcher down.
    const port = Number(new URL(catcher.smtpUrl).port);
    await new Promise<void>((resolve) => {
      const s = createConnection({ port, host: '127.0.0.1' }, () => {
        s.write('HELO x\r\nMAIL FROM:<a\r\n\x00\x01garbage\r\n');
        s.destroy();
        resolve();
      });
      s.on('error', () => resolve());
    });
    expect((await get('/')).status).toBe(200);
  });

  it('empties on DELETE /api/messages', async () => {
    expect((await fetch(`${catcher.inboxUrl}/api/messages`, { method: 'DELETE' })).status).toBe(200);
    expect(await api()).toEqual([]);
    expect((await get('/')).bytes.toString('utf8')).toContain('No messages yet. E-mails the shop sends appear here.');
  });

  it('is read by the helper end-to-end tests use (e2e/mail.ts)', async () => {
    process.env.E2E_MAIL_URL = catcher.inboxUrl;
    const carol = `Carol.${randomBytes(3).toString('hex')}@Example.com`;
    const later = setTimeout(() => void mailer.send({ to: carol, subject: 'Reset your password', text: 'Open http://localhost:8080/help and then\nhttp://localhost:8080/reset-password?token=abc123.\n', html: '', messageId: messageId() }), 300);
    const mail = await waitForMail(carol.toLowerCase(), { subject: /reset/i }, 5000);
    clearTimeout(later);
    expect(linkIn(mail, '/reset-password')).toBe('http://localhost:8080/reset-password?token=abc123');
    expect(() => linkIn(mail, '/verify-email')).toThrow(/No link to \/verify-email/);
    expect(await allMail(carol)).toHaveLength(1);
    await expect(waitForMail(carol, { subject: 'Welcome' }, 300)).rejects.toThrow(/got: "Reset your password"/);
  });

  it('refuses mail to an address with the SMTP answer it was given (any case) until told to accept all again', async () => {
    const dave = `dave.${randomBytes(3).toString('hex')}@example.com`;
    const erin = `erin.${randomBytes(3).toString('hex')}@example.com`;
    const refusals = `${catcher.inboxUrl}/api/refusals`;
    const post = (body: unknown) => fetch(refusals, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    const res = await post({ address: dave.toUpperCase(), code: 550, message: 'Mailbox unavailable' });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual([{ address: dave, code: 550, message: 'Mailbox unavailable' }]);

    const refused = await mailer.send({ to: dave, subject: 'Refused', text: 'x', html: '', messageId: messageId() }).then(
      () => undefined,
      (err: unknown) => err as { responseCode?: number; message: string },
    );
    expect(refused?.responseCode).toBe(550);
    expect(refused?.message).toContain('Mailbox unavailable');
    await mailer.send({ to: erin, subject: 'Accepted', text: 'x', html: '', messageId: messageId() });
    expect(await api(dave)).toEqual([]);
    expect((await api(erin)).map((m) => m.subject)).toEqual(['Accepted']);

    // Bad input is a 400 that says what is wrong; other methods are 405.
    for (const body of [{}, { address: dave, code: 250, message: 'ok' }, { address: dave, code: 550, message: 'a\r\nRCPT TO:<x>' }, { address: '', code: 550, message: 'x' }]) {
      const bad = await post(body);
      expect(bad.status, JSON.stringify(body)).toBe(400);
      expect(((await bad.json()) as { error: string }).error).toBeTruthy();
    }
    expect((await fetch(refusals, { method: 'POST', body: 'not json' })).status).toBe(400);
    expect((await fetch(refusals, { method: 'PUT' })).status).toBe(405);

    // The helpers of e2e/mail.ts: refuse one address, then accept everything again.
    process.env.E2E_MAIL_URL = catcher.inboxUrl;
    await refuseMailTo(erin, 553, 'No such user here');
    await expect(mailer.send({ to: erin, subject: 'Refused too', text: 'x', html: '', messageId: messageId() })).rejects.toMatchObject({ responseCode: 553 });
    await acceptAllMail();
    expect(await (await fetch(refusals)).json()).toEqual([]);
    await mailer.send({ to: dave, subject: 'Accepted now', text: 'x', html: '', messageId: messageId() });
    expect((await api(dave)).map((m) => m.subject)).toEqual(['Accepted now']);
  });

  it('names a download safely whatever the attachment is called', () => {
    expect(contentDisposition('Rechnung (März) "final".pdf')).toBe(`attachment; filename="Rechnung (M_rz) _final_.pdf"; filename*=UTF-8''Rechnung%20%28M%C3%A4rz%29%20%22final%22.pdf`);
  });
});
