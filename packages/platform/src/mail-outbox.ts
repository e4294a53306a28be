import { newId } from './ids';
import type { Logger } from './logger';
import { messageIdFor, type MailAttachment, type Mailer } from './mail';
import { qualified } from './outbox';
import { PollingLoop } from './polling';
import { sql, type Db } from './sql';

/**
 * The message outbox (issue 24): every e-mail is a row, written in the transaction of what caused
 * it (an event's handling, a password reset), and sent by a relay with retries and backoff.
 *
 * QUEUED → SENDING (claimed with a lease, SKIP LOCKED: any number of replicas) → SENT, or back to
 * QUEUED with a later attempt after a temporary failure (4xx, the relay down), or FAILED with the
 * SMTP answer after a permanent one (5xx) or too many attempts; a FAILED message can be queued
 * again by staff. A `dedupeKey` makes queuing the same cause twice (an event delivered again)
 * write one row.
 *
 * Sent at most twice, and then under one Message-ID: SMTP has no way to ask a relay whether it
 * took a message, so a worker that dies after the relay accepted and before it marked the row
 * SENT leaves the row SENDING; its lease runs out and the message is sent again, under the same
 * Message-ID (chosen when the row was written), which mail clients and archives use to recognise
 * the copy. The window is the time between the relay's 250 and the mark, which comes once the
 * relay's batch (at most `batchSize` messages) has been through the SMTP server.
 */
// The statuses are contracts' MESSAGE_STATUSES (the Messages screen shows them).

/** The table of a service's message outbox, for its migration. */
export function mailOutboxTableSql(schema: string, table = 'mail_outbox'): string[] {
  return [
    `create table "${schema}"."${table}" (
      "id" uuid primary key,
      "recipient" text not null,
      "template" text not null,
      "subject" text not null,
      "text_body" text not null,
      "html_body" text not null,
      "attachments" jsonb not null default '[]',
      "ref" text null,
      "dedupe_key" text null unique,
      "status" text not null default 'QUEUED' check ("status" in ('QUEUED','SENDING','SENT','FAILED')),
      "attempts" int not null default 0,
      "last_error" text null,
      "message_id" text not null,
      "lease_until" timestamptz null,
      "next_attempt_at" timestamptz not null default now(),
      "created_at" timestamptz not null default now(),
      "sent_at" timestamptz null
    )`,
    `create index "${table}_due_idx" on "${schema}"."${table}" ("next_attempt_at") where "status" in ('QUEUED','SENDING')`,
  ];
}

export interface QueuedMail {
  to: string;
  /** Which message this is (e.g. `payment-received`), for the staff's list and filters. */
  template: string;
  subject: string;
  text: string;
  html: string;
  attachments?: MailAttachment[];
  /** What it is about (an order id...), for the staff's list. */
  ref?: string;
  /** One message per cause: a second queueMail with the same key writes nothing. */
  dedupeKey?: string;
}

/** A queued message as its outbox row has it (a new id, and the Message-ID chosen now). */
function mailRow(from: string, m: QueuedMail) {
  const id = newId();
  return {
    id,
    recipient: m.to,
    template: m.template,
    subject: m.subject,
    text_body: m.text,
    html_body: m.html,
    attachments: (m.attachments ?? []).map((a) => ({ filename: a.filename, contentType: a.contentType, content: a.content.toString('base64') })),
    ref: m.ref ?? null,
    dedupe_key: m.dedupeKey ?? null,
    message_id: messageIdFor(id, from),
  };
}

/** Queues a message in the caller's transaction; answers its id (the existing one's for a repeated dedupeKey). */
export async function queueMail(db: Db, from: string, m: QueuedMail, table = 'mail_outbox'): Promise<string> {
  const r = mailRow(from, m);
  const rows = await sql<{ id: string }>(
    db,
    `insert into ${qualified(db, table)} (id, recipient, template, subject, text_body, html_body, attachments, ref, dedupe_key, message_id)
     values ($1, $2, $3, $4, $5, $6, $7::jsonb, $8, $9, $10)
     on conflict (dedupe_key) do update set dedupe_key = excluded.dedupe_key
     returning id`,
    [r.id, r.recipient, r.template, r.subject, r.text_body, r.html_body, JSON.stringify(r.attachments), r.ref, r.dedupe_key, r.message_id],
  );
  return rows[0]!.id;
}

/**
 * Queues several messages in the caller's transaction with one statement (a consumer handling a
 * batch of events). A dedupeKey already queued, or repeated within `mails`, writes nothing more.
 * They are sent in the order given (each a microsecond after the one before it in the queue).
 */
export async function queueMails(db: Db, from: string, mails: readonly QueuedMail[], table = 'mail_outbox'): Promise<void> {
  const seen = new Set<string>();
  const rows = mails
    .filter((m) => m.dedupeKey === undefined || (!seen.has(m.dedupeKey) && !!seen.add(m.dedupeKey)))
    .map((m, ord) => ({ ...mailRow(from, m), ord }));
  if (rows.length === 0) return;
  await sql(
    db,
    `insert into ${qualified(db, table)} (id, recipient, template, subject, text_body, html_body, attachments, ref, dedupe_key, message_id, next_attempt_at, created_at)
     select id, recipient, template, subject, text_body, html_body, attachments, ref, dedupe_key, message_id,
            now() + make_interval(secs => ord / 1e6), now() + make_interval(secs => ord / 1e6)
       from jsonb_to_recordset($1::jsonb) as x(id uuid, recipient text, template text, subject text, text_body text, html_body text,
                                                attachments jsonb, ref text, dedupe_key text, message_id text, ord int)
     on conflict (dedupe_key) do nothing`,
    [JSON.stringify(rows)],
  );
}

