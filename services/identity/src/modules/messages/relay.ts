import type { MikroORM } from '@mikro-orm/postgresql';
import { createMailer, MailRelay, type Logger } from '@dme/platform';
import type { IdentityConfig } from '../../config';

export interface RunningMailRelay {
  relay: MailRelay;
  /** Send now (after a commit that queued messages). */
  kick(): void;
  /** Stops the relay (a message being sent is finished) and closes the SMTP connections. */
  stop(): Promise<void>;
}

/**
 * The relay that sends the message outbox over SMTP_URL, or none without it: messages are then
 * queued and kept (listed for staff) until a relay is configured.
 */
export function identityMailRelay(opts: { orm: MikroORM; config: Pick<IdentityConfig, 'SMTP_URL' | 'MAIL_FROM'>; logger: Logger; intervalMs?: number }): RunningMailRelay | undefined {
  if (!opts.config.SMTP_URL) {
    opts.logger.warn('SMTP_URL is not set: e-mails are queued, not sent');
    return undefined;
  }
  const mailer = createMailer({ smtpUrl: opts.config.SMTP_URL, from: opts.config.MAIL_FROM });
  const relay = new MailRelay({ db: () => opts.orm.em.fork(), mailer, logger: opts.logger, ...(opts.intervalMs ? { intervalMs: opts.intervalMs } : {}) });
  relay.start();
  return {
    relay,
    kick: () => relay.kick(),
    stop: async () => {
      await relay.stop();
      mailer.close();
    },
  };
}
