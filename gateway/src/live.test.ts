/**
 * Live updates (GET /api/events): server-sent events served by the gateway, fed by NATS and
 * filtered per user on the server. Real identity, PostgreSQL and NATS; the hub listens on subjects
 * private to this run (the real `dme.*` subjects are bound to the JetStream event stream, and
 * other suites' consumers would replay anything published there).
 */
import http from 'node:http';
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EVENTS, LiveEvent, type EventType, type OrderStatus } from '@dme/contracts';
import { connectNats, createLogger, createOrm, eventEnvelope, migrate, type NatsConnection, type Orm } from '@dme/platform';
import { createTestDatabase, freePort, listen, TEST_INTERNAL_TOKEN, testNatsUrl, TINY_PNG, validPerson, type Json } from '@dme/testing';
import { startUploads, type UploadsFixture } from '@dme/testing/uploads';
import { createApp as createIdentity, createEmployee, IdentityEnv, migrations as identityMigrations, SessionEntity, UserEntity } from '@dme/identity';
import { GatewayEnv } from './config';
import { createApp } from './app';
import { sessionResolver, type SessionResolver } from './session';
import { audienceOf, LIVE_SUBJECTS, LiveHub, liveOptions, mayReceive, routeEvent } from './live';

const logger = createLogger('gateway-live-test', 'silent');
const run = randomUUID().slice(0, 8);
/** The hub under test listens on `<prefix>dme.order.>` etc. */
const prefix = `test.live-${run}.`;
let db: Awaited<ReturnType<typeof createTestDatabase>>;
let orm: Orm;
let identityNc: NatsConnection;
let publisher: NatsConnection;
let uploads: UploadsFixture;
let identity: { url: string; close: () => Promise<void> };
let staticRoot: string;
let image: string;
let unused: string;
const gateways: Gateway[] = [];
const streams: Sse[] = [];

interface Gateway {
  url: string;
  sessions: SessionResolver;
  live: LiveHub;
  close: () => Promise<void>;
}

/**
 * A gateway app on the shared identity. By default it follows identity's revocations and its live
 * hub listens to NATS (as main.ts sets it up); `nats: false` gives one with neither.
 */
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
  const live = new LiveHub(liveOptions(config, sessions, logger));
  let nc: NatsConnection | undefined;
  if (opts.nats !== false) {
    nc = await connectNats(config.NATS_URL, 'gateway-live-test');
    sessions.follow(nc);
    live.attach(nc, { prefix });
    await nc.flush();
  }
  const server = await listen(createApp({ config, logger, sessions, live }));
  const gw: Gateway = {
    url: server.url,
    sessions,
    live,
    close: async () => {
      live.close();
      await server.close();
      if (nc && !nc.isClosed()) await nc.close();
    },
  };
  gateways.push(gw);
  return gw;
}

async function until(check: () => boolean, what: string, ms = 5000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out waiting until ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

beforeAll(async () => {
  db = await createTestDatabase('gateway_live');
  staticRoot = await mkdtemp(join(tmpdir(), 'static-'));
  unused = `http://127.0.0.1:${await freePort()}`;
  identityNc = await connectNats(testNatsUrl(), 'identity-for-gateway-live-test');
  publisher = await connectNats(testNatsUrl(), 'publisher-for-gateway-live-test');
  uploads = await startUploads(identityNc);
  image = await uploads.store(TINY_PNG);
  orm = await createOrm({ url: db.url, schema: 'identity', entities: [UserEntity, SessionEntity], migrations: identityMigrations });
  await migrate(orm, 'identity', db.url);
  identity = await listen(
    createIdentity({ orm, logger, nc: identityNc, uploadsSubject: uploads.subject, config: IdentityEnv.parse({ DATABASE_URL: db.url, INTERNAL_TOKEN: TEST_INTERNAL_TOKEN }) }),
  );
  for (const [username, userType, position] of [
    ['boss1', 'SUPERADMIN', 'Owner'],
    ['staff1', 'WAREHOUSE_STAFF', 'Staff'],
    ['books1', 'ACCOUNTING_ADMIN', 'Accounting'],
    ['driver1', 'DRIVER', 'Driver'],
    ['driver2', 'DRIVER', 'Driver'],
    ['helpdesk1', 'SUPPORT', 'Support'],
  ] as const) {
    await createEmployee(orm.em.fork(), { ...validPerson({ username, password: 'staff-pass-1', image }), userType, position } as never);
  }
});

afterAll(async () => {
  for (const s of streams) s.close();
  for (const gw of gateways) await gw.close();
  await identity?.close();
  await orm?.close();
  await uploads?.close();
  await publisher?.drain();
  await identityNc?.drain();
  await db?.drop();
  await rm(staticRoot, { recursive: true, force: true });
});

// ---------------------------------------------------------------- helpers

async function call(gw: Gateway, method: string, path: string, opts: { cookie?: string; body?: unknown; headers?: Record<string, string> } = {}) {
  const headers: Record<string, string> = { ...opts.headers };
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
    json = text;
  }
  return { status: res.status, headers: res.headers, body: json, cookie: res.headers.get('set-cookie')?.split(';')[0] };
}

