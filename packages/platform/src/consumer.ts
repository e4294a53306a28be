import type { EntityManager } from '@mikro-orm/postgresql';
import { AckPolicy, DeliverPolicy, jetstream, jetstreamManager, type Consumer, type ConsumerInfo, type ConsumerMessages, type JetStreamClient, type JetStreamManager, type JsMsg } from '@nats-io/jetstream';
import { headers as natsHeaders, nanos } from '@nats-io/transport-node';
import { EventEnvelope } from '@dme/contracts';
import { ensureDeadLetterStream, namesOf, type NatsConnection } from './nats';
import { CORRELATION_HEADER, isRequestId, withRequestContext, type Logger } from './logger';
import { qualified } from './outbox';
import { literal, sql, sqlScript, uuidArrayLiteral, withConnection, type ConnectionSource, type Db } from './sql';

export interface ConsumerOptions {
  nc: NatsConnection;
  em: EntityManager;
  logger: Logger;
  /**
   * Durable consumer name, shared by every replica of the service. On NATS it carries the
   * connection's prefix (NATS_PREFIX); the inbox keeps it as given.
   */
  durable: string;
  /**
   * One subject (wildcards allowed): nats-server 2.9 has no multi-subject filters. Given
   * unprefixed (`dme.order.>`); the connection's prefix is added.
   */
  subjects: [string];
  /** The effect; runs in the same transaction as the inbox record, so it happens once. */
  handle?: (em: EntityManager, event: EventEnvelope) => Promise<void>;
  /**
   * Instead of `handle`: the effect of several events at once, for a consumer that must keep up
   * with a busy stream. Gets the events not handled before, in stream order, and runs in one
   * transaction with their inbox records. Batches are handled one after another, so events of
   * an aggregate are still handled in stream order. A batch that fails is handled again one
   * event at a time (each as a batch of one), so one poison event is retried and dead-lettered
   * alone, as with `handle`.
   */
  handleBatch?: (db: Db, events: EventEnvelope[]) => Promise<void>;
  /** Most events in one batch (handleBatch only; default 100). */
  maxBatch?: number;
  /** Where a batch's connection comes from (handleBatch only; default: the ORM's pool). */
  connections?: ConnectionSource;
  /**
   * Called after a handler's transaction committed (a consumer whose effects record events of
   * their own kicks the outbox relay with it, so they do not wait for the relay's next poll).
   */
  afterCommit?: () => void;
  /** The stream (default: the connection's event stream, DME_EVENTS unprefixed). */
  stream?: string;
  /** Delay before the first retry of a failed message (ms, default 2000); doubles on each failure. */
  retryDelayMs?: number;
  /** Upper bound of the retry delay (ms, default 60 000). */
  maxRetryDelayMs?: number;
  /**
   * Failures of the handler on an event after which it is moved to the dead-letter stream and
   * terminated (default 5). Counted by the consumer in its service's `consumer_failures`, not by
   * JetStream's delivery count: a message handed back by a stopping replica, or delivered again
   * after a dead process's ack wait, did not fail.
   */
  maxFailures?: number;
  /** Where dead letters go (default stream DME_DEAD_LETTERS, subjects `dlq.>`, both prefixed). Tests use their own. */
  deadLetter?: { stream?: string; prefix?: string };
  /**
   * How many events are handled at once (default 16). Events of the same aggregate are always
   * handled one after another, in stream order; only different aggregates run side by side.
   */
  concurrency?: number;
}

export interface RunningConsumer {
  /** The durable name as given (without the NATS prefix). */
  name: string;
  /** Messages not yet delivered plus delivered ones not yet acknowledged (JetStream's consumer info). */
  pending(): Promise<number>;
  stop(): Promise<void>;
}

/** Header names of a dead letter; its body is the original message, byte for byte. */
export const DEAD_LETTER_HEADERS = {
  reason: 'Dme-Dead-Letter-Reason',
  subject: 'Dme-Original-Subject',
  stream: 'Dme-Original-Stream',
  seq: 'Dme-Original-Seq',
  consumer: 'Dme-Consumer',
  eventId: 'Dme-Event-Id',
  eventType: 'Dme-Event-Type',
  deliveries: 'Dme-Deliveries',
  /** How many times the handler failed on it (a handler-failed letter). */
  failures: 'Dme-Failures',
  error: 'Dme-Error',
} as const;

