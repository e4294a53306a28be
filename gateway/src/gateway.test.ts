import http from 'node:http';
import { brotliCompressSync, gunzipSync, gzipSync, inflateSync } from 'node:zlib';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isAllowed, MESSAGES, ROUTES, type RouteDef } from '@dme/contracts';
import { connectNats, createLogger, createOrm, migrate, pgBlobStore, type BlobStore, type NatsConnection, type Orm } from '@dme/platform';
import { createTestDatabase, listen, rawExchange, TEST_INTERNAL_TOKEN, testNatsUrl, TINY_PNG, validPerson, type Json, type TestServer } from '@dme/testing';
import {
  createApp as createIdentity,
  createEmployee,
  IdentityEnv,
  migrations as identityMigrations,
  SessionEntity,
  UserEntity,
} from '@dme/identity';
import { CatalogEnv, createApp as createCatalog, entities as catalogEntities, migrations as catalogMigrations, serveUploadsExist } from '@dme/catalog';
import { GatewayEnv } from './config';
import { createApp } from './app';
import { sessionResolver } from './session';
import { validateRouteTable } from './routing';

const logger = createLogger('gateway-test', 'silent');
const UUID = '7f1a1f40-0000-4000-8000-00000000abcd';
let db: Awaited<ReturnType<typeof createTestDatabase>>;
let identityOrm: Orm;
let catalogOrm: Orm;
let identity: TestServer;
let catalog: TestServer;
let gateway: TestServer;
let staticRoot: string;
let uploadDir: string;
let blobs: BlobStore;
let nc: NatsConnection;
/** The gateway under test's own NATS connection: it caches resolved sessions and follows revocations. */
let gatewayNc: NatsConnection;
let image: string;
const uploadsSubject = `rpc.test.gateway-${process.pid}-${Date.now()}.uploads-exist`;

function gatewayConfig(overrides: Record<string, string> = {}) {
  return GatewayEnv.parse({
    INTERNAL_TOKEN: TEST_INTERNAL_TOKEN,
    IDENTITY_URL: identity.url,
    CATALOG_URL: catalog.url,
    STATIC_ROOT: staticRoot,
    MAX_BODY_BYTES: '65536',
    ...overrides,
  });
}

beforeAll(async () => {
  db = await createTestDatabase('gateway');
  staticRoot = await mkdtemp(join(tmpdir(), 'static-'));
  uploadDir = join(staticRoot, 'uploads');
  await mkdir(join(staticRoot, 'shell', 'dist'), { recursive: true });
  await mkdir(join(staticRoot, 'mf-shop', 'dist'), { recursive: true });
  await writeFile(join(staticRoot, 'shell', 'dist', 'index.html'), '<!doctype html><title>DME</title><div id="root"></div>');
  const mainJs = `console.log(${JSON.stringify('x'.repeat(4000))});`;
  await writeFile(join(staticRoot, 'shell', 'dist', 'main.0123abcd.js'), mainJs);
  // As the build leaves it: compressed copies beside the file (rspack.base.mjs, PrecompressPlugin).
  await writeFile(join(staticRoot, 'shell', 'dist', 'main.0123abcd.js.gz'), gzipSync(mainJs));
  await writeFile(join(staticRoot, 'shell', 'dist', 'main.0123abcd.js.br'), brotliCompressSync(mainJs));
  await writeFile(join(staticRoot, 'mf-shop', 'dist', 'remoteEntry.js'), `var mf_shop = ${JSON.stringify('y'.repeat(3000))};`);
  await writeFile(join(staticRoot, 'mf-shop', 'dist', 'mf-manifest.json'), '{"id":"mf_shop"}');
  await writeFile(join(staticRoot, 'mf-shop', 'dist', '123.abcdef12.js'), 'export {}');

  nc = await connectNats(testNatsUrl(), 'gateway-test');
  image = '/api/uploads/0123456789abcdef0123456789abcdef.png';
  identityOrm = await createOrm({ url: db.url, schema: 'identity', entities: [UserEntity, SessionEntity], migrations: identityMigrations });
  await migrate(identityOrm, 'identity', db.url);
  identity = await listen(
    createIdentity({ orm: identityOrm, logger, nc, uploadsSubject, config: IdentityEnv.parse({ DATABASE_URL: db.url, INTERNAL_TOKEN: TEST_INTERNAL_TOKEN }) }),
  );
  catalogOrm = await createOrm({ url: db.url, schema: 'catalog', entities: catalogEntities, migrations: catalogMigrations });
  await migrate(catalogOrm, 'catalog', db.url);
  blobs = pgBlobStore(catalogOrm.em);
  serveUploadsExist({ nc, logger, blobs, subject: uploadsSubject });
  await blobs.put(image.slice('/api/uploads/'.length), 'image/png', TINY_PNG);
  catalog = await listen(
    createCatalog({ orm: catalogOrm, logger, config: CatalogEnv.parse({ DATABASE_URL: db.url, INTERNAL_TOKEN: TEST_INTERNAL_TOKEN, UPLOAD_DIR: uploadDir, UPLOAD_ANON_MAX_PER_IP: '1000' }) }),
  );
  // The gateway under test caches resolved sessions (as in production), so the logout and
  // deactivation tests below run against the cache; session-cache.test.ts tests the cache itself.
  gatewayNc = await connectNats(testNatsUrl(), 'gateway-under-test');
  const sessions = sessionResolver(gatewayConfig(), logger);
  sessions.follow(gatewayNc);
  await gatewayNc.flush();
  gateway = await listen(createApp({ config: gatewayConfig(), logger, sessions }));
  await createEmployee(identityOrm.em.fork(), { ...validPerson({ username: 'admin1', password: 'admin-pass-1', image }), userType: 'SUPERADMIN', position: 'Owner' } as never);
});

