import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger, createOrm, IDENTITY_HEADERS, migrate, pgBlobStore, type Orm } from '@dme/platform';
import { S3RVER_CREDENTIALS, startTestS3, type TestS3 } from '@dme/testing/s3';
import { createTestDatabase, freePort, listen, TEST_INTERNAL_TOKEN, TINY_JPEG, TINY_PNG, type Json, type TestServer } from '@dme/testing';
import { CatalogEnv, type CatalogConfig } from '../../config';
import { catalogBlobStore, createApp, entities, migrations, moveUploadsIntoStore } from '../../app';

const BUCKET = 'catalog-uploads';
const logger = createLogger('catalog-s3-test', 'silent');

let db: Awaited<ReturnType<typeof createTestDatabase>>;
let orm: Orm;
/** A second catalog replica: its own pool on the same database. */
let otherOrm: Orm;
let s3: TestS3;
let uploadDir: string;
let config: CatalogConfig;
let server: TestServer;
let replica: TestServer;
/** Keys of every object written to S3, in order. */
let puts: string[];

const s3Env = (endpoint: string, prefix: string) => ({
  BLOB_STORE: 's3',
  S3_BUCKET: BUCKET,
  S3_ENDPOINT: endpoint,
  S3_FORCE_PATH_STYLE: 'true',
  S3_PREFIX: prefix,
  S3_ACCESS_KEY_ID: S3RVER_CREDENTIALS.accessKeyId,
  S3_SECRET_ACCESS_KEY: S3RVER_CREDENTIALS.secretAccessKey,
});

const rowsInDatabase = async () => (await orm.em.fork().getConnection().execute<Array<{ n: number }>>('select count(*)::int as n from catalog.blobs'))[0]!.n;

beforeAll(async () => {
  db = await createTestDatabase('catalog_media_s3');
  uploadDir = await mkdtemp(join(tmpdir(), 'uploads-s3-'));
  s3 = await startTestS3(BUCKET);
  puts = s3.puts;
  config = CatalogEnv.parse({ DATABASE_URL: db.url, INTERNAL_TOKEN: TEST_INTERNAL_TOKEN, UPLOAD_DIR: uploadDir, ...s3Env(s3.endpoint, 'uploads') });
  orm = await createOrm({ url: db.url, schema: 'catalog', entities, migrations });
  await migrate(orm, 'catalog', db.url);
  otherOrm = await createOrm({ url: db.url, schema: 'catalog', entities, migrations });
  // Two catalog replicas, each with its own S3 client made from the configuration.
  server = await listen(createApp({ orm, config, logger }));
  replica = await listen(createApp({ orm: otherOrm, config, logger }));
});

afterAll(async () => {
  await replica?.close();
  await server?.close();
  await otherOrm?.close();
  await orm?.close();
  await s3?.stop();
  await db?.drop();
  if (uploadDir) await rm(uploadDir, { recursive: true, force: true });
});

const headers = { [IDENTITY_HEADERS.internalToken]: TEST_INTERNAL_TOKEN };

async function upload(baseUrl: string, data: Buffer) {
  const form = new FormData();
  form.append('image', new Blob([new Uint8Array(data)], { type: 'image/png' }), 'me.png');
  const res = await fetch(`${baseUrl}/api/uploads`, { method: 'POST', body: form, headers });
  return { status: res.status, type: res.headers.get('content-type'), body: (await res.json()) as Record<string, Json> };
}

describe('uploads in S3 across catalog replicas (BLOB_STORE=s3)', () => {
  it('an upload made through one replica is stored in S3, not in the database, and served by the other byte for byte', async () => {
    const res = await upload(server.url, TINY_PNG);
    expect(res.status).toBe(201);
    const path = res.body.imagePath as string;
    expect(path).toMatch(/^\/api\/uploads\/[0-9a-f]{32}\.png$/);
    expect(puts).toContain(`uploads/${path.slice('/api/uploads/'.length)}`);
    expect(await rowsInDatabase()).toBe(0);
    const back = await fetch(`${replica.url}${path}`, { headers });
    expect(back.status).toBe(200);
    expect(back.headers.get('content-type')).toBe('image/png');
    expect(back.headers.get('content-length')).toBe(String(TINY_PNG.length));
    expect(back.headers.get('cache-control')).toContain('immutable');
    expect(Buffer.from(await back.arrayBuffer()).equals(TINY_PNG)).toBe(true);
  });

  it('unknown and malformed names are 404 through S3 too', async () => {
    for (const name of [`${'0'.repeat(32)}.png`, '..%2F..%2Fetc%2Fpasswd', 'x.png']) {
      expect((await fetch(`${replica.url}/api/uploads/${name}`, { headers })).status).toBe(404);
    }
  });
});

