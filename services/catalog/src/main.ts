import { runService } from '@dme/platform';
import { CatalogEnv } from './config';
import { catalogBlobStore, createApp, entities, migrations, moveUploadsIntoStore, serveReservations, serveUploadsExist } from './app';
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
    // Uploads live in the store BLOB_STORE names (PostgreSQL or S3), shared by every replica.
    const blobs = catalogBlobStore(orm, config);
    serveUploadsExist({ nc, logger, blobs });
    // Files stored before (an older installation's upload folder; with S3 also the database's
    // blobs table) are copied in; requests are served meanwhile.
    const store = config.BLOB_STORE === 's3' ? 'S3' : 'the database';
    moveUploadsIntoStore({ orm, config, blobs })
      .then((moved) => {
        if (!moved) logger.info('another catalog replica is copying stored uploads into the blob store');
        else logger.info({ ...moved, from: config.UPLOAD_DIR, store }, `uploads copied into ${store}: ${moved.fromDatabase} from the database, ${moved.fromFolder} from the folder`);
      })
      .catch((err: unknown) => logger.error({ err, store }, `copying stored uploads into ${store} failed (retried at the next start)`));
    return createApp({ orm, config, logger, nc, blobs, afterCommit: () => relay.kick() });
  },
  consumers: async ({ nc, orm, logger, background }) => [await startOrderConsumer({ nc, em: orm.em, logger, connections: background })],
  housekeeping: { everyMs: 60_000, run: async ({ orm }) => void (await expireHeld(orm.em.fork())) },
});
