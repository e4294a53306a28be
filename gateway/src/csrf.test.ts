/**
 * Cross-site request forgery (issue 22, csrf.ts): requests that change something are carried out
 * only from the shop's own pages or an ALLOWED_ORIGINS one; the rest get a 403 problem and change
 * nothing. The rule as a pure function, the configuration, and the gateway on real identity,
 * PostgreSQL and NATS (the legacy .php calls included).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectNats, createLogger, createOrm, migrate, parseConfig, type NatsConnection, type Orm } from '@dme/platform';
import { createTestDatabase, freePort, listen, TEST_INTERNAL_TOKEN, testNatsUrl, TINY_PNG, validPerson, type Json, type TestServer } from '@dme/testing';
import { startUploads, type UploadsFixture } from '@dme/testing/uploads';
import { createApp as createIdentity, createEmployee, IdentityEnv, migrations as identityMigrations, SessionEntity, UserEntity } from '@dme/identity';
import { GatewayEnv } from './config';
import { createApp } from './app';
import { CROSS_ORIGIN_DETAIL, crossOriginAllowed, type OriginFacts } from './csrf';

// ---------------------------------------------------------------- the rule

describe('the cross-origin rule', () => {
  const own = 'https://shop.example';
  const allowed = new Set(['https://admin.example']);
  const allows = (facts: Partial<OriginFacts>) => crossOriginAllowed({ method: 'POST', origin: undefined, secFetchSite: undefined, ownOrigin: own, ...facts }, allowed);

  it('GET, HEAD and OPTIONS pass from anywhere', () => {
    for (const method of ['GET', 'HEAD', 'OPTIONS', 'get']) expect(allows({ method, origin: 'https://evil.example', secFetchSite: 'cross-site' })).toBe(true);
  });
  it('every other method from another origin is refused', () => {
    for (const method of ['POST', 'PUT', 'PATCH', 'DELETE', 'PROPFIND']) expect(allows({ method, origin: 'https://evil.example' })).toBe(false);
  });
  it('Sec-Fetch-Site decides when a browser sends it: same-origin and none pass, same-site and cross-site do not', () => {
    expect(allows({ secFetchSite: 'same-origin' })).toBe(true);
    expect(allows({ secFetchSite: 'none' })).toBe(true);
    expect(allows({ secFetchSite: 'Same-Origin' })).toBe(true);
    expect(allows({ secFetchSite: 'same-site', origin: 'https://blog.shop.example' })).toBe(false);
    expect(allows({ secFetchSite: 'cross-site', origin: 'https://evil.example' })).toBe(false);
    expect(allows({ secFetchSite: 'cross-site' })).toBe(false);
    // A proxy that rewrote Host does not matter: the browser said same-origin.
    expect(allows({ secFetchSite: 'same-origin', origin: 'https://shop.example', ownOrigin: 'http://gateway:8080' })).toBe(true);
  });
  it('an origin of the allowed list passes, even cross-site', () => {
    expect(allows({ secFetchSite: 'cross-site', origin: 'https://admin.example' })).toBe(true);
    expect(allows({ origin: 'https://admin.example' })).toBe(true);
    expect(allows({ origin: 'https://admin.example:8443' })).toBe(false);
  });
  it('without Sec-Fetch-Site: no Origin passes (not a browser); Origin must be the own origin, scheme and port included', () => {
    expect(allows({})).toBe(true);
    expect(allows({ origin: 'https://shop.example' })).toBe(true);
    expect(allows({ origin: 'https://shop.example:443' })).toBe(true);
    expect(allows({ origin: 'http://shop.example' })).toBe(false);
    expect(allows({ origin: 'https://shop.example:8443' })).toBe(false);
    expect(allows({ origin: 'https://evil.example' })).toBe(false);
    expect(allows({ origin: 'null' })).toBe(false);
    expect(allows({ origin: 'https://shop.example', ownOrigin: undefined })).toBe(false);
  });
});

describe('ALLOWED_ORIGINS', () => {
  const parse = (value: string) => parseConfig(GatewayEnv, { INTERNAL_TOKEN: TEST_INTERNAL_TOKEN, ALLOWED_ORIGINS: value }).ALLOWED_ORIGINS;
  it('is empty by default', () => {
    expect([...parseConfig(GatewayEnv, { INTERNAL_TOKEN: TEST_INTERNAL_TOKEN }).ALLOWED_ORIGINS]).toEqual([]);
  });
  it('takes comma-separated origins, written as browsers send them', () => {
    expect([...parse(' https://Admin.Example.com/ , http://localhost:5173,https://x.example:443,')]).toEqual(['https://admin.example.com', 'http://localhost:5173', 'https://x.example']);
  });
  it('refuses what is not a bare http(s) origin, naming the variable and the entry', () => {
    for (const bad of ['admin.example.com', 'https://a.example/path', 'ftp://a.example', 'null', 'https://u:p@a.example', 'https://a.example?x=1', '*']) {
      expect(() => parse(bad), bad).toThrow(/ALLOWED_ORIGINS: .* is not an origin/);
    }
  });
});

// ---------------------------------------------------------------- the gateway

const logger = createLogger('gateway-csrf-test', 'silent');
const FOREIGN = 'https://evil.example';
const PARTNER = 'https://partner.example';
let db: Awaited<ReturnType<typeof createTestDatabase>>;
let orm: Orm;
let nc: NatsConnection;
let uploads: UploadsFixture;
let identity: TestServer;
let staticRoot: string;
let unused: string;
let image: string;
const servers: TestServer[] = [];
let gateway: TestServer;

async function startGateway(env: Record<string, string> = {}): Promise<TestServer> {
  const config = GatewayEnv.parse({
    INTERNAL_TOKEN: TEST_INTERNAL_TOKEN,
    IDENTITY_URL: identity.url,
    CATALOG_URL: unused,
    ORDER_URL: unused,
    PAYMENT_URL: unused,
    REPORTING_URL: unused,
    STATIC_ROOT: staticRoot,
    SESSION_CACHE_SECONDS: '0',
    ...env,
  });
  const server = await listen(createApp({ config, logger }));
  servers.push(server);
  return server;
}

beforeAll(async () => {
  db = await createTestDatabase('gateway_csrf');
  staticRoot = await mkdtemp(join(tmpdir(), 'static-'));
  unused = `http://127.0.0.1:${await freePort()}`;
  nc = await connectNats(testNatsUrl(), 'identity-for-gateway-csrf-test');
  uploads = await startUploads(nc);
  image = await uploads.store(TINY_PNG);
  orm = await createOrm({ url: db.url, schema: 'identity', entities: [UserEntity, SessionEntity], migrations: identityMigrations });
  await migrate(orm, 'identity', db.url);
  identity = await listen(
    createIdentity({ orm, logger, nc, uploadsSubject: uploads.subject, config: IdentityEnv.parse({ DATABASE_URL: db.url, INTERNAL_TOKEN: TEST_INTERNAL_TOKEN }) }),
  );
  await createEmployee(orm.em.fork(), { ...validPerson({ username: 'csrfboss', password: 'admin-pass-1', image }), userType: 'SUPERADMIN', position: 'Owner' } as never);
  gateway = await startGateway({ ALLOWED_ORIGINS: PARTNER });
});

afterAll(async () => {
  for (const s of servers) await s.close();
  await identity?.close();
  await orm?.close();
  await uploads?.close();
  await nc?.drain();
  await db?.drop();
  await rm(staticRoot, { recursive: true, force: true });
});

interface Res {
  status: number;
  type: string;
  body: Json;
  setCookie: string[];
}

async function call(method: string, path: string, opts: { cookie?: string; body?: unknown; headers?: Record<string, string>; base?: string } = {}): Promise<Res> {
  const headers: Record<string, string> = { ...opts.headers };
  if (opts.cookie) headers.cookie = opts.cookie;
  let body: string | undefined;
  if (opts.body !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(opts.body);
  }
  const res = await fetch(`${opts.base ?? gateway.url}${path}`, { method, headers, body });
  const text = await res.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = text;
  }
  return { status: res.status, type: res.headers.get('content-type') ?? '', body: json, setCookie: res.headers.getSetCookie() };
}

async function login(): Promise<string> {
  const r = await call('POST', '/api/auth/login', { body: { username: 'csrfboss', password: 'admin-pass-1' } });
  expect(r.status).toBe(200);
  return r.setCookie[0]!.split(';')[0]!;
}

const signedIn = async (cookie: string) => (await call('GET', '/api/auth/me', { cookie })).status === 200;

function expectRefused(r: Res, what: string): void {
  expect(r.status, `${what}: ${JSON.stringify(r.body)}`).toBe(403);
  expect(r.type).toMatch(/^application\/problem\+json/);
  expect(r.body).toMatchObject({ status: 403, title: 'Cross-origin request refused', type: 'https://dme.example/problems/cross-origin-request', detail: CROSS_ORIGIN_DETAIL });
}

describe('cross-site requests at the gateway', () => {
  it('a logout (a POST without a body) from another origin is refused and the session goes on', async () => {
    const cookie = await login();
    expectRefused(await call('POST', '/api/auth/logout', { cookie, headers: { origin: FOREIGN } }), 'foreign Origin');
    expectRefused(await call('POST', '/api/auth/logout', { cookie, headers: { origin: FOREIGN, 'sec-fetch-site': 'cross-site' } }), 'cross-site');
    expectRefused(await call('POST', '/api/auth/logout', { cookie, headers: { 'sec-fetch-site': 'cross-site' } }), 'cross-site without Origin');
    // A sibling subdomain is the same site (SameSite=Lax sends the cookie), not the same origin.
    const sibling = new URL(gateway.url);
    expectRefused(await call('POST', '/api/auth/logout', { cookie, headers: { origin: `http://blog.${sibling.hostname}.nip.io`, 'sec-fetch-site': 'same-site' } }), 'same-site');
    expectRefused(await call('POST', '/api/auth/logout', { cookie, headers: { origin: `http://${sibling.hostname}:${Number(sibling.port) + 1}` } }), 'another port');
    expectRefused(await call('POST', '/api/auth/logout', { cookie, headers: { origin: 'null' } }), 'Origin null');
    expect(await signedIn(cookie)).toBe(true);
    // From the shop's own page it is carried out.
    expect((await call('POST', '/api/auth/logout', { cookie, headers: { origin: gateway.url, 'sec-fetch-site': 'same-origin' } })).status).toBeLessThan(300);
    expect(await signedIn(cookie)).toBe(false);
  });

  it('a change from another origin changes nothing (PATCH, DELETE, PUT too)', async () => {
    const cookie = await login();
    const before = (await call('GET', '/api/auth/me', { cookie })).body.user;
    const r = await call('PATCH', '/api/auth/me', { cookie, headers: { origin: FOREIGN, 'sec-fetch-site': 'cross-site' }, body: { ...before, city: 'Forged City' } });
    expectRefused(r, 'PATCH /api/auth/me');
    expect((await call('GET', '/api/auth/me', { cookie })).body.user.city).toBe(before.city);
    expectRefused(await call('DELETE', `/api/users/${before.id}`, { cookie, headers: { origin: FOREIGN } }), 'DELETE');
    expectRefused(await call('PUT', '/api/auth/me', { cookie, headers: { origin: FOREIGN } }), 'PUT');
    expect(await signedIn(cookie)).toBe(true);
  });

  it('passes the shop\'s own origin, an ALLOWED_ORIGINS origin, Sec-Fetch-Site same-origin or none, and requests without Origin', async () => {
    for (const headers of [
      { origin: gateway.url },
      { origin: gateway.url, 'sec-fetch-site': 'same-origin' },
      { 'sec-fetch-site': 'same-origin' },
      { 'sec-fetch-site': 'none' },
      { origin: PARTNER, 'sec-fetch-site': 'cross-site' },
      { origin: PARTNER },
      {},
    ] as Array<Record<string, string>>) {
      const r = await call('POST', '/api/auth/login', { headers, body: { username: 'csrfboss', password: 'admin-pass-1' } });
      expect(r.status, JSON.stringify(headers)).toBe(200);
    }
  });

  it('a GET from another origin is answered (reads change nothing)', async () => {
    const cookie = await login();
    expect((await call('GET', '/api/auth/me', { cookie, headers: { origin: FOREIGN, 'sec-fetch-site': 'cross-site' } })).status).toBe(200);
  });

  it('a legacy .php call from another origin is refused in the legacy error shape, and no session is made', async () => {
    const body = { username: 'csrfboss', password: 'admin-pass-1' };
    const r = await call('POST', '/users/login.php', { headers: { origin: FOREIGN }, body });
    expectRefused(r, 'login.php');
    expect(r.body).toMatchObject({ message: CROSS_ORIGIN_DETAIL, error: CROSS_ORIGIN_DETAIL });
    expect(r.setCookie).toEqual([]);
    const cookie = await login();
    expectRefused(await call('DELETE', `/users/delete.php?id=${(await call('GET', '/api/auth/me', { cookie })).body.user.id}`, { cookie, headers: { 'sec-fetch-site': 'same-site' } }), 'delete.php');
    // From the shop's own origin the legacy call goes through (its REST calls are the gateway's own).
    const ok = await call('POST', '/users/login.php', { headers: { origin: gateway.url }, body });
    expect(ok.status).toBe(200);
    expect(ok.setCookie.join(';')).toMatch(/dme_session=/);
  });

  it('behind a proxy (TRUST_PROXY=true) the own origin is X-Forwarded-Proto + X-Forwarded-Host; without it those headers count for nothing', async () => {
    const proxied = await startGateway({ TRUST_PROXY: 'true' });
    const body = { username: 'csrfboss', password: 'admin-pass-1' };
    const forwarded = { 'x-forwarded-proto': 'https', 'x-forwarded-host': 'shop.example:8443' };
    expect((await call('POST', '/api/auth/login', { base: proxied.url, body, headers: { ...forwarded, origin: 'https://shop.example:8443' } })).status).toBe(200);
    expectRefused(await call('POST', '/api/auth/login', { base: proxied.url, body, headers: { ...forwarded, origin: 'http://shop.example:8443' } }), 'scheme differs');
    expectRefused(await call('POST', '/api/auth/login', { base: proxied.url, body, headers: { ...forwarded, origin: 'https://shop.example' } }), 'port differs');
    // Not trusted: a client cannot make its origin "own" by sending the headers itself.
    expectRefused(await call('POST', '/api/auth/login', { body, headers: { ...forwarded, origin: 'https://shop.example:8443' } }), 'untrusted X-Forwarded-*');
  });
});
