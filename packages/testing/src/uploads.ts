import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLogger, type NatsConnection } from '@dme/platform';
// The real catalog answers "does this upload exist?" (no fake of our own services). packages/testing
// reaches the service through the workspace link without declaring it, which would make a cycle
// (every service depends on this package for its tests); services never import each other.
import { serveUploadsExist } from '@dme/catalog';

export interface UploadsFixture {
  /** The request/reply subject private to this run. */
  subject: string;
  dir: string;
  /** Stores an image as the catalog would and returns its path. */
  store: (data: Buffer, ext?: 'png' | 'jpg') => Promise<string>;
  close: () => Promise<void>;
}

/** The catalog's uploads-exist responder on a subject of its own, over a real NATS. */
export async function startUploads(nc: NatsConnection): Promise<UploadsFixture> {
  const dir = await mkdtemp(join(tmpdir(), 'uploads-'));
  const subject = `rpc.test.${randomUUID().slice(0, 8)}.uploads-exist`;
  const sub = serveUploadsExist({ nc, logger: createLogger('uploads-test', 'silent'), uploadDir: dir, subject });
  return {
    subject,
    dir,
    store: async (data, ext = 'png') => {
      const name = `${randomBytes(16).toString('hex')}.${ext}`;
      await writeFile(join(dir, name), data);
      return `/api/uploads/${name}`;
    },
    close: async () => {
      sub.unsubscribe();
      await rm(dir, { recursive: true, force: true });
    },
  };
}
