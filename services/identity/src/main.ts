import { runService } from '@dme/platform';
import { IdentityEnv } from './config';
import { createApp, migrations, SessionEntity, UserEntity } from './app';
import { purgeExpiredSessions } from './modules/sessions/session.service';

await runService({
  name: 'identity',
  schema: 'identity',
  env: IdentityEnv,
  entities: [UserEntity, SessionEntity],
  migrations,
  createApp: ({ orm, config, logger, relay }) => createApp({ orm, config, logger, afterCommit: () => relay.kick() }),
  housekeeping: {
    everyMs: 10 * 60_000,
    run: async ({ orm, config }) => {
      await purgeExpiredSessions(orm.em.fork(), { idleMinutes: config.SESSION_IDLE_MINUTES, absoluteHours: config.SESSION_ABSOLUTE_HOURS });
    },
  },
});
