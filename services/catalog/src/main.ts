import { ReserveRequest, RPC } from '@dme/contracts';
import { runService, serveRpc } from '@dme/platform';
import { z } from 'zod';
import { CatalogEnv } from './config';
import { createApp, entities, migrations, serveUploadsExist } from './app';
import { expireHeld, release, reserve } from './modules/reservations/reservation.service';
import { startOrderConsumer } from './consumers/orders';

await runService({
  name: 'catalog',
  schema: 'catalog',
  env: CatalogEnv,
  entities,
  migrations,
  createApp: ({ orm, config, logger, relay, nc }) => {
    // Stock reservation at checkout: the one synchronous command (NATS request/reply).
    serveRpc({ nc, subject: RPC.reserve, queue: 'catalog', schema: ReserveRequest, logger, handle: (input) => reserve(orm.em.fork(), input) });
    serveRpc({
      nc,
      subject: RPC.release,
      queue: 'catalog',
      schema: z.object({ orderId: z.string().uuid() }),
      logger,
      handle: async ({ orderId }) => ({ released: await release(orm.em.fork(), orderId) }),
    });
    serveUploadsExist({ nc, logger, uploadDir: config.UPLOAD_DIR });
    return createApp({ orm, config, logger, afterCommit: () => relay.kick() });
  },
  consumers: async ({ nc, orm, logger }) => [await startOrderConsumer({ nc, em: orm.em, logger })],
  housekeeping: { everyMs: 60_000, run: async ({ orm }) => void (await expireHeld(orm.em.fork())) },
});
