import type { MikroORM } from '@mikro-orm/postgresql';
import { createHttpApp, mountRoutes, type Logger } from '@dme/platform';
import type { PaymentConfig } from './config';
import { paymentHandlers } from './modules/payments/payment.routes';

export interface PaymentDeps {
  orm: MikroORM;
  config: PaymentConfig;
  logger: Logger;
  /** Called after a transaction that recorded events committed (kicks the outbox relay). */
  afterCommit?: () => void;
}

/** The payment service's HTTP app (no listen: tests use it directly). */
export function createApp(deps: PaymentDeps) {
  const app = createHttpApp({ name: 'payment', logger: deps.logger });
  const afterCommit = deps.afterCommit ?? (() => undefined);
  app.use(async (ctx, next) => {
    ctx.state.em = deps.orm.em.fork();
    await next();
  });
  const api = mountRoutes('payment', paymentHandlers(afterCommit), deps.config.INTERNAL_TOKEN);
  app.use(api.routes()).use(api.allowedMethods());
  return app;
}

/** Tables are reached with SQL (payment.store.ts); the platform adds its outbox and inbox entities. */
export const entities = [];
export { migrations } from './migrations/0001_payment';
export { PaymentEnv } from './config';
export { startOrderConsumer, orderEventHandler, ORDER_CONSUMER } from './consumers/orders';
export { purgePaymentHousekeeping } from './housekeeping';
