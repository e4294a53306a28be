import { randomBytes } from 'node:crypto';
import { GetObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from '@dme/testing';
import { S3RVER_CREDENTIALS, startTestS3, type TestS3 } from '@dme/testing/s3';
import { blobTableSql, pgBlobStore, type BlobStore } from './blobs';
import { BlobStoreEnv, BlobStoreUnavailable, blobStoreFromEnv, copyPgBlobs, isSafeBlobName, normalizeBlobPrefix, s3BlobStore, type S3BlobStore } from './blobs-s3';
import { ConfigError, parseConfig } from './config';
import { createOrm, migrate, type Orm } from './db';

const SCHEMA = 'blobs_test';
const BUCKET = 'shop-uploads';
const CREDENTIALS = S3RVER_CREDENTIALS;

let db: Awaited<ReturnType<typeof createTestDatabase>>;
let orm: Orm;
let s3: TestS3;
let endpoint: string;
let puts: string[];
const stores: S3BlobStore[] = [];

function s3Store(prefix = `t${randomBytes(4).toString('hex')}`, at = endpoint): S3BlobStore {
  const store = s3BlobStore({ endpoint: at, region: 'us-east-1', bucket: BUCKET, prefix, credentials: CREDENTIALS, forcePathStyle: true });
  stores.push(store);
  return store;
}

const sql = <T = unknown>(q: string, params: unknown[] = []) => orm.em.fork().execute<T[]>(q, params);

beforeAll(async () => {
  db = await createTestDatabase('blobs');
  orm = await createOrm({ url: db.url, schema: SCHEMA, entities: [], migrations: [] });
  await migrate(orm, SCHEMA, db.url);
  // The same table a service's migration creates (catalog 0007_uploads).
  await sql(blobTableSql(SCHEMA));
  s3 = await startTestS3(BUCKET);
  ({ endpoint, puts } = s3);
});

afterAll(async () => {
  for (const s of stores) s.close();
  await s3?.stop();
  await orm?.close();
  await db?.drop();
});

const hexName = (ext = 'png') => `${randomBytes(16).toString('hex')}.${ext}`;

/** The BlobStore contract: what every driver must do the same way. */
function behavesAsBlobStore(driver: string, make: () => BlobStore) {
  describe(`the ${driver} blob store`, () => {
    it('gives back the bytes, content type and a creation time of what was put', async () => {
      const store = make();
      const name = hexName();
      const data = randomBytes(3000);
      await store.put(name, 'image/png', data);
      const blob = await store.get(name);
      expect(blob).toBeDefined();
      expect(blob!.data.equals(data)).toBe(true);
      expect(blob!.data.length).toBe(3000);
      expect(blob!.contentType).toBe('image/png');
      expect(blob!.createdAt).toBeInstanceOf(Date);
      expect(Number.isNaN(blob!.createdAt.getTime())).toBe(false);
    });

    it('keeps every byte value and larger files (1 MiB) exactly', async () => {
      const store = make();
      const name = hexName('jpg');
      const data = Buffer.concat([Buffer.from(Array.from({ length: 256 }, (_, i) => i)), randomBytes(1024 * 1024)]);
      await store.put(name, 'image/jpeg', data);
      const blob = await store.get(name);
      expect(blob!.data.equals(data)).toBe(true);
      expect(blob!.contentType).toBe('image/jpeg');
    });

    it('a name keeps its first content: a second put of it changes nothing', async () => {
      const store = make();
      const name = hexName();
      await store.put(name, 'image/png', Buffer.from('first'));
      await store.put(name, 'image/jpeg', Buffer.from('second, longer'));
      const blob = await store.get(name);
      expect(blob!.data.toString()).toBe('first');
      expect(blob!.contentType).toBe('image/png');
    });

    it('an unknown name is not found (no error), whatever its shape', async () => {
      const store = make();
      for (const name of [hexName(), '../../etc/passwd', '..', 'a/b.png', '', '%2e%2e']) expect(await store.get(name)).toBeUndefined();
    });

    it('missing() names exactly the names not stored, in the order asked', async () => {
      const store = make();
      const a = hexName();
      const b = hexName();
      const c = hexName();
      await store.put(a, 'image/png', Buffer.from('a'));
      await store.put(c, 'image/png', Buffer.from('c'));
      expect(await store.missing([])).toEqual([]);
      expect(await store.missing([b, a, '../x', c, b])).toEqual([b, '../x', b]);
      expect(await store.missing([a, c])).toEqual([]);
    });

    it('missing() answers for many names at once', async () => {
      const store = make();
      const stored = Array.from({ length: 30 }, () => hexName());
      for (const n of stored) await store.put(n, 'image/png', Buffer.from(n));
      const absent = Array.from({ length: 30 }, () => hexName());
      expect(await store.missing([...absent, ...stored].sort())).toEqual([...absent].sort());
    });
  });
}

behavesAsBlobStore('postgres', () => pgBlobStore(orm.em));
behavesAsBlobStore('s3', () => s3Store());

describe('the S3 blob store', () => {
  it('stores under its prefix, and stores with other prefixes in the bucket do not see its files', async () => {
    const a = s3Store('shop/uploads');
    const b = s3Store('other/');
    const name = hexName();
    await a.put(name, 'image/png', Buffer.from('x'));
    expect(puts).toContain(`shop/uploads/${name}`);
    const raw = new S3Client({ endpoint, region: 'us-east-1', credentials: CREDENTIALS, forcePathStyle: true, requestChecksumCalculation: 'WHEN_REQUIRED', responseChecksumValidation: 'WHEN_REQUIRED' });
    try {
      const obj = await raw.send(new GetObjectCommand({ Bucket: BUCKET, Key: `shop/uploads/${name}` }));
      expect(obj.ContentType).toBe('image/png');
      expect(await obj.Body!.transformToString()).toBe('x');
    } finally {
      raw.destroy();
    }
    expect(await b.get(name)).toBeUndefined();
    expect(await b.missing([name])).toEqual([name]);
  });

  it('a second put of a stored name sends nothing to S3', async () => {
    const store = s3Store('once');
    const name = hexName();
    await store.put(name, 'image/png', Buffer.from('1'));
    await store.put(name, 'image/png', Buffer.from('1'));
    expect(puts.filter((k) => k === `once/${name}`)).toHaveLength(1);
  });

  it('refuses to write a name that is not one safe key segment (no path traversal)', async () => {
    const store = s3Store('safe');
    for (const name of ['../escape.png', 'a/b.png', '..', '.hidden', '', 'x'.repeat(201)]) {
      await expect(store.put(name, 'image/png', Buffer.from('x'))).rejects.toThrow(/unsafe blob name/);
    }
    expect(puts.filter((k) => k.startsWith('safe/') || k.includes('escape'))).toEqual([]);
  });

  it('checks names and prefixes', () => {
    expect(isSafeBlobName(`${'a'.repeat(32)}.png`)).toBe(true);
    expect(isSafeBlobName('a..b')).toBe(false);
    expect(normalizeBlobPrefix('')).toBe('');
    expect(normalizeBlobPrefix('/')).toBe('');
    expect(normalizeBlobPrefix('uploads')).toBe('uploads/');
    expect(normalizeBlobPrefix('/shop/uploads/')).toBe('shop/uploads/');
    for (const bad of ['../x', 'a/../b', 'a//b', 'a b', './x']) expect(normalizeBlobPrefix(bad)).toBeUndefined();
    expect(() => s3BlobStore({ bucket: BUCKET, prefix: '../x', endpoint })).toThrow(/unsafe key prefix/);
  });

  it('a store that cannot be reached fails each call with a 503 problem', async () => {
    const other = await startTestS3(BUCKET);
    const store = s3Store('down', other.endpoint);
    const name = hexName();
    await store.put(name, 'image/png', Buffer.from('before'));
    await other.stop();
    try {
      for (const call of [() => store.get(name), () => store.missing([name]), () => store.put(hexName(), 'image/png', Buffer.from('x'))]) {
        const err = await call().then(
          () => undefined,
          (e: unknown) => e,
        );
        expect(err).toBeInstanceOf(BlobStoreUnavailable);
        expect((err as BlobStoreUnavailable).status).toBe(503);
        expect((err as BlobStoreUnavailable).reason).toMatch(/ECONNREFUSED/);
      }
    } finally {
      await other.stop();
    }
  });

  it('a bucket that does not exist is a 503 problem on read, not a missing file', async () => {
    const store = s3BlobStore({ endpoint, bucket: 'no-such-bucket', credentials: CREDENTIALS, forcePathStyle: true });
    stores.push(store);
    const err = await store.get(hexName()).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(BlobStoreUnavailable);
    expect((err as BlobStoreUnavailable).reason).toMatch(/NoSuchBucket/);
  });
});

describe('copying a PostgreSQL blobs table into S3', () => {
  it('copies each row missing in S3 once, a page at a time, and keeps the rows', async () => {
    await sql(`delete from "${SCHEMA}"."blobs"`);
    const pg = pgBlobStore(orm.em);
    const names = Array.from({ length: 7 }, (_, i) => hexName(i % 2 ? 'png' : 'jpg'));
    for (const [i, n] of names.entries()) await pg.put(n, i % 2 ? 'image/png' : 'image/jpeg', randomBytes(100 + i));
    // A row with a name no object store should hold is left alone.
    await sql(`insert into "${SCHEMA}"."blobs" (name, content_type, size, data) values ('../evil.png', 'image/png', 1, '\\x00')`);
    const target = s3Store('migrated');
    await target.put(names[3]!, 'image/png', Buffer.from('already there'));
    const before = puts.length;
    expect(await copyPgBlobs(orm.em, target, { pageSize: 3 })).toBe(6);
    expect(puts.length - before).toBe(6);
    expect(await copyPgBlobs(orm.em, target, { pageSize: 3 })).toBe(0);
    expect(puts.length - before).toBe(6);
    for (const [i, n] of names.entries()) {
      const got = await target.get(n);
      if (i === 3) expect(got!.data.toString()).toBe('already there');
      else {
        expect(got!.data.equals((await pg.get(n))!.data)).toBe(true);
        expect(got!.contentType).toBe(i % 2 ? 'image/png' : 'image/jpeg');
      }
    }
    expect(await target.missing(['../evil.png'])).toEqual(['../evil.png']);
    const [row] = await sql<{ n: number }>(`select count(*)::int as n from "${SCHEMA}"."blobs"`);
    expect(row!.n).toBe(8);
  });
});

describe('choosing the blob store by configuration', () => {
  const pgMarker: BlobStore = { put: async () => undefined, get: async () => undefined, missing: async (n) => n };

  it('is PostgreSQL unless BLOB_STORE=s3', () => {
    expect(blobStoreFromEnv({}, () => pgMarker)).toBe(pgMarker);
    expect(blobStoreFromEnv({ BLOB_STORE: 'postgres', S3_BUCKET: 'ignored' }, () => pgMarker)).toBe(pgMarker);
  });

  it('BLOB_STORE=s3 stores in the named bucket with the given endpoint, prefix and keys', async () => {
    const store = blobStoreFromEnv(
      { BLOB_STORE: 's3', S3_BUCKET: BUCKET, S3_ENDPOINT: endpoint, S3_FORCE_PATH_STYLE: 'true', S3_PREFIX: 'from-env', S3_ACCESS_KEY_ID: CREDENTIALS.accessKeyId, S3_SECRET_ACCESS_KEY: CREDENTIALS.secretAccessKey },
      () => pgMarker,
    ) as S3BlobStore;
    stores.push(store);
    expect(store).not.toBe(pgMarker);
    expect(store.prefix).toBe('from-env/');
    const name = hexName();
    await store.put(name, 'image/png', Buffer.from('env'));
    expect(puts).toContain(`from-env/${name}`);
    expect((await store.get(name))!.data.toString()).toBe('env');
  });

  it('names the variable to fix when the combination is wrong', () => {
    const issues = (env: NodeJS.ProcessEnv) => {
      try {
        parseConfig(BlobStoreEnv, env);
        return [];
      } catch (err) {
        expect(err).toBeInstanceOf(ConfigError);
        return (err as ConfigError).issues.map((i) => `${i.variable}: ${i.message}`);
      }
    };
    expect(issues({ BLOB_STORE: 's3' })).toEqual(['S3_BUCKET: is required when BLOB_STORE=s3']);
    expect(issues({ BLOB_STORE: 's3', S3_BUCKET: '  ' })).toEqual(['S3_BUCKET: is required when BLOB_STORE=s3']);
    expect(issues({ BLOB_STORE: 'minio' })).toEqual(['BLOB_STORE: must be postgres or s3']);
    expect(issues({ BLOB_STORE: 's3', S3_BUCKET: 'b', S3_ENDPOINT: 'localhost:9000' })).toEqual(['S3_ENDPOINT: must be a URL such as http://127.0.0.1:9000']);
    expect(issues({ BLOB_STORE: 's3', S3_BUCKET: 'b', S3_FORCE_PATH_STYLE: 'yes' })).toEqual(['S3_FORCE_PATH_STYLE: must be true or false']);
    expect(issues({ BLOB_STORE: 's3', S3_BUCKET: 'b', S3_PREFIX: '../up' })).toEqual(['S3_PREFIX: must be path segments of letters, digits, . _ - separated by /']);
    expect(issues({ BLOB_STORE: 's3', S3_BUCKET: 'b', S3_ACCESS_KEY_ID: 'k' })).toEqual([
      'S3_SECRET_ACCESS_KEY: must be set with S3_ACCESS_KEY_ID (or leave both unset for the default AWS credential chain)',
    ]);
    expect(issues({ BLOB_STORE: 's3', S3_BUCKET: 'b', S3_ENDPOINT: '' })).toEqual([]);
    expect(() => blobStoreFromEnv({ BLOB_STORE: 's3' }, () => pgMarker)).toThrow(ConfigError);
  });
});
