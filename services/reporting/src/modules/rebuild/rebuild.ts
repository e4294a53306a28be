import { DeliverPolicy, jetstream, jetstreamManager } from '@nats-io/jetstream';
import { EventEnvelope } from '@dme/contracts';
import { createOrm, literal, migrate, namesOf, sqlScript, uuidArrayLiteral, withConnection, type Logger, type NatsConnection } from '@dme/platform';
import { migrations } from '../../migrations/0001_reporting';
import { applyReportingEvents } from '../readmodel/apply';

export const DEFAULT_REBUILD_SCHEMA = 'reporting_rebuild';
/** The inbox consumer name of a rebuild (the stream may hold an event twice under two message ids). */
const REBUILD_CONSUMER = 'reporting-rebuild';

export interface RebuildOptions {
  databaseUrl: string;
  nc: NatsConnection;
  logger: Logger;
  /** The schema to build (dropped and created again); never the live 'reporting'. */
  schema?: string;
  /** First stream sequence to replay (default: the beginning of the stream). */
  fromSeq?: number;
  /** Events applied per transaction (default 500). */
  batch?: number;
}

export interface RebuildResult {
  schema: string;
  /** Stream messages read, and the last sequence replayed (the stream's last when the rebuild began). */
  messages: number;
  /** Events whose effect failed (malformed data): skipped, as the live consumers dead-letter them. */
  skipped: number;
  lastSeq: number;
}

/**
 * Builds the reporting read models again from the event stream, into an empty schema: the
 * schema is dropped and migrated afresh, then every event from the start of the event stream
 * (DME_EVENTS, with the connection's NATS prefix) up to its last message at the time the rebuild began is read with an ordered (ephemeral) consumer
 * and applied, in stream order, by the same function as the live consumers
 * (applyReportingEvents), with an inbox of its own so an event stored twice counts once. The
 * rebuilt tables can then be compared with the live ones, or swapped for them
 * (`alter schema reporting rename to …; alter schema reporting_rebuild rename to reporting`
 * while the service is stopped).
 */
export async function rebuild(opts: RebuildOptions): Promise<RebuildResult> {
  const schema = opts.schema ?? DEFAULT_REBUILD_SCHEMA;
  if (!/^[a-z_][a-z0-9_]{0,62}$/.test(schema)) throw new Error(`rebuild: not a schema name: ${schema}`);
  if (schema === 'reporting') throw new Error('rebuild: the live schema "reporting" is never rebuilt in place; rebuild into another and swap');
  const orm = await createOrm({ url: opts.databaseUrl, schema, entities: [], migrations, poolMax: 2 });
  try {
    await orm.em.getConnection().execute(`drop schema if exists "${schema}" cascade`);
    await migrate(orm, schema, opts.databaseUrl);
    const jsm = await jetstreamManager(opts.nc);
    const stream = namesOf(opts.nc).eventStream;
    const info = await jsm.streams.info(stream);
    const lastSeq = info.state.last_seq;
    const fromSeq = Math.max(opts.fromSeq ?? 1, info.state.first_seq, 1);
    if (info.state.first_seq > 1 && (opts.fromSeq ?? 1) < info.state.first_seq) {
      opts.logger.warn({ firstSeq: info.state.first_seq }, 'rebuild: the stream no longer holds its first events');
    }
    if (info.state.messages === 0 || lastSeq < fromSeq) return { schema, messages: 0, skipped: 0, lastSeq };
    const consumer = await jetstream(opts.nc).consumers.get(stream, { deliver_policy: DeliverPolicy.StartSequence, opt_start_seq: fromSeq });
    const size = Math.max(1, opts.batch ?? 500);
    let pending: EventEnvelope[] = [];
    let messages = 0;
    let skipped = 0;
    const applyAll = (events: EventEnvelope[]) =>
      withConnection(orm.em, async (db) => {
        const [, inserted] = await sqlScript(
          db,
          `begin; insert into "${schema}"."inbox" (consumer, event_id, processed_at)
           select ${literal(REBUILD_CONSUMER)}, unnest(${uuidArrayLiteral(events.map((e) => e.id))}), now() on conflict do nothing returning event_id`,
        );
        const isNew = new Set((inserted!.rows as Array<{ event_id: string }>).map((r) => r.event_id));
        const fresh = events.filter((e) => isNew.delete(e.id));
        if (fresh.length > 0) await applyReportingEvents(db, fresh);
        await sqlScript(db, 'commit');
      });
    // A batch that fails is applied again one event at a time; an event that fails alone is
    // skipped and logged (the live consumers dead-letter it, so the tables still agree).
    const flush = async () => {
      if (pending.length === 0) return;
      const events = pending;
      pending = [];
      try {
        await applyAll(events);
      } catch {
        for (const event of events) {
          try {
            await applyAll([event]);
          } catch (err) {
            skipped += 1;
            opts.logger.error({ err, eventId: event.id, type: event.type }, 'rebuild: event skipped (its handler fails)');
          }
        }
      }
    };
    const iter = await consumer.consume({ max_messages: 1000 });
    try {
      for await (const m of iter) {
        messages += 1;
        const parsed = EventEnvelope.safeParse(safeJson(m.data));
        if (parsed.success) pending.push(parsed.data as EventEnvelope);
        if (pending.length >= size) await flush();
        if (m.info.streamSequence >= lastSeq) break;
      }
      await flush();
    } finally {
      await iter.close();
    }
    opts.logger.info({ schema, messages, skipped, lastSeq }, 'rebuild: done');
    return { schema, messages, skipped, lastSeq };
  } finally {
    await orm.close();
  }
}

function safeJson(data: Uint8Array): unknown {
  try {
    return JSON.parse(new TextDecoder().decode(data));
  } catch {
    return undefined;
  }
}
