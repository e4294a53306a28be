import { newId } from './ids';
import type { EntityManager } from '@mikro-orm/postgresql';
import { jetstream, type JetStreamClient } from '@nats-io/jetstream';
import { headers as natsHeaders } from '@nats-io/transport-node';
import { EVENT_DATA, type EventEnvelope, type EventType, type EventData, type EventInput } from '@dme/contracts';
import { namesOf, type NatsConnection } from './nats';
import { CORRELATION_HEADER, currentRequestId, isRequestId, type Logger } from './logger';
import { OutboxEntity } from './outbox-tables';
import { PollingLoop } from './polling';
import { literal, schemaOf, sql, sqlScript, uuidArrayLiteral, withConnection, type ConnectionSource, type Db } from './sql';

/** The first key of the relays' advisory lock (the second is the outbox table's name hashed). */
const RELAY_LOCK_CLASS = 7_460_001;

export interface NewEvent<T extends EventType> {
  type: T;
  aggregateId: string;
  data: EventInput<T>;
  /**
   * The aggregate's version after this change (1 when it was created, +1 on every change that
   * emits an event), bumped in the same transaction. Read models apply an event only when its
   * version is newer than the one they hold. Defaults to 1 for events whose aggregate has none.
   */
  version?: number;
}

/**
 * A domain event's envelope, its data checked against the contract (for callers that write the
 * outbox row themselves, in the same statement as their change).
 */
export function eventEnvelope<T extends EventType>(source: string, event: NewEvent<T>): EventEnvelope<EventData<T>> {
  const version = event.version ?? 1;
  if (!Number.isInteger(version) || version < 1) throw new Error(`recordEvent: invalid aggregate version ${String(event.version)}`);
  const schema = EVENT_DATA[event.type];
  const data = schema.parse(event.data) as EventData<T>;
  // Recorded while handling a request (or an event of one): the event carries its id on.
  const correlationId = currentRequestId();
  return {
    id: newId(),
    type: event.type,
    occurredAt: new Date().toISOString(),
    source,
    aggregateId: event.aggregateId,
    data,
    version,
    ...(correlationId ? { correlationId } : {}),
  };
}

/**
 * The one shape of an outbox row for raw SQL (issue 23: one writer of outbox rows): the insert and
 * its three parameters, numbered from `firstParam` so a store can put it in the same statement as
 * its change (a CTE) — or run it alone through `writeEvent`.
 */
export function outboxInsert(db: Db, envelope: EventEnvelope, firstParam = 1): { text: string; values: [string, string, string] } {
  const n = firstParam;
  return {
    text: outboxInsertFrom(db, `values ($${n}, $${n + 1}, $${n + 2}::jsonb)`),
    values: [envelope.id, envelope.type, JSON.stringify(envelope)],
  };
}

/**
 * The same insert for many rows at once, from a `select` (or `values`) of (id, subject, payload):
 * a batch store writes the events of all its orders in the statement that writes the orders.
 */
export function outboxInsertFrom(db: Db, rows: string): string {
  return `insert into ${qualified(db, 'outbox')} (id, subject, payload) ${rows}`;
}

/** Writes a domain event to the outbox now, in the caller's transaction (SQL stores); answers its envelope. */
export async function writeEvent<T extends EventType>(db: Db, source: string, event: NewEvent<T>): Promise<EventEnvelope<EventData<T>>> {
  const envelope = eventEnvelope(source, event);
  const row = outboxInsert(db, envelope);
  await sql(db, row.text, row.values);
  return envelope;
}

/**
 * Adds a domain event to the outbox in the caller's unit of work (ORM stores): it is written in the
 * same transaction as the change it describes, or not at all.
 */
export function recordEvent<T extends EventType>(em: EntityManager, source: string, event: NewEvent<T>): EventEnvelope<EventData<T>> {
  const envelope = eventEnvelope(source, event);
  em.persist(
    em.create(OutboxEntity, {
      id: envelope.id,
      subject: event.type,
      payload: envelope as unknown as Record<string, unknown>,
      createdAt: new Date(),
      publishedAt: null,
    }),
  );
  return envelope;
}

export interface RelayOptions {
  em: EntityManager;
  nc: NatsConnection;
  logger: Logger;
  /** Poll interval when idle (ms). A commit can also kick() the relay at once. */
  intervalMs?: number;
  batchSize?: number;
  /** Where the relay's connection comes from (default: the ORM's pool). */
  connections?: ConnectionSource;
  /** Test hook: runs after each publish, before the row is marked published. */
  afterPublish?: (eventId: string) => void | Promise<void>;
}

