import { randomUUID } from 'node:crypto';
import Router from '@koa/router';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jetstream } from '@nats-io/jetstream';
import { EVENTS } from '@dme/contracts';
import { closePrefixedNats, createTestDatabase, listen, testNatsUrl, type TestServer } from '@dme/testing';
import { startConsumer, type RunningConsumer } from './consumer';
import { createOrm, migrate, type Orm } from './db';
import { createHttpApp, metricsOf } from './http';
import { createLogger } from './logger';
import { watchConsumers, type LaggingConsumer } from './metrics';
import { connectNats, ensureEventStream, namesOf, type NatsConnection } from './nats';

let server: TestServer;
let queued = 3;
beforeAll(async () => {
  const app = createHttpApp({ name: 'metrics-test', logger: createLogger('metrics-test', 'silent') });
  const router = new Router();
  router.get('/things/:id', (ctx) => {
    if (ctx.params.id === 'boom') throw new Error('boom');
    ctx.body = { id: ctx.params.id };
  });
  app.use(router.routes());
  const m = metricsOf(app);
  m.token = 'metrics-token-0123456789';
  m.gauge('queue_length', 'Things waiting', () => queued);
  server = await listen(app);
});
afterAll(() => server?.close());

const scrape = (auth?: string) => fetch(`${server.url}/metrics`, { headers: auth ? { authorization: auth } : {} });

describe('GET /metrics (issue 14)', () => {
  it('is refused without the token, or with a wrong one (401 problem+json), and counts no scrape as a request', async () => {
    for (const auth of [undefined, 'Bearer wrong', 'metrics-token-0123456789', 'Bearer metrics-token-01234567890']) {
      const res = await scrape(auth);
      expect(res.status).toBe(401);
      expect(res.headers.get('content-type')).toContain('application/problem+json');
    }
  });

  it('counts requests by route pattern, method and status, with Node process figures and the gauges a service adds', async () => {
    for (const id of ['a', 'b', 'c']) expect((await fetch(`${server.url}/things/${id}`)).status).toBe(200);
    expect((await fetch(`${server.url}/things/boom`)).status).toBe(500);
    expect((await fetch(`${server.url}/nowhere`)).status).toBe(404);
    queued = 7;
    const res = await scrape('Bearer metrics-token-0123456789');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/plain');
    const text = await res.text();
    const count = (labels: string) => Number(new RegExp(`^http_request_duration_seconds_count\\{${labels}\\} (\\d+)$`, 'm').exec(text)?.[1]);
    expect(count('service="metrics-test",method="GET",route="/things/:id",status="200"')).toBe(3);
    expect(count('service="metrics-test",method="GET",route="/things/:id",status="500"')).toBe(1);
    expect(count('service="metrics-test",method="GET",route="unmatched",status="404"')).toBe(1);
    // No series per raw path, and the scrapes above are not requests.
    expect(text).not.toContain('/things/a');
    expect(text).not.toContain('route="/metrics"');
    expect(text).toMatch(/^queue_length\{service="metrics-test"\} 7$/m);
    expect(text).toMatch(/^process_cpu_user_seconds_total\{service="metrics-test"\} /m);
  });
});

describe('consumer_pending_messages (issue 14)', () => {
  const RUN = randomUUID().slice(0, 8);
  const SCHEMA = 'lag_test';
  let db: Awaited<ReturnType<typeof createTestDatabase>>;
  let orm: Orm;
  let nc: NatsConnection;
  let lagServer: TestServer;
  let consumer: RunningConsumer;
  const hanging: LaggingConsumer = { name: 'hanging', pending: () => new Promise<number>(() => undefined) };

  beforeAll(async () => {
    db = await createTestDatabase('lag');
    orm = await createOrm({ url: db.url, schema: SCHEMA, entities: [], migrations: [] });
    await migrate(orm, SCHEMA, db.url);
    // A deployment prefix of this run's own: its stream holds only this test's events.
    nc = await connectNats(testNatsUrl(), 'lag-test', { prefix: `lag${RUN}` });
    await ensureEventStream(nc);
    consumer = await startConsumer({
      nc,
      em: orm.em,
      logger: createLogger('lag-test', 'silent'),
      durable: 'lag-users',
      subjects: [EVENTS.identity.userStatusChanged],
      handle: async () => undefined,
    });
    const app = createHttpApp({ name: 'lag-test', logger: createLogger('lag-test', 'silent') });
    const m = metricsOf(app);
    m.token = 'metrics-token-0123456789';
    // A consumer whose NATS never answers: the scrape must not wait for it.
    watchConsumers(m, [consumer, hanging], 200);
    lagServer = await listen(app);
  });

  afterAll(async () => {
    await lagServer?.close();
    await closePrefixedNats(nc);
    await orm?.close();
    await db?.drop();
  });

  it('shows, per consumer, the events published while it was stopped; a consumer NATS does not answer for is left out', async () => {
    await consumer.stop();
    const js = jetstream(nc);
    for (let i = 0; i < 3; i++) {
      const id = randomUUID();
      const event = { id, type: EVENTS.identity.userStatusChanged, occurredAt: new Date().toISOString(), source: 'test', aggregateId: id, version: 1,
        data: { userId: id, status: 'DEACTIVATED', previousStatus: 'ACTIVE', changedBy: null } };
      await js.publish(namesOf(nc).eventSubject(event.type), JSON.stringify(event), { msgID: id });
    }
    const res = await fetch(`${lagServer.url}/metrics`, { headers: { authorization: 'Bearer metrics-token-0123456789' } });
    expect(res.status).toBe(200);
    const text = await res.text();
    const pending = Number(/^consumer_pending_messages\{consumer="lag-users",service="lag-test"\} (\d+)$/m.exec(text)?.[1]);
    expect(pending).toBeGreaterThanOrEqual(3);
    expect(text).not.toContain('consumer="hanging"');
  });
});
