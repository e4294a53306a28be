/**
 * The gateway's session cache (DESIGN §9, docs/decisions.md "Sessions"): resolved sessions are
 * kept in memory for a short time, and identity's revocations over NATS drop them at once, on
 * every gateway. Real identity, PostgreSQL and NATS; two gateway apps where it matters.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import type { RequestListener } from 'node:http';
import { connect as tcpConnect, createServer as createTcpServer, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectNats, createLogger, createOrm, migrate, type NatsConnection, type Orm } from '@dme/platform';
import { closePrefixedNats, createTestDatabase, freePort, listen, TEST_INTERNAL_TOKEN, testNatsPrefix, testNatsUrl, TINY_PNG, validPerson, type Json, type TestServer } from '@dme/testing';
import { startUploads, type UploadsFixture } from '@dme/testing/uploads';
import { createApp as createIdentity, createEmployee, IdentityEnv, migrations as identityMigrations, SessionEntity, UserEntity } from '@dme/identity';
import { GatewayEnv } from './config';
import { createApp } from './app';
import { followRevocations, sessionResolver, type SessionResolver } from './session';

const logger = createLogger('gateway-session-test', 'silent');
let db: Awaited<ReturnType<typeof createTestDatabase>>;
let orm: Orm;
let identityNc: NatsConnection;
let uploads: UploadsFixture;
let identity: TestServer;
let staticRoot: string;
let image: string;
let unused: string;
/**
 * This file's own NATS names: the counts of identity calls below hold only if no other file's
 * revocation (a logout in a test running beside this one) reaches these gateways.
 */
const natsPrefix = testNatsPrefix('gwsessions');
/** Calls identity's internal resolve route has answered (counted in front of the real app). */
let resolveCalls = 0;
/** Calls to identity's resolve-many. */
let resolveManyCalls = 0;
/** While set, resolve-many is answered with one answer too few (a fault in front of the real app). */
let shortAnswers = false;
/** How many of the next answers to resolve(-many) identity holds (computed, not yet sent) until `releaseHeld`. */
let holdNext = 0;
const held: Array<() => void> = [];
const releaseHeld = () => held.splice(0).forEach((send) => send());
const gateways: Gateway[] = [];

interface Gateway {
  url: string;
  sessions: SessionResolver;
  nc?: NatsConnection;
  close: () => Promise<void>;
}

/** A gateway app on the shared identity; with `nats`, it follows revocations on its own connection. */
async function startGateway(opts: { nats?: boolean; env?: Record<string, string> } = {}): Promise<Gateway> {
  const config = GatewayEnv.parse({
    INTERNAL_TOKEN: TEST_INTERNAL_TOKEN,
    IDENTITY_URL: identity.url,
    CATALOG_URL: unused,
    ORDER_URL: unused,
    PAYMENT_URL: unused,
    REPORTING_URL: unused,
    STATIC_ROOT: staticRoot,
    NATS_URL: testNatsUrl(),
    ...opts.env,
  });
  const sessions = sessionResolver(config, logger);
  const nc = opts.nats === false ? undefined : await connectNats(config.NATS_URL, 'gateway-session-test', { prefix: natsPrefix });
  if (nc) sessions.follow(nc);
  const server = await listen(createApp({ config, logger, sessions }));
  const gw: Gateway = {
    url: server.url,
    sessions,
    nc,
    close: async () => {
      await server.close();
      if (nc && !nc.isClosed()) await nc.close();
    },
  };
  gateways.push(gw);
  if (nc && config.SESSION_CACHE_SECONDS > 0) await until(() => sessions.caching, 'the gateway follows revocations');
  return gw;
}

const lateFeeds: Array<() => Promise<void>> = [];

/**
 * A TCP relay to NATS that hands on everything NATS sends `ms` late, in order: a gateway behind it
 * reads identity's revocations well after identity has been told they were sent (a busy machine).
 */