interface User {
  cookie: string;
  id: string;
}

async function login(gw: Gateway, username: string, password = 'staff-pass-1'): Promise<User> {
  const res = await call(gw, 'POST', '/api/auth/login', { body: { username, password } });
  expect(res.status).toBe(200);
  return { cookie: res.cookie!, id: res.body.user.id as string };
}

async function customer(gw: Gateway): Promise<User> {
  const person = validPerson({ image });
  expect((await call(gw, 'POST', '/api/auth/register', { body: person })).status).toBe(201);
  return login(gw, person.username, person.password);
}

interface SseMessage {
  event?: string;
  data?: string;
  retry?: string;
  comment?: string;
}

/** An event-stream read over a raw HTTP request, message by message, as it arrives. */
class Sse {
  readonly messages: SseMessage[] = [];
  /** Everything received, as text (the body is never compressed, so it reads as it is). */
  text = '';
  ended = false;
  readonly end: Promise<void>;
  private buffer = '';
  private waiters: Array<() => void> = [];

  private constructor(
    readonly res: http.IncomingMessage,
    private readonly req: http.ClientRequest,
  ) {
    res.setEncoding('utf8');
    res.on('data', (chunk: string) => {
      this.text += chunk;
      this.buffer += chunk;
      let cut: number;
      while ((cut = this.buffer.indexOf('\n\n')) >= 0) {
        const block = this.buffer.slice(0, cut);
        this.buffer = this.buffer.slice(cut + 2);
        const m: SseMessage = {};
        for (const line of block.split('\n')) {
          if (line.startsWith(':')) m.comment = line.slice(1).trim();
          else if (line.startsWith('event: ')) m.event = line.slice(7);
          else if (line.startsWith('data: ')) m.data = line.slice(6);
          else if (line.startsWith('retry: ')) m.retry = line.slice(7);
        }
        this.messages.push(m);
      }
      this.wake();
    });
    this.end = new Promise((resolve) => {
      const done = () => {
        this.ended = true;
        this.wake();
        resolve();
      };
      res.once('end', done);
      res.once('close', done);
    });
  }

  static open(gw: Gateway, cookie: string | undefined, headers: Record<string, string> = {}): Promise<Sse> {
    const url = new URL('/api/events', gw.url);
    return new Promise((resolve, reject) => {
      const req = http.request({
        hostname: url.hostname,
        port: url.port,
        path: url.pathname,
        headers: { accept: 'text/event-stream', 'accept-encoding': 'gzip, deflate', ...(cookie ? { cookie } : {}), ...headers },
      });
      req.once('response', (res) => {
        const sse = new Sse(res, req);
        streams.push(sse);
        resolve(sse);
      });
      req.once('error', reject);
      req.end();
    });
  }

  get status(): number {
    return this.res.statusCode ?? 0;
  }

  /** The `change` events received so far. */
  get changes(): LiveEvent[] {
    return this.messages.filter((m) => m.event === 'change').map((m) => LiveEvent.parse(JSON.parse(m.data!)));
  }

