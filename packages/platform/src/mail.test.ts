import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestSmtp, type TestSmtp } from '@dme/testing/smtp';
import { createMailer, messageIdFor, type Mailer } from './mail';

/** The mail kit against a real SMTP server (smtp-server), every message parsed back (mailparser). */
let smtp: TestSmtp;
let mailer: Mailer;
const FROM = '"DME Shop" <shop@dme.example>';

beforeAll(async () => {
  smtp = await startTestSmtp();
  mailer = createMailer({ smtpUrl: smtp.url, from: FROM, timeoutMs: 3000 });
});
afterAll(async () => {
  mailer?.close();
  await smtp?.stop();
});

const pdf = Buffer.from('%PDF-1.4\n% an invoice\n');
const mail = (to: string, id = messageIdFor(randomUUID(), FROM)) => ({
  to,
  subject: 'Your payment was received',
  text: 'Thank you. Your invoice is attached.',
  html: '<p>Thank you. Your invoice is <b>attached</b>.</p>',
  attachments: [{ filename: 'INVOICE.pdf', content: pdf, contentType: 'application/pdf' }],
  messageId: id,
});
const receivedBy = (to: string) => smtp.received.filter((m) => m.envelopeTo.includes(to));

describe('mail: sending over SMTP', () => {
  it('hands one message with its attachment to the relay, under the Message-ID chosen for it', async () => {
    const to = `ana.${randomUUID().slice(0, 8)}@example.com`;
    const m = mail(to);
    const receipt = await mailer.send(m);
    expect(receipt).toMatchObject({ messageId: m.messageId, accepted: [to], rejected: [] });
    expect(receipt.response).toMatch(/^250/);
    const [got, ...more] = receivedBy(to);
    expect(more).toHaveLength(0);
    expect(got).toMatchObject({ from: FROM, to, subject: m.subject, messageId: m.messageId });
    expect(got!.text.trim()).toBe(m.text);
    expect(got!.html).toContain('<b>attached</b>');
    expect(got!.attachments).toEqual([{ filename: 'INVOICE.pdf', contentType: 'application/pdf', content: pdf }]);
  });

  it('a relay that refuses (451) fails the send with its answer and keeps nothing; sent again with the same Message-ID once it accepts, it arrives once', async () => {
    const to = `ben.${randomUUID().slice(0, 8)}@example.com`;
    const m = mail(to);
    smtp.refuseWith({ code: 451, message: 'Try again later' });
    try {
      await expect(mailer.send(m)).rejects.toMatchObject({ responseCode: 451 });
    } finally {
      smtp.refuseWith(null);
    }
    expect(receivedBy(to)).toHaveLength(0);
    await mailer.send(m);
    expect(receivedBy(to).map((r) => r.messageId)).toEqual([m.messageId]);
  });

  it('a relay that is down fails the send; once it is back the same message goes out', async () => {
    const to = `cora.${randomUUID().slice(0, 8)}@example.com`;
    await smtp.stop();
    const down = createMailer({ smtpUrl: smtp.url, from: FROM, timeoutMs: 1000 });
    try {
      await expect(down.send(mail(to))).rejects.toBeInstanceOf(Error);
    } finally {
      down.close();
      await smtp.start();
    }
    const back = createMailer({ smtpUrl: smtp.url, from: FROM, timeoutMs: 3000 });
    try {
      await back.send(mail(to));
    } finally {
      back.close();
    }
    expect(receivedBy(to)).toHaveLength(1);
  });

  it('only smtp:// and smtps:// relays; a Message-ID names the sender domain', () => {
    expect(() => createMailer({ smtpUrl: 'http://relay.example', from: FROM })).toThrow(/smtp:\/\/ or smtps:\/\//);
    expect(messageIdFor('0b0e7d6c-1111-4222-8333-444455556666', FROM)).toBe('<0b0e7d6c-1111-4222-8333-444455556666@dme.example>');
    expect(messageIdFor('x', 'no-at-sign')).toBe('<x@localhost>');
  });
});
