import { runService } from '@dme/platform';
import { CatalogEnv } from './config';
import { createApp, entities, migrations, serveReservations, serveUploadsExist } from './app';
import { expireHeld } from './modules/reservations/reservation.service';
import { startOrderConsumer } from './consumers/orders';

await runService({
  name: 'catalog',
  schema: 'catalog',
  env: CatalogEnv,
  entities,
  migrations,
  createApp: ({ orm, config, logger, relay, nc }) => {
    // Stock reservation at checkout: the one synchronous command (NATS request/reply).
    serveReservations({ nc, orm, logger });
    serveUploadsExist({ nc, logger, uploadDir: config.UPLOAD_DIR });
    return createApp({ orm, config, logger, nc, afterCommit: () => relay.kick() });
  },
  consumers: async ({ nc, orm, logger, background }) => [await startOrderConsumer({ nc, em: orm.em, logger, connections: background })],
  housekeeping: { everyMs: 60_000, run: async ({ orm }) => void (await expireHeld(orm.em.fork())) },
});