  /** Waits for a message that matches (or the end of the stream when `until` is 'end'). */
  async waitFor(match: ((m: SseMessage) => boolean) | 'end', what: string, ms = 5000): Promise<void> {
    const end = Date.now() + ms;
    for (;;) {
      if (match === 'end' ? this.ended : this.messages.some(match)) return;
      if (this.ended) throw new Error(`the stream ended before ${what}`);
      const left = end - Date.now();
      if (left <= 0) throw new Error(`timed out waiting for ${what}`);
      await new Promise<void>((resolve) => {
        const t = setTimeout(resolve, left);
        this.waiters.push(() => {
          clearTimeout(t);
          resolve();
        });
      });
    }
  }

  waitForOrder(orderId: string, ms?: number): Promise<void> {
    return this.waitFor((m) => m.event === 'change' && (JSON.parse(m.data!) as LiveEvent).orderId === orderId, `the event of order ${orderId}`, ms);
  }

  close(): void {
    this.req.destroy();
  }

  private wake(): void {
    const w = this.waiters;
    this.waiters = [];
    for (const f of w) f();
  }
}

/** A whole answer that is not a stream (a refusal), read with fetch. */
async function refusal(gw: Gateway, cookie: string | undefined, headers: Record<string, string> = { accept: 'text/event-stream' }) {
  return call(gw, 'GET', '/api/events', { cookie, headers });
}

interface Ids {
  orderId?: string;
  customerId: string;
}

/** Publishes a domain event as its service would, on this run's private subjects. */
function publish<T extends EventType>(type: T, data: Record<string, unknown>): void {
  const envelope = eventEnvelope('test', { type, aggregateId: String(data.orderId ?? randomUUID()), data } as never);
  publisher.publish(`${prefix}${type}`, JSON.stringify(envelope));
}

function statusChanged(ids: Ids, to: OrderStatus, extra: { by?: string | null; driverId?: string | null; from?: OrderStatus; type?: 'BUY' | 'RENT' } = {}): string {
  const orderId = ids.orderId ?? randomUUID();
  publish(EVENTS.order.statusChanged, {
    orderId,
    orderNumber: `ORD-${orderId.slice(0, 6)}`,
    customerId: ids.customerId,
    type: extra.type ?? 'RENT',
    from: extra.from ?? 'PREPARING',
    to,
    by: extra.by ?? null,
    driverId: extra.driverId ?? null,
  });
  return orderId;
}

function placed(ids: Ids, type: 'BUY' | 'RENT' = 'BUY'): string {
  const orderId = ids.orderId ?? randomUUID();
  publish(EVENTS.order.placed, {
    orderId,
    orderNumber: `ORD-${orderId.slice(0, 6)}`,
    customerId: ids.customerId,
    type,
    typeOfOrder: null,
    totalAmount: '10.00',
    lines: [],
  });
  return orderId;
}

function paymentConfirmed(ids: Ids): string {
  const orderId = ids.orderId ?? randomUUID();
  publish(EVENTS.payment.confirmed, {
    paymentId: randomUUID(),
    orderId,
    orderNumber: `ORD-${orderId.slice(0, 6)}`,
    customerId: ids.customerId,
    orderType: 'BUY',
    type: 'FULL',
    status: 'PAID',
    amount: '10.00',
    invoiceNumber: 'INV-1',
    receiptNumber: 'R-1',
    note: '',
    accommodatedBy: randomUUID(),
    confirmedAt: new Date().toISOString(),
    totalPartialPayment: null,
    extraCharge: null,
    overallTotal: null,
    balance: '0.00',
    dueDate: null,
  });
  return orderId;
}

function requestChanged(ids: Ids): string {
  const orderId = ids.orderId ?? randomUUID();
  publish(EVENTS.request.changed, {
    requestId: randomUUID(),
    orderId,
    orderNumber: `ORD-${orderId.slice(0, 6)}`,
    customerId: ids.customerId,
    type: 'FIX',
    status: 'PENDING',
  });
  return orderId;
}

// ---------------------------------------------------------------- tests