/**
 * Publishes pending outbox rows to JetStream with message id = event id (the stream drops
 * duplicates), then marks them published. Every replica runs one; they take turns (an advisory
 * lock per round), so events go out in the outbox's order, and rows are claimed with SKIP LOCKED
 * besides. If the relay dies between publish and mark, the row is published again later; the
 * stream's dedupe and the consumers' inbox make that harmless.
 */
export class OutboxRelay {
  private readonly js: JetStreamClient;
  private readonly loop: PollingLoop;

  constructor(private readonly opts: RelayOptions) {
    this.js = jetstream(opts.nc);
    this.loop = new PollingLoop(() => this.runOnce(), {
      intervalMs: opts.intervalMs ?? 500,
      batchSize: opts.batchSize ?? 100,
      logger: opts.logger,
      failure: 'outbox relay: publish failed, will retry',
    });
  }

  start(): void {
    this.loop.start();
  }

  stop(): Promise<void> {
    return this.loop.stop();
  }

  /** Publish now (called after a commit that recorded events). */
  kick(): void {
    this.loop.kick();
  }

  /**
   * Publishes one batch; returns how many events went out. Two round trips to PostgreSQL: the
   * transaction begins with the claim of the rows (locked, SKIP LOCKED for other replicas'
   * relays), and the rows are marked published in the message that commits.
   */
  async runOnce(): Promise<number> {
    const batch = Math.max(1, Math.floor(this.opts.batchSize ?? 100));
    // The row keeps the event type; the subject carries the deployment's prefix.
    const names = namesOf(this.opts.nc);
    return withConnection(this.opts.em, async (db) => {
      const t = qualified(db, 'outbox');
      // One relay publishes at a time (a transaction-scoped advisory lock per outbox table; the
      // others find it taken and claim nothing this round), so the stream gets the events in the
      // outbox's order, and an aggregate's events in the order they happened, however many
      // replicas run a relay. A replica that stops leaves the lock to the next one at once.
      const [, claimed] = await sqlScript(
        db,
        `begin; with relay as (select pg_try_advisory_xact_lock(${RELAY_LOCK_CLASS}, hashtext(${literal(t)})) as ours)
         select o.id, o.subject, o.payload::text as payload, o.payload->>'correlationId' as correlation_id
         from ${t} o, relay where relay.ours and o.published_at is null order by o.seq limit ${batch} for update of o skip locked`,
      );
      const rows = claimed!.rows as Array<{ id: string; subject: string; payload: string; correlation_id: string | null }>;
      if (rows.length === 0) {
        await sqlScript(db, 'commit');
        return 0;
      }
      // Sent in order on the one connection, acknowledged together: a batch costs one round trip
      // to JetStream, not one per event. If any publish fails, no row is marked (the transaction
      // is rolled back); the ones that went out are sent again later and the stream drops them
      // as duplicates.
      await Promise.all(
        rows.map(async (row) => {
          // The correlation id travels as a header too, readable without parsing the body.
          const headers = isRequestId(row.correlation_id) ? natsHeaders() : undefined;
          headers?.set(CORRELATION_HEADER, row.correlation_id!);
          await this.js.publish(names.eventSubject(row.subject), row.payload, { msgID: row.id, ...(headers ? { headers } : {}) });
          await this.opts.afterPublish?.(row.id);
        }),
      );
      await sqlScript(db, `update ${t} set published_at = now() where id = any(${uuidArrayLiteral(rows.map((r) => r.id))}); commit`);
      return rows.length;
    }, this.opts.connections);
  }
}

/** A table name qualified with the ORM's schema, for raw SQL. */
export function qualified(db: Db, table: string): string {
  const schema = schemaOf(db);
  return schema ? `"${schema}"."${table}"` : `"${table}"`;
}

/**
 * Bumps the version of one aggregate row (`version int not null`) in the caller's transaction and
 * returns the new version, or null when no such row exists. The update locks the row, so
 * concurrent changes get consecutive versions in commit order.
 */
export async function bumpAggregateVersion(em: EntityManager, table: string, id: string): Promise<number | null> {
  const rows = await em.execute<Array<{ version: number }>>(`update ${qualified(em, table)} set version = version + 1 where id = ? returning version`, [id]);
  return rows[0] ? Number(rows[0].version) : null;
}