export const DEFAULT_MAX_FAILURES = 5;

/**
 * How long JetStream waits for the ack of a delivered message before it delivers it again (to
 * any replica). Short, so the messages a process held when it died (kill -9, a lost machine) come
 * back within seconds; a live consumer keeps the messages it holds from coming back by telling
 * the server it is still at them (CONSUMER_HEARTBEAT_MS), however long their handler runs.
 */
export const CONSUMER_ACK_WAIT_MS = 5_000;

/**
 * How often a consumer tells the server (`+WPI`, `m.working()`) that it still holds the messages
 * it received more than this long ago: each held message hears from it at least every 2 s, well
 * inside the ack wait, so a beat that is late (a busy event loop) or lost costs nothing.
 */
export const CONSUMER_HEARTBEAT_MS = 1_000;

/**
 * How long one pull waits on the server for messages (a new pull follows at once). Short: a
 * stopping consumer lets its last pull run out (see Receiver.close).
 */
const PULL_EXPIRES_MS = 2_000;

/** The delay before a message is delivered again after its handler's n-th failure (n deliveries while the database is out). */
export function retryDelay(deliveryCount: number, baseMs: number, maxMs: number): number {
  const n = Math.max(1, deliveryCount);
  return Math.min(maxMs, baseMs * 2 ** Math.min(n - 1, 30));
}

/**
 * A durable JetStream consumer with explicit acks whose handler is idempotent: the event id
 * is recorded in the service's inbox table in the same transaction as the effect, and an event
 * already recorded is acknowledged without running the effect again (DESIGN §7).
 *
 * A failed message is retried with a growing delay; once its handler has failed `maxFailures`
 * times on it (counted in the service's database, so a hand-back or a dead replica's redelivery
 * is not a failure), it is published to the dead-letter stream with the reason in headers and
 * terminated. A failure while the database does not answer is an outage, retried, never counted.
 * A malformed message goes there at once.
 */
export async function startConsumer(opts: ConsumerOptions): Promise<RunningConsumer> {
  if (!opts.handle === !opts.handleBatch) throw new Error(`consumer ${opts.durable}: give either handle or handleBatch`);
  const settings = consumerSettings(opts);
  const { stream, durable, maxBatch, concurrency } = settings;
  await ensureDeadLetterStream(opts.nc, settings.dlqStream, settings.dlqPrefix);
  const jsm = await jetstreamManager(opts.nc);
  await ensureDurableConsumer(jsm, stream, durable, settings.filterSubject);
  const js = jetstream(opts.nc);
  const consumer = await js.consumers.get(stream, durable);
  const stopping = stopSignal();
  const messages = new Receiver(consumer, opts.handleBatch ? 2 * maxBatch : Math.max(50, 2 * concurrency), stopping, opts);
  const inbox = qualified(opts.em, 'inbox');
  const failures = qualified(opts.em, 'consumer_failures');

  const handleEvent = opts.handle ?? ((em: EntityManager, event: EventEnvelope) => opts.handleBatch!(em, [event]));
  const run: ConsumerRun = { ...settings, opts, js, messages, inbox, failures, handleEvent, stopping };
  const loop = opts.handleBatch ? batchLoop(run, opts.handleBatch) : concurrentLoop(run);

  let stopped: Promise<void> | undefined;
  return {
    name: opts.durable,
    async pending() {
      const info = await jsm.consumers.info(stream, durable);
      return info.num_pending + info.num_ack_pending;
    },
    stop() {
      stopped ??= (async () => {
        // Every message received but not begun goes back to the server at once (a nak without
        // delay), so another replica handles it now instead of after the ack wait; the ones being
        // handled finish and are acked as usual (kept alive meanwhile). The receiver stops
        // pulling; the loop reads what it still holds, and hands it back.
        stopping.request();
        await messages.close();
        await loop.catch(() => undefined);
        messages.stopBeating();
        // Acks and naks are sent without waiting for the server's answer; let the last ones go out.
        await opts.nc.flush().catch(() => undefined);
      })();
      return stopped;
    },
  };
}

/** A consumer's stop, as its loops see it: a flag to check and a promise to wait on beside their work. */
interface StopSignal {
  readonly requested: boolean;
  readonly promise: Promise<void>;
  request(): void;
}

function stopSignal(): StopSignal {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  const signal = {
    requested: false,
    promise,
    request() {
      signal.requested = true;
      resolve();
    },
  };
  return signal;
}

