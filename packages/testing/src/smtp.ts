import type { AddressInfo } from 'node:net';
import type { Readable } from 'node:stream';
import { simpleParser } from 'mailparser';
import { SMTPServer, type SMTPServerOptions } from 'smtp-server';

/** A message as a local SMTP server received it, parsed back (mailparser). */
export interface ReceivedMail {
  /** The envelope's recipients (RCPT TO), what the relay was asked to deliver to. */
  envelopeTo: string[];
  from: string;
  to: string;
  subject: string;
  text: string;
  html: string;
  messageId: string;
  /** The Date header as ISO 8601 ('' when the message has none). */
  date: string;
  attachments: Array<{ filename: string; contentType: string; content: Buffer }>;
}

export interface SmtpRefusal {
  code: number;
  message: string;
}

/** Parses one message as smtp-server hands it over (the DATA stream) into a ReceivedMail. */
export async function parseReceivedMail(stream: Readable, envelopeTo: string[]): Promise<ReceivedMail> {
  const mail = await simpleParser(stream);
  const address = (a: unknown) => (a && typeof a === 'object' && 'text' in a ? String((a as { text: string }).text) : '');
  return {
    envelopeTo,
    from: address(mail.from),
    to: address(mail.to),
    subject: mail.subject ?? '',
    text: mail.text ?? '',
    html: typeof mail.html === 'string' ? mail.html : '',
    messageId: mail.messageId ?? '',
    date: mail.date && !Number.isNaN(mail.date.getTime()) ? mail.date.toISOString() : '',
    attachments: mail.attachments.map((a) => ({ filename: a.filename ?? '', contentType: a.contentType, content: a.content })),
  };
}

/** A local receiving server's settings: no TLS, any (or no) credentials, no reverse DNS. */
const LOCAL_SMTP_OPTIONS: SMTPServerOptions = {
  secure: false,
  authOptional: true,
  disabledCommands: ['STARTTLS'],
  // No reverse DNS of each client: a local catcher has nothing to learn from it, and it costs ~100 ms a connection.
  disableReverseLookup: true,
  logger: false,
  onAuth: (_auth, _session, cb) => cb(null, { user: 'test' }),
};

/**
 * A receiving SMTP server that accepts every message and keeps nothing but the count of messages
 * and bytes (the benchmarks' stand-in for a mail provider, whose own work is not this machine's:
 * parsing each message back, as the catcher does, cost about 0.7 ms of CPU a message).
 */
export function createSinkSmtp(onMessage: (bytes: number) => void): SMTPServer {
  const server = new SMTPServer({
    ...LOCAL_SMTP_OPTIONS,
    onData(stream, _session, cb) {
      let bytes = 0;
      stream.on('data', (chunk: Buffer) => {
        bytes += chunk.length;
      });
      stream.on('end', () => {
        onMessage(bytes);
        cb();
      });
    },
  });
  server.on('error', () => undefined);
  return server;
}

/**
 * A receiving SMTP server (smtp-server): every message is parsed (parseReceivedMail) and handed to
 * onMail, unless refusal() names an SMTP answer to refuse it with; it is told the message's
 * envelope recipients (RCPT TO), so it can refuse mail to one address only. No TLS, any (or no)
 * credentials accepted: for tests and the local mail catcher only.
 */
export function createReceivingSmtp(
  onMail: (mail: ReceivedMail) => void,
  refusal: (envelopeTo: string[]) => SmtpRefusal | null = () => null,
): SMTPServer {
  const server = new SMTPServer({
    ...LOCAL_SMTP_OPTIONS,
    onData(stream, session, cb) {
      const envelopeTo = session.envelope.rcptTo.map((r) => r.address);
      const refuse = refusal(envelopeTo);
      if (refuse) {
        stream.resume();
        const err = Object.assign(new Error(refuse.message), { responseCode: refuse.code });
        stream.on('end', () => cb(err));
        return;
      }
      parseReceivedMail(stream, envelopeTo)
        .then((mail) => {
          onMail(mail);
          cb();
        })
        .catch((err: Error) => cb(err));
    },
  });
  // smtp-server emits every client's socket error (a reset, a timeout) on the server: without a
  // listener that would crash the process hosting it.
  server.on('error', () => undefined);
  return server;
}

/** Listens on host:port (0: a free port); resolves with the port, rejects on EADDRINUSE and the like. */
export function listenSmtp(server: SMTPServer, port: number, host = '127.0.0.1'): Promise<number> {
  return new Promise<number>((resolve, reject) => {
    server.server.once('error', reject);
    server.listen(port, host, () => {
      server.server.off('error', reject);
      resolve((server.server.address() as AddressInfo).port);
    });
  });
}

export function closeSmtp(server: SMTPServer): Promise<void> {
  return new Promise<void>((resolve) => server.close(() => resolve()));
}

export interface TestSmtp {
  /** smtp://127.0.0.1:<port> for MailConfig.smtpUrl. */
  url: string;
  port: number;
  received: ReceivedMail[];
  /** Refuse every message with this SMTP answer (a relay in trouble), or accept again (null). */
  refuseWith(answer: SmtpRefusal | null): void;
  /** Stops listening (the relay is down); `start()` listens on the same port again. */
  stop(): Promise<void>;
  start(): Promise<void>;
}

/**
 * A real SMTP server (smtp-server) on a free local port for tests: every message is parsed back
 * (mailparser) into `received`. No TLS, any (or no) credentials accepted.
 */
export async function startTestSmtp(): Promise<TestSmtp> {
  const received: ReceivedMail[] = [];
  let refusal: SmtpRefusal | null = null;
  const make = () => createReceivingSmtp((mail) => received.push(mail), () => refusal);
  let server = make();
  const port = await listenSmtp(server, 0);
  return {
    url: `smtp://127.0.0.1:${port}`,
    port,
    received,
    refuseWith(answer) {
      refusal = answer;
    },
    stop: () => closeSmtp(server),
    async start() {
      server = make();
      await listenSmtp(server, port);
    },
  };
}
