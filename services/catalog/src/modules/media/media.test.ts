import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MESSAGES } from '@dme/contracts';
import { createLogger, createOrm, IDENTITY_HEADERS, migrate, pgBlobStore, type Orm } from '@dme/platform';
import { createTestDatabase, listen, rawExchange, TEST_INTERNAL_TOKEN, TINY_JPEG, TINY_PNG, type Json, type TestServer } from '@dme/testing';
import { importUploadDir, missingUploads } from './media.service';
import { CatalogEnv } from '../../config';
import { createApp, entities, migrations } from '../../app';

let server: TestServer;
let orm: Orm;
let dir: string;
let drop: () => Promise<void>;
let replica: TestServer;
const stored = async () => (await orm.em.fork().getConnection().execute<Array<{ n: number }>>('select count(*)::int as n from catalog.blobs'))[0]!.n;

beforeAll(async () => {
  const db = await createTestDatabase('catalog_media');
  drop = db.drop;
  dir = await mkdtemp(join(tmpdir(), 'uploads-'));
  const config = CatalogEnv.parse({
    DATABASE_URL: db.url,
    INTERNAL_TOKEN: TEST_INTERNAL_TOKEN,
    UPLOAD_DIR: dir,
    UPLOAD_MAX_BYTES: '8192',
    UPLOAD_ANON_MAX_BYTES: '2048',
    // The limit per address is upload-limit.test.ts's subject; here it stays out of the way.
    UPLOAD_ANON_MAX_PER_IP: '100000',
  });
  orm = await createOrm({ url: db.url, schema: 'catalog', entities, migrations });
  await migrate(orm, 'catalog', db.url);
  server = await listen(createApp({ orm, config, logger: createLogger('catalog-test', 'silent') }));
  // A second catalog replica on the same database, with an upload folder of its own.
  replica = await listen(createApp({ orm, config: { ...config, UPLOAD_DIR: await mkdtemp(join(tmpdir(), 'uploads-b-')) }, logger: createLogger('catalog-test', 'silent') }));
});

afterAll(async () => {
  await replica?.close();
  await server?.close();
  await orm?.close();
  await drop?.();
  await rm(dir, { recursive: true, force: true });
});

const gatewayHeaders = (signedIn = false): Record<string, string> => ({
  [IDENTITY_HEADERS.internalToken]: TEST_INTERNAL_TOKEN,
  ...(signedIn ? { [IDENTITY_HEADERS.userId]: '7f1a1f40-0000-4000-8000-000000000001', [IDENTITY_HEADERS.userType]: 'WAREHOUSE_STAFF' } : {}),
});

async function upload(files: Array<{ field?: string; name: string; data: Buffer; type?: string }>, signedIn = false) {
  const form = new FormData();
  for (const f of files) form.append(f.field ?? 'image', new Blob([new Uint8Array(f.data)], { type: f.type ?? 'application/octet-stream' }), f.name);
  const res = await fetch(`${server.url}/api/uploads`, { method: 'POST', body: form, headers: gatewayHeaders(signedIn) });
  return { status: res.status, body: (await res.json()) as Record<string, Json> };
}

describe('POST /api/uploads', () => {
  it('stores a PNG under a server-generated name and serves it back by its path', async () => {
    const res = await upload([{ name: '../../etc/passwd.png', data: TINY_PNG, type: 'image/png' }]);
    expect(res.status).toBe(201);
    expect(res.body.imagePath).toMatch(/^\/api\/uploads\/[0-9a-f]{32}\.png$/);
    expect(res.body).toMatchObject({ contentType: 'image/png', size: TINY_PNG.length });
    const back = await fetch(`${server.url}${res.body.imagePath}`, { headers: gatewayHeaders() });
    expect(back.status).toBe(200);
    expect(back.headers.get('content-type')).toBe('image/png');
    expect(back.headers.get('cache-control')).toContain('immutable');
    expect(Buffer.from(await back.arrayBuffer()).equals(TINY_PNG)).toBe(true);
  });

  it('accepts a JPEG whatever its file name says', async () => {
    const res = await upload([{ name: 'photo.txt', data: TINY_JPEG, type: 'text/plain' }]);
    expect(res.status).toBe(201);
    expect(res.body.imagePath).toMatch(/\.jpg$/);
  });

  it('checks the content, not the name: a GIF or a PDF named .png is refused with 415', async () => {
    const before = await stored();
    for (const data of [Buffer.from('GIF89a\x01\x00\x01\x00'), Buffer.from('%PDF-1.7 fake')]) {
      const res = await upload([{ name: 'image.png', data, type: 'image/png' }]);
      expect(res.status).toBe(415);
      expect(res.body.detail).toBe(MESSAGES.upload.onlyJpgPng);
    }
    expect(await stored()).toBe(before);
  });

  it('limits the size: small for anonymous visitors, larger for signed-in staff (413)', async () => {
    const big = Buffer.concat([TINY_PNG, Buffer.alloc(4000)]);
    const anon = await upload([{ name: 'a.png', data: big }]);
    expect(anon.status).toBe(413);
    expect(anon.body.detail).toBe(MESSAGES.upload.tooLarge);
    expect((await upload([{ name: 'a.png', data: big }], true)).status).toBe(201);
    expect((await upload([{ name: 'a.png', data: Buffer.concat([TINY_PNG, Buffer.alloc(9000)]) }], true)).status).toBe(413);
  });

  it('takes exactly one image in the field "image"', async () => {
    const two = await upload([
      { name: 'a.png', data: TINY_PNG },
      { name: 'b.png', data: TINY_PNG },
    ]);
    expect(two.status).toBe(400);
    expect((await upload([{ field: 'file', name: 'a.png', data: TINY_PNG }])).status).toBe(400);
    const none = await fetch(`${server.url}/api/uploads`, { method: 'POST', headers: { ...gatewayHeaders(), 'content-type': 'application/json' }, body: '{}' });
    expect(none.status).toBe(400);
  });

  it('answers 404 for unknown or malformed names (no path traversal)', async () => {
    for (const name of ['0123456789abcdef0123456789abcdef.png', '..%2F..%2Fetc%2Fpasswd', 'x.png']) {
      const res = await fetch(`${server.url}/api/uploads/${name}`, { headers: gatewayHeaders() });
      expect(res.status).toBe(404);
    }
  });
});