/**
 * Gives messages back to the server unhandled, to be delivered again at once (to any replica).
 * A nak that is lost (the connection is closing) costs only the ack wait.
 */
function handBack(run: ConsumerRun, ms: readonly JsMsg[]): void {
  for (const m of ms) {
    try {
      m.nak();
    } catch {
      // The connection is closed: the ack wait brings it back.
    }
    run.messages.settled(m);
  }
}

/**
 * The messages of a durable consumer, pulled only as far as there is room: at most `capacity`
 * received and not yet settled at any time, each kept alive by a heartbeat (`+WPI`) from its
 * arrival until the loop settles it, so the ack wait can be short (a dead process's messages come
 * back in seconds) without a busy or slow consumer's messages coming back while it holds them.
 * (The library's `consume` asks the server for more as messages arrive, not as they are handled,
 * so under a backlog it would hold an unbounded number, each needing a heartbeat.)
 *
 * Read with `for await`: it yields messages in arrival order, and ends once `close` was called
 * and what it had received has been read.
 */
class Receiver implements AsyncIterable<JsMsg> {
  /** Received and not settled, with when the consumer last spoke for each. */
  private readonly held = new Map<JsMsg, number>();
  private readonly queue: JsMsg[] = [];
  private wake: (() => void) | undefined;
  private pull: ConsumerMessages | undefined;
  private pulling = true;
  private readonly pump: Promise<void>;
  private readonly beat: NodeJS.Timeout;
  /** The pull loop waiting for room, if it is. */
  private roomMade: (() => void) | undefined;

  constructor(
    private readonly consumer: Consumer,
    private readonly capacity: number,
    private readonly stopping: StopSignal,
    private readonly opts: ConsumerOptions,
  ) {
    this.pump = this.pullLoop().finally(() => {
      this.pulling = false;
      this.wakeReader();
    });
    this.beat = setInterval(() => this.heartbeat(), CONSUMER_HEARTBEAT_MS);
    this.beat.unref();
  }

  /** A message was acked, naked, terminated or handed back: it no longer needs heartbeats, and makes room. */
  settled(m: JsMsg): void {
    if (!this.held.delete(m)) return;
    const wake = this.roomMade;
    this.roomMade = undefined;
    wake?.();
  }

  /**
   * Stops pulling (the consumer's stop was requested first); resolves once the last pull has
   * ended. What was received is still read (and handed back by the loop).
   *
   * A pull stays open on the server until it is filled or runs out, whatever the client does, and
   * takes the next messages offered to this consumer first, the ones handed back included: shut
   * here, they would be lost to it until the ack wait. So while this process holds messages (to
   * hand back, or being handled) its last pull is left open: a hand-back that comes back to it is
   * handed back again, filling it, and the rest go to another replica; it ends within
   * PULL_EXPIRES_MS at most. Holding nothing, it is shut at once.
   */
  async close(): Promise<void> {
    if (this.held.size === 0) await this.pull?.close().catch(() => undefined);
    await this.pump;
  }

  stopBeating(): void {
    clearInterval(this.beat);
  }

  async *[Symbol.asyncIterator](): AsyncIterator<JsMsg> {
    for (;;) {
      const m = this.queue.shift();
      if (m) {
        yield m;
        continue;
      }
      if (!this.pulling) return;
      await new Promise<void>((resolve) => (this.wake = resolve));
    }
  }

  private wakeReader(): void {
    const wake = this.wake;
    this.wake = undefined;
    wake?.();
  }

  private async pullLoop(): Promise<void> {
    while (!this.stopping.requested) {
      const room = this.capacity - this.held.size;
      if (room <= 0) {
        // Woken when a message is settled (or the consumer stops).
        await Promise.race([new Promise<void>((resolve) => (this.roomMade = resolve)), this.stopping.promise]);
        continue;
      }
      try {
        this.pull = await this.consumer.fetch({ max_messages: room, expires: PULL_EXPIRES_MS });
        for await (const m of this.pull) {
          this.held.set(m, Date.now());
          this.queue.push(m);
          this.wakeReader();
        }
      } catch (err) {
        // The server went away, the consumer was deleted...: pulled again after a pause.
        if (!this.stopping.requested) this.opts.logger.warn({ err, consumer: this.opts.durable }, 'consumer: pulling messages failed, will retry');
        await Promise.race([new Promise((r) => setTimeout(r, 1000)), this.stopping.promise]);
      } finally {
        this.pull = undefined;
      }
    }
  }