afterAll(async () => {
  await gateway?.close();
  await gatewayNc?.close();
  await identity?.close();
  await catalog?.close();
  await identityOrm?.close();
  await catalogOrm?.close();
  await nc?.drain();
  await db?.drop();
  await rm(staticRoot, { recursive: true, force: true });
});

interface Res {
  status: number;
  headers: Headers;
  body: Json;
}

async function call(method: string, path: string, opts: { cookie?: string; body?: unknown; headers?: Record<string, string> } = {}): Promise<Res> {
  const headers: Record<string, string> = { ...opts.headers };
  if (opts.cookie) headers.cookie = opts.cookie;
  let body: string | undefined;
  if (opts.body !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(opts.body);
  }
  const res = await fetch(`${gateway.url}${path}`, { method, headers, body, redirect: 'manual' });
  const text = await res.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = text;
  }
  return { status: res.status, headers: res.headers, body: json };
}

async function login(username: string, password: string): Promise<string> {
  const res = await call('POST', '/api/auth/login', { body: { username, password } });
  expect(res.status).toBe(200);
  return res.headers.get('set-cookie')!.split(';')[0]!;
}

async function registerCustomer(): Promise<{ cookie: string; id: string; username: string; password: string }> {
  const person = validPerson({ image });
  const reg = await call('POST', '/api/auth/register', { body: person });
  expect(reg.status).toBe(201);
  return { cookie: await login(person.username, person.password), id: reg.body.user.id, username: person.username, password: person.password };
}

const concretePath = (r: RouteDef) => r.path.replace(/:([A-Za-z]+)/g, (_m, name: string) => (name === 'name' ? 'x.png' : UUID));
const routes = Object.entries(ROUTES) as Array<[string, RouteDef]>;

describe('every route declares its permission', () => {
  it('the route table passes the check the gateway runs at start', () => {
    expect(() => validateRouteTable(ROUTES)).not.toThrow();
    for (const [id, r] of routes) expect(r.access, id).toBeTruthy();
  });

  it('a route without a permission fails the check, and the gateway refuses to start with it', () => {
    const broken = { ...ROUTES, sneaky: { method: 'GET', path: '/api/sneaky', service: 'identity', summary: 'x', tag: 'x' } } as never;
    expect(() => validateRouteTable(broken)).toThrow(/sneaky: no valid access rule/);
    expect(() => createApp({ config: gatewayConfig(), logger, routes: broken })).toThrow(/sneaky/);
    const typo = { ...ROUTES, typo: { ...ROUTES.usersList, path: '/api/typo', access: 'users:read' } } as never;
    expect(() => validateRouteTable(typo)).toThrow(/typo/);
  });
});

