import { createOrm, migrate, OutboxRelay, type Logger, type NatsConnection, type Orm, type RunningConsumer } from '@dme/platform';
// The real catalog (no fake of our own services), reached through the workspace link without a
// declared dependency: declaring it would make a cycle (every service depends on this package
// for its tests). Services never import each other, not even in tests (DESIGN §3, oxlint).
import { CatalogEnv, createApp, entities, migrations, serveReservations, startOrderConsumer } from '@dme/catalog';
import { listen, TEST_INTERNAL_TOKEN, type TestServer } from './index';

export interface CatalogFixture {
  orm: Orm;
  server: TestServer;
  close: () => Promise<void>;
}

/**
 * The catalog service booted in-process for another service's tests: its own schema of the given
 * database, its outbox relay, its stock commands (reserve, release, assign serials) on the given
 * (private) subjects and its consumer of order events under a private durable name. Without an
 * assignSerials subject, packing is served on `<reserve>.assign-serials`, private like the others.
 */
export async function startCatalogService(opts: {
  databaseUrl: string;
  nc: NatsConnection;
  logger: Logger;
  uploadDir: string;
  subjects: { reserve: string; release: string; assignSerials?: string; checkSerial?: string; returnSerial?: string; availability?: string; extendBookings?: string };
  durable: string;
}): Promise<CatalogFixture> {
  const orm = await createOrm({ url: opts.databaseUrl, schema: 'catalog', entities, migrations, poolMax: 20 });
  await migrate(orm, 'catalog', opts.databaseUrl);
  const relay = new OutboxRelay({ em: orm.em, nc: opts.nc, logger: opts.logger, intervalMs: 50 });
  relay.start();
  const subjects = {
    ...opts.subjects,
    assignSerials: opts.subjects.assignSerials ?? `${opts.subjects.reserve}.assign-serials`,
    checkSerial: opts.subjects.checkSerial ?? `${opts.subjects.reserve}.check-serial`,
    returnSerial: opts.subjects.returnSerial ?? `${opts.subjects.reserve}.return-serial`,
    availability: opts.subjects.availability ?? `${opts.subjects.reserve}.availability`,
    extendBookings: opts.subjects.extendBookings ?? `${opts.subjects.reserve}.extend-bookings`,
  };
  const subs = serveReservations({ nc: opts.nc, orm, logger: opts.logger, subjects });
  const consumer: RunningConsumer = await startOrderConsumer({ nc: opts.nc, em: orm.em, logger: opts.logger, durable: opts.durable });
  const server = await listen(
    createApp({
      orm,
      logger: opts.logger,
      config: CatalogEnv.parse({ DATABASE_URL: opts.databaseUrl, INTERNAL_TOKEN: TEST_INTERNAL_TOKEN, UPLOAD_DIR: opts.uploadDir }),
      afterCommit: () => relay.kick(),
    }),
  );
  return {
    orm,
    server,
    close: async () => {
      for (const s of subs) s.unsubscribe();
      await consumer.stop();
      await relay.stop();
      await server.close();
      await orm.close();
    },
  };
}