  /**
   * Tells the server the consumer still holds the messages it last spoke for at least a heartbeat
   * ago (`+WPI` restarts a message's ack wait), so none is delivered again while this process lives.
   */
  private heartbeat(): void {
    const now = Date.now();
    for (const [m, last] of this.held) {
      if (now - last < CONSUMER_HEARTBEAT_MS) continue;
      try {
        m.working();
      } catch {
        // The connection is closing or closed: the ack wait brings the message back to a replica.
      }
      this.held.set(m, now);
    }
  }
}

/** A consumer's options with their defaults filled in, and its names on NATS. */
interface ConsumerSettings {
  /** The stream and the durable name on NATS (prefixed). */
  stream: string;
  durable: string;
  filterSubject: string;
  maxBatch: number;
  concurrency: number;
  maxFailures: number;
  baseDelay: number;
  maxDelay: number;
  dlqStream: string;
  dlqPrefix: string;
}

function consumerSettings(opts: ConsumerOptions): ConsumerSettings {
  const names = namesOf(opts.nc);
  const baseDelay = opts.retryDelayMs ?? 2000;
  return {
    stream: opts.stream ?? names.eventStream,
    durable: names.durable(opts.durable),
    filterSubject: names.eventSubject(opts.subjects[0]),
    maxBatch: Math.max(1, opts.maxBatch ?? 100),
    concurrency: Math.max(1, opts.concurrency ?? 16),
    maxFailures: opts.maxFailures ?? DEFAULT_MAX_FAILURES,
    baseDelay,
    maxDelay: Math.max(baseDelay, opts.maxRetryDelayMs ?? 60_000),
    dlqStream: opts.deadLetter?.stream ?? names.deadLetterStream,
    dlqPrefix: opts.deadLetter?.prefix ?? names.deadLetterPrefix,
  };
}

/**
 * Creates the durable consumer unless it exists (another replica may create it at the same
 * time), and gives an existing one the current ack wait: durables made before it was shortened
 * were made with 30 s. Replicas starting together all set the same value, so whichever update
 * lands last, the result is the same.
 */
async function ensureDurableConsumer(jsm: JetStreamManager, stream: string, durable: string, filterSubject: string): Promise<void> {
  const config = {
    durable_name: durable,
    ack_policy: AckPolicy.Explicit,
    deliver_policy: DeliverPolicy.All,
    ack_wait: nanos(CONSUMER_ACK_WAIT_MS),
    // Unlimited on the server: the consumer itself dead-letters (the server would just drop).
    max_deliver: -1,
    filter_subject: filterSubject,
  };
  let info: ConsumerInfo;
  try {
    info = await jsm.consumers.info(stream, durable);
  } catch {
    try {
      await jsm.consumers.add(stream, config);
      return;
    } catch (err) {
      if (!String((err as Error).message).includes('already')) throw err;
      info = await jsm.consumers.info(stream, durable);
    }
  }
  // Only the ack wait: an existing durable keeps its other settings (e.g. a test's deliver policy).
  if (info.config.ack_wait !== config.ack_wait) await jsm.consumers.update(stream, durable, { ack_wait: config.ack_wait });
}

/** What the loops and handlers of a started consumer share. */
interface ConsumerRun extends ConsumerSettings {
  opts: ConsumerOptions;
  js: JetStreamClient;
  /** Where messages come from (and are told they were settled). */
  messages: Receiver;
  /** The inbox table, qualified by the service's schema. */
  inbox: string;
  /** The handler failures per event (outbox-tables ConsumerFailuresMigration), qualified. */
  failures: string;
  /** The effect of one event: `handle`, or `handleBatch` with a batch of one. */
  handleEvent: (em: EntityManager, event: EventEnvelope) => Promise<void>;
  stopping: StopSignal;
}

type HandleBatch = NonNullable<ConsumerOptions['handleBatch']>;