describe('authentication and authorization at the gateway', () => {
  it('answers 401 (problem+json) to anonymous callers on every non-public route', async () => {
    const closed = routes.filter(([, r]) => r.access !== 'public');
    expect(closed.length).toBeGreaterThan(5);
    for (const [id, r] of closed) {
      const res = await call(r.method, concretePath(r), r.method === 'GET' || r.method === 'DELETE' ? {} : { body: {} });
      expect(res.status, `${id} ${r.method} ${r.path}`).toBe(401);
      expect(res.headers.get('content-type')).toContain('application/problem+json');
    }
  });

  it('answers 403 to a customer on every staff route', async () => {
    const { cookie } = await registerCustomer();
    const staff = routes.filter(([, r]) => r.access !== 'public' && r.access !== 'authenticated' && !isAllowed(r.access, 'CUSTOMER'));
    expect(staff.length).toBeGreaterThan(5);
    for (const [id, r] of staff) {
      const res = await call(r.method, concretePath(r), { cookie, ...(r.method === 'GET' || r.method === 'DELETE' ? {} : { body: {} }) });
      expect(res.status, `${id} ${r.method} ${r.path}`).toBe(403);
    }
  });

  it('ignores identity headers sent by a client', async () => {
    const spoof = {
      'x-dme-user-id': UUID,
      'x-dme-user-type': 'SUPERADMIN',
      'x-dme-username': 'admin1',
      'x-dme-internal-token': TEST_INTERNAL_TOKEN,
    };
    expect((await call('GET', '/api/users', { headers: spoof })).status).toBe(401);
    const customer = await registerCustomer();
    expect((await call('GET', '/api/users', { cookie: customer.cookie, headers: spoof })).status).toBe(403);
    const me = await call('GET', '/api/auth/me', { cookie: customer.cookie, headers: spoof });
    expect(me.status).toBe(200);
    expect(me.body.user.id).toBe(customer.id);
    expect(me.body.user.userType).toBe('CUSTOMER');
  });

  it('a forged or unknown session cookie is anonymous', async () => {
    expect((await call('GET', '/api/auth/me', { cookie: 'dme_session=forged-token' })).status).toBe(401);
  });

  it('lets the superadmin through to the service', async () => {
    const cookie = await login('admin1', 'admin-pass-1');
    const res = await call('GET', '/api/users?userType=CUSTOMER', { cookie });
    expect(res.status).toBe(200);
    expect(Array.isArray(res.body.items)).toBe(true);
  });

  it("refuses a deactivated customer's open session at once, and their sign-in", async () => {
    const admin = await login('admin1', 'admin-pass-1');
    const c = await registerCustomer();
    expect((await call('GET', '/api/auth/me', { cookie: c.cookie })).status).toBe(200);
    expect((await call('PATCH', `/api/users/${c.id}/status`, { cookie: admin, body: { status: 'DEACTIVATED' } })).status).toBe(200);
    expect((await call('GET', '/api/auth/me', { cookie: c.cookie })).status).toBe(401);
    const again = await call('POST', '/api/auth/login', { body: { username: c.username, password: c.password } });
    expect(again.status).toBe(403);
    expect(again.body.detail).toBe(MESSAGES.login.deactivated);
  });

  it('logout through the gateway ends the session', async () => {
    const c = await registerCustomer();
    const out = await call('POST', '/api/auth/logout', { cookie: c.cookie });
    expect(out.status).toBe(204);
    expect((await call('GET', '/api/auth/me', { cookie: c.cookie })).status).toBe(401);
  });
});

