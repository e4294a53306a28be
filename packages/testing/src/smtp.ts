import type { AddressInfo } from 'node:net';
import { simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';

/** A message as the test SMTP server received it, parsed back (mailparser). */
export interface ReceivedMail {
  /** The envelope's recipients (RCPT TO), what the relay was asked to deliver to. */
  envelopeTo: string[];
  from: string;
  to: string;
  subject: string;
  text: string;
  html: string;
  messageId: string;
  attachments: Array<{ filename: string; contentType: string; content: Buffer }>;
}

export interface TestSmtp {
  /** smtp://127.0.0.1:<port> for MailConfig.smtpUrl. */
  url: string;
  port: number;
  received: ReceivedMail[];
  /** Refuse every message with this SMTP answer (a relay in trouble), or accept again (null). */
  refuseWith(answer: { code: number; message: string } | null): void;
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
  let refusal: { code: number; message: string } | null = null;
  const make = () =>
    new SMTPServer({
      secure: false,
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      logger: false,
      onAuth: (_auth, _session, cb) => cb(null, { user: 'test' }),
      onData(stream, session, cb) {
        if (refusal) {
          stream.resume();
          const err = Object.assign(new Error(refusal.message), { responseCode: refusal.code });
          stream.on('end', () => cb(err));
          return;
        }
        simpleParser(stream)
          .then((mail) => {
            const address = (a: unknown) => (a && typeof a === 'object' && 'text' in a ? String((a as { text: string }).text) : '');
            received.push({
              envelopeTo: session.envelope.rcptTo.map((r) => r.address),
              from: address(mail.from),
              to: address(mail.to),
              subject: mail.subject ?? '',
              text: mail.text ?? '',
              html: typeof mail.html === 'string' ? mail.html : '',
              messageId: mail.messageId ?? '',
              attachments: mail.attachments.map((a) => ({ filename: a.filename ?? '', contentType: a.contentType, content: a.content })),
            });
            cb();
          })
          .catch((err: Error) => cb(err));
      },
    });
  let server = make();
  const listen = (port: number) =>
    new Promise<number>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => resolve((server.server.address() as AddressInfo).port));
    });
  const port = await listen(0);
  return {
    url: `smtp://127.0.0.1:${port}`,
    port,
    received,
    refuseWith(answer) {
      refusal = answer;
    },
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
    async start() {
      server = make();
      await listen(port);
    },
  };
}