/** One event at a time per aggregate, up to `concurrency` aggregates side by side. */
async function concurrentLoop(run: ConsumerRun): Promise<void> {
  // Per aggregate, the tail of its chain of handlers: the next event of that aggregate waits for it.
  const tails = new Map<string, Promise<void>>();
  const running = new Set<Promise<void>>();
  for await (const m of run.messages) {
    while (running.size >= run.concurrency && !run.stopping.requested) await Promise.race([...running, run.stopping.promise]);
    const parsed = parse(m);
    const key = parsed.ok ? parsed.event.aggregateId : `\0${m.info.streamSequence}`;
    const before = tails.get(key) ?? Promise.resolve();
    const done: Promise<void> = before
      .then(() => {
        // A stopping consumer hands back what it has not begun. Only when the message's turn
        // comes, after the event of its aggregate being handled here, so the replica that takes
        // it still gets an aggregate's events in stream order.
        if (run.stopping.requested) return handBack(run, [m]);
        return parsed.ok ? handleOne(run, m, parsed.event) : deadLetter(run, m, 'malformed', parsed.err, rawIds(m));
      })
      .catch((err: unknown) => logUnexpected(run, err));
    tails.set(key, done);
    running.add(done);
    void done.then(() => {
      run.messages.settled(m);
      running.delete(done);
      if (tails.get(key) === done) tails.delete(key);
    });
  }
  await Promise.all(running);
}

/**
 * Messages are gathered while the previous batch is being handled (and for the rest of the
 * tick in which the first arrives), then handled together: one transaction, one inbox insert
 * and the handler's own statements for the whole batch, whatever its size.
 */
async function batchLoop(run: ConsumerRun, handleBatch: HandleBatch): Promise<void> {
  let pending: JsMsg[] = [];
  let worker: Promise<void> | undefined;
  // The aggregates of the batch being handled.
  let inHand = new Set<string>();
  /*
   * A stopping consumer hands back what waits: at once the events of other aggregates than the
   * batch being handled, the rest after that batch, so the replica that takes them still gets an
   * aggregate's events in stream order.
   */
  const handBackWaiting = () => {
    const now: JsMsg[] = [];
    const later: JsMsg[] = [];
    for (const m of pending) (inHand.has(aggregateOf(m)) ? later : now).push(m);
    handBack(run, now);
    pending = later;
  };
  void run.stopping.promise.then(handBackWaiting);
  const work = async () => {
    await new Promise((r) => setImmediate(r));
    while (pending.length > 0) {
      const batch = pending.splice(0, run.maxBatch);
      inHand = new Set(batch.map(aggregateOf));
      await handleMany(run, batch, handleBatch).catch((err: unknown) => logUnexpected(run, err));
      for (const m of batch) run.messages.settled(m);
      inHand = new Set();
      if (run.stopping.requested) handBackWaiting();
    }
    worker = undefined;
  };
  for await (const m of run.messages) {
    pending.push(m);
    if (run.stopping.requested) handBackWaiting();
    worker ??= work();
    // Batches of at most maxBatch, the next one gathered while one is handled (the receiver holds
    // at most two batches' worth).
    while (pending.length >= 2 * run.maxBatch && !run.stopping.requested && worker) await Promise.race([worker, run.stopping.promise]);
  }
  while (worker) await worker;
}

function logUnexpected(run: ConsumerRun, err: unknown): void {
  run.opts.logger.error({ err, consumer: run.opts.durable }, 'consumer: unexpected failure handling a message');
}

/** The aggregate a message is about ('' when it is not a valid event: it has no order to keep). */
function aggregateOf(m: JsMsg): string {
  const parsed = parse(m);
  return parsed.ok ? parsed.event.aggregateId : '';
}

function parse(m: JsMsg): { ok: true; event: EventEnvelope } | { ok: false; err: unknown } {
  try {
    return { ok: true, event: EventEnvelope.parse(m.json()) as EventEnvelope };
  } catch (err) {
    return { ok: false, err };
  }
}

/**
 * Handles one event inside its correlation id (header, else envelope): the handler's log lines
 * and the events it records carry the id of the request that began it all.
 */
function handleOne(run: ConsumerRun, m: JsMsg, event: EventEnvelope): Promise<void> {
  return withRequestContext(correlationOf(m, event), () => handleOneNow(run, m, event));
}

async function handleOneNow(run: ConsumerRun, m: JsMsg, event: EventEnvelope): Promise<void> {
  const { opts } = run;
  try {
    await opts.em.fork().transactional(async (tem) => {
      const res = await tem.execute<{ affectedRows: number }>(
        `insert into ${run.inbox} (consumer, event_id, processed_at) values (?, ?, now()) on conflict do nothing`,
        [opts.durable, event.id],
        'run',
      );
      if (res.affectedRows === 0) return; // handled before: effect already happened
      await run.handleEvent(tem, event);
    });
    opts.afterCommit?.();
    m.ack();
  } catch (err) {
    await retryOrDeadLetter(run, m, event, err);
  }
}