describe('bad requests get a problem+json that says what is wrong, and never a hanging connection', () => {
  const host = () => new URL(gateway.url).host;
  const post = (path: string, headers: Record<string, string>, body: string | Buffer) =>
    [`POST ${path} HTTP/1.1\r\nHost: ${host()}\r\n${Object.entries(headers).map(([k, v]) => `${k}: ${v}\r\n`).join('')}\r\n`, body] as const;
  const next = () => `GET /api/auth/me HTTP/1.1\r\nHost: ${host()}\r\n\r\n`;

  it('invalid JSON and a __proto__ key are 400 with a detail', async () => {
    const raw = await fetch(`${gateway.url}/api/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"username": "a",' });
    expect(raw.status).toBe(400);
    expect(raw.headers.get('content-type')).toContain('application/problem+json');
    expect(((await raw.json()) as { detail: string }).detail).toBe('The request body is not valid JSON.');
    const proto = await fetch(`${gateway.url}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"username":"a","password":"b","__proto__":{"admin":true}}',
    });
    expect(proto.status).toBe(400);
    expect(((await proto.json()) as { detail: string }).detail).toContain('__proto__');
  });

  it('a body that is not JSON on a JSON route is 415; a compressed body is 415; neither reaches the database', async () => {
    const text = await fetch(`${gateway.url}/api/auth/login`, { method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'username=a' });
    expect(text.status).toBe(415);
    expect(((await text.json()) as { detail: string }).detail).toMatch(/JSON/);
    const gz = await fetch(`${gateway.url}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' },
      body: 'this is not gzip',
    });
    expect(gz.status).toBe(415);
    expect(gz.headers.get('content-type')).toContain('application/problem+json');
    expect(((await gz.json()) as { detail: string }).detail).toMatch(/Content-Encoding/);
  });

  it('after a 413 for an announced length, the next request on the connection is answered or the connection is closed', async () => {
    const ex = await rawExchange(gateway.url, [...post('/api/auth/register', { 'content-type': 'application/json', 'content-length': '200000' }, 'x'.repeat(200_000)), next()], { expect: 2 });
    expect(ex.statuses[0]).toBe(413);
    expect(ex.text).toContain('application/problem+json');
    expect(ex.hung).toBe(false);
    if (ex.statuses.length > 1) expect(ex.statuses[1]).toBe(401);
    else expect(ex.closed).toBe(true);
  });

  it('a chunked body over the limit is cut off with 413, never forwarded whole', async () => {
    const chunk = Buffer.alloc(32 * 1024, 'a');
    const parts: Array<string | Buffer> = [`POST /api/auth/login HTTP/1.1\r\nHost: ${host()}\r\ncontent-type: application/json\r\ntransfer-encoding: chunked\r\n\r\n`];
    for (let i = 0; i < 4; i++) parts.push(`${chunk.length.toString(16)}\r\n`, chunk, '\r\n');
    parts.push('0\r\n\r\n', next());
    const ex = await rawExchange(gateway.url, parts, { expect: 2 });
    expect(ex.statuses[0]).toBe(413);
    expect(ex.hung).toBe(false);
  });

  it('a JSON body over 100 KB is 413 at the gateway even when the gateway takes bigger uploads; many at once, none hangs', async () => {
    const roomy = await listen(createApp({ config: gatewayConfig({ MAX_BODY_BYTES: String(6 * 1024 * 1024) }), logger }));
    try {
      const body = JSON.stringify({ username: 'x'.repeat(150_000), password: 'y' });
      const ex = await rawExchange(roomy.url, [...post('/api/auth/login', { 'content-type': 'application/json', 'content-length': String(body.length) }, body), next()], { expect: 2 });
      expect(ex.statuses[0]).toBe(413);
      expect(ex.text).toContain('The request body is too large.');
      expect(ex.hung).toBe(false);
      // Many at once: none is left hanging.
      const many = await Promise.all(
        Array.from({ length: 30 }, () =>
          rawExchange(roomy.url, [...post('/api/auth/login', { 'content-type': 'application/json', 'content-length': String(body.length) }, body), next()], { expect: 2, timeoutMs: 10_000 }),
        ),
      );
      expect(many.filter((e) => e.hung)).toHaveLength(0);
      expect(many.every((e) => e.statuses[0] === 413)).toBe(true);
    } finally {
      await roomy.close();
    }
  });

  it('a body sent to a route that takes none is 400; a 7 MB upload over the limit gets its 413, not a reset', async () => {
    const del = await fetch(`${gateway.url}/api/auth/logout`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"x":1}' });
    expect(del.status).toBe(400);
    expect(((await del.json()) as { detail: string }).detail).toBe('This request takes no body.');
    const big = Buffer.alloc(7 * 1024 * 1024, 1);
    const ex = await rawExchange(gateway.url, [
      `POST /api/uploads HTTP/1.1\r\nHost: ${host()}\r\ncontent-type: multipart/form-data; boundary=xyz\r\ncontent-length: ${big.length}\r\n\r\n`,
      big,
    ], { timeoutMs: 10_000 });
    expect(ex.statuses[0]).toBe(413);
    expect(ex.text).toContain('The request body is too large.');
  });

  it('a URL over 16 KB is 431 as problem+json', async () => {
    const ex = await rawExchange(gateway.url, [`GET /api/products?search=${'a'.repeat(20_000)} HTTP/1.1\r\nHost: ${host()}\r\n\r\n`]);
    expect(ex.statuses[0]).toBe(431);
    expect(ex.text).toContain('application/problem+json');
    expect(ex.text).toContain('"detail"');
    expect(ex.hung).toBe(false);
  });
});

describe('proxying and errors', () => {
  it('uploads through the gateway and serves the image back', async () => {
    const form = new FormData();
    form.append('image', new Blob([new Uint8Array(TINY_PNG)], { type: 'image/png' }), 'me.png');
    const res = await fetch(`${gateway.url}/api/uploads`, { method: 'POST', body: form });
    expect(res.status).toBe(201);
    const { imagePath } = (await res.json()) as { imagePath: string };
    const img = await fetch(`${gateway.url}${imagePath}`);
    expect(img.status).toBe(200);
    expect(Buffer.from(await img.arrayBuffer()).equals(TINY_PNG)).toBe(true);
  });

  it('the legacy upload.php answers a refused image with its error in an `error` field (SPEC §7), `message` too', async () => {
    const gif = Buffer.from('R0lGODlhAQABAIAAAP///wAAACH5BAEAAAAALAAAAAABAAEAAAICRAEAOw==', 'base64');
    const form = new FormData();
    form.append('image', new Blob([new Uint8Array(gif)], { type: 'image/png' }), 'me.png');
    const res = await fetch(`${gateway.url}/upload/upload.php`, { method: 'POST', body: form });
    expect(res.status).toBe(415);
    expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    const body = (await res.json()) as Json;
    expect(body).toMatchObject({ status: 415, detail: MESSAGES.upload.onlyJpgPng, message: MESSAGES.upload.onlyJpgPng, error: MESSAGES.upload.onlyJpgPng });
    const ok = new FormData();
    ok.append('image', new Blob([new Uint8Array(TINY_PNG)], { type: 'image/png' }), 'me.png');
    const uploaded = (await (await fetch(`${gateway.url}/upload/upload.php`, { method: 'POST', body: ok })).json()) as Json;
    expect(uploaded).toMatchObject({ status: 200, message: 'success', data: { imagePath: expect.stringMatching(/^\/api\/uploads\//) } });
    expect(uploaded).not.toHaveProperty('error');
  });

  it('anonymous uploads are limited per client address: the gateway tells the catalog the address, the catalog counts (issue 30)', async () => {
    // A catalog allowing one anonymous upload per address, behind a gateway that believes
    // X-Forwarded-For (as behind a load balancer), so each test address is its own client.
    const strictCatalog = await listen(
      createCatalog({ orm: catalogOrm, logger, config: CatalogEnv.parse({ DATABASE_URL: db.url, INTERNAL_TOKEN: TEST_INTERNAL_TOKEN, UPLOAD_DIR: uploadDir, UPLOAD_ANON_MAX_PER_IP: '1' }) }),
    );
    const strict = await listen(createApp({ config: gatewayConfig({ CATALOG_URL: strictCatalog.url, TRUST_PROXY: 'true' }), logger }));
    try {
      const send = (ip: string) => {
        const form = new FormData();
        form.append('image', new Blob([new Uint8Array(TINY_PNG)], { type: 'image/png' }), 'me.png');
        return fetch(`${strict.url}/api/uploads`, { method: 'POST', body: form, headers: { 'x-forwarded-for': ip } });
      };
      expect((await send('203.0.113.61')).status).toBe(201);
      const refused = await send('203.0.113.61');
      expect(refused.status).toBe(429);
      expect(refused.headers.get('content-type')).toMatch(/^application\/problem\+json/);
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      expect(((await refused.json()) as Json).detail).toBe('Too many requests from your address. Please try again later.');
      expect((await send('203.0.113.62')).status).toBe(201);
    } finally {
      await strict.close();
      await strictCatalog.close();
    }
  });

  it('refuses a body over the limit with 413 before it reaches a service', async () => {
    const res = await call('POST', '/api/auth/register', { body: { ...validPerson({ image }), firstName: 'x'.repeat(70_000) } });
    expect(res.status).toBe(413);
  });

  it('answers unknown API routes with 404 and wrong methods with 405, as problem+json', async () => {
    const missing = await call('GET', '/api/nothing-here');
    expect(missing.status).toBe(404);
    expect(missing.headers.get('content-type')).toContain('application/problem+json');
    expect((await call('PUT', '/api/users')).status).toBe(405);
  });

  it('answers 503 (not 500) when a service is down', async () => {
    const down = await listen(createApp({ config: gatewayConfig({ IDENTITY_URL: 'http://127.0.0.1:9' }), logger }));
    try {
      const res = await fetch(`${down.url}/api/auth/me`, { headers: { cookie: 'dme_session=abc' } });
      expect(res.status).toBe(503);
    } finally {
      await down.close();
    }
  });

  it('a service that dies half-way through a JSON answer gets the client a clean 503, not a cut-off body', async () => {
    // A service process that crashes after sending part of its answer (as a kill -9 would leave it).
    const dying = http.createServer((req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': '2000' });
      res.write(`{"items":[${'1,'.repeat(100)}`);
      setTimeout(() => res.socket?.destroy(), 20);
    });
    await new Promise<void>((r) => dying.listen(0, '127.0.0.1', r));
    const front = await listen(createApp({ config: gatewayConfig({ CATALOG_URL: `http://127.0.0.1:${(dying.address() as { port: number }).port}` }), logger }));
    try {
      const res = await fetch(`${front.url}/api/products`);
      expect(res.status).toBe(503);
      expect(res.headers.get('content-type')).toMatch(/problem\+json/);
      expect((await res.json()).detail).toMatch(/not available/);
    } finally {
      await front.close();
      dying.close();
    }
  });

  it('survives a client that disconnects in the middle of a large answer (STACK P19)', async () => {
    const name = 'ffffffffffffffffffffffffffffffff.png';
    await blobs.put(name, 'image/png', Buffer.concat([TINY_PNG, Buffer.alloc(8 * 1024 * 1024)]));
    for (let i = 0; i < 3; i++) {
      const ac = new AbortController();
      const res = await fetch(`${gateway.url}/api/uploads/${name}`, { signal: ac.signal });
      const reader = res.body!.getReader();
      await reader.read();
      ac.abort();
      await reader.read().catch(() => undefined);
    }
    await new Promise((r) => setTimeout(r, 200));
    expect((await call('GET', '/api/auth/me')).status).toBe(401);
  });

});

describe('compression of API answers', () => {
  /** The raw answer (status, headers, bytes as sent), asking for an encoding. */
  function raw(path: string, headers: Record<string, string>): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }> {
    return new Promise((resolve, reject) => {
      http
        .get(`${gateway.url}${path}`, { headers }, (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
        })
        .on('error', reject);
    });
  }

  it('a JSON answer from a service over 1 KB is gzipped when the client takes gzip, and reads back the same', async () => {
    for (let i = 0; i < 4; i++) await registerCustomer();
    const cookie = await login('admin1', 'admin-pass-1');
    const plain = await raw('/api/users?limit=100', { cookie, 'accept-encoding': 'identity' });
    expect(plain.status).toBe(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body.length).toBeGreaterThan(1024);
    const zipped = await raw('/api/users?limit=100', { cookie, 'accept-encoding': 'gzip, deflate, br' });
    expect(zipped.status).toBe(200);
    expect(zipped.headers['content-encoding']).toBe('gzip');
    expect(zipped.headers.vary).toMatch(/accept-encoding/i);
    expect(zipped.headers['content-type']).toMatch(/json/);
    expect(zipped.body.length).toBeLessThan(plain.body.length);
    expect(JSON.parse(gunzipSync(zipped.body).toString('utf8'))).toEqual(JSON.parse(plain.body.toString('utf8')));
    const deflated = await raw('/api/users?limit=100', { cookie, 'accept-encoding': 'deflate' });
    expect(deflated.headers['content-encoding']).toBe('deflate');
    expect(JSON.parse(inflateSync(deflated.body).toString('utf8'))).toEqual(JSON.parse(plain.body.toString('utf8')));
  });

  it('a small answer is sent as it is', async () => {
    const res = await raw('/api/auth/me', { 'accept-encoding': 'gzip' });
    expect(res.status).toBe(401);
    expect(res.body.length).toBeLessThan(1024);
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(JSON.parse(res.body.toString('utf8')).status).toBe(401);
  });

  it('an answer over 64 KB is compressed as a stream', async () => {
    const plain = await raw('/api/openapi.json', { 'accept-encoding': 'identity' });
    expect(plain.body.length).toBeGreaterThan(64 * 1024);
    const zipped = await raw('/api/openapi.json', { 'accept-encoding': 'gzip' });
    expect(zipped.headers['content-encoding']).toBe('gzip');
    expect(zipped.headers['content-length']).toBeUndefined();
    expect(gunzipSync(zipped.body).equals(plain.body)).toBe(true);
  });
});

