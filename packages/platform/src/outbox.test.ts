import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DeliverPolicy, jetstream } from '@nats-io/jetstream';
import { EVENT_STREAM, EVENTS, type EventEnvelope } from '@dme/contracts';
import { createTestDatabase, eventually, testNatsUrl } from '@dme/testing';
import { createOrm, migrate, type Orm } from './db';
import { connectNats, ensureEventStream, type NatsConnection } from './nats';
import { OutboxRelay, recordEvent } from './outbox';
import { startConsumer, type RunningConsumer } from './consumer';
import { createLogger } from './logger';
import { backgroundPool } from './sql';

const SCHEMA = 'outbox_test';
const logger = createLogger('outbox-test', 'silent');

let db: Awaited<ReturnType<typeof createTestDatabase>>;
let orm: Orm;
let nc: NatsConnection;

beforeAll(async () => {
  db = await createTestDatabase('outbox');
  orm = await createOrm({ url: db.url, schema: SCHEMA, entities: [], migrations: [] });
  await migrate(orm, SCHEMA, db.url);
  await orm.em.getConnection().execute(`create table "${SCHEMA}"."effects" (event_id uuid not null, aggregate text not null)`);
  nc = await connectNats(testNatsUrl(), 'outbox-test');
  await ensureEventStream(nc);
});

afterAll(async () => {
  await nc?.drain();
  await orm?.close();
  await db?.drop();
});

async function record(aggregateId: string): Promise<EventEnvelope> {
  const em = orm.em.fork();
  return em.transactional(async (tem) => {
    return recordEvent(tem, 'test', {
      type: EVENTS.identity.userStatusChanged,
      aggregateId,
      data: { userId: aggregateId, status: 'DEACTIVATED', previousStatus: 'ACTIVE', changedBy: null },
    });
  });
}

async function effects(aggregate: string): Promise<number> {
  const rows = await orm.em.fork().execute<Array<{ n: string }>>(
    `select count(*) as n from "${SCHEMA}"."effects" where aggregate = ?`,
    [aggregate],
  );
  return Number(rows[0]!.n);
}

async function pending(id: string): Promise<boolean> {
  const rows = await orm.em.fork().execute<Array<{ published_at: string | null }>>(
    `select published_at from "${SCHEMA}"."outbox" where id = ?`,
    [id],
  );
  return rows[0]!.published_at === null;
}

function consumer(durable: string, failFirst = new Set<string>()): Promise<RunningConsumer> {
  return startConsumer({
    nc,
    em: orm.em,
    logger,
    durable,
    subjects: [EVENTS.identity.userStatusChanged],
    retryDelayMs: 100,
    handle: async (em, event) => {
      await em.execute(`insert into "${SCHEMA}"."effects" (event_id, aggregate) values (?, ?)`, [event.id, event.aggregateId]);
      if (failFirst.has(event.aggregateId)) {
        failFirst.delete(event.aggregateId);
        throw new Error('handler failed once'); // rolls back the effect and the inbox row
      }
    },
  });
}

