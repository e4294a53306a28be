import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AckPolicy, DeliverPolicy, jetstream, jetstreamManager, type JetStreamManager } from '@nats-io/jetstream';
import { nanos } from '@nats-io/transport-node';
import { EVENTS, type EventEnvelope } from '@dme/contracts';
import { createTestDatabase, eventually, testNatsUrl } from '@dme/testing';
import { createOrm, migrate, type Orm } from './db';
import { connectNats, ensureEventStream, type NatsConnection } from './nats';
import { CONSUMER_ACK_WAIT_MS, DEAD_LETTER_HEADERS, retryDelay, startConsumer, type ConsumerOptions, type RunningConsumer } from './consumer';
import { createLogger } from './logger';
import { sql, type Db } from './sql';

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

function envelope(aggregateId: string = randomUUID()): EventEnvelope {
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

/** A consumer of the test's stream (its dead letters in the test's own stream): `subject` under `durable`, with what a test adds. */
function testConsumer(durable: string, subject: string, extra: Partial<ConsumerOptions>): Promise<RunningConsumer> {
  return startConsumer({
    nc,
    em: orm.em,
    logger,
    durable,
    stream: EVENTS_STREAM,
    subjects: [`${EVENTS_PREFIX}.${subject}`],
    deadLetter: { stream: DLQ_STREAM, prefix: DLQ_PREFIX },
    ...extra,
  });
}

/** The effect test handlers record: a row per event, in the handler's transaction. */
function recordEffects(db: Db, events: readonly EventEnvelope[]): Promise<unknown> {
  return sql(db, `insert into "${SCHEMA}"."effects" (event_id, aggregate) select unnest($1::uuid[]), unnest($2::text[])`, [events.map((e) => e.id), events.map((e) => e.aggregateId)]);
}

function consumer(durable: string, subject: string, handle: (id: string) => Promise<void> | void, maxFailures = 3): Promise<RunningConsumer> {
  return testConsumer(durable, subject, {
    retryDelayMs: 50,
    maxRetryDelayMs: 200,
    maxFailures,
    handle: async (em, event) => {
      await recordEffects(em, [event]);
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
    const running = await testConsumer(durable, 'ordered', {
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

  it('a handler that always throws: the event is dead-lettered after N failures, terminated, and logged once', async () => {
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
    expect(h.get(DEAD_LETTER_HEADERS.failures)).toBe('3');
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

  it('deliveries that did not fail (handed back by stopping replicas, a dead one\'s redelivery) do not count toward the dead letter: a handler failing fewer than N times still succeeds', async () => {
    const durable = `bounced_${RUN}`;
    await jsm.consumers.add(EVENTS_STREAM, {
      durable_name: durable,
      ack_policy: AckPolicy.Explicit,
      deliver_policy: DeliverPolicy.All,
      ack_wait: nanos(CONSUMER_ACK_WAIT_MS),
      max_deliver: -1,
      filter_subject: `${EVENTS_PREFIX}.bounced`,
    });
    const event = envelope();
    await publish('bounced', JSON.stringify(event));
    // Three replicas stopping in turn each received it and handed it back unhandled (a nak).
    const raw = await jetstream(nc).consumers.get(EVENTS_STREAM, durable);
    for (let i = 1; i <= 3; i++) {
      const m = await raw.next({ expires: 2000 });
      expect(m?.info.deliveryCount).toBe(i);
      m!.nak();
    }
    let calls = 0;
    // Now it fails twice, with N = 3: its deliveries reach 5, its failures only 2.
    const running = await consumer(durable, 'bounced', () => {
      calls++;
      if (calls <= 2) throw new Error('not yet');
    });
    await eventually(async () => (await effects(event.aggregateId)) === 1, 10_000);
    expect(calls).toBe(3);
    expect(await deadLetters(durable)).toHaveLength(0);
    // Its failures are counted once each, in the service's database.
    const [row] = await orm.em.fork().execute<Array<{ failures: number }>>(`select failures from "${SCHEMA}"."consumer_failures" where consumer = ? and event_id = ?`, [durable, event.id]);
    expect(row?.failures).toBe(2);
    await running.stop();
  });

  it('a failure that cannot be counted (the database does not answer) is retried, never dead-lettered; counted again once it answers', async () => {
    const durable = `outage_${RUN}`;
    const failures = `"${SCHEMA}"."consumer_failures"`;
    await orm.em.fork().execute(`alter table ${failures} rename to consumer_failures_away`);
    let calls = 0;
    const running = await consumer(durable, 'outage', () => {
      calls++;
      throw new Error('down');
    }, 2);
    try {
      const event = envelope();
      await publish('outage', JSON.stringify(event));
      await eventually(() => calls >= 4, 10_000);
      expect(await deadLetters(durable)).toHaveLength(0);
    } finally {
      await orm.em.fork().execute(`alter table "${SCHEMA}".consumer_failures_away rename to consumer_failures`);
    }
    const [letter] = await eventually(async () => {
      const found = await deadLetters(durable);
      return found.length ? found : undefined;
    }, 10_000);
    expect(letter!.header.get(DEAD_LETTER_HEADERS.failures)).toBe('2');
    expect(Number(letter!.header.get(DEAD_LETTER_HEADERS.deliveries))).toBeGreaterThanOrEqual(6);
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

describe('batch consumer (handleBatch)', () => {
  /** A batch consumer that records each batch's aggregates and versions, and the effects in the database. */
  function batchConsumer(durable: string, subject: string, seen: Array<Array<[string, number]>>, fail: (aggregate: string) => boolean = () => false) {
    return testConsumer(durable, subject, {
      retryDelayMs: 50,
      maxRetryDelayMs: 200,
      maxFailures: 3,
      handleBatch: async (db, events) => {
        await recordEffects(db, events);
        if (events.some((e) => fail(e.aggregateId))) throw new Error('this batch holds a poison event');
        seen.push(events.map((e) => [e.aggregateId, e.version]));
      },
    });
  }

  it('handles events several at a time, each once, and the events of an aggregate in stream order', async () => {
    const durable = `batch_${RUN}`;
    const aggregates = Array.from({ length: 3 }, () => randomUUID());
    // Published before the consumer starts: they wait in the stream and arrive together.
    for (let n = 1; n <= 10; n++) for (const a of aggregates) await publish('batched', JSON.stringify({ ...envelope(a), version: n }));
    const seen: Array<Array<[string, number]>> = [];
    const running = await batchConsumer(durable, 'batched', seen);
    await eventually(async () => seen.flat().length === 30, 10_000);
    for (const a of aggregates) {
      expect(seen.flat().filter(([x]) => x === a).map(([, n]) => n)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
      // (A batch is seen before its transaction commits: its effects are waited for.)
      await eventually(async () => (await effects(a)) === 10, 5000);
    }
    expect(Math.max(...seen.map((b) => b.length))).toBeGreaterThan(1);
    await new Promise((r) => setTimeout(r, 300));
    const info = await jsm.consumers.info(EVENTS_STREAM, durable);
    expect(info.num_ack_pending).toBe(0);
    await running.stop();
  });

  it('an event delivered twice is handled once, in the same batch or a later one', async () => {
    const durable = `batchdup_${RUN}`;
    const event = envelope();
    await publish('batchdup', JSON.stringify(event));
    await publish('batchdup', JSON.stringify(event)); // the same event under another message id
    const seen: Array<Array<[string, number]>> = [];
    const running = await batchConsumer(durable, 'batchdup', seen);
    await eventually(async () => (await effects(event.aggregateId)) === 1, 10_000);
    await publish('batchdup', JSON.stringify(event));
    await new Promise((r) => setTimeout(r, 500));
    expect(await effects(event.aggregateId)).toBe(1);
    expect(seen.flat()).toHaveLength(1);
    await running.stop();
  });

  it('a poison event in a batch: the others take effect once, the poison is retried alone and dead-lettered', async () => {
    const durable = `batchpoison_${RUN}`;
    const poison = envelope();
    const good = Array.from({ length: 5 }, () => envelope());
    for (const e of [good[0]!, good[1]!, poison, good[2]!, good[3]!, good[4]!]) await publish('batchpoison', JSON.stringify(e));
    const seen: Array<Array<[string, number]>> = [];
    const running = await batchConsumer(durable, 'batchpoison', seen, (a) => a === poison.aggregateId);
    const [letter] = await eventually(async () => {
      const found = await deadLetters(durable);
      return found.length ? found : undefined;
    }, 10_000);
    expect(letter!.header.get(DEAD_LETTER_HEADERS.eventId)).toBe(poison.id);
    expect(letter!.header.get(DEAD_LETTER_HEADERS.reason)).toBe('handler-failed');
    for (const e of good) await eventually(async () => (await effects(e.aggregateId)) === 1, 5000);
    // The failed batches were rolled back: no effect and no inbox row of the poison stayed.
    expect(await effects(poison.aggregateId)).toBe(0);
    const inbox = await orm.em.fork().execute<Array<{ n: string }>>(`select count(*) as n from "${SCHEMA}"."inbox" where event_id = ?`, [poison.id]);
    expect(Number(inbox[0]!.n)).toBe(0);
    await running.stop();
  });

  it('calls afterCommit once an effect is committed (batches and single events), not when a handler failed', async () => {
    const kicks = { single: 0, batch: 0 };
    const single = await testConsumer(`kick1_${RUN}`, 'kick1', {
      retryDelayMs: 50, maxRetryDelayMs: 100, maxFailures: 2,
      afterCommit: () => kicks.single++,
      handle: async (em, event) => {
        await recordEffects(em, [event]);
        if (event.version === 99) throw new Error('poison');
      },
    });
    const seen: Array<Array<[string, number]>> = [];
    const withKick = await testConsumer(`kick3_${RUN}`, 'kick3', {
      afterCommit: () => kicks.batch++,
      handleBatch: async (db, events) => {
        await recordEffects(db, events);
        seen.push(events.map((e) => [e.aggregateId, e.version]));
      },
    });
    const ok = envelope();
    await publish('kick1', JSON.stringify(ok));
    await publish('kick1', JSON.stringify({ ...envelope(), version: 99 }));
    await eventually(async () => (await effects(ok.aggregateId)) === 1, 10_000);
    const b = envelope();
    await publish('kick3', JSON.stringify(b));
    await eventually(async () => (await effects(b.aggregateId)) === 1, 10_000);
    await eventually(async () => (await deadLetters(`kick1_${RUN}`)).length === 1, 10_000);
    expect(kicks.single).toBe(1);
    expect(kicks.batch).toBeGreaterThanOrEqual(1);
    expect(seen.flat()).toHaveLength(1);
    await single.stop();
    await withKick.stop();
  });

  it('takes either handle or handleBatch, not both', async () => {
    await expect(
      testConsumer(`both_${RUN}`, 'both', { handle: async () => undefined, handleBatch: async () => undefined }),
    ).rejects.toThrow('either handle or handleBatch');
  });
});

describe('fast, clean restarts (a stopping or dead replica\'s messages go to another at once)', () => {
  /** A consumer of `subject` under `durable` whose handler records the effect and who handled it, then runs `then`. */
  function replica(durable: string, subject: string, name: string, handledBy: Map<string, string>, then: (event: EventEnvelope) => Promise<void> = async () => undefined, extra: Partial<ConsumerOptions> = {}) {
    return testConsumer(durable, subject, {
      ...extra,
      handle: async (em, event) => {
        await recordEffects(em, [event]);
        handledBy.set(event.aggregateId, name);
        await then(event);
      },
    });
  }

  it('A stopping consumer hands back its unhandled message: another consumer handles it within 2 s', async () => {
    const durable = `handback_${RUN}`;
    const handledBy = new Map<string, string>();
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    let began!: () => void;
    const firstBegan = new Promise<void>((r) => (began = r));
    // One at a time: the first event is being handled (until the gate opens), the others wait unhandled.
    const a = await replica(durable, 'handback', 'a', handledBy, async () => {
      began();
      await gate;
    }, { concurrency: 1 });
    const events = Array.from({ length: 5 }, () => envelope());
    // A later event of the aggregate being handled: handed back only once that one is done.
    const same = envelope(events[0]!.aggregateId);
    for (const e of [...events, same]) await publish('handback', JSON.stringify(e));
    await firstBegan;
    // All six were delivered to the first replica: none is left for another to fetch.
    await eventually(async () => {
      const info = await jsm.consumers.info(EVENTS_STREAM, durable);
      return info.num_pending === 0 && info.num_ack_pending === 6;
    }, 5000);
    const b = await replica(durable, 'handback', 'b', handledBy);

    const t0 = Date.now();
    const stopped = a.stop();
    await eventually(() => events.slice(1).every((e) => handledBy.get(e.aggregateId) === 'b'), 5000, 10);
    const took = Date.now() - t0;
    // Handed back at once (before: the ack wait, 30 s, or handled by the stopping one once it was free).
    expect(took).toBeLessThan(2000);
    // The one being handled finishes where it began, and is acked; the stop waits for it.
    expect(handledBy.get(events[0]!.aggregateId)).toBe('a');
    // Neither effect of the first aggregate is committed: its later event waits for the first.
    expect(await effects(events[0]!.aggregateId)).toBe(0);
    release();
    await stopped;
    // (The handler notes who handled an event before its transaction commits: the effects are waited for, once each.)
    for (const e of events.slice(1)) await eventually(async () => (await effects(e.aggregateId)) === 1, 5000);
    await eventually(async () => (await effects(events[0]!.aggregateId)) === 2, 5000);
    await eventually(async () => {
      const info = await jsm.consumers.info(EVENTS_STREAM, durable);
      return info.num_pending === 0 && info.num_ack_pending === 0;
    }, 5000);
    await b.stop();
  });

  it('a stopping batch consumer hands back the events waiting for the batch being handled', async () => {
    const durable = `handbackbatch_${RUN}`;
    const seen: string[][] = [];
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    let began!: () => void;
    const firstBegan = new Promise<void>((r) => (began = r));
    const batchReplica = (onBatch: () => Promise<void>) =>
      testConsumer(durable, 'handbackbatch', {
        maxBatch: 3,
        handleBatch: async (db, events) => {
          await recordEffects(db, events);
          seen.push(events.map((e) => e.aggregateId));
          await onBatch();
        },
      });
    const a = await batchReplica(async () => {
      began();
      await gate;
    });
    const first = envelope();
    await publish('handbackbatch', JSON.stringify(first));
    await firstBegan;
    const waiting = Array.from({ length: 3 }, () => envelope());
    // A later event of the aggregate in the batch being handled: handed back only after that batch.
    const same = envelope(first.aggregateId);
    for (const e of [...waiting, same]) await publish('handbackbatch', JSON.stringify(e));
    await eventually(async () => (await jsm.consumers.info(EVENTS_STREAM, durable)).num_ack_pending === 5, 5000);
    const b = await batchReplica(async () => undefined);
    const t0 = Date.now();
    const stopped = a.stop();
    await eventually(async () => {
      for (const e of waiting) if ((await effects(e.aggregateId)) !== 1) return false;
      return true;
    }, 5000, 10);
    expect(Date.now() - t0).toBeLessThan(2000);
    // Neither effect of the first aggregate is committed: its later event waits for the first batch.
    expect(await effects(first.aggregateId)).toBe(0);
    release();
    await stopped;
    await eventually(async () => (await effects(first.aggregateId)) === 2, 5000);
    expect(seen.flat().sort()).toEqual([first, ...waiting, same].map((e) => e.aggregateId).sort());
    await b.stop();
  });
  it('under a backlog a consumer holds at most its room, and what waits behind a slow handler is kept alive, not delivered again', async () => {
    const durable = `backlog_${RUN}`;
    const handledBy = new Map<string, string>();
    const events = Array.from({ length: 120 }, () => envelope());
    for (const e of events) await publish('backlog', JSON.stringify(e));
    // One at a time, 60 ms each: the last waits about 7 s, longer than the ack wait.
    const slow = await replica(durable, 'backlog', 'slow', handledBy, () => new Promise((r) => setTimeout(r, 60)), { concurrency: 1 });
    let most = 0;
    while (handledBy.size < events.length) {
      const info = await jsm.consumers.info(EVENTS_STREAM, durable);
      most = Math.max(most, info.num_ack_pending);
      await new Promise((r) => setTimeout(r, 200));
    }
    // The room of a one-at-a-time consumer is 50 messages; the rest stay on the server for any replica.
    // The server's count may be one over: the consumer acks without waiting for the server and pulls
    // into the room that ack made, so the server can deliver the next message before it has counted
    // the ack (seen once in CI as 51). One handler at a time has at most one such ack in flight.
    expect(most).toBeGreaterThan(0);
    expect(most).toBeLessThanOrEqual(50 + 1);
    const info = await eventually(async () => {
      const i = await jsm.consumers.info(EVENTS_STREAM, durable);
      return i.num_ack_pending === 0 ? i : undefined;
    }, 5000);
    expect(info.num_redelivered).toBe(0);
    expect(info.delivered.consumer_seq).toBe(events.length);
    await slow.stop();
  }, 30_000);

  it('a handler slower than the ack wait is not delivered again while it works (heartbeats), one event or a batch', async () => {
    const slowMs = CONSUMER_ACK_WAIT_MS + 1500;
    const handledBy = new Map<string, string>();
    let calls = 0;
    const single = await replica(`slow_${RUN}`, 'slow', 'single', handledBy, async () => {
      calls++;
      await new Promise((r) => setTimeout(r, slowMs));
    });
    let batchCalls = 0;
    const batch = await testConsumer(`slowbatch_${RUN}`, 'slowbatch', {
      handleBatch: async (db, events) => {
        await recordEffects(db, events);
        batchCalls++;
        await new Promise((r) => setTimeout(r, slowMs));
      },
    });
    // The wait really is short now, so without heartbeats both would come back mid-handler.
    for (const d of [`slow_${RUN}`, `slowbatch_${RUN}`]) expect((await jsm.consumers.info(EVENTS_STREAM, d)).config.ack_wait).toBe(nanos(CONSUMER_ACK_WAIT_MS));
    const one = envelope();
    const two = envelope();
    await publish('slow', JSON.stringify(one));
    await publish('slowbatch', JSON.stringify(two));
    await eventually(async () => (await effects(one.aggregateId)) === 1 && (await effects(two.aggregateId)) === 1, slowMs + 5000);
    for (const d of [`slow_${RUN}`, `slowbatch_${RUN}`]) {
      const info = await eventually(async () => {
        const i = await jsm.consumers.info(EVENTS_STREAM, d);
        return i.num_ack_pending === 0 ? i : undefined;
      }, 5000);
      // Delivered once: the consumer's delivery sequence counts redeliveries too.
      expect(info.delivered.consumer_seq).toBe(1);
      expect(info.num_redelivered).toBe(0);
    }
    expect(calls).toBe(1);
    expect(batchCalls).toBe(1);
    await single.stop();
    await batch.stop();
  });

  it('a consumer that dies without a word (kill -9): another replica has its message within about the ack wait', async () => {
    const durable = `killed_${RUN}`;
    const handledBy = new Map<string, string>();
    const doomed = await connectNats(testNatsUrl(), 'consumer-test-doomed');
    let kill!: (err: Error) => void;
    const killed = new Promise<void>((_, reject) => (kill = reject));
    let began!: () => void;
    const begun = new Promise<void>((r) => (began = r));
    const a = await testConsumer(durable, 'killed', {
      nc: doomed,
      handle: async () => {
        began();
        // A killed process's transaction ends with its connection.
        await killed;
      },
    });
    const event = envelope();
    await publish('killed', JSON.stringify(event));
    await begun;
    const b = await replica(durable, 'killed', 'b', handledBy);
    // Held for a while first: its heartbeats kept it from coming back meanwhile (delivered once).
    await new Promise((r) => setTimeout(r, CONSUMER_ACK_WAIT_MS + 500));
    expect(handledBy.get(event.aggregateId)).toBeUndefined();
    expect((await jsm.consumers.info(EVENTS_STREAM, durable)).delivered.consumer_seq).toBe(1);
    const t0 = Date.now();
    await doomed.close();
    kill(new Error('killed'));
    await eventually(() => handledBy.get(event.aggregateId) === 'b', 15_000, 20);
    // Before: the 30 s ack wait.
    expect(Date.now() - t0).toBeLessThan(CONSUMER_ACK_WAIT_MS + 3000);
    // Its effect, once (the handler notes who handled it before its transaction commits).
    await eventually(async () => (await effects(event.aggregateId)) === 1, 5000);
    await a.stop();
    await b.stop();
  });

  it('an existing durable made with the old ack wait gets the short one, keeping its other settings, with replicas starting together', async () => {
    const old = `oldwait_${RUN}`;
    await jsm.consumers.add(EVENTS_STREAM, {
      durable_name: old,
      ack_policy: AckPolicy.Explicit,
      deliver_policy: DeliverPolicy.New,
      ack_wait: nanos(30_000),
      max_deliver: -1,
      filter_subject: `${EVENTS_PREFIX}.oldwait`,
    });
    const handledBy = new Map<string, string>();
    const fresh = `freshwait_${RUN}`;
    const replicas = await Promise.all([
      replica(old, 'oldwait', 'r1', handledBy),
      replica(old, 'oldwait', 'r2', handledBy),
      replica(old, 'oldwait', 'r3', handledBy),
      replica(fresh, 'freshwait', 'f1', handledBy),
      replica(fresh, 'freshwait', 'f2', handledBy),
    ]);
    const info = await jsm.consumers.info(EVENTS_STREAM, old);
    expect(info.config.ack_wait).toBe(nanos(CONSUMER_ACK_WAIT_MS));
    expect(info.config.deliver_policy).toBe(DeliverPolicy.New);
    expect(info.config.filter_subject).toBe(`${EVENTS_PREFIX}.oldwait`);
    expect((await jsm.consumers.info(EVENTS_STREAM, fresh)).config.ack_wait).toBe(nanos(CONSUMER_ACK_WAIT_MS));
    // And they consume.
    const e = envelope();
    await publish('oldwait', JSON.stringify(e));
    await eventually(async () => (await effects(e.aggregateId)) === 1, 5000);
    for (const r of replicas) await r.stop();
  });
});
