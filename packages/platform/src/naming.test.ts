import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jetstreamManager } from '@nats-io/jetstream';
import { EVENTS } from '@dme/contracts';
import { createTestDatabase, eventually, testNatsUrl } from '@dme/testing';
import { parseConfig, serviceEnv } from './config';
import { z } from 'zod';
import { createOrm, migrate, type Orm } from './db';
import { natsNames } from './naming';
import { connectNats, ensureEventStream, namesOf, type NatsConnection } from './nats';
import { OutboxRelay, recordEvent } from './outbox';
import { startConsumer, type RunningConsumer } from './consumer';
import { createLogger } from './logger';
import { callRpc, serveRpc } from './rpc';

describe('NATS names for a deployment prefix (issue 14)', () => {
  it('are exactly the unprefixed names when the prefix is empty', () => {
    const n = natsNames('');
    expect(n.eventStream).toBe('DME_EVENTS');
    expect(n.eventSubjects).toEqual(['dme.>']);
    expect(n.eventSubject('dme.order.placed')).toBe('dme.order.placed');
    expect(n.deadLetterStream).toBe('DME_DEAD_LETTERS');
    expect(n.deadLetterPrefix).toBe('dlq');
    expect(n.durable('catalog-orders')).toBe('catalog-orders');
    expect(n.core('rpc.catalog.reserve')).toBe('rpc.catalog.reserve');
    expect(natsNames()).toEqual({ ...n, eventSubject: expect.any(Function), durable: expect.any(Function), core: expect.any(Function) });
  });

  it('put the prefix on every stream, subject and durable name, never inside an event type', () => {
    const n = natsNames('staging');
    expect(n.eventStream).toBe('staging_DME_EVENTS');
    expect(n.eventSubjects).toEqual(['staging.dme.>']);
    expect(n.eventSubject('dme.order.>')).toBe('staging.dme.order.>');
    expect(n.deadLetterStream).toBe('staging_DME_DEAD_LETTERS');
    expect(n.deadLetterPrefix).toBe('staging.dlq');
    expect(n.durable('catalog-orders')).toBe('staging_catalog-orders');
    expect(n.core('cache.catalog.product-cards.clear')).toBe('staging.cache.catalog.product-cards.clear');
    // Dead letters never land in the event stream, and neither deployment's subjects fall in the other's.
    expect(n.deadLetterPrefix.startsWith('staging.dme')).toBe(false);
    expect(n.eventSubject('dme.x').startsWith('dme.')).toBe(false);
  });

  it('refuse a prefix that is not one NATS token, or whose subjects would fall inside the unprefixed streams', () => {
    for (const bad of ['a.b', 'a b', 'a*', 'a>', 'x'.repeat(33), 'dme', 'dlq']) expect(() => natsNames(bad)).toThrow(/NATS prefix/);
    const env = { DATABASE_URL: 'postgres://x@h/db', INTERNAL_TOKEN: 'x'.repeat(16) };
    const schema = z.object(serviceEnv);
    expect(parseConfig(schema, env).NATS_PREFIX).toBe('');
    expect(parseConfig(schema, { ...env, NATS_PREFIX: 'dev-alice' }).NATS_PREFIX).toBe('dev-alice');
    expect(() => parseConfig(schema, { ...env, NATS_PREFIX: 'a.b' })).toThrow(/NATS_PREFIX/);
  });
});

/*
 * Two deployments ("stacks") on one NATS server and one PostgreSQL server, told apart only by
 * their prefix: each has its own outbox (schema), relay and consumer with the same durable name.
 */
