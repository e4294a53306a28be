import { runService, startKeptCountFold } from '@dme/platform';
import { IdentityEnv } from './config';
import { createApp, migrations, SessionEntity, UserEntity } from './app';
import { purgeExpiredSessions } from './modules/sessions/session.service';
import { resolveRehearsal } from './modules/sessions/session.routes';
import { purgeExpiredThrottle } from './modules/auth/throttle';
import { purgeOldTokens } from './modules/accounts/tokens';
import { startNotificationConsumers } from './modules/messages/notify';
import { identityMailRelay, type RunningMailRelay } from './modules/messages/relay';
import { USER_COUNTS } from './modules/users/counts';

/** The mail relay (issue 24), when SMTP_URL names one; every replica runs one (claims are SKIP LOCKED). */
let mail: RunningMailRelay | undefined;
const kickMail = () => mail?.kick();

await runService({
  name: 'identity',
  schema: 'identity',
  env: IdentityEnv,
  entities: [UserEntity, SessionEntity],
  migrations,
  workers: ({ orm, config, logger }) => {
    mail = identityMailRelay({ orm, config, logger });
    const counts = startKeptCountFold({ em: orm.em, counts: USER_COUNTS, logger });
    return mail ? [mail, counts] : [counts];
  },
  // Order, payment and request events become messages to their customers.
  consumers: ({ nc, orm, logger, config }) => startNotificationConsumers({ nc, em: orm.em, logger, config, afterCommit: kickMail }),
  createApp: ({ orm, config, logger, relay, nc }) => createApp({ orm, config, logger, nc, afterCommit: () => relay.kick(), afterMail: kickMail }),
  // The session lookup every request makes after a gateway starts, with cookies of no session.
  rehearsal: ({ config }) => resolveRehearsal(config.INTERNAL_TOKEN),
  housekeeping: {
    everyMs: 10 * 60_000,
    run: async ({ orm, config }) => {
      const results = await Promise.allSettled([
        purgeExpiredSessions(orm.em.fork(), { idleMinutes: config.SESSION_IDLE_MINUTES, absoluteHours: config.SESSION_ABSOLUTE_HOURS }),
        // Sign-in throttle counters whose window ended.
        purgeExpiredThrottle(orm.em.fork()),
        // One-time links that ended more than a day ago.
        purgeOldTokens(orm.em.fork()),
      ]);
      const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
      if (failed) throw failed.reason;
    },
  },
});
