import { randomBytes, randomUUID } from 'node:crypto';
import { createLogger, createOrm, migrate, pgBlobStore, type NatsConnection } from '@dme/platform';
// The real catalog answers "does this upload exist?" over its real store (no fake of our own
// services). packages/testing reaches the service through the workspace link without declaring
// it, which would make a cycle (every service depends on this package for its tests); services
// never import each other.
import { entities, migrations, serveUploadsExist } from '@dme/catalog';
import { createTestDatabase } from './index';

export interface UploadsFixture {
  /** The request/reply subject private to this run. */
  subject: string;
  /** Stores an image as the catalog would and returns its path. */
  store: (data: Buffer, ext?: 'png' | 'jpg') => Promise<string>;
  close: () => Promise<void>;
}

/** The catalog's uploads-exist responder on a subject of its own, over a real NATS and a catalog schema of its own. */
export async function startUploads(nc: NatsConnection): Promise<UploadsFixture> {
  const db = await createTestDatabase('uploads');
  const orm = await createOrm({ url: db.url, schema: 'catalog', entities, migrations, poolMax: 2 });
  await migrate(orm, 'catalog', db.url);
  const blobs = pgBlobStore(orm.em);
  const subject = `rpc.test.${randomUUID().slice(0, 8)}.uploads-exist`;
  const sub = serveUploadsExist({ nc, logger: createLogger('uploads-test', 'silent'), blobs, subject });
  return {
    subject,
    store: async (data, ext = 'png') => {
      const name = `${randomBytes(16).toString('hex')}.${ext}`;
      await blobs.put(name, ext === 'png' ? 'image/png' : 'image/jpeg', data);
      return `/api/uploads/${name}`;
    },
    close: async () => {
      sub.unsubscribe();
      await orm.close();
      await db.drop();
    },
  };
}