async function lateNatsUrl(ms: number): Promise<string> {
  const target = new URL(testNatsUrl());
  const sockets = new Set<Socket>();
  const server = createTcpServer((client) => {
    const nats = tcpConnect(Number(target.port || 4222), target.hostname);
    sockets.add(client).add(nats);
    client.pipe(nats);
    nats.on('data', (chunk: Buffer) => {
      setTimeout(() => {
        if (!client.destroyed) client.write(chunk);
      }, ms);
    });
    const end = () => {
      client.destroy();
      nats.destroy();
    };
    client.on('error', end).on('close', end);
    nats.on('error', end).on('close', () => setTimeout(end, ms));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  lateFeeds.push(async () => {
    for (const s of sockets) s.destroy();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('the NATS relay has no port');
  return `nats://127.0.0.1:${address.port}`;
}

async function until(check: () => boolean, what: string, ms = 5000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out waiting until ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

beforeAll(async () => {
  db = await createTestDatabase('gateway_sessions');
  staticRoot = await mkdtemp(join(tmpdir(), 'static-'));
  unused = `http://127.0.0.1:${await freePort()}`;
  identityNc = await connectNats(testNatsUrl(), 'identity-for-gateway-session-test', { prefix: natsPrefix });
  uploads = await startUploads(identityNc);
  image = await uploads.store(TINY_PNG);
  orm = await createOrm({ url: db.url, schema: 'identity', entities: [UserEntity, SessionEntity], migrations: identityMigrations });
  await migrate(orm, 'identity', db.url);
  const app = createIdentity({
    orm,
    logger,
    nc: identityNc,
    uploadsSubject: uploads.subject,
    // Many customers register here from one address (the registration limit is not what is tested).
    config: IdentityEnv.parse({ DATABASE_URL: db.url, INTERNAL_TOKEN: TEST_INTERNAL_TOKEN, REGISTER_MAX_PER_IP: '1000' }),
  });
  identity = await listen({
    callback: (): RequestListener => {
      const handle = app.callback();
      return (req, res) => {
        if (req.method === 'POST' && req.url === '/internal/sessions/resolve') resolveCalls++;
        if (req.method === 'POST' && req.url?.startsWith('/internal/sessions/resolve') && holdNext > 0) {
          holdNext--;
          const end = res.end.bind(res) as (...args: unknown[]) => void;
          res.end = ((...args: unknown[]) => {
            held.push(() => end(...args));
            return res;
          }) as typeof res.end;
        }
        if (req.method === 'POST' && req.url === '/internal/sessions/resolve-many') {
          resolveManyCalls++;
          if (shortAnswers) {
            const chunks: Buffer[] = [];
            req.on('data', (c: Buffer) => chunks.push(c));
            req.on('end', () => {
              const { tokens } = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { tokens: string[] };
              res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ answers: tokens.slice(1).map(() => null) }));
            });
            return;
          }
        }
        void handle(req, res);
      };
    },
  });
  await createEmployee(orm.em.fork(), { ...validPerson({ username: 'boss1', password: 'admin-pass-1', image }), userType: 'SUPERADMIN', position: 'Owner' } as never);
});

afterAll(async () => {
  releaseHeld();
  for (const gw of gateways) await gw.close();
  for (const close of lateFeeds) await close();
  await identity?.close();
  await orm?.close();
  await uploads?.close();
  await closePrefixedNats(identityNc);
  await db?.drop();
  await rm(staticRoot, { recursive: true, force: true });
});

interface Res {
  status: number;
  body: Json;
  cookie?: string;
}

async function call(gw: Gateway, method: string, path: string, opts: { cookie?: string; body?: unknown } = {}): Promise<Res> {
  const headers: Record<string, string> = {};
  if (opts.cookie) headers.cookie = opts.cookie;
  let body: string | undefined;
  if (opts.body !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(opts.body);
  }
  const res = await fetch(`${gw.url}${path}`, { method, headers, body });
  const text = await res.text();
  let json: Json;
  try {
    json = JSON.parse(text) as Json;
  } catch {
    json = text as Json;
  }
  return { status: res.status, body: json, cookie: res.headers.get('set-cookie')?.split(';')[0] };
}

const me = (gw: Gateway, cookie: string) => call(gw, 'GET', '/api/auth/me', { cookie });

async function login(gw: Gateway, username: string, password: string): Promise<string> {
  const res = await call(gw, 'POST', '/api/auth/login', { body: { username, password } });
  expect(res.status).toBe(200);
  return res.cookie!;
}

async function customer(gw: Gateway): Promise<{ cookie: string; id: string }> {
  const person = validPerson({ image });
  const reg = await call(gw, 'POST', '/api/auth/register', { body: person });
  expect(reg.status).toBe(201);
  return { cookie: await login(gw, person.username, person.password), id: reg.body.user.id };
}

/** Asks `gw` for /me with each cookie and checks the second round came from its cache (no call to identity). */
async function cacheAt(gw: Gateway, ...cookies: string[]): Promise<void> {
  for (const c of cookies) expect((await me(gw, c)).status).toBe(200);
  await servedFromCache(gw, ...cookies);
}

/** Asks `gw` for /me with each cookie: each is answered 200 from its cache (no call to identity). */
async function servedFromCache(gw: Gateway, ...cookies: string[]): Promise<void> {
  const before = resolveCalls;
  for (const c of cookies) expect((await me(gw, c)).status).toBe(200);
  expect(resolveCalls, 'served from the cache').toBe(before);
}

describe('the session cache saves identity calls', () => {
  it('a burst of requests makes one resolve call with the cache, one per request without it', async () => {
    const cached = await startGateway();
    const uncached = await startGateway({ env: { SESSION_CACHE_SECONDS: '0' } });
    const c = await customer(cached);
    const N = 50;

    let before = resolveCalls;
    for (let i = 0; i < N; i++) expect((await me(uncached, c.cookie)).status).toBe(200);
    const withoutCache = resolveCalls - before;

    before = resolveCalls;
    for (let i = 0; i < N; i++) expect((await me(cached, c.cookie)).status).toBe(200);
    const withCache = resolveCalls - before;

    expect(withoutCache).toBe(N);
    expect(withCache).toBe(1);
    expect(cached.sessions.identityCalls).toBeLessThan(uncached.sessions.identityCalls);
  });

  it('concurrent requests with a cookie the gateway has not seen share one resolve call', async () => {
    const gw = await startGateway();
    const c = await customer(gw);
    const before = resolveCalls;
    const answers = await Promise.all(Array.from({ length: 30 }, () => me(gw, c.cookie)));
    expect(answers.map((a) => a.status)).toEqual(Array(30).fill(200));
    expect(resolveCalls - before).toBe(1);
  });

  it('an entry is served for SESSION_CACHE_SECONDS at most', async () => {
    const gw = await startGateway({ env: { SESSION_CACHE_SECONDS: '1' } });
    const c = await customer(gw);
    await cacheAt(gw, c.cookie);
    await new Promise((r) => setTimeout(r, 1100));
    const before = resolveCalls;
    expect((await me(gw, c.cookie)).status).toBe(200);
    expect(resolveCalls - before).toBe(1);
  });

  it("an entry never outlives the session's own end", async () => {
    const gw = await startGateway();
    const c = await customer(gw);
    await cacheAt(gw, c.cookie);
    // The session ends in 1.5 s (nobody announces an expiry): the gateway must not keep it longer.
    await orm.em.fork().execute(`update identity.sessions set expires_at = now() + interval '1500 milliseconds' where user_id = ?`, [c.id], 'run');
    const other = await startGateway();
    expect((await me(other, c.cookie)).status).toBe(200);
    await new Promise((r) => setTimeout(r, 1700));
    expect((await me(other, c.cookie)).status).toBe(401);
  });

  it('forged cookies are never cached', async () => {
    const gw = await startGateway();
    const before = resolveCalls;
    for (let i = 0; i < 3; i++) expect((await me(gw, 'dme_session=forged-token')).status).toBe(401);
    expect(resolveCalls - before).toBe(3);
    expect(gw.sessions.size).toBe(0);
  });
});

describe('ended sessions are refused on the very next request, on every gateway', () => {
  it('logout through the gateway that had the session cached', async () => {
    const a = await startGateway();
    const c = await customer(a);
    await cacheAt(a, c.cookie);
    expect((await call(a, 'POST', '/api/auth/logout', { cookie: c.cookie })).status).toBe(204);
    expect((await me(a, c.cookie)).status).toBe(401);
  });

  it('logout through gateway A is refused at gateway B, which had the session cached', async () => {
    const a = await startGateway();
    const b = await startGateway();
    const c = await customer(a);
    const other = await login(a, 'boss1', 'admin-pass-1');
    await cacheAt(a, c.cookie, other);
    await cacheAt(b, c.cookie, other);
    expect((await call(a, 'POST', '/api/auth/logout', { cookie: c.cookie })).status).toBe(204);
    expect((await me(b, c.cookie)).status).toBe(401);
    expect((await me(a, c.cookie)).status).toBe(401);
    // Only that session ended: another cached session stays cached at B.
    await servedFromCache(b, other);
  });

  it('deactivation by the superadmin through A is refused at B (every session of the user)', async () => {
    const a = await startGateway();
    const b = await startGateway();
    const admin = await login(a, 'boss1', 'admin-pass-1');
    const c = await customer(b);
    const person = validPerson({ image });
    expect((await call(b, 'POST', '/api/auth/register', { body: person })).status).toBe(201);
    const second = await login(b, person.username, person.password);
    await cacheAt(b, c.cookie, second);
    await cacheAt(a, c.cookie);
    expect((await call(a, 'PATCH', `/api/users/${c.id}/status`, { cookie: admin, body: { status: 'DEACTIVATED' } })).status).toBe(200);
    expect((await me(b, c.cookie)).status).toBe(401);
    expect((await me(a, c.cookie)).status).toBe(401);
    // Another user's cached session is not touched.
    await servedFromCache(b, second);
  });

  it('a session signed in twice: deactivation ends both, at B', async () => {
    const a = await startGateway();
    const b = await startGateway();
    const admin = await login(a, 'boss1', 'admin-pass-1');
    const person = validPerson({ image });
    const reg = await call(a, 'POST', '/api/auth/register', { body: person });
    const one = await login(a, person.username, person.password);
    const two = await login(b, person.username, person.password);
    await cacheAt(b, one, two);
    expect((await call(a, 'PATCH', `/api/users/${reg.body.user.id}/status`, { cookie: admin, body: { status: 'DEACTIVATED' } })).status).toBe(200);
    expect((await me(b, one)).status).toBe(401);
    expect((await me(b, two)).status).toBe(401);
  });

  it('deletion through A is refused at B', async () => {
    const a = await startGateway();
    const b = await startGateway();
    const admin = await login(a, 'boss1', 'admin-pass-1');
    const c = await customer(a);
    await cacheAt(b, c.cookie);
    expect((await call(a, 'DELETE', `/api/users/${c.id}`, { cookie: admin })).status).toBe(204);
    // A route identity does not answer itself (the order service is not running here: a request
    // let through would be 503), so the refusal can only come from the gateway.
    expect((await call(b, 'GET', '/api/cart?type=RENT', { cookie: c.cookie })).status).toBe(401);
    expect((await me(b, c.cookie)).status).toBe(401);
  });

  it("an employee's new user type applies at B on the very next request (no cached old role)", async () => {
    const a = await startGateway();
    const b = await startGateway();
    const admin = await login(a, 'boss1', 'admin-pass-1');
    const person = validPerson({ image });
    const created = await call(a, 'POST', '/api/employees', { cookie: admin, body: { ...person, userType: 'SUPERADMIN', position: 'Co-owner' } });
    expect(created.status).toBe(201);
    const emp = await login(b, person.username, person.password);
    expect((await call(b, 'GET', '/api/users', { cookie: emp })).status).toBe(200);
    expect((await call(b, 'GET', '/api/users', { cookie: emp })).status).toBe(200);
    const { username: _u, password: _p, ...fields } = person;
    const demoted = await call(a, 'PATCH', `/api/employees/${created.body.user.id}`, { cookie: admin, body: { ...fields, userType: 'WAREHOUSE_STAFF', position: 'Staff' } });
    expect(demoted.status).toBe(200);
    expect((await call(b, 'GET', '/api/users', { cookie: emp })).status).toBe(403);
  });

  it('a gateway that reads NATS late still refuses the very next request: it waits until NATS has caught up', async () => {
    const a = await startGateway();
    const b = await startGateway({ env: { NATS_URL: await lateNatsUrl(150) } });
    const c = await customer(a);
    const other = await login(a, 'boss1', 'admin-pass-1');
    await cacheAt(b, c.cookie, other);
    expect((await call(a, 'POST', '/api/auth/logout', { cookie: c.cookie })).status).toBe(204);
    // Identity has announced the logout; B hears it 150 ms later, after this request has arrived.
    expect((await me(b, c.cookie)).status).toBe(401);
    // Another session is still served from B's memory.
    await servedFromCache(b, other);
  });

  it('a gateway whose NATS answers slower than it may wait asks identity instead, and still refuses the next request', async () => {
    const a = await startGateway();
    const b = await startGateway({ env: { NATS_URL: await lateNatsUrl(700) } });
    const c = await customer(a);
    expect(b.sessions.caching).toBe(true);
    // NATS answers B's pings 700 ms late, past the 500 ms a cached answer may wait: each request is asked of identity.
    expect((await me(b, c.cookie)).status).toBe(200);
    const before = resolveCalls;
    expect((await me(b, c.cookie)).status).toBe(200);
    expect(resolveCalls - before).toBe(1);
    expect((await call(a, 'POST', '/api/auth/logout', { cookie: c.cookie })).status).toBe(204);
    expect((await me(b, c.cookie)).status).toBe(401);
  });

  it('a request does not share a lookup begun before a revocation it arrived after', async () => {
    const a = await startGateway();
    const b = await startGateway({ env: { NATS_URL: await lateNatsUrl(150) } });
    const c = await customer(a);
    const token = c.cookie.split('=')[1]!;
    holdNext = 1;
    // B's lookup of the session is answered "signed in" by identity, and that answer is held.
    const before = b.sessions.resolve(token);
    await until(() => held.length === 1, 'identity answered the first lookup');
    expect((await call(a, 'POST', '/api/auth/logout', { cookie: c.cookie })).status).toBe(204);
    // Arrives after the logout, while B's first lookup is still on its way (and B has not heard yet).
    const after = b.sessions.resolve(token);
    releaseHeld();
    expect((await before)?.userId, 'the lookup begun before the logout serves its own request').toBe(c.id);
    expect(await after).toBeUndefined();
  });

  it('an answer that was in flight when a revocation arrived serves its request but is not kept', async () => {
    const gw = await startGateway();
    const c = await customer(gw);
    const pending = gw.sessions.resolve(c.cookie.split('=')[1]);
    gw.sessions.revoke({ userId: c.id, reason: 'deactivated' });
    expect((await pending)?.userId).toBe(c.id);
    expect(gw.sessions.size).toBe(0);
    const before = resolveCalls;
    await gw.sessions.resolve(c.cookie.split('=')[1]);
    expect(resolveCalls - before).toBe(1);
  });
});

describe('without NATS the gateway caches nothing', () => {
  it('when its NATS connection closes, it resolves every request again (and still refuses ended sessions)', async () => {
    const gw = await startGateway();
    const other = await startGateway();
    const c = await customer(gw);
    await cacheAt(gw, c.cookie);
    expect(gw.sessions.size).toBeGreaterThan(0);

    await gw.nc!.close();
    await until(() => !gw.sessions.caching, 'the gateway stops caching');
    expect(gw.sessions.size).toBe(0);
    const before = resolveCalls;
    for (let i = 0; i < 5; i++) expect((await me(gw, c.cookie)).status).toBe(200);
    expect(resolveCalls - before).toBe(5);

    // Blind to revocations, it asks identity: a logout elsewhere is refused here at once.
    expect((await call(other, 'POST', '/api/auth/logout', { cookie: c.cookie })).status).toBe(204);
    expect((await me(gw, c.cookie)).status).toBe(401);
  });

  it('starts and serves while NATS is unreachable, resolving every request', async () => {
    const config = GatewayEnv.parse({ INTERNAL_TOKEN: TEST_INTERNAL_TOKEN, IDENTITY_URL: identity.url, STATIC_ROOT: staticRoot, NATS_URL: `nats://127.0.0.1:${await freePort()}` });
    const sessions = sessionResolver(config, logger);
    const feed = followRevocations(config.NATS_URL, sessions, logger);
    const server = await listen(createApp({ config, logger, sessions }));
    const gw: Gateway = { url: server.url, sessions, close: () => server.close() };
    gateways.push(gw);
    try {
      const c = await customer(gw);
      const before = resolveCalls;
      for (let i = 0; i < 3; i++) expect((await me(gw, c.cookie)).status).toBe(200);
      expect(resolveCalls - before).toBe(3);
      expect(sessions.caching).toBe(false);
    } finally {
      await feed.stop();
    }
  });

  it('SESSION_CACHE_SECONDS=0 caches nothing even with NATS', async () => {
    const gw = await startGateway({ nats: false });
    const off = sessionResolver(GatewayEnv.parse({ INTERNAL_TOKEN: TEST_INTERNAL_TOKEN, IDENTITY_URL: identity.url, SESSION_CACHE_SECONDS: '0' }), logger);
    const nc = await connectNats(testNatsUrl(), 'gateway-session-test-off', { prefix: natsPrefix });
    try {
      off.follow(nc);
      await nc.flush();
      expect(off.caching).toBe(false);
      expect(gw.sessions.caching).toBe(false);
    } finally {
      await nc.close();
    }
  });
});

describe('lookups that arrive together go to identity in one call (resolve-many)', () => {
  const token = (cookie: string) => cookie.split('=')[1]!;
  const forged = () => `forged-${Math.random().toString(36).slice(2)}-${Date.now()}`;

  async function people(gw: Gateway, n: number): Promise<Array<{ cookie: string; id: string }>> {
    const out = [];
    for (let i = 0; i < n; i++) out.push(await customer(gw));
    return out;
  }

  it('cookies asked for in the same turn: one call, and each answered with its own session', async () => {
    const gw = await startGateway({ nats: false });
    const them = await people(gw, 6);
    const ended = await customer(gw);
    expect((await call(gw, 'POST', '/api/auth/logout', { cookie: ended.cookie })).status).toBe(204);
    const resolver = sessionResolver(GatewayEnv.parse({ INTERNAL_TOKEN: TEST_INTERNAL_TOKEN, IDENTITY_URL: identity.url }), logger);
    const asked = [forged(), token(them[2]!.cookie), token(ended.cookie), token(them[0]!.cookie), token(them[5]!.cookie), token(them[2]!.cookie), forged(), token(them[1]!.cookie), token(them[4]!.cookie), token(them[3]!.cookie)];
    const manyBefore = resolveManyCalls;
    const oneBefore = resolveCalls;
    const answers = await Promise.all(asked.map((t) => resolver.resolve(t)));
    expect(resolver.identityCalls).toBe(1);
    expect(resolveManyCalls - manyBefore).toBe(1);
    expect(resolveCalls - oneBefore).toBe(0);
    asked.forEach((t, i) => {
      const owner = them.find((p) => token(p.cookie) === t);
      expect(answers[i]?.userId, `cookie ${i}`).toBe(owner?.id);
    });
  });

  it('through the gateway: concurrent requests of many customers each get their own account, forged and ended cookies 401', async () => {
    for (const gw of [await startGateway({ nats: false }), await startGateway()]) {
      const them = await people(gw, 8);
      const ended = await customer(gw);
      expect((await call(gw, 'POST', '/api/auth/logout', { cookie: ended.cookie })).status).toBe(204);
      const asks = [...them, ...them.slice().reverse(), ...them].map((p) => ({ cookie: p.cookie, id: p.id as string | undefined }));
      asks.splice(5, 0, { cookie: `dme_session=${forged()}`, id: undefined }, { cookie: ended.cookie, id: undefined });
      const answers = await Promise.all(asks.map((a) => me(gw, a.cookie)));
      answers.forEach((res, i) => {
        if (asks[i]!.id === undefined) expect(res.status, `request ${i}`).toBe(401);
        else expect([res.status, res.body.user?.id], `request ${i}`).toEqual([200, asks[i]!.id]);
      });
    }
  });

  it('an answer that is not one per cookie is not used: each cookie is asked for alone', async () => {
    const gw = await startGateway({ nats: false });
    const them = await people(gw, 4);
    const resolver = sessionResolver(GatewayEnv.parse({ INTERNAL_TOKEN: TEST_INTERNAL_TOKEN, IDENTITY_URL: identity.url }), logger);
    const asked = [token(them[0]!.cookie), forged(), token(them[1]!.cookie), token(them[2]!.cookie), token(them[3]!.cookie)];
    shortAnswers = true;
    try {
      const oneBefore = resolveCalls;
      const answers = await Promise.all(asked.map((t) => resolver.resolve(t)));
      expect(resolveCalls - oneBefore).toBe(asked.length);
      expect(answers.map((a) => a?.userId)).toEqual([them[0]!.id, undefined, them[1]!.id, them[2]!.id, them[3]!.id]);
    } finally {
      shortAnswers = false;
    }
  });
});
