import type { Transporter } from 'nodemailer';

/**
 * Sending e-mail over SMTP (issue 24, DESIGN: messages and schedules): one transport per process,
 * chosen by `SMTP_URL` (smtp:// or smtps://, credentials in the URL) and sending as `MAIL_FROM`.
 * The message outbox decides what is sent and when; this only hands one message to the relay and
 * says what the relay answered.
 */
export interface MailConfig {
  /** smtp://user:pass@host:port or smtps://... */
  smtpUrl: string;
  /** The sender, e.g. `"DME Shop" <shop@example.com>`. */
  from: string;
  /** Give up on a relay that does not answer (connection, greeting, each command), in ms. */
  timeoutMs?: number;
}

export interface MailAttachment {
  filename: string;
  content: Buffer;
  contentType: string;
}

export interface OutgoingMail {
  to: string;
  subject: string;
  text: string;
  html: string;
  attachments?: MailAttachment[];
  /**
   * The message's own Message-ID (`<id@domain>`), chosen before sending and kept with the message
   * row: a resend after an unknown outcome carries the same id, so the copies can be told apart.
   */
  messageId: string;
}

/** What the relay said: the addresses it accepted and refused, and its answer line. */
export interface MailReceipt {
  messageId: string;
  accepted: string[];
  rejected: string[];
  response: string;
}

export interface Mailer {
  send(mail: OutgoingMail): Promise<MailReceipt>;
  close(): void;
}

export function createMailer(config: MailConfig): Mailer {
  const timeout = config.timeoutMs ?? 10_000;
  const url = new URL(config.smtpUrl);
  if (url.protocol !== 'smtp:' && url.protocol !== 'smtps:') throw new Error(`SMTP_URL must be smtp:// or smtps:// (got ${url.protocol})`);
  // nodemailer is loaded and the pool made on the first message, not at start (issue 30: every
  // process loaded it while starting; only those that send mail need it, and only once they do).
  let made: Promise<Transporter> | undefined;
  const transport = () => (made ??= import('nodemailer').then(({ createTransport }) => createTransport({
    host: url.hostname,
    port: Number(url.port || (url.protocol === 'smtps:' ? 465 : 587)),
    secure: url.protocol === 'smtps:',
    ...(url.username ? { auth: { user: decodeURIComponent(url.username), pass: decodeURIComponent(url.password) } } : {}),
    connectionTimeout: timeout,
    greetingTimeout: timeout,
    socketTimeout: timeout,
    // Connections are kept and reused: opening one (greeting, EHLO) costs ~100 ms, a message on an
    // open one a few ms (docs/benchmarks.md, mail). A connection the server closed is opened again.
    pool: true,
    maxConnections: 2,
    maxMessages: 500,
  })));
  return {
    async send(mail) {
      const info = await (await transport()).sendMail({
        from: config.from,
        to: mail.to,
        subject: mail.subject,
        text: mail.text,
        html: mail.html,
        messageId: mail.messageId,
        attachments: (mail.attachments ?? []).map((a) => ({ filename: a.filename, content: a.content, contentType: a.contentType })),
      });
      const addresses = (list: unknown): string[] => (Array.isArray(list) ? list.map((a) => (typeof a === 'string' ? a : String((a as { address?: string }).address ?? a))) : []);
      return { messageId: info.messageId, accepted: addresses(info.accepted), rejected: addresses(info.rejected), response: String(info.response ?? '') };
    },
    close() {
      void made?.then((t) => t.close(), () => undefined);
    },
  };
}

/** A Message-ID for a message row: `<row id@host of the sender address>`. */
export function messageIdFor(rowId: string, from: string): string {
  const domain = /@([^>\s]+)/.exec(from)?.[1] ?? 'localhost';
  return `<${rowId}@${domain}>`;
}
