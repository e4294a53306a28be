import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from '@dme/testing';
import { startTestSmtp, type TestSmtp } from '@dme/testing/smtp';
import { createOrm, migrate, type Orm } from './db';
import { createLogger } from './logger';
import { createMailer, type Mailer } from './mail';
import { MailRelay, mailOutboxTableSql, queueMail, queueMails, requeueMail } from './mail-outbox';
import { sql } from './sql';

/** The message outbox on a real PostgreSQL, sent to a real SMTP server, every message parsed back. */
const SCHEMA = 'mail_test';
const FROM = '"DME Shop" <shop@dme.example>';
let db: Awaited<ReturnType<typeof createTestDatabase>>;
let orm: Orm;
let smtp: TestSmtp;
let mailer: Mailer;
const logger = createLogger('mail-outbox-test', 'silent');

beforeAll(async () => {
  db = await createTestDatabase('mail');
  orm = await createOrm({ url: db.url, schema: SCHEMA, entities: [], migrations: [] });
  await migrate(orm, SCHEMA, db.url);
  for (const statement of mailOutboxTableSql(SCHEMA)) await orm.em.getConnection().execute(statement);
  smtp = await startTestSmtp();
  mailer = createMailer({ smtpUrl: smtp.url, from: FROM, timeoutMs: 2000 });
});
afterAll(async () => {
  mailer?.close();
  await smtp?.stop();
  await orm?.close();
  await db?.drop();
});

const relay = (over: Partial<ConstructorParameters<typeof MailRelay>[0]> = {}) => new MailRelay({ db: () => orm.em.fork(), mailer, logger, backoffMs: 10, ...over });
const address = () => `c.${randomUUID().slice(0, 8)}@example.com`;
const message = (to: string, over: { dedupeKey?: string; template?: string } = {}) => ({
  to,
  template: over.template ?? 'payment-received',
  subject: 'Your payment was received',
  text: 'Thank you.',
  html: '<p>Thank you.</p>',
  attachments: [{ filename: 'INVOICE.pdf', content: Buffer.from('%PDF-1.4 test'), contentType: 'application/pdf' }],
  ...(over.dedupeKey ? { dedupeKey: over.dedupeKey } : {}),
});
const row = async (id: string) =>
  (await sql<{ status: string; attempts: number; last_error: string | null; sent_at: Date | null; message_id: string }>(orm.em.fork(), `select status, attempts, last_error, sent_at, message_id from "${SCHEMA}"."mail_outbox" where id = $1`, [id]))[0]!;
const to = (addr: string) => smtp.received.filter((m) => m.envelopeTo.includes(addr));
/** Runs rounds until nothing is due (backoff delays are milliseconds here). */
async function drain(r: MailRelay, rounds = 20): Promise<void> {
  for (let i = 0; i < rounds; i++) {
    await r.runOnce();
    await new Promise((res) => setTimeout(res, 30));
  }
}

