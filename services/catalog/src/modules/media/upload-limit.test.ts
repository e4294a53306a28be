import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger, createOrm, IDENTITY_HEADERS, migrate, type Orm } from '@dme/platform';
import { ADDRESS_LIMITED, addressLimitAnswer, createTestDatabase, listen, TEST_INTERNAL_TOKEN, TINY_PNG, type Json, type TestServer } from '@dme/testing';
import { CatalogEnv, type CatalogConfig } from '../../config';
import { createApp, entities, migrations } from '../../app';

/**
 * Issue 30: anonymous uploads are limited per address (UPLOAD_ANON_MAX_PER_IP an hour) by the
 * catalog, in PostgreSQL, so every replica shares the count (it used to be each gateway's memory).
 * Two catalog apps with their own ORM (pool) on one database stand for two replicas.
 */
const MAX = 3;
let drop: () => Promise<void>;
let dir: string;
let config: CatalogConfig;
const orms: Orm[] = [];
let a: TestServer;
let b: TestServer;

async function replica(): Promise<TestServer> {
  const orm = await createOrm({ url: config.DATABASE_URL, schema: 'catalog', entities, migrations });
  await migrate(orm, 'catalog', config.DATABASE_URL);
  orms.push(orm);
  return listen(createApp({ orm, config, logger: createLogger('catalog-test', 'silent') }));
}

beforeAll(async () => {
  const db = await createTestDatabase('catalog_upload_limit');
  drop = db.drop;
  dir = await mkdtemp(join(tmpdir(), 'uploads-'));
  config = CatalogEnv.parse({ DATABASE_URL: db.url, INTERNAL_TOKEN: TEST_INTERNAL_TOKEN, UPLOAD_DIR: dir, UPLOAD_ANON_MAX_PER_IP: String(MAX) });
  a = await replica();
  b = await replica();
});

afterAll(async () => {
  await a?.close();
  await b?.close();
  for (const orm of orms) await orm.close();
  await drop?.();
  await rm(dir, { recursive: true, force: true });
});

const stored = async () => (await orms[0]!.em.fork().getConnection().execute<Array<{ n: number }>>('select count(*)::int as n from catalog.blobs'))[0]!.n;

/** An upload as the gateway forwards it: the internal token, the client's address, a principal when signed in. */
async function upload(server: TestServer, ip: string, signedIn = false) {
  const form = new FormData();
  form.append('image', new Blob([new Uint8Array(TINY_PNG)], { type: 'image/png' }), 'me.png');
  const headers: Record<string, string> = { [IDENTITY_HEADERS.internalToken]: TEST_INTERNAL_TOKEN, [IDENTITY_HEADERS.clientIp]: ip };
  if (signedIn) Object.assign(headers, { [IDENTITY_HEADERS.userId]: '7f1a1f40-0000-4000-8000-000000000001', [IDENTITY_HEADERS.userType]: 'WAREHOUSE_STAFF' });
  const res = await fetch(`${server.url}/api/uploads`, { method: 'POST', body: form, headers });
  return { status: res.status, headers: res.headers, body: (await res.json()) as Record<string, Json> };
}

describe('anonymous uploads per address, shared by the replicas', () => {
  it('counts uploads through both replicas together; the next one gets 429 problem+json with Retry-After and stores nothing', async () => {
    const ip = '198.51.100.10';
    expect((await upload(a, ip)).status).toBe(201);
    expect((await upload(b, ip)).status).toBe(201);
    expect((await upload(a, ip)).status).toBe(201);
    const before = await stored();
    for (const server of [b, a]) {
      const refused = await upload(server, ip);
      expect(addressLimitAnswer(refused)).toEqual(ADDRESS_LIMITED);
    }
    expect(await stored()).toBe(before);
  });

  it('another address is not affected', async () => {
    const ip = '198.51.100.20';
    for (let i = 0; i < MAX; i++) expect((await upload(i % 2 ? a : b, ip)).status).toBe(201);
    expect((await upload(a, ip)).status).toBe(429);
    expect((await upload(b, '198.51.100.21')).status).toBe(201);
  });

  it('signed-in uploads are not limited (nor counted)', async () => {
    const ip = '198.51.100.30';
    for (let i = 0; i < MAX + 2; i++) expect((await upload(i % 2 ? a : b, ip, true)).status).toBe(201);
    // The address's anonymous allowance is untouched.
    for (let i = 0; i < MAX; i++) expect((await upload(a, ip)).status).toBe(201);
    expect((await upload(b, ip)).status).toBe(429);
    // A signed-in upload from an address over its anonymous limit still goes through.
    expect((await upload(a, ip, true)).status).toBe(201);
  });

  it('keeps no list of addresses: counts are keyed by hashes', async () => {
    const rows = await orms[0]!.em.fork().getConnection().execute<Array<{ key: string }>>('select key from catalog.rate_limits');
    expect(rows.length).toBeGreaterThan(0);
    for (const { key } of rows) expect(key).toMatch(/^upload:[0-9a-f]{64}$/);
  });
});