describe('opening the stream', () => {
  let gw: Gateway;
  beforeAll(async () => {
    gw = await startGateway();
  });

  it('answers 401 problem+json without a session, or with a forged one', async () => {
    for (const cookie of [undefined, 'dme_session=forged-token']) {
      const res = await refusal(gw, cookie);
      expect(res.status).toBe(401);
      expect(res.headers.get('content-type')).toContain('application/problem+json');
      expect(res.body.detail).toBe('Please sign in.');
    }
    expect(gw.live.size).toBe(0);
  });

  it('answers 406 problem+json at once to a request that does not accept text/event-stream (no never-ending answer to plain GETs)', async () => {
    const c = await customer(gw);
    for (const accept of ['application/json', '*/*', 'text/event-stream;q=0']) {
      const res = await call(gw, 'GET', '/api/events?a=%zz&__proto__=x', { cookie: c.cookie, headers: { accept } });
      expect(res.status, accept).toBe(406);
      expect(res.headers.get('content-type')).toContain('application/problem+json');
      expect(res.body.detail).toContain('text/event-stream');
    }
    expect(gw.live.size).toBe(0);
  });

  it('answers 405 to other methods and 400 to a GET with a body', async () => {
    const c = await customer(gw);
    const post = await call(gw, 'POST', '/api/events', { cookie: c.cookie, headers: { accept: 'text/event-stream' } });
    expect(post.status).toBe(405);
    expect(post.headers.get('allow')).toBe('GET');
    const url = new URL('/api/events', gw.url);
    const withBody = await new Promise<{ status: number; type: string }>((resolve, reject) => {
      const req = http.request(
        { hostname: url.hostname, port: url.port, path: url.pathname, method: 'GET', headers: { accept: 'text/event-stream', cookie: c.cookie, 'content-type': 'application/json', 'content-length': '2' } },
        (res) => {
          res.resume();
          res.on('end', () => resolve({ status: res.statusCode ?? 0, type: String(res.headers['content-type']) }));
        },
      );
      req.on('error', reject);
      req.end('{}');
    });
    expect(withBody).toEqual({ status: 400, type: expect.stringContaining('application/problem+json') });
    expect(gw.live.size).toBe(0);
  });

  it('streams text/event-stream, uncompressed and unbuffered: retry first, then events while the connection is open', async () => {
    const c = await customer(gw);
    const sse = await Sse.open(gw, c.cookie, { 'accept-encoding': 'gzip, deflate, br' });
    expect(sse.status).toBe(200);
    expect(sse.res.headers['content-type']).toMatch(/^text\/event-stream/);
    expect(sse.res.headers['cache-control']).toBe('no-cache');
    expect(sse.res.headers['x-accel-buffering']).toBe('no');
    expect(sse.res.headers['content-encoding']).toBeUndefined();
    await sse.waitFor((m) => m.retry !== undefined, 'the retry line');
    expect(sse.messages[0]).toEqual({ retry: '3000' });
    expect(sse.text.startsWith('retry: 3000\n\n')).toBe(true);
    // A small event is not held back by any compressor: it arrives while the stream stays open.
    const orderId = statusChanged({ customerId: c.id }, 'FOR_PAYMENT');
    await sse.waitForOrder(orderId);
    expect(sse.ended).toBe(false);
    expect(sse.changes).toEqual([{ kind: 'order', orderId, orderType: 'RENT', status: 'FOR_PAYMENT', at: expect.any(String) }]);
    sse.close();
  });

  it('cleans up when the client closes the connection', async () => {
    const c = await customer(gw);
    const a = await Sse.open(gw, c.cookie);
    const b = await Sse.open(gw, c.cookie);
    expect(gw.live.size).toBe(2);
    a.close();
    await until(() => gw.live.size === 1, 'the first stream is released');
    b.close();
    await until(() => gw.live.size === 0, 'every stream is released');
  });
});