describe('OpenAPI and docs', () => {
  it('documents every route with its access rule, generated from the contracts', async () => {
    const res = await call('GET', '/api/openapi.json');
    expect(res.status).toBe(200);
    for (const [id, r] of routes) {
      const op = res.body.paths[r.path.replace(/:([A-Za-z]+)/g, '{$1}')]?.[r.method.toLowerCase()];
      expect(op, id).toBeDefined();
      expect(op['x-access']).toBe(r.access);
      expect(op.operationId).toBe(id);
    }
    const register = res.body.paths['/api/auth/register'].post;
    expect(register.requestBody.content['application/json'].schema.required).toEqual(expect.arrayContaining(['username', 'address', 'zipcode']));
  });

  it('serves a docs page', async () => {
    const res = await call('GET', '/api/docs');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/html');
    expect(String(res.body)).toContain('swagger-ui');
    expect(String((await call('GET', '/api/docs/init.js')).body)).toContain('/api/openapi.json');
    expect((await call('GET', '/api/docs/assets/swagger-ui-bundle.js')).status).toBe(200);
  });
});

describe('static bundles', () => {
  it('serves the shell for app routes (SPA fallback) without caching index.html', async () => {
    for (const path of ['/', '/dashboard', '/admin/users/123']) {
      const res = await call('GET', path);
      expect(res.status).toBe(200);
      expect(String(res.body)).toContain('<div id="root">');
      expect(res.headers.get('cache-control')).toBe('no-cache');
      expect(res.headers.get('content-security-policy')).toContain("script-src 'self'");
    }
    expect((await call('GET', '/missing.0123abcd.js')).status).toBe(404);
  });

  it("caches hashed assets for a year and serves the build's compressed copy", async () => {
    const res = await fetch(`${gateway.url}/main.0123abcd.js`, { headers: { 'accept-encoding': 'gzip' } });
    expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(res.headers.get('content-encoding')).toBe('gzip');
    expect(Number(res.headers.get('content-length'))).toBeLessThan(1000);
    const raw = await fetch(`${gateway.url}/main.0123abcd.js`, { headers: { 'accept-encoding': 'identity' } });
    expect((await raw.text()).length).toBeGreaterThan(4000);
    // fetch decodes the gzip body for us: what arrives is the original script.
    expect(await res.text()).toContain('console.log');
  });

  it('serves each remote under /remotes/<name>/ and revalidates its entry files', async () => {
    const entry = await fetch(`${gateway.url}/remotes/mf-shop/remoteEntry.js`);
    expect(entry.status).toBe(200);
    expect(entry.headers.get('cache-control')).toBe('no-cache');
    expect((await fetch(`${gateway.url}/remotes/mf-shop/mf-manifest.json`)).headers.get('cache-control')).toBe('no-cache');
    expect((await fetch(`${gateway.url}/remotes/mf-shop/123.abcdef12.js`)).headers.get('cache-control')).toContain('immutable');
    expect((await fetch(`${gateway.url}/remotes/mf-nope/remoteEntry.js`)).status).toBe(404);
    expect((await fetch(`${gateway.url}/remotes/mf-shop/..%2F..%2Fshell%2Fdist%2Findex.html`)).status).toBe(404);
  });

  it("names a signed-in user's first screen in preload hints: the scripts, the session, the remote, the data and the first picture", async () => {
    await writeFile(join(staticRoot, 'shell', 'dist', 'index.html'), '<!doctype html><title>DME</title><div id="root"></div><script defer src="/main.0123abcd.js"></script>');
    const manifest = { metaData: { remoteEntry: { name: 'remoteEntry.js', path: '' } }, exposes: [{ name: 'app', assets: { js: { sync: ['__federation_expose_app.abcdef1234.js'] } } }] };
    await writeFile(join(staticRoot, 'mf-shop', 'dist', 'mf-manifest.json'), JSON.stringify(manifest));
    const admin = await login('admin1', 'admin-pass-1');
    const product = await call('POST', '/api/products', {
      cookie: admin,
      body: { brand: 'Drive', name: `Hint Wheelchair ${Date.now()}`, description: 'Folding', type: 'FOR_RENT', image, price: '12.00', damageCharges: '50.00' },
    });
    expect(product.status).toBe(201);
    const customer = await registerCustomer();
    const links = async (path: string, cookie?: string) => {
      const res = await call('GET', path, cookie ? { cookie } : {});
      expect(res.status).toBe(200);
      return (res.headers.get('link') ?? '').split(', ').filter(Boolean);
    };
    // The browser fetches these at once; each must be exactly what the page then asks for.
    expect(await links('/dashboard', customer.cookie)).toEqual([
      '</main.0123abcd.js>; rel=preload; as=script',
      '</api/auth/me>; rel=preload; as=fetch; crossorigin',
      '</api/products?type=FOR_RENT&limit=100&offset=0>; rel=preload; as=fetch; crossorigin',
      '</api/products?type=FOR_SALE&limit=100&offset=0>; rel=preload; as=fetch; crossorigin',
      '</api/my/notices>; rel=preload; as=fetch; crossorigin',
      `<${image}>; rel=preload; as=image; fetchpriority=high`,
      '</remotes/mf-shop/mf-manifest.json>; rel=preload; as=fetch; crossorigin',
      '</remotes/mf-shop/remoteEntry.js>; rel=preload; as=script',
      '</remotes/mf-shop/__federation_expose_app.abcdef1234.js>; rel=preload; as=script',
    ]);
    // Another screen of the shop: its remote, not the dashboard's data; a search reads other data.
    const cart = await links('/cart', customer.cookie);
    expect(cart).toContain('</remotes/mf-shop/remoteEntry.js>; rel=preload; as=script');
    expect(cart.some((l) => l.includes('/api/products'))).toBe(false);
    expect((await links('/dashboard?search=chair', customer.cookie)).some((l) => l.includes('/api/products'))).toBe(false);
    // Staff get their own remote's hints and never the shop's; anonymous callers get none.
    const staff = await links('/admin/users', admin);
    expect(staff.some((l) => l.includes('mf-shop'))).toBe(false);
    expect(await links('/dashboard')).toEqual([]);
    expect(await links('/dashboard', 'dme_session=forged')).toEqual([]);
  });

  it("serves the page as before, with its hints, when a first screen's read fails (here the order service is not running)", async () => {
    await writeFile(join(staticRoot, 'shell', 'dist', 'index.html'), '<!doctype html><html><head><title>DME</title></head><body><div id="root"></div><script defer src="/main.0123abcd.js"></script></body></html>');
    for (const [app, source] of [
      ['shell', "exports.renderFrame = (path, reads, screen) => '<frame>' + screen + '</frame>';"],
      ['mf-shop', "exports.renderScreen = () => '<p>first screen</p>';"],
    ] as const) {
      await mkdir(join(staticRoot, app, 'dist-ssr'), { recursive: true });
      await writeFile(join(staticRoot, app, 'dist-ssr', 'first-screen.cjs'), source);
    }
    try {
      const customer = await registerCustomer();
      const res = await call('GET', '/dashboard', { cookie: customer.cookie });
      expect(res.status).toBe(200);
      expect(res.body).toContain('<div id="root"></div><script defer src="/main.0123abcd.js">');
      expect(res.body).not.toContain('first screen');
      expect(res.headers.get('link')).toContain('</api/my/notices>; rel=preload');
    } finally {
      for (const app of ['shell', 'mf-shop']) await rm(join(staticRoot, app, 'dist-ssr'), { recursive: true, force: true });
    }
  });
});