/**
 * After a handler failed: the failure is counted (once per failure, in the service's database);
 * a retry with a delay growing with the failures; once `maxFailures` failures are reached, a
 * dead letter. When the database does not answer, the failure is an outage, not the event's: it
 * is not counted and the message is retried (its delay growing with its deliveries), never
 * dead-lettered.
 */
async function retryOrDeadLetter(run: ConsumerRun, m: JsMsg, event: EventEnvelope, err: unknown): Promise<void> {
  const { opts, maxDelay } = run;
  const deliveries = m.info.deliveryCount;
  const failures = await countFailure(run, event.id);
  if (failures === null) {
    const delay = retryDelay(deliveries, run.baseDelay, maxDelay);
    opts.logger.warn({ err, consumer: opts.durable, eventId: event.id, type: event.type, deliveries, retryInMs: delay }, 'consumer: handler failed while the database is unavailable, will retry');
    m.nak(delay);
    return;
  }
  if (failures >= run.maxFailures) {
    await deadLetter(run, m, 'handler-failed', err, { id: event.id, type: event.type }, failures);
    return;
  }
  const delay = retryDelay(failures, run.baseDelay, maxDelay);
  opts.logger.warn({ err, consumer: opts.durable, eventId: event.id, type: event.type, deliveries, failures, retryInMs: delay }, 'consumer: handler failed, will retry');
  m.nak(delay);
}

/** Counts one more failure of the handler on an event; answers the count, or null when the database does not answer. */
async function countFailure(run: ConsumerRun, eventId: string): Promise<number | null> {
  try {
    const rows = await run.opts.em.fork().execute<Array<{ failures: number }>>(
      `insert into ${run.failures} (consumer, event_id, failures, failed_at) values (?, ?, 1, now())
       on conflict (consumer, event_id) do update set failures = ${run.failures}.failures + 1, failed_at = now()
       returning failures`,
      [run.opts.durable, eventId],
    );
    return rows[0]!.failures;
  } catch {
    return null;
  }
}

/** A batch in one transaction; if it fails, each of its events alone (with retries and dead letters). */
async function handleMany(run: ConsumerRun, batch: JsMsg[], handleBatch: HandleBatch): Promise<void> {
  const { opts } = run;
  const good: Array<{ m: JsMsg; event: EventEnvelope }> = [];
  for (const m of batch) {
    const parsed = parse(m);
    if (parsed.ok) good.push({ m, event: parsed.event });
    else await deadLetter(run, m, 'malformed', parsed.err, rawIds(m));
  }
  if (good.length === 0) return;
  try {
    // Three round trips for the batch: begin with the inbox insert, the handler's statement(s), commit.
    await withConnection(opts.em, async (db) => {
      const [, inserted] = await sqlScript(
        db,
        `begin; insert into ${run.inbox} (consumer, event_id, processed_at)
           select ${literal(opts.durable)}, unnest(${uuidArrayLiteral(good.map((g) => g.event.id))}), now() on conflict do nothing returning event_id`,
      );
      const isNew = new Set((inserted!.rows as Array<{ event_id: string }>).map((r) => r.event_id));
      // An event delivered twice in one batch is handled once.
      const events = good.map((g) => g.event).filter((e) => isNew.delete(e.id));
      // A batch runs in a correlation id only when all its events share one (each event keeps its own in its envelope).
      const ids = new Set(good.map((g) => correlationOf(g.m, g.event)));
      const shared = ids.size === 1 ? [...ids][0] : undefined;
      if (events.length > 0) await withRequestContext(shared, () => handleBatch(db, events));
      await sqlScript(db, 'commit');
    }, opts.connections);
  } catch {
    for (const { m, event } of good) await handleOne(run, m, event);
    return;
  }
  opts.afterCommit?.();
  for (const { m } of good) m.ack();
}