describe('each user receives only what they may see', () => {
  let gw: Gateway;
  beforeAll(async () => {
    gw = await startGateway();
  });

  it("a customer receives their own orders' changes and NEVER another customer's", async () => {
    const alice = await customer(gw);
    const bob = await customer(gw);
    const aliceStream = await Sse.open(gw, alice.cookie);
    const bobStream = await Sse.open(gw, bob.cookie);
    const before = gw.live.stats.received;

    // Bob's change first, on the same subject: by the time Alice's arrives, Bob's was dispatched.
    const bobsOrder = statusChanged({ customerId: bob.id }, 'TO_SHIP', { type: 'BUY' });
    const alicesOrder = statusChanged({ customerId: alice.id }, 'OUT_FOR_DELIVERY', { type: 'BUY' });
    await aliceStream.waitForOrder(alicesOrder);
    await bobStream.waitForOrder(bobsOrder);
    await until(() => gw.live.stats.received >= before + 2, 'the hub received both events');
    expect(aliceStream.changes).toEqual([{ kind: 'order', orderId: alicesOrder, orderType: 'BUY', status: 'OUT_FOR_DELIVERY', at: expect.any(String) }]);
    expect(bobStream.changes.map((e) => e.orderId)).toEqual([bobsOrder]);

    // Every kind of event about Bob's orders stays away from Alice; hers reach her.
    paymentConfirmed({ customerId: bob.id, orderId: bobsOrder });
    requestChanged({ customerId: bob.id, orderId: bobsOrder });
    placed({ customerId: bob.id });
    const alicesPayment = paymentConfirmed({ customerId: alice.id });
    const alicesRequest = requestChanged({ customerId: alice.id });
    const alicesNew = placed({ customerId: alice.id }, 'RENT');
    await aliceStream.waitForOrder(alicesNew);
    await aliceStream.waitForOrder(alicesPayment);
    await aliceStream.waitForOrder(alicesRequest);
    await bobStream.waitFor((m) => m.event === 'change' && JSON.parse(m.data!).kind === 'request', "Bob's request event");
    await until(() => gw.live.stats.received >= before + 8, 'the hub received every event');
    // Let anything wrongly sent arrive before looking.
    await new Promise((r) => setTimeout(r, 100));
    expect(aliceStream.changes.map((e) => e.orderId).sort()).toEqual([alicesOrder, alicesPayment, alicesRequest, alicesNew].sort());
    expect(aliceStream.changes.some((e) => e.orderId === bobsOrder)).toBe(false);
    expect(aliceStream.changes.find((e) => e.orderId === alicesNew)).toMatchObject({ kind: 'order', orderType: 'RENT', status: 'PENDING' });
    expect(aliceStream.changes.find((e) => e.orderId === alicesPayment)).toMatchObject({ kind: 'payment', orderType: 'BUY', status: null });
    expect(aliceStream.changes.find((e) => e.orderId === alicesRequest)).toMatchObject({ kind: 'request', orderType: 'RENT', status: null });
    expect(bobStream.changes.some((e) => [alicesOrder, alicesPayment, alicesRequest, alicesNew].includes(e.orderId))).toBe(false);
    aliceStream.close();
    bobStream.close();
  });

  it("a driver receives the status changes of orders assigned to them only: not orders waiting for a driver, not another driver's, nothing else", async () => {
    const one = await login(gw, 'driver1');
    const two = await login(gw, 'driver2');
    const buyer = await customer(gw);
    const stream = await Sse.open(gw, one.cookie);
    const before = gw.live.stats.received;

    const othersDelivery = statusChanged({ customerId: buyer.id }, 'OUT_FOR_DELIVERY', { from: 'TO_SHIP', by: two.id, driverId: two.id });
    const othersPlaced = placed({ customerId: buyer.id });
    const othersPayment = paymentConfirmed({ customerId: buyer.id });
    const othersRequest = requestChanged({ customerId: buyer.id });
    const preparing = statusChanged({ customerId: buyer.id }, 'PREPARING', { from: 'FOR_PAYMENT', by: randomUUID() });
    const toShip = statusChanged({ customerId: buyer.id }, 'TO_SHIP', { from: 'PREPARING', by: randomUUID() });
    const forReturn = statusChanged({ customerId: buyer.id }, 'FOR_RETURN', { from: 'DELIVERED', by: randomUUID() });
    const mine = statusChanged({ customerId: buyer.id }, 'OUT_FOR_DELIVERY', { from: 'TO_SHIP', by: one.id, driverId: one.id });
    // Moved by someone else, but still this driver's order (e.g. picked up, then staff go on).
    const assigned = statusChanged({ customerId: buyer.id }, 'FOR_PICK_UP', { from: 'FOR_RETURN', by: randomUUID(), driverId: one.id });
    await stream.waitForOrder(assigned);
    await until(() => gw.live.stats.received >= before + 9, 'the hub received every event');
    await new Promise((r) => setTimeout(r, 100));
    // Orders waiting for a driver are not theirs until their scan takes them (SPEC §6; contracts' inOrderScope).
    expect(stream.changes.map((e) => [e.orderId, e.status])).toEqual([
      [mine, 'OUT_FOR_DELIVERY'],
      [assigned, 'FOR_PICK_UP'],
    ]);
    for (const id of [othersDelivery, othersPlaced, othersPayment, othersRequest, preparing, toShip, forReturn]) expect(stream.changes.some((e) => e.orderId === id)).toBe(false);
    stream.close();
  });

  it('staff (warehouse, accounting, superadmin) receive every change', async () => {
    const users = [await login(gw, 'staff1'), await login(gw, 'books1'), await login(gw, 'boss1')];
    const open = await Promise.all(users.map((u) => Sse.open(gw, u.cookie)));
    const buyer = await customer(gw);
    const ids = [placed({ customerId: buyer.id }), statusChanged({ customerId: buyer.id }, 'COMPLETED'), paymentConfirmed({ customerId: buyer.id }), requestChanged({ customerId: buyer.id })];
    for (const s of open) {
      for (const id of ids) await s.waitForOrder(id);
      expect(s.changes.map((e) => e.kind).sort()).toEqual(['order', 'order', 'payment', 'request']);
      s.close();
    }
  });

  it('anyone else (support) receives nothing, and the stream stays open with heartbeats', async () => {
    const quick = await startGateway({ env: { LIVE_HEARTBEAT_SECONDS: '0.2' } });
    const support = await login(quick, 'helpdesk1');
    const stream = await Sse.open(quick, support.cookie);
    const before = quick.live.stats.received;
    const buyer = await customer(quick);
    statusChanged({ customerId: buyer.id }, 'TO_SHIP');
    paymentConfirmed({ customerId: buyer.id });
    await until(() => quick.live.stats.received >= before + 2, 'the hub received both events');
    await stream.waitFor((m) => m.comment === 'ping', 'a heartbeat');
    expect(stream.changes).toEqual([]);
    expect(stream.ended).toBe(false);
    stream.close();
  });

  it('ignores malformed and unrelated messages and keeps streaming', async () => {
    const staff = await login(gw, 'staff1');
    const stream = await Sse.open(gw, staff.cookie);
    const before = { ...gw.live.stats };
    publisher.publish(`${prefix}dme.order.status_changed`, 'not json');
    publisher.publish(`${prefix}dme.order.status_changed`, JSON.stringify({ hello: 'world' }));
    publisher.publish(`${prefix}dme.order.checkout_abandoned`, JSON.stringify(eventEnvelope('test', { type: EVENTS.order.checkoutAbandoned, aggregateId: randomUUID(), data: { orderId: randomUUID() } })));
    const bad = { ...eventEnvelope('test', { type: EVENTS.order.statusChanged, aggregateId: randomUUID(), data: { orderId: randomUUID(), orderNumber: 'x', customerId: randomUUID(), type: 'BUY', from: 'PENDING', to: 'FOR_PAYMENT', by: null } }) };
    publisher.publish(`${prefix}dme.order.status_changed`, JSON.stringify({ ...bad, data: { ...(bad.data as object), orderId: 'not-a-uuid' } }));
    const good = statusChanged({ customerId: randomUUID() }, 'PREPARING');
    await stream.waitForOrder(good);
    expect(gw.live.stats.ignored - before.ignored).toBe(4);
    expect(stream.changes.map((e) => e.orderId)).toEqual([good]);
    stream.close();
  });
});

