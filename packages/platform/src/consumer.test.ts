import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jetstream, jetstreamManager, type JetStreamManager } from '@nats-io/jetstream';
import { EVENTS, type EventEnvelope } from '@dme/contracts';
import { createTestDatabase, eventually, testNatsUrl } from '@dme/testing';
import { createOrm, migrate, type Orm } from './db';
import { connectNats, ensureEventStream, type NatsConnection } from './nats';
import { DEAD_LETTER_HEADERS, retryDelay, startConsumer, type RunningConsumer } from './consumer';
import { createLogger } from './logger';

/*
 * Each run has its own event stream and dead-letter stream (and subjects), so test files running
 * in parallel, and the shared DME_EVENTS / DME_DEAD_LETTERS streams, are not disturbed.
 */
const SCHEMA = 'consumer_test';
const RUN = randomUUID().slice(0, 8);
const EVENTS_STREAM = `T_EVENTS_${RUN}`;
const EVENTS_PREFIX = `tev${RUN}`;
const DLQ_STREAM = `T_DLQ_${RUN}`;
const DLQ_PREFIX = `tdlq${RUN}`;

let db: Awaited<ReturnType<typeof createTestDatabase>>;
let orm: Orm;
let nc: NatsConnection;
let jsm: JetStreamManager;
const logged: Array<{ level: string; obj: Record<string, unknown>; msg: string }> = [];
const logger = createLogger('consumer-test', 'silent');
for (const level of ['warn', 'error'] as const) {
  // Keep what the consumer logs, to check the one error line of a dead letter.
  const original = logger[level].bind(logger);
  logger[level] = ((obj: Record<string, unknown>, msg: string) => {
    logged.push({ level, obj, msg });
    original(obj, msg);
  }) as typeof logger.warn;
}

beforeAll(async () => {
  db = await createTestDatabase('consumer');
  orm = await createOrm({ url: db.url, schema: SCHEMA, entities: [], migrations: [] });
  await migrate(orm, SCHEMA, db.url);
  await orm.em.getConnection().execute(`create table "${SCHEMA}"."effects" (event_id uuid not null, aggregate text not null)`);
  nc = await connectNats(testNatsUrl(), 'consumer-test');
  await ensureEventStream(nc, EVENTS_STREAM, [`${EVENTS_PREFIX}.>`]);
  jsm = await jetstreamManager(nc);
});

afterAll(async () => {
  await jsm?.streams.delete(EVENTS_STREAM).catch(() => undefined);
  await jsm?.streams.delete(DLQ_STREAM).catch(() => undefined);
  await nc?.drain();
  await orm?.close();
  await db?.drop();
});

function envelope(aggregateId = randomUUID()): EventEnvelope {
  return {
    id: randomUUID(),
    type: EVENTS.identity.userStatusChanged,
    occurredAt: new Date().toISOString(),
    source: 'test',
    aggregateId,
    data: { userId: aggregateId, status: 'DEACTIVATED', previousStatus: 'ACTIVE', changedBy: null },
    version: 1,
  };
}

async function publish(subject: string, body: string, id = randomUUID()): Promise<void> {
  await jetstream(nc).publish(`${EVENTS_PREFIX}.${subject}`, body, { msgID: id });
}

async function effects(aggregate: string): Promise<number> {
  const rows = await orm.em.fork().execute<Array<{ n: string }>>(`select count(*) as n from "${SCHEMA}"."effects" where aggregate = ?`, [aggregate]);
  return Number(rows[0]!.n);
}

/** The dead letters whose subject ends with `.<suffix>` (one durable's letters for one subject). */
async function deadLetters(durable: string) {
  const info = await jsm.streams.info(DLQ_STREAM);
  const found = [];
  for (let seq = info.state.first_seq; seq <= info.state.last_seq && info.state.messages > 0; seq++) {
    const m = await jsm.streams.getMessage(DLQ_STREAM, { seq }).catch(() => null);
    if (m && m.subject.startsWith(`${DLQ_PREFIX}.${durable}.`)) found.push(m);
  }
  return found;
}