/** Moves a message to the dead-letter stream, then terminates it; on failure it is retried. */
async function deadLetter(run: ConsumerRun, m: JsMsg, reason: 'malformed' | 'handler-failed', err: unknown, ids: { id?: string; type?: string }, failures?: number): Promise<void> {
  const { opts } = run;
  const deliveries = m.info.deliveryCount;
  const error = headerValue(err instanceof Error ? `${err.name}: ${err.message}` : String(err));
  const h = natsHeaders();
  h.set(DEAD_LETTER_HEADERS.reason, reason);
  h.set(DEAD_LETTER_HEADERS.subject, m.subject);
  h.set(DEAD_LETTER_HEADERS.stream, m.info.stream);
  h.set(DEAD_LETTER_HEADERS.seq, String(m.info.streamSequence));
  h.set(DEAD_LETTER_HEADERS.consumer, opts.durable);
  if (ids.id) h.set(DEAD_LETTER_HEADERS.eventId, headerValue(ids.id));
  if (ids.type) h.set(DEAD_LETTER_HEADERS.eventType, headerValue(ids.type));
  h.set(DEAD_LETTER_HEADERS.deliveries, String(deliveries));
  if (failures !== undefined) h.set(DEAD_LETTER_HEADERS.failures, String(failures));
  h.set(DEAD_LETTER_HEADERS.error, error);
  try {
    await run.js.publish(`${run.dlqPrefix}.${opts.durable}.${m.subject}`, m.data, {
      headers: h,
      // A second attempt for the same stream message (e.g. the term below was lost) is a duplicate.
      msgID: `${opts.durable}:${m.info.stream}:${m.info.streamSequence}`,
    });
  } catch (pubErr) {
    opts.logger.warn({ err: pubErr, consumer: opts.durable, eventId: ids.id, type: ids.type }, 'consumer: could not publish a dead letter, will retry');
    m.nak(run.maxDelay);
    return;
  }
  opts.logger.error(
    { consumer: opts.durable, eventId: ids.id ?? null, type: ids.type ?? null, subject: m.subject, seq: m.info.streamSequence, deliveries, failures: failures ?? null, reason, error },
    `consumer ${opts.durable}: event ${ids.id ?? '(unreadable)'} of type ${ids.type ?? '(unknown)'} dead-lettered (${reason})`,
  );
  // No reason text: nats-server 2.9 only knows a bare +TERM.
  m.term();
}

/** An event's correlation id: the NATS header the relay sets, else the envelope's field; only a well-formed one. */
function correlationOf(m: JsMsg, event: EventEnvelope): string | undefined {
  const fromHeader = m.headers?.get(CORRELATION_HEADER);
  if (isRequestId(fromHeader)) return fromHeader;
  return isRequestId(event.correlationId) ? event.correlationId : undefined;
}

/** The id and type of a message that is not a valid envelope, when they can be read at all. */
function rawIds(m: JsMsg): { id?: string; type?: string } {
  try {
    const raw = m.json<Record<string, unknown>>();
    return {
      ...(typeof raw?.id === 'string' ? { id: raw.id } : {}),
      ...(typeof raw?.type === 'string' ? { type: raw.type } : {}),
    };
  } catch {
    return {};
  }
}

/** Header values are one line of printable text. */
function headerValue(s: string): string {
  return s.replace(/[\r\n\t]+/g, ' ').replace(/[^\x20-\x7e]/g, '?').slice(0, 1000);
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Locks, for the rest of the caller's transaction, the orders a batch of events is about (the
 * `orderId` of those of the given types), before any of their effects is written. Consumers of
 * different subjects, and replicas sharing one consumer, handle events of one order side by side:
 * without the lock each misses the other's uncommitted rows. Transaction-scoped advisory locks
 * named by `scope` and the order id, taken in one sorted pass, so two batches never wait on each
 * other in a cycle.
 */
export async function lockEventOrders(db: Db, scope: string, events: readonly EventEnvelope[], types: readonly string[]): Promise<void> {
  const ids = new Set<string>();
  for (const e of events) {
    if (!types.includes(e.type)) continue;
    const orderId = (e.data as { orderId?: unknown } | null)?.orderId;
    if (typeof orderId === 'string' && UUID.test(orderId)) ids.add(orderId.toLowerCase());
  }
  if (ids.size === 0) return;
  await sql(
    db,
    `select count(pg_advisory_xact_lock(hashtextextended($2 || ':' || s.id::text, 0)))
     from (select id from unnest($1::uuid[]) as u(id) order by id) s`,
    [[...ids], scope],
  );
}