describe('the stream ends with its session', () => {
  it('logout through the gateway ends the stream at once', async () => {
    const gw = await startGateway();
    const c = await customer(gw);
    const stream = await Sse.open(gw, c.cookie);
    expect(gw.live.size).toBe(1);
    expect((await call(gw, 'POST', '/api/auth/logout', { cookie: c.cookie })).status).toBe(204);
    await stream.waitFor('end', 'the end of the stream', 3000);
    expect(gw.live.size).toBe(0);
    // Reconnecting (as EventSource would) is refused.
    expect((await refusal(gw, c.cookie)).status).toBe(401);
  });

  it('a logout or deactivation elsewhere (identity announces it over NATS) ends the stream at once', async () => {
    const a = await startGateway();
    const b = await startGateway();
    const admin = await login(a, 'boss1');
    const c = await customer(a);
    const other = await customer(a);
    const secondSession = await login(a, 'driver2');
    const s1 = await Sse.open(b, c.cookie);
    const s2 = await Sse.open(b, other.cookie);
    const s3 = await Sse.open(b, secondSession.cookie);
    expect((await call(a, 'PATCH', `/api/users/${c.id}/status`, { cookie: admin.cookie, body: { status: 'DEACTIVATED' } })).status).toBe(200);
    await s1.waitFor('end', 'the end of the deactivated user stream', 3000);
    expect((await call(a, 'POST', '/api/auth/logout', { cookie: secondSession.cookie })).status).toBe(204);
    await s3.waitFor('end', 'the end of the logged-out stream', 3000);
    // Another user's stream goes on.
    expect(s2.ended).toBe(false);
    const id = statusChanged({ customerId: other.id }, 'PREPARING');
    await s2.waitForOrder(id);
    s2.close();
  });

  it('without revocations, the periodic session check (through the session cache) ends the stream', async () => {
    const watcher = await startGateway({ nats: false, env: { LIVE_SESSION_CHECK_SECONDS: '0.3' } });
    const elsewhere = await startGateway();
    const c = await customer(elsewhere);
    const stream = await Sse.open(watcher, c.cookie);
    await new Promise((r) => setTimeout(r, 700));
    expect(stream.ended, 'the session still holds: the stream goes on').toBe(false);
    expect((await call(elsewhere, 'POST', '/api/auth/logout', { cookie: c.cookie })).status).toBe(204);
    await stream.waitFor('end', 'the end of the stream', 3000);
    expect(watcher.live.size).toBe(0);
  });

  it('ends after its bounded lifetime (EventSource reconnects); without NATS it still sends heartbeats', async () => {
    const gw = await startGateway({ nats: false, env: { LIVE_HEARTBEAT_SECONDS: '0.2', LIVE_STREAM_MAX_SECONDS: '1' } });
    const c = await customer(gw);
    const started = Date.now();
    const stream = await Sse.open(gw, c.cookie);
    await stream.waitFor((m) => m.comment === 'ping', 'a heartbeat');
    await stream.waitFor('end', 'the end of the stream', 3000);
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);
    expect(stream.messages.filter((m) => m.comment === 'ping').length).toBeGreaterThanOrEqual(2);
    expect(gw.live.size).toBe(0);
  });
});