describe('two deployments with different prefixes on one NATS server', () => {
  const RUN = randomUUID().slice(0, 8);
  const logger = createLogger('naming-test', 'silent');
  interface Stack {
    prefix: string;
    orm: Orm;
    nc: NatsConnection;
    relay: OutboxRelay;
    seen: string[];
    consumer?: RunningConsumer;
  }
  const stacks: Stack[] = [];
  let db: Awaited<ReturnType<typeof createTestDatabase>>;

  beforeAll(async () => {
    db = await createTestDatabase('naming');
    for (const prefix of [`a${RUN}`, `b${RUN}`]) {
      const schema = `naming_${prefix}`;
      const orm = await createOrm({ url: db.url, schema, entities: [], migrations: [] });
      await migrate(orm, schema, db.url);
      const nc = await connectNats(testNatsUrl(), `naming-test-${prefix}`, { prefix });
      await ensureEventStream(nc);
      const seen: string[] = [];
      const relay = new OutboxRelay({ em: orm.em, nc, logger });
      const stack: Stack = { prefix, orm, nc, relay, seen };
      // The same durable name in both: only the prefix tells them apart.
      stack.consumer = await startConsumer({
        nc,
        em: orm.em,
        logger,
        durable: 'naming-users',
        subjects: ['dme.identity.>'],
        handle: async (_em, event) => void seen.push(event.id),
      });
      relay.start();
      stacks.push(stack);
    }
  });

  afterAll(async () => {
    for (const s of stacks) {
      await s.consumer?.stop();
      await s.relay.stop();
      const jsm = await jetstreamManager(s.nc);
      const names = namesOf(s.nc);
      await jsm.streams.delete(names.eventStream).catch(() => undefined);
      await jsm.streams.delete(names.deadLetterStream).catch(() => undefined);
      await s.nc.drain();
      await s.orm.close();
    }
    await db?.drop();
  });

  it("an event recorded under one prefix is consumed by that deployment's consumer only", async () => {
    const [a, b] = stacks as [Stack, Stack];
    const record = (s: Stack) =>
      s.orm.em.fork().transactional(async (tem) => {
        const id = randomUUID();
        const envelope = recordEvent(tem, 'test', {
          type: EVENTS.identity.userStatusChanged,
          aggregateId: id,
          data: { userId: id, status: 'DEACTIVATED', previousStatus: 'ACTIVE', changedBy: null },
        });
        return envelope;
      });
    const fromA = await record(a);
    a.relay.kick();
    await eventually(() => a.seen.includes(fromA.id), 10_000);
    const fromB = await record(b);
    b.relay.kick();
    await eventually(() => b.seen.includes(fromB.id), 10_000);
    expect(a.seen).toEqual([fromA.id]);
    expect(b.seen).toEqual([fromB.id]);

    // On NATS, each event is in its own deployment's stream only, on a prefixed subject.
    const jsm = await jetstreamManager(a.nc);
    const streamA = await jsm.streams.info(namesOf(a.nc).eventStream);
    const streamB = await jsm.streams.info(namesOf(b.nc).eventStream);
    expect([streamA.state.messages, streamB.state.messages]).toEqual([1, 1]);
    expect((await jsm.streams.getMessage(namesOf(a.nc).eventStream, { seq: streamA.state.last_seq }))?.subject).toBe(`${a.prefix}.${EVENTS.identity.userStatusChanged}`);
    // The durable on NATS carries the prefix; the envelope's type does not.
    expect((await jsm.consumers.info(namesOf(b.nc).eventStream, `${b.prefix}_naming-users`)).num_pending).toBe(0);
    expect(fromB.type).toBe(EVENTS.identity.userStatusChanged);
  });

  it("a request/reply command is answered by the caller's deployment only", async () => {
    const [a, b] = stacks as [Stack, Stack];
    const subject = `rpc.naming.${RUN}`;
    const subs = stacks.map((s) =>
      serveRpc({ nc: s.nc, subject, queue: 'naming', schema: z.object({}), logger, handle: async () => ({ prefix: s.prefix }) }),
    );
    try {
      await a.nc.flush();
      await b.nc.flush();
      expect(await callRpc(a.nc, subject, {})).toEqual({ prefix: a.prefix });
      expect(await callRpc(b.nc, subject, {})).toEqual({ prefix: b.prefix });
    } finally {
      for (const s of subs) s.unsubscribe();
    }
  });
});
