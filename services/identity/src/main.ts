import { runService } from '@dme/platform';
import { IdentityEnv } from './config';
import { createApp, migrations, SessionEntity, UserEntity } from './app';
import { purgeExpiredSessions } from './modules/sessions/session.service';
import { purgeExpiredThrottle } from './modules/auth/throttle';

await runService({
  name: 'identity',
  schema: 'identity',
  env: IdentityEnv,
  entities: [UserEntity, SessionEntity],
  migrations,
  createApp: ({ orm, config, logger, relay, nc }) => createApp({ orm, config, logger, nc, afterCommit: () => relay.kick() }),
  housekeeping: {
    everyMs: 10 * 60_000,
    run: async ({ orm, config }) => {
      const results = await Promise.allSettled([
        purgeExpiredSessions(orm.em.fork(), { idleMinutes: config.SESSION_IDLE_MINUTES, absoluteHours: config.SESSION_ABSOLUTE_HOURS }),
        // Sign-in throttle counters whose window ended.
        purgeExpiredThrottle(orm.em.fork()),
      ]);
      const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
      if (failed) throw failed.reason;
    },
  },
});