describe('moving stored uploads into S3 at start', () => {
  it('copies the database rows and the old folder\'s files into S3 exactly once, even with two replicas starting at once', async () => {
    const pg = pgBlobStore(orm.em);
    const rows = Array.from({ length: 5 }, (_, i) => ({ name: `${randomBytes(16).toString('hex')}.${i % 2 ? 'jpg' : 'png'}`, type: i % 2 ? 'image/jpeg' : 'image/png', data: Buffer.concat([i % 2 ? TINY_JPEG : TINY_PNG, Buffer.from([i])]) }));
    for (const r of rows) await pg.put(r.name, r.type, r.data);
    const files = [`${'b2'.repeat(16)}.jpg`, `${'c3'.repeat(16)}.png`];
    await writeFile(join(uploadDir, files[0]!), TINY_JPEG);
    await writeFile(join(uploadDir, files[1]!), TINY_PNG);
    await writeFile(join(uploadDir, 'notes.txt'), 'not an upload');
    const expected = [...rows.map((r) => r.name), ...files].map((n) => `uploads/${n}`);

    const blobsA = catalogBlobStore(orm, config);
    const blobsB = catalogBlobStore(otherOrm, config);
    const runs = await Promise.all([moveUploadsIntoStore({ orm, config, blobs: blobsA }), moveUploadsIntoStore({ orm: otherOrm, config, blobs: blobsB })]);
    const done = runs.filter((r) => r !== undefined);
    expect(done.reduce((n, r) => n + r.fromDatabase, 0)).toBe(5);
    expect(done.reduce((n, r) => n + r.fromFolder, 0)).toBe(2);
    // Each file was written to S3 once.
    for (const key of expected) expect(puts.filter((k) => k === key)).toHaveLength(1);

    // Again at the next start: nothing to copy, nothing written.
    const before = puts.length;
    expect(await moveUploadsIntoStore({ orm, config, blobs: blobsA })).toEqual({ fromDatabase: 0, fromFolder: 0 });
    expect(puts.length).toBe(before);
    // The rows stay in PostgreSQL (the way back to BLOB_STORE=postgres).
    expect(await rowsInDatabase()).toBe(5);

    for (const r of rows) {
      const res = await fetch(`${replica.url}/api/uploads/${r.name}`, { headers });
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe(r.type);
      expect(Buffer.from(await res.arrayBuffer()).equals(r.data)).toBe(true);
    }
    const res = await fetch(`${server.url}/api/uploads/${files[0]}`, { headers });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/jpeg');
  });
});

describe('when S3 cannot be reached', () => {
  it('image requests get a problem+json 503 and the service keeps answering', async () => {
    const down = await startTestS3(BUCKET);
    const downConfig = CatalogEnv.parse({ DATABASE_URL: db.url, INTERNAL_TOKEN: TEST_INTERNAL_TOKEN, UPLOAD_DIR: uploadDir, ...s3Env(down.endpoint, 'uploads') });
    const app = await listen(createApp({ orm, config: downConfig, logger }));
    try {
      const stored = await upload(app.url, TINY_PNG);
      expect(stored.status).toBe(201);
      await down.stop();
      for (let i = 0; i < 3; i++) {
        const get = await fetch(`${app.url}${stored.body.imagePath as string}`, { headers });
        expect(get.status).toBe(503);
        expect(get.headers.get('content-type')).toContain('application/problem+json');
        expect(get.headers.get('retry-after')).toBe('5');
        expect(((await get.json()) as Record<string, Json>).detail).toBe('Stored files cannot be reached right now. Please try again.');
        const post = await upload(app.url, TINY_PNG);
        expect(post.status).toBe(503);
        expect(post.type).toContain('application/problem+json');
      }
      // Requests that need no S3 are still answered by the same process.
      expect((await fetch(`${app.url}/api/uploads/x.png`, { headers })).status).toBe(404);
      expect((await fetch(`${app.url}/api/products`, { headers })).status).toBe(200);
    } finally {
      await app.close();
      await down.stop();
    }
  });
});

describe('blob store configuration of the catalog', () => {
  it('BLOB_STORE=s3 without a bucket stops the catalog at start with one clear line', async () => {
    const main = join(dirname(fileURLToPath(import.meta.url)), '../../main.ts');
    const port = await freePort();
    const { code, stderr } = await new Promise<{ code: number | null; stderr: string }>((resolve, reject) => {
      const child = spawn(process.execPath, ['--import', 'tsx', main], {
        cwd: join(dirname(main), '..'),
        env: { PATH: process.env.PATH, DATABASE_URL: db.url, INTERNAL_TOKEN: TEST_INTERNAL_TOKEN, BLOB_STORE: 's3', PORT: String(port) },
        stdio: ['ignore', 'ignore', 'pipe'],
      });
      // A catalog that starts anyway must not outlive the test (it fails on the exit code then).
      const guard = setTimeout(() => child.kill('SIGKILL'), 20_000);
      let err = '';
      child.stderr.on('data', (c: Buffer) => (err += c.toString()));
      child.on('error', reject);
      child.on('close', (c) => {
        clearTimeout(guard);
        resolve({ code: c, stderr: err });
      });
    });
    expect(code).toBe(1);
    expect(stderr.trim().split('\n')).toEqual(['Configuration error: S3_BUCKET: is required when BLOB_STORE=s3']);
  });

  it('PostgreSQL is the default, and a bad value names its variable', () => {
    expect(CatalogEnv.parse({ DATABASE_URL: db.url, INTERNAL_TOKEN: TEST_INTERNAL_TOKEN }).BLOB_STORE).toBe('postgres');
    const res = CatalogEnv.safeParse({ DATABASE_URL: db.url, INTERNAL_TOKEN: TEST_INTERNAL_TOKEN, BLOB_STORE: 's3', S3_BUCKET: 'b', S3_SECRET_ACCESS_KEY: 'x' });
    expect(res.success).toBe(false);
    expect(res.error!.issues.map((i) => i.path[0])).toEqual(['S3_ACCESS_KEY_ID']);
  });
});