describe('limits', () => {
  it('per user: beyond the limit 429 problem+json; a closed stream frees its place', async () => {
    const gw = await startGateway({ env: { LIVE_MAX_STREAMS_PER_USER: '2' } });
    const c = await customer(gw);
    const other = await customer(gw);
    const a = await Sse.open(gw, c.cookie);
    const b = await Sse.open(gw, c.cookie);
    const res = await refusal(gw, c.cookie);
    expect(res.status).toBe(429);
    expect(res.headers.get('content-type')).toContain('application/problem+json');
    expect(res.headers.get('retry-after')).toBeTruthy();
    // Another user is not affected.
    const o = await Sse.open(gw, other.cookie);
    expect(o.status).toBe(200);
    a.close();
    await until(() => gw.live.size === 2, 'the closed stream is released');
    const again = await Sse.open(gw, c.cookie);
    expect(again.status).toBe(200);
    for (const s of [b, o, again]) s.close();
  });

  it('per process: beyond the limit 503 problem+json', async () => {
    const gw = await startGateway({ env: { LIVE_MAX_STREAMS: '2' } });
    const users = [await customer(gw), await customer(gw), await customer(gw)];
    const open = [await Sse.open(gw, users[0]!.cookie), await Sse.open(gw, users[1]!.cookie)];
    const res = await refusal(gw, users[2]!.cookie);
    expect(res.status).toBe(503);
    expect(res.headers.get('content-type')).toContain('application/problem+json');
    for (const s of open) s.close();
    await until(() => gw.live.size === 0, 'the streams are released');
    const now = await Sse.open(gw, users[2]!.cookie);
    expect(now.status).toBe(200);
    now.close();
  });

  it('closing the hub (the gateway stops) ends every stream and refuses new ones', async () => {
    const gw = await startGateway();
    const c = await customer(gw);
    const s = await Sse.open(gw, c.cookie);
    gw.live.close();
    await s.waitFor('end', 'the end of the stream', 3000);
    expect((await refusal(gw, c.cookie)).status).toBe(503);
  });
});

