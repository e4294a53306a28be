import { randomUUID } from 'node:crypto';
import { Writable } from 'node:stream';
import Router from '@koa/router';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jetstreamManager } from '@nats-io/jetstream';
import { z } from 'zod';
import { EVENTS, type EventEnvelope } from '@dme/contracts';
import { closePrefixedNats, createTestDatabase, eventually, listen, testNatsUrl, type TestServer } from '@dme/testing';
import { createOrm, migrate, type Orm } from './db';
import { createHttpApp } from './http';
import { CORRELATION_HEADER, createLogger, currentRequestId, withRequestContext } from './logger';
import { connectNats, ensureEventStream, namesOf, type NatsConnection } from './nats';
import { OutboxRelay, recordEvent } from './outbox';
import { startConsumer, type RunningConsumer } from './consumer';
import { callRpc, serveRpc } from './rpc';

/*
 * One request followed through HTTP, the outbox, NATS (header and envelope), a consumer, the
 * event that consumer records, a second consumer, and a request/reply command. The deployment
 * has a NATS prefix of its own, so its stream is this run's alone.
 */
const RUN = randomUUID().slice(0, 8);
const SCHEMA = 'correlation_test';
const lines: Array<Record<string, unknown> & { msg: string; raw: string }> = [];
const sink = new Writable({
  write(chunk: Buffer, _enc, done) {
    for (const raw of chunk.toString('utf8').split('\n').filter(Boolean)) lines.push({ ...(JSON.parse(raw) as { msg: string }), raw });
    done();
  },
});
const logger = createLogger('correlation-test', 'info', sink);

let db: Awaited<ReturnType<typeof createTestDatabase>>;
let orm: Orm;
let nc: NatsConnection;
let relay: OutboxRelay;
let server: TestServer;
const consumers: RunningConsumer[] = [];
const followOns: EventEnvelope[] = [];
const RPC_SUBJECT = `rpc.correlation.${RUN}`;

beforeAll(async () => {
  db = await createTestDatabase('correlation');
  orm = await createOrm({ url: db.url, schema: SCHEMA, entities: [], migrations: [] });
  await migrate(orm, SCHEMA, db.url);
  nc = await connectNats(testNatsUrl(), 'correlation-test', { prefix: `corr${RUN}` });
  await ensureEventStream(nc);
  relay = new OutboxRelay({ em: orm.em, nc, logger });
  relay.start();
  // The first consumer handles the user's deactivation and records a follow-on event.
  consumers.push(
    await startConsumer({
      nc,
      em: orm.em,
      logger,
      durable: 'correlation-first',
      subjects: [EVENTS.identity.userStatusChanged],
      afterCommit: () => relay.kick(),
      handle: async (em, event) => {
        logger.info({ eventId: event.id }, 'first consumer handled the event');
        recordEvent(em, 'test', { type: EVENTS.identity.userDeleted, aggregateId: event.aggregateId, data: { userId: event.aggregateId, deletedBy: null } });
      },
    }),
    await startConsumer({
      nc,
      em: orm.em,
      logger,
      durable: 'correlation-second',
      subjects: [EVENTS.identity.userDeleted],
      handle: async (_em, event) => {
        logger.info({ eventId: event.id }, 'second consumer handled the follow-on event');
        followOns.push(event);
      },
    }),
  );
  serveRpc({
    nc,
    subject: RPC_SUBJECT,
    queue: 'correlation',
    schema: z.object({}),
    logger,
    handle: async () => {
      logger.info('command answered');
      return { requestId: currentRequestId() ?? null };
    },
  });
  await nc.flush();

  const app = createHttpApp({ name: 'correlation-test', logger });
  const router = new Router();
  router.post('/users/:id/deactivate', async (ctx) => {
    const id = ctx.params.id!;
    const event = await orm.em.fork().transactional(async (tem) =>
      recordEvent(tem, 'test', { type: EVENTS.identity.userStatusChanged, aggregateId: id, data: { userId: id, status: 'DEACTIVATED', previousStatus: 'ACTIVE', changedBy: null } }),
    );
    relay.kick();
    logger.info({ eventId: event.id }, 'user deactivated');
    ctx.body = { event, command: await callRpc(nc, RPC_SUBJECT, {}) };
  });
  app.use(router.routes());
  server = await listen(app);
});

afterAll(async () => {
  await server?.close();
  for (const c of consumers) await c.stop();
  await relay?.stop();
  await closePrefixedNats(nc);
  await orm?.close();
  await db?.drop();
});

describe('a correlation id through HTTP, NATS and every log line (issue 14)', () => {
  it("follows a request's X-Request-Id into its event, the consumers' log lines, the follow-on event and a command", async () => {
    const requestId = `abc-${randomUUID()}`;
    const userId = randomUUID();
    const res = await fetch(`${server.url}/users/${userId}/deactivate`, { method: 'POST', headers: { 'x-request-id': requestId } });
    expect(res.status).toBe(200);
    expect(res.headers.get('x-request-id')).toBe(requestId);
    const body = (await res.json()) as { event: EventEnvelope; command: { requestId: string | null } };
    // The event the request recorded, and the command it sent (its responder ran in the context).
    expect(body.event.correlationId).toBe(requestId);
    expect(body.command).toEqual({ requestId });

    const followOn = await eventually(() => followOns.find((e) => e.aggregateId === userId), 10_000);
    expect(followOn.correlationId).toBe(requestId);
    const logged = (msg: string) => lines.filter((l) => l.msg === msg);
    for (const msg of ['user deactivated', 'command answered', 'first consumer handled the event', 'second consumer handled the follow-on event']) {
      expect(logged(msg).map((l) => l.requestId)).toEqual([requestId]);
      // Once per line, not twice (the mixin and a field of the line's own would both print it).
      expect(logged(msg)[0]!.raw.split('"requestId"').length).toBe(2);
    }

    // On NATS, both events carry the id as a header as well.
    const jsm = await jetstreamManager(nc);
    const stream = namesOf(nc).eventStream;
    const info = await jsm.streams.info(stream);
    const headers = [];
    for (let seq = info.state.first_seq; seq <= info.state.last_seq; seq++) {
      const m = await jsm.streams.getMessage(stream, { seq });
      if (m && (m.json() as EventEnvelope).aggregateId === userId) headers.push(m.header.get(CORRELATION_HEADER));
    }
    expect(headers).toEqual([requestId, requestId]);
  });

  it('gives a request without a usable X-Request-Id a fresh id, and work outside any request none', async () => {
    const res = await fetch(`${server.url}/users/${randomUUID()}/deactivate`, { method: 'POST', headers: { 'x-request-id': 'bad id;//' } });
    expect(res.status).toBe(200);
    const issued = res.headers.get('x-request-id');
    expect(issued).toMatch(/^[0-9a-f-]{36}$/);
    expect(((await res.json()) as { event: EventEnvelope }).event.correlationId).toBe(issued);

    logger.info('outside any request');
    expect(lines.find((l) => l.msg === 'outside any request')).not.toHaveProperty('requestId');
    // A nested context with no id clears the outer one (a consumer started inside a request).
    withRequestContext('outer-request-id', () => withRequestContext(undefined, () => logger.info('cleared')));
    expect(lines.find((l) => l.msg === 'cleared')).not.toHaveProperty('requestId');
  });
});
