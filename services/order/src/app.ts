import type { MikroORM } from '@mikro-orm/postgresql';
import { RPC } from '@dme/contracts';
import { createHttpApp, jsonLimitOf, mountRoutes, pgBlobStore, type Logger, type NatsConnection } from '@dme/platform';
import type { OrderConfig } from './config';
import { cartHandlers } from './modules/cart/cart.routes';
import { orderHandlers } from './modules/orders/order.routes';
import { checkoutStore } from './modules/checkout/checkout.store';
import { rentalHandlers } from './modules/rentals/rentals.routes';
import { handoverHandlers } from './modules/handovers/handovers.routes';

export interface OrderDeps {
  orm: MikroORM;
  config: OrderConfig;
  logger: Logger;
  /** NATS: stock reservation (checkout) and serial assignment (packing) in the catalog are request/reply. */
  nc: NatsConnection;
  /** The catalog's command subjects: reservation, packing, returns, availability (tests give each run its own). */
  rpcSubjects?: { reserve: string; release: string; assignSerials: string; checkSerial?: string; returnSerial?: string; availability?: string; extendBookings?: string; endBookingsEarly?: string };
  afterCommit?: () => void;
}

/** The order service's HTTP app (no listen: tests use it directly). */
export function createApp(deps: OrderDeps) {
  const app = createHttpApp({ name: 'order', logger: deps.logger, jsonLimit: jsonLimitOf('order') });
  const afterCommit = deps.afterCommit ?? (() => undefined);
  app.use(async (ctx, next) => {
    ctx.state.em = deps.orm.em.fork();
    await next();
  });
  const subjects = { ...RPC, ...deps.rpcSubjects };
  const process = { nc: deps.nc, subjects };
  const api = mountRoutes(
    'order',
    {
      ...cartHandlers({ nc: deps.nc, availability: subjects.availability }),
      ...orderHandlers(checkoutStore(deps.orm.em), process, afterCommit),
      ...handoverHandlers({ process, blobs: pgBlobStore(deps.orm.em, 'handover_blobs') }, afterCommit),
      ...rentalHandlers({ process, returns: { nc: deps.nc, subjects: { returnSerial: subjects.returnSerial } }, extend: { nc: deps.nc, subjects: { extendBookings: subjects.extendBookings, endBookingsEarly: subjects.endBookingsEarly } } }, afterCommit),
    },
    deps.config.INTERNAL_TOKEN,
  );
  app.use(api.routes()).use(api.allowedMethods());
  return app;
}

export const entities = [];
export { migrations } from './migrations/0001_ordering';
export { OrderEnv } from './config';
export { startReadModelConsumers } from './consumers/readmodels';
export { startPaymentConsumer } from './consumers/payments';
export { ORDER_COUNTS, ORDER_PAYMENT_COUNTS } from './modules/orders/counts';