describe('OpenAPI', () => {
  it('documents GET /api/events for signed-in callers as text/event-stream', async () => {
    const gw = gateways[0]!;
    const doc = (await call(gw, 'GET', '/api/openapi.json')).body;
    const op = doc.paths['/api/events'].get;
    expect(op['x-access']).toBe('authenticated');
    expect(op.security).toBeUndefined();
    expect(Object.keys(op.responses['200'].content)).toEqual(['text/event-stream']);
    expect(doc.components.schemas.LiveEvent.properties.kind.enum).toEqual(['order', 'payment', 'request']);
  });
});

describe('mapping and filtering (pure)', () => {
  const customerId = randomUUID();
  const env = (type: string, data: unknown) => JSON.stringify({ id: randomUUID(), type, occurredAt: '2025-01-02T03:04:05.000Z', source: 'order', aggregateId: 'x', data, version: 1 });

  it('maps each event type and ignores the rest', () => {
    const orderId = randomUUID();
    const routed = routeEvent(env('dme.order.status_changed', { orderId, orderNumber: 'N', customerId, type: 'BUY', from: 'TO_SHIP', to: 'OUT_FOR_DELIVERY', by: null }));
    expect(routed?.event).toEqual({ kind: 'order', orderId, orderType: 'BUY', status: 'OUT_FOR_DELIVERY', at: '2025-01-02T03:04:05.000Z' });
    expect(routed?.statusChange).toEqual({ to: 'OUT_FOR_DELIVERY', by: null, driverId: null });
    expect(routeEvent(env('dme.order.checkout_abandoned', { orderId }))).toBeUndefined();
    expect(routeEvent(env('dme.catalog.stock_added', {}))).toBeUndefined();
    expect(routeEvent('{')).toBeUndefined();
    expect(routeEvent(new Uint8Array([0xff, 0xfe]))).toBeUndefined();
    expect(routeEvent(env('dme.request.changed', { orderId, customerId: 'nope' }))).toBeUndefined();
  });

  it('decides the audience from the role', () => {
    const routed = routeEvent(env('dme.request.changed', { requestId: randomUUID(), orderId: randomUUID(), orderNumber: 'N', customerId, type: 'FIX', status: 'PENDING' }))!;
    expect(mayReceive(audienceOf({ userId: customerId, userType: 'CUSTOMER' }), routed)).toBe(true);
    expect(mayReceive(audienceOf({ userId: randomUUID(), userType: 'CUSTOMER' }), routed)).toBe(false);
    expect(mayReceive(audienceOf({ userId: randomUUID(), userType: 'DRIVER' }), routed)).toBe(false);
    expect(mayReceive(audienceOf({ userId: randomUUID(), userType: 'SUPPORT' }), routed)).toBe(false);
    for (const t of ['SUPERADMIN', 'WAREHOUSE_ADMIN', 'WAREHOUSE_STAFF', 'ACCOUNTING_ADMIN'] as const) expect(mayReceive(audienceOf({ userId: randomUUID(), userType: t }), routed), t).toBe(true);
  });

  it('listens on the order, payment and request subjects', () => {
    expect(LIVE_SUBJECTS).toEqual(['dme.order.>', 'dme.payment.>', 'dme.request.>']);
  });
});
