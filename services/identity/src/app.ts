import type { MikroORM } from '@mikro-orm/postgresql';
import { addressLimit, createHttpApp, mountRoutes, type Logger, type NatsConnection } from '@dme/platform';
import type { IdentityConfig } from './config';
import { authHandlers } from './modules/auth/auth.routes';
import { userHandlers } from './modules/users/user.routes';
import { internalSessionRouter } from './modules/sessions/session.routes';
import { accountHandlers } from './modules/accounts/accounts.routes';
import { messageHandlers } from './modules/messages/admin.routes';

export interface IdentityDeps {
  orm: MikroORM;
  config: IdentityConfig;
  logger: Logger;
  /** Called after a transaction that recorded events committed (kicks the outbox relay). */
  afterCommit?: () => void;
  /**
   * NATS, for asking the catalog whether an uploaded image exists (request/reply) and for
   * announcing ended sessions to the gateways (SESSION_REVOKED_SUBJECT).
   */
  nc: NatsConnection;
  /** That request's subject (default UPLOAD_RPC.exist; tests use a private one). */
  uploadsSubject?: string;
  /** Called after a transaction that queued messages committed (kicks the mail relay). */
  afterMail?: () => void;
}

/** The identity service's HTTP app (no listen: tests use it directly). */
export function createApp(deps: IdentityDeps) {
  const app = createHttpApp({ name: 'identity', logger: deps.logger });
  const afterCommit = deps.afterCommit ?? (() => undefined);
  const afterMail = deps.afterMail ?? (() => undefined);
  app.use(async (ctx, next) => {
    ctx.state.em = deps.orm.em.fork();
    await next();
  });
  const policy = { idleMinutes: deps.config.SESSION_IDLE_MINUTES, absoluteHours: deps.config.SESSION_ABSOLUTE_HOURS };
  const api = mountRoutes(
    'identity',
    {
      ...authHandlers({ config: deps.config, logger: deps.logger, afterCommit, nc: deps.nc, uploadsSubject: deps.uploadsSubject, afterMail }),
      ...accountHandlers({ config: deps.config, logger: deps.logger, nc: deps.nc, afterMail }),
      ...userHandlers({ afterCommit, nc: deps.nc, uploadsSubject: deps.uploadsSubject, logger: deps.logger, account: deps.config, afterMail }),
      ...messageHandlers({ afterMail }),
    },
    deps.config.INTERNAL_TOKEN,
    // Registration and the account links, per address, shared by every replica (migration 0005).
    { limits: { register: addressLimit(deps.orm.em, { name: 'register', max: deps.config.REGISTER_MAX_PER_IP, windowSeconds: 3600 }) } },
  );
  const internal = internalSessionRouter(deps.config.INTERNAL_TOKEN, policy);
  app.use(api.routes()).use(api.allowedMethods());
  app.use(internal.routes());
  return app;
}

export { migrations } from './migrations/0001_identity';
export { UserEntity } from './modules/users/user.entity';
export { SessionEntity } from './modules/sessions/session.entity';
export { IdentityEnv } from './config';
export { createEmployee } from './modules/users/user.service';
export { purgeExpiredThrottle } from './modules/auth/throttle';
export { startNotificationConsumers, notificationHandler } from './modules/messages/notify';
export { identityMailRelay, type RunningMailRelay } from './modules/messages/relay';
export { USER_COUNTS } from './modules/users/counts';