describe('uploads that go wrong on the wire', () => {
  const headers = () => Object.entries(gatewayHeaders()).map(([k, v]) => `${k}: ${v}\r\n`).join('');
  const start = '--xyz\r\nContent-Disposition: form-data; name="image"; filename="a.png"\r\nContent-Type: image/png\r\n\r\n';

  it('a body cut off after the part headers is 400, and the service keeps answering', async () => {
    const ex = await rawExchange(server.url, [
      `POST /api/uploads HTTP/1.1\r\nHost: x\r\n${headers()}content-type: multipart/form-data; boundary=xyz\r\ncontent-length: ${start.length}\r\n\r\n${start}`,
    ]);
    expect(ex.statuses[0]).toBe(400);
    expect(ex.text).toContain(MESSAGES.upload.truncated);
    expect(ex.hung).toBe(false);
    expect((await upload([{ name: 'ok.png', data: TINY_PNG }])).status).toBe(201);
  });

  it('a client that goes away in the middle of an upload does not stop the service', async () => {
    for (let i = 0; i < 5; i++) {
      await rawExchange(server.url, [
        `POST /api/uploads HTTP/1.1\r\nHost: x\r\n${headers()}content-type: multipart/form-data; boundary=xyz\r\ncontent-length: 5000\r\n\r\n${start}`,
        TINY_PNG,
      ], { timeoutMs: 200 });
    }
    expect((await upload([{ name: 'ok.png', data: TINY_PNG }])).status).toBe(201);
  });

  it('a multipart body with a broken boundary is 400', async () => {
    const body = '--nope\r\nrubbish\r\n';
    const ex = await rawExchange(server.url, [
      `POST /api/uploads HTTP/1.1\r\nHost: x\r\n${headers()}content-type: multipart/form-data; boundary=xyz\r\ncontent-length: ${body.length}\r\n\r\n${body}`,
    ]);
    expect(ex.statuses[0]).toBe(400);
  });
});

describe('the uploads-exist answer other services ask for', () => {
  it('names the paths that are not stored uploads (wrong shape, unknown name, traversal)', async () => {
    const stored = (await upload([{ name: 'ok.png', data: TINY_PNG }])).body.imagePath as string;
    const missing = await missingUploads(pgBlobStore(orm.em), [stored, '/api/uploads/doesnotexist.png', '/api/uploads/..', `/api/uploads/${'0'.repeat(32)}.png`]);
    expect(missing).toEqual(['/api/uploads/doesnotexist.png', '/api/uploads/..', `/api/uploads/${'0'.repeat(32)}.png`]);
  });
});

describe('uploads across replicas and installations (issue 14)', () => {
  it('an upload made through one catalog replica is served by the other, byte for byte', async () => {
    const path = (await upload([{ name: 'me.png', data: TINY_PNG }])).body.imagePath as string;
    const res = await fetch(`${replica.url}${path}`, { headers: gatewayHeaders() });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/png');
    expect(res.headers.get('cache-control')).toContain('immutable');
    expect(Buffer.from(await res.arrayBuffer()).equals(TINY_PNG)).toBe(true);
  });

  it('the files of an older installation\'s upload folder are copied in once, and then served', async () => {
    const name = `${'a1'.repeat(16)}.jpg`;
    await writeFile(join(dir, name), TINY_JPEG);
    await writeFile(join(dir, 'notes.txt'), 'not an upload');
    const blobs = pgBlobStore(orm.em);
    expect(await importUploadDir(blobs, dir)).toBe(1);
    expect(await importUploadDir(blobs, dir)).toBe(0);
    const res = await fetch(`${replica.url}/api/uploads/${name}`, { headers: gatewayHeaders() });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/jpeg');
    expect(Buffer.from(await res.arrayBuffer()).equals(TINY_JPEG)).toBe(true);
  });
});