function consumer(durable: string, subject: string, handle: (id: string) => Promise<void> | void, maxDeliveries = 3): Promise<RunningConsumer> {
  return startConsumer({
    nc,
    em: orm.em,
    logger,
    durable,
    stream: EVENTS_STREAM,
    subjects: [`${EVENTS_PREFIX}.${subject}`],
    retryDelayMs: 50,
    maxRetryDelayMs: 200,
    maxDeliveries,
    deadLetter: { stream: DLQ_STREAM, prefix: DLQ_PREFIX },
    handle: async (em, event) => {
      await em.execute(`insert into "${SCHEMA}"."effects" (event_id, aggregate) values (?, ?)`, [event.id, event.aggregateId]);
      await handle(event.aggregateId);
    },
  });
}

describe('consumer retries and dead letters', () => {
  it('retries with a delay that doubles per delivery, up to a bound', () => {
    expect([1, 2, 3, 4, 5, 6, 7].map((n) => retryDelay(n, 2000, 60_000))).toEqual([2000, 4000, 8000, 16000, 32000, 60000, 60000]);
    expect(retryDelay(1000, 50, 200)).toBe(200);
  });

  it('handles different aggregates side by side, and the events of one aggregate one after another, in stream order', async () => {
    const durable = `order_${RUN}`;
    const aggregates = Array.from({ length: 6 }, () => randomUUID());
    const seen = new Map<string, number[]>(aggregates.map((a) => [a, []]));
    const busy = new Set<string>();
    let inFlight = 0;
    let most = 0;
    let overlapSameAggregate = 0;
    const running = await startConsumer({
      nc,
      em: orm.em,
      logger,
      durable,
      stream: EVENTS_STREAM,
      subjects: [`${EVENTS_PREFIX}.ordered`],
      deadLetter: { stream: DLQ_STREAM, prefix: DLQ_PREFIX },
      concurrency: 8,
      handle: async (_em, event) => {
        if (busy.has(event.aggregateId)) overlapSameAggregate++;
        busy.add(event.aggregateId);
        most = Math.max(most, ++inFlight);
        // Later events of an aggregate are quicker, so they would overtake if allowed to.
        const n = event.version;
        await new Promise((r) => setTimeout(r, 40 - 3 * n));
        seen.get(event.aggregateId)!.push(n);
        inFlight--;
        busy.delete(event.aggregateId);
      },
    });
    for (let n = 1; n <= 10; n++) {
      for (const a of aggregates) await publish('ordered', JSON.stringify({ ...envelope(a), version: n }));
    }
    await eventually(async () => [...seen.values()].every((v) => v.length === 10), 15_000);
    for (const a of aggregates) expect(seen.get(a)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(overlapSameAggregate).toBe(0);
    expect(most).toBeGreaterThan(1);
    expect(most).toBeLessThanOrEqual(8);
    await running.stop();
  });

  it('a handler that always throws: the event is dead-lettered after N deliveries, terminated, and logged once', async () => {
    const durable = `poison_${RUN}`;
    let calls = 0;
    const running = await consumer(durable, 'poison', () => {
      calls++;
      throw new Error('cannot handle\nthis event');
    });
    const event = envelope();
    await publish('poison', JSON.stringify(event));

    const [letter] = await eventually(async () => {
      const found = await deadLetters(durable);
      return found.length ? found : undefined;
    }, 10_000);
    expect(calls).toBe(3);
    expect(letter!.subject).toBe(`${DLQ_PREFIX}.${durable}.${EVENTS_PREFIX}.poison`);
    const h = letter!.header;
    expect(h.get(DEAD_LETTER_HEADERS.reason)).toBe('handler-failed');
    expect(h.get(DEAD_LETTER_HEADERS.subject)).toBe(`${EVENTS_PREFIX}.poison`);
    expect(h.get(DEAD_LETTER_HEADERS.stream)).toBe(EVENTS_STREAM);
    expect(h.get(DEAD_LETTER_HEADERS.consumer)).toBe(durable);
    expect(h.get(DEAD_LETTER_HEADERS.eventId)).toBe(event.id);
    expect(h.get(DEAD_LETTER_HEADERS.eventType)).toBe(event.type);
    expect(h.get(DEAD_LETTER_HEADERS.deliveries)).toBe('3');
    expect(h.get(DEAD_LETTER_HEADERS.error)).toBe('Error: cannot handle this event');
    // The body is the original message, so it can be published again once fixed.
    expect(JSON.parse(new TextDecoder().decode(letter!.data))).toEqual(event);

    // Terminated: not delivered again, nothing left pending or waiting for an ack.
    await new Promise((r) => setTimeout(r, 600));
    expect(calls).toBe(3);
    const info = await jsm.consumers.info(EVENTS_STREAM, durable);
    expect(info.num_pending).toBe(0);
    expect(info.num_ack_pending).toBe(0);
    // The failed effect was rolled back each time.
    expect(await effects(event.aggregateId)).toBe(0);
    const errors = logged.filter((l) => l.level === 'error' && l.obj.consumer === durable);
    expect(errors).toHaveLength(1);
    expect(errors[0]!.obj).toMatchObject({ consumer: durable, eventId: event.id, type: event.type });
    expect(errors[0]!.msg).toContain(durable);
    expect(errors[0]!.msg).toContain(event.id);
    await running.stop();
  });

  it('a handler that fails fewer than N times succeeds: one effect, no dead letter', async () => {
    const durable = `flaky_${RUN}`;
    const failures = new Map<string, number>();
    const running = await consumer(durable, 'flaky', (aggregate) => {
      const n = failures.get(aggregate) ?? 0;
      failures.set(aggregate, n + 1);
      if (n < 2) throw new Error('not yet');
    });
    const event = envelope();
    await publish('flaky', JSON.stringify(event));
    await eventually(async () => (await effects(event.aggregateId)) === 1, 10_000);
    expect(failures.get(event.aggregateId)).toBe(3);
    await new Promise((r) => setTimeout(r, 300));
    expect(await effects(event.aggregateId)).toBe(1);
    expect(await deadLetters(durable)).toHaveLength(0);
    await running.stop();
  });

  it('malformed messages go to the dead-letter stream at once, without running the handler', async () => {
    const durable = `malformed_${RUN}`;
    let calls = 0;
    const running = await consumer(durable, 'malformed', () => {
      calls++;
    });
    const notAnEnvelope = { id: randomUUID(), type: 'dme.x.y', hello: 'world' };
    await publish('malformed', 'this is not json');
    await publish('malformed', JSON.stringify(notAnEnvelope));
    const letters = await eventually(async () => {
      const found = await deadLetters(durable);
      return found.length === 2 ? found : undefined;
    }, 10_000);
    expect(calls).toBe(0);
    expect(letters.map((l) => l.header.get(DEAD_LETTER_HEADERS.reason))).toEqual(['malformed', 'malformed']);
    expect(new TextDecoder().decode(letters[0]!.data)).toBe('this is not json');
    expect(letters[0]!.header.get(DEAD_LETTER_HEADERS.eventId)).toBe('');
    expect(letters[1]!.header.get(DEAD_LETTER_HEADERS.eventId)).toBe(notAnEnvelope.id);
    expect(letters[1]!.header.get(DEAD_LETTER_HEADERS.deliveries)).toBe('1');
    const info = await jsm.consumers.info(EVENTS_STREAM, durable);
    expect(info.num_ack_pending).toBe(0);
    await running.stop();
  });

  it('the dead-letter subjects do not overlap the events stream', async () => {
    const { DEAD_LETTER_PREFIX } = await import('./nats');
    const { EVENT_SUBJECTS } = await import('@dme/contracts');
    expect(EVENT_SUBJECTS.some((s) => `${DEAD_LETTER_PREFIX}.x`.startsWith(s.replace('>', '')))).toBe(false);
  });
});