describe('transactional outbox over JetStream', () => {
  it('an event is written with its change or not at all', async () => {
    const aggregate = randomUUID();
    await expect(
      orm.em.fork().transactional(async (tem) => {
        recordEvent(tem, 'test', {
          type: EVENTS.identity.userStatusChanged,
          aggregateId: aggregate,
          data: { userId: aggregate, status: 'ACTIVE', previousStatus: 'DEACTIVATED', changedBy: null },
        });
        await tem.flush();
        throw new Error('the change failed');
      }),
    ).rejects.toThrow('the change failed');
    const rows = await orm.em.fork().execute(`select 1 from "${SCHEMA}"."outbox" where payload->>'aggregateId' = ?`, [aggregate]);
    expect(rows).toHaveLength(0);
  });

  it('refuses event data that does not match the event schema', async () => {
    await expect(
      orm.em.fork().transactional(async (tem) => {
        recordEvent(tem, 'test', { type: EVENTS.identity.userStatusChanged, aggregateId: 'x', data: { userId: 'not-a-uuid' } as never });
      }),
    ).rejects.toThrow();
  });

  it('is delivered exactly once in effect when the relay dies after publishing and restarts', async () => {
    const durable = `c_${randomUUID().slice(0, 8)}`;
    const running = await consumer(durable);
    const aggregate = randomUUID();
    const event = await record(aggregate);

    // Relay 1 publishes, then "dies" before it can mark the row as published.
    const dying = new OutboxRelay({
      em: orm.em,
      nc,
      logger,
      afterPublish: () => {
        throw new Error('relay killed');
      },
    });
    await expect(dying.runOnce()).rejects.toThrow('relay killed');
    expect(await pending(event.id)).toBe(true);

    // Relay 2 (the restart) publishes the same row again and marks it.
    const restarted = new OutboxRelay({ em: orm.em, nc, logger });
    expect(await restarted.runOnce()).toBeGreaterThanOrEqual(1);
    expect(await pending(event.id)).toBe(false);

    // The stream already has this message id: a third publish is reported as a duplicate.
    const ack = await jetstream(nc).publish(EVENTS.identity.userStatusChanged, JSON.stringify(event), { msgID: event.id });
    expect(ack.duplicate).toBe(true);

    await eventually(async () => (await effects(aggregate)) === 1);
    await new Promise((r) => setTimeout(r, 500));
    expect(await effects(aggregate)).toBe(1);
    await running.stop();
  });

  it('a redelivered event (outside the dedupe window) has no second effect', async () => {
    const durable = `c_${randomUUID().slice(0, 8)}`;
    const running = await consumer(durable);
    const aggregate = randomUUID();
    const event = await record(aggregate);
    await new OutboxRelay({ em: orm.em, nc, logger }).runOnce();
    // The same event arrives again under another message id, as after the duplicate window.
    await jetstream(nc).publish(EVENTS.identity.userStatusChanged, JSON.stringify(event), { msgID: randomUUID() });
    await eventually(async () => (await effects(aggregate)) === 1);
    await new Promise((r) => setTimeout(r, 500));
    expect(await effects(aggregate)).toBe(1);
    await running.stop();
  });

  it('a failing handler is retried and its effect happens once', async () => {
    const aggregate = randomUUID();
    const running = await consumer(`c_${randomUUID().slice(0, 8)}`, new Set([aggregate]));
    await record(aggregate);
    await new OutboxRelay({ em: orm.em, nc, logger }).runOnce();
    await eventually(async () => (await effects(aggregate)) === 1, 8000);
    await new Promise((r) => setTimeout(r, 300));
    expect(await effects(aggregate)).toBe(1);
    await running.stop();
  });

  it('a durable consumer that was down gets the events it missed', async () => {
    const durable = `c_${randomUUID().slice(0, 8)}`;
    const first = await consumer(durable);
    await first.stop();
    const aggregate = randomUUID();
    await record(aggregate);
    await new OutboxRelay({ em: orm.em, nc, logger }).runOnce();
    const again = await consumer(durable);
    await eventually(async () => (await effects(aggregate)) === 1);
    await again.stop();
  });

  it('publishes through a pool of its own, whose connection a failed run leaves clean', async () => {
    const pool = backgroundPool(db.url, SCHEMA, 1);
    try {
      const first = await record(randomUUID());
      // The one connection of the pool is in a transaction when the publish fails.
      const failing = new OutboxRelay({ em: orm.em, nc, logger, connections: pool, afterPublish: () => Promise.reject(new Error('NATS went away')) });
      await expect(failing.runOnce()).rejects.toThrow('NATS went away');
      expect(await pending(first.id)).toBe(true);
      // The failed transaction was rolled back: its row lock is gone (another connection takes it at once).
      await orm.em.fork().transactional((tem) => tem.execute(`select id from "${SCHEMA}"."outbox" where id = ? for update nowait`, [first.id]));
      // The same connection again, in a clean state.
      const relay = new OutboxRelay({ em: orm.em, nc, logger, connections: pool });
      expect(await relay.runOnce()).toBeGreaterThanOrEqual(1);
      expect(await pending(first.id)).toBe(false);
      const second = await record(randomUUID());
      expect(await relay.runOnce()).toBe(1);
      expect(await pending(second.id)).toBe(false);
    } finally {
      await pool.end();
    }
  });

  it("several replicas' relays publish each aggregate's events in the order they happened", async () => {
    const started = new Date();
    const aggregates = Array.from({ length: 5 }, () => randomUUID());
    const VERSIONS = 30;
    // Recorded one after another, aggregates interleaved: outbox order = each aggregate's version order.
    for (let v = 1; v <= VERSIONS; v++) {
      for (const aggregateId of aggregates) {
        await orm.em.fork().transactional(async (tem) => {
          recordEvent(tem, 'test', {
            type: EVENTS.identity.userStatusChanged,
            aggregateId,
            data: { userId: aggregateId, status: v % 2 ? 'DEACTIVATED' : 'ACTIVE', previousStatus: v % 2 ? 'ACTIVE' : 'DEACTIVATED', changedBy: null },
            version: v,
          });
        });
      }
    }
    // Three relays (as three replicas would run), small batches, all at once until the outbox is empty.
    const relays = [1, 2, 3].map(() => new OutboxRelay({ em: orm.em, nc, logger, batchSize: 4 }));
    await Promise.all(relays.map(async (relay) => {
      for (let idle = 0; idle < 20; ) idle = (await relay.runOnce()) === 0 ? idle + 1 : 0;
    }));
    const seen = new Map<string, number[]>(aggregates.map((a) => [a, []]));
    const consumer = await jetstream(nc).consumers.get(EVENT_STREAM, {
      filter_subjects: EVENTS.identity.userStatusChanged,
      deliver_policy: DeliverPolicy.StartTime,
      opt_start_time: started.toISOString(),
    });
    const messages = await consumer.consume();
    let total = 0;
    for await (const m of messages) {
      const event = m.json<EventEnvelope>();
      seen.get(event.aggregateId)?.push(event.version);
      if (seen.has(event.aggregateId) && ++total === aggregates.length * VERSIONS) break;
    }
    await messages.close();
    for (const versions of seen.values()) expect(versions).toEqual(Array.from({ length: VERSIONS }, (_v, i) => i + 1));
  });

  it('the running relay publishes soon after a kick', async () => {
    const relay = new OutboxRelay({ em: orm.em, nc, logger, intervalMs: 60_000 });
    relay.start();
    const event = await record(randomUUID());
    relay.kick();
    await eventually(async () => !(await pending(event.id)), 3000);
    await relay.stop();
  });
});