/** Staff resend a FAILED message: it is queued again now, under the same Message-ID. */
export async function requeueMail(db: Db, id: string, table = 'mail_outbox'): Promise<boolean> {
  const rows = await sql<{ id: string }>(
    db,
    `update ${qualified(db, table)} set status = 'QUEUED', next_attempt_at = now(), attempts = 0, last_error = null where id = $1 and status = 'FAILED' returning id`,
    [id],
  );
  return rows.length === 1;
}

interface ClaimedRow {
  id: string;
  recipient: string;
  subject: string;
  text_body: string;
  html_body: string;
  attachments: Array<{ filename: string; contentType: string; content: string }>;
  message_id: string;
  attempts: number;
}

export interface MailRelayOptions {
  db: () => Db;
  mailer: Mailer;
  logger: Logger;
  table?: string;
  batchSize?: number;
  /** How long a claimed message is someone's before another relay may send it again (ms). */
  leaseMs?: number;
  /** Attempts before a message that keeps failing is FAILED. */
  maxAttempts?: number;
  /** Delay before attempt n+1 (ms): doubling from `backoffMs`, at most `maxBackoffMs`. */
  backoffMs?: number;
  maxBackoffMs?: number;
  intervalMs?: number;
}

/** Whether an SMTP failure is permanent (a 5xx answer): no retry will change it. */
export function isPermanentMailFailure(err: unknown): boolean {
  const code = (err as { responseCode?: unknown }).responseCode;
  return typeof code === 'number' && code >= 500 && code < 600;
}

/** The relay of a message outbox: claims due messages, sends them, records what the relay said. */
export class MailRelay {
  private readonly loop: PollingLoop;

  constructor(private readonly opts: MailRelayOptions) {
    this.loop = new PollingLoop(() => this.runOnce(), {
      intervalMs: opts.intervalMs ?? 1000,
      batchSize: opts.batchSize ?? 20,
      logger: opts.logger,
      failure: 'mail relay: a round failed, will retry',
    });
  }

  private get table(): string {
    return qualified(this.opts.db(), this.opts.table ?? 'mail_outbox');
  }

  start(): void {
    this.loop.start();
  }

  stop(): Promise<void> {
    return this.loop.stop();
  }

  /** Send now (after a commit that queued messages). */
  kick(): void {
    this.loop.kick();
  }

  /**
   * Claims and sends one batch; answers how many messages were handled. The messages the SMTP
   * server took are marked SENT together once the batch is through (one statement and one commit a
   * batch, not one a message: at a busy hour each order's e-mail cost a commit of its own).
   */
  async runOnce(): Promise<number> {
    const claimed = await this.claim();
    const sent: string[] = [];
    try {
      for (const row of claimed) if (await this.deliver(row)) sent.push(row.id);
    } finally {
      if (sent.length > 0) {
        await sql(this.opts.db(), `update ${this.table} set status = 'SENT', sent_at = now(), lease_until = null, last_error = null where id = any($1::uuid[]) and status = 'SENDING'`, [sent]);
      }
    }
    return claimed.length;
  }

  /** Due messages (queued and due, or claimed by a relay whose lease ran out), claimed in one committed statement. */
  private claim(): Promise<ClaimedRow[]> {
    const t = this.table;
    return sql<ClaimedRow>(
      this.opts.db(),
      // Sent in the order they were queued (an UPDATE's RETURNING has no order of its own).
      `with claimed as (
         update ${t} m set status = 'SENDING', lease_until = now() + make_interval(secs => $2::double precision / 1000), attempts = m.attempts + 1
          where m.id in (select id from ${t}
                          where (status = 'QUEUED' and next_attempt_at <= now()) or (status = 'SENDING' and lease_until < now())
                          order by next_attempt_at limit $1 for update skip locked)
         returning m.id, m.recipient, m.subject, m.text_body, m.html_body, m.attachments, m.message_id, m.attempts, m.next_attempt_at, m.created_at)
       select id, recipient, subject, text_body, html_body, attachments, message_id, attempts from claimed order by next_attempt_at, created_at`,
      [this.opts.batchSize ?? 20, this.opts.leaseMs ?? 60_000],
    );
  }

  /** Sends one claimed message: true once the SMTP server took it (runOnce marks it SENT); a refusal is recorded here. */
  private async deliver(row: ClaimedRow): Promise<boolean> {
    const t = this.table;
    try {
      await this.opts.mailer.send({
        to: row.recipient,
        subject: row.subject,
        text: row.text_body,
        html: row.html_body,
        messageId: row.message_id,
        attachments: row.attachments.map((a) => ({ filename: a.filename, contentType: a.contentType, content: Buffer.from(a.content, 'base64') })),
      });
      return true;
    } catch (err) {
      const answer = err instanceof Error ? err.message : String(err);
      const permanent = isPermanentMailFailure(err) || row.attempts >= (this.opts.maxAttempts ?? 8);
      const delay = Math.min((this.opts.backoffMs ?? 5_000) * 2 ** (row.attempts - 1), this.opts.maxBackoffMs ?? 3_600_000);
      await sql(
        this.opts.db(),
        `update ${t} set status = $2, last_error = $3, lease_until = null, next_attempt_at = now() + make_interval(secs => $4::double precision / 1000)
          where id = $1 and status = 'SENDING'`,
        [row.id, permanent ? 'FAILED' : 'QUEUED', answer.slice(0, 1000), delay],
      );
      this.opts.logger.warn({ messageId: row.message_id, attempts: row.attempts, permanent, err: answer }, 'mail relay: a message was not sent');
      return false;
    }
  }
}
