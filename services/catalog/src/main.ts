import { pgBlobStore, runService } from '@dme/platform';
import { CatalogEnv } from './config';
import { createApp, entities, importUploadDir, migrations, serveReservations, serveUploadsExist } from './app';
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
    const blobs = pgBlobStore(orm.em);
    serveUploadsExist({ nc, logger, blobs });
    // Uploads live in the database; files of an older installation's upload folder are copied in.
    importUploadDir(blobs, config.UPLOAD_DIR)
      .then((n) => n > 0 && logger.info({ copied: n, from: config.UPLOAD_DIR }, 'uploads copied into the database'))
      .catch((err: unknown) => logger.error({ err }, 'copying the upload folder into the database failed'));
    return createApp({ orm, config, logger, nc, afterCommit: () => relay.kick() });
  },
  consumers: async ({ nc, orm, logger, background }) => [await startOrderConsumer({ nc, em: orm.em, logger, connections: background })],
  housekeeping: { everyMs: 60_000, run: async ({ orm }) => void (await expireHeld(orm.em.fork())) },
});