describe('message outbox', () => {
  it('a message queued in a transaction that rolls back is never sent; one that commits is sent once, with its attachment, and marked SENT', async () => {
    const lost = address();
    const kept = address();
    await expect(
      orm.em.fork().transactional(async (tem) => {
        await queueMail(tem, FROM, message(lost));
        throw new Error('the cause failed');
      }),
    ).rejects.toThrow('the cause failed');
    const id = await orm.em.fork().transactional((tem) => queueMail(tem, FROM, message(kept)));
    await drain(relay(), 3);
    expect(to(lost)).toHaveLength(0);
    const [got, ...more] = to(kept);
    expect(more).toHaveLength(0);
    expect(got!.attachments.map((a) => a.filename)).toEqual(['INVOICE.pdf']);
    const r = await row(id);
    expect(r).toMatchObject({ status: 'SENT', attempts: 1, last_error: null });
    expect(got!.messageId).toBe(r.message_id);
  });

  it('the same cause queued twice (an event delivered again) is one row and one message', async () => {
    const addr = address();
    const key = `payment-received:${randomUUID()}`;
    const a = await queueMail(orm.em.fork(), FROM, message(addr, { dedupeKey: key }));
    const b = await queueMail(orm.em.fork(), FROM, message(addr, { dedupeKey: key }));
    expect(b).toBe(a);
    await drain(relay(), 3);
    expect(to(addr)).toHaveLength(1);
  });

  it('several messages queued in one statement (a batch of events): each sent once with its attachment, in the order given; a key already queued or repeated in the batch adds nothing; a rollback queues none', async () => {
    const [a, b, c, lost] = [address(), address(), address(), address()];
    const earlier = `payment-received:${randomUUID()}`;
    const repeated = `payment-received:${randomUUID()}`;
    const first = await queueMail(orm.em.fork(), FROM, message(a, { dedupeKey: earlier }));
    await expect(
      orm.em.fork().transactional(async (tem) => {
        await queueMails(tem, FROM, [message(lost)]);
        throw new Error('the batch failed');
      }),
    ).rejects.toThrow('the batch failed');
    await orm.em.fork().transactional((tem) =>
      queueMails(tem, FROM, [message(a, { dedupeKey: earlier }), message(b, { dedupeKey: repeated }), message(c), message(b, { dedupeKey: repeated })]),
    );
    await queueMails(orm.em.fork(), FROM, []);
    await drain(relay(), 3);
    expect(to(lost)).toHaveLength(0);
    expect(to(a)).toHaveLength(1);
    expect(to(a)[0]!.messageId).toBe((await row(first)).message_id);
    for (const addr of [b, c]) {
      const [got, ...more] = to(addr);
      expect(more).toHaveLength(0);
      expect(got!.attachments.map((x) => [x.filename, x.content.toString()])).toEqual([['INVOICE.pdf', '%PDF-1.4 test']]);
    }
    const rows = await sql<{ recipient: string; status: string; message_id: string }>(
      orm.em.fork(),
      `select recipient, status, message_id from "${SCHEMA}"."mail_outbox" where recipient = any($1::text[])`,
      [[a, b, c]],
    );
    expect(rows.map((r) => r.recipient).sort()).toEqual([a, b, c].sort());
    expect(new Set(rows.map((r) => r.message_id)).size).toBe(3);
    // Sent in the order given (a placed order's message before its payment's).
    expect(smtp.received.findIndex((m) => m.envelopeTo.includes(b))).toBeLessThan(smtp.received.findIndex((m) => m.envelopeTo.includes(c)));
    expect(rows.every((r) => r.status === 'SENT')).toBe(true);
  });

  it('while the SMTP server is down messages wait (QUEUED, attempts counted); once it is back each goes out once', async () => {
    const addrs = [address(), address(), address()];
    const ids = await Promise.all(addrs.map((a) => queueMail(orm.em.fork(), FROM, message(a))));
    await smtp.stop();
    const r = relay({ mailer: createMailer({ smtpUrl: smtp.url, from: FROM, timeoutMs: 500 }) });
    try {
      await r.runOnce();
      for (const id of ids) expect(await row(id)).toMatchObject({ status: 'QUEUED', attempts: 1 });
      expect((await row(ids[0]!)).last_error).toBeTruthy();
    } finally {
      await smtp.start();
    }
    await drain(relay(), 5);
    for (const a of addrs) expect(to(a)).toHaveLength(1);
    for (const id of ids) expect(await row(id)).toMatchObject({ status: 'SENT', attempts: 2 });
  });

  it('a permanent refusal (550) is FAILED with the SMTP answer at once; staff resend it and it goes out once', async () => {
    const addr = address();
    const id = await queueMail(orm.em.fork(), FROM, message(addr));
    smtp.refuseWith({ code: 550, message: 'Mailbox unavailable' });
    try {
      await relay().runOnce();
    } finally {
      smtp.refuseWith(null);
    }
    const failed = await row(id);
    expect(failed).toMatchObject({ status: 'FAILED', attempts: 1 });
    expect(failed.last_error).toContain('Mailbox unavailable');
    await drain(relay(), 2);
    expect(to(addr)).toHaveLength(0);
    expect(await requeueMail(orm.em.fork(), id)).toBe(true);
    expect(await requeueMail(orm.em.fork(), id)).toBe(false);
    await drain(relay(), 2);
    expect(to(addr)).toHaveLength(1);
    expect(await row(id)).toMatchObject({ status: 'SENT' });
  });

  it('a temporary refusal (451) is retried with backoff until it is accepted; after too many attempts it is FAILED', async () => {
    const never = address();
    const doomed = await queueMail(orm.em.fork(), FROM, message(never));
    smtp.refuseWith({ code: 451, message: 'Try again later' });
    try {
      await drain(relay({ maxAttempts: 3 }), 10);
    } finally {
      smtp.refuseWith(null);
    }
    expect(await row(doomed)).toMatchObject({ status: 'FAILED', attempts: 3 });
    expect(to(never)).toHaveLength(0);

    const later = address();
    const ok = await queueMail(orm.em.fork(), FROM, message(later));
    smtp.refuseWith({ code: 451, message: 'Try again later' });
    try {
      await relay({ maxAttempts: 3 }).runOnce();
    } finally {
      smtp.refuseWith(null);
    }
    expect(await row(ok)).toMatchObject({ status: 'QUEUED', attempts: 1 });
    await drain(relay({ maxAttempts: 3 }), 3);
    expect(to(later)).toHaveLength(1);
    expect(await row(ok)).toMatchObject({ status: 'SENT', attempts: 2 });
  });

  it('two relays (two replicas) sending the same outbox send each message exactly once', async () => {
    const addrs = Array.from({ length: 40 }, () => address());
    await Promise.all(addrs.map((a) => queueMail(orm.em.fork(), FROM, message(a))));
    const a = relay({ batchSize: 5 });
    const b = relay({ batchSize: 5 });
    for (let i = 0; i < 12; i++) await Promise.all([a.runOnce(), b.runOnce()]);
    expect(addrs.map((x) => to(x).length)).toEqual(addrs.map(() => 1));
  });

  it('a relay that died after the SMTP server accepted and before marking: the lease runs out and the message goes again, once more, under the same Message-ID (the documented bound)', async () => {
    const addr = address();
    const id = await queueMail(orm.em.fork(), FROM, message(addr));
    // The dead relay: it claimed the message (lease 1 ms), the SMTP server took it, and it never marked it.
    const dying = relay({ leaseMs: 1, mailer: { ...mailer, send: async (m) => { await mailer.send(m); throw Object.assign(new Error('killed'), { killed: true }); } } });
    await sql(orm.em.fork(), `update "${SCHEMA}"."mail_outbox" set next_attempt_at = now() where id = $1`, [id]);
    await dying.runOnce().catch(() => undefined);
    // As if the process had died: the row is still SENDING (the failure handler is what a live relay runs).
    await sql(orm.em.fork(), `update "${SCHEMA}"."mail_outbox" set status = 'SENDING', lease_until = now() - interval '1 second' where id = $1`, [id]);
    await drain(relay(), 2);
    const copies = to(addr);
    expect(copies).toHaveLength(2);
    expect(new Set(copies.map((c) => c.messageId)).size).toBe(1);
    expect(await row(id)).toMatchObject({ status: 'SENT' });
  });

  it('a started relay sends what a commit queued as soon as it is kicked, and stops cleanly', async () => {
    const r = relay({ intervalMs: 60_000 });
    r.start();
    try {
      await new Promise((res) => setTimeout(res, 100));
      const addr = address();
      await queueMail(orm.em.fork(), FROM, message(addr));
      r.kick();
      const start = Date.now();
      while (to(addr).length === 0 && Date.now() - start < 5000) await new Promise((res) => setTimeout(res, 20));
      expect(to(addr)).toHaveLength(1);
    } finally {
      await r.stop();
    }
  });
});
