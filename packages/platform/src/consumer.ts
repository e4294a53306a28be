import type { EntityManager } from '@mikro-orm/postgresql';
import { AckPolicy, DeliverPolicy, jetstream, jetstreamManager, type JsMsg } from '@nats-io/jetstream';
import { nanos } from '@nats-io/transport-node';
import { EVENT_STREAM, EventEnvelope } from '@dme/contracts';
import type { NatsConnection } from './nats';
import type { Logger } from './logger';
import { qualified } from './outbox';

export interface ConsumerOptions {
  nc: NatsConnection;
  em: EntityManager;
  logger: Logger;
  /** Durable consumer name, shared by every replica of the service. */
  durable: string;
  /** One subject (wildcards allowed): nats-server 2.9 has no multi-subject filters. */
  subjects: [string];
  /** The effect; runs in the same transaction as the inbox record, so it happens once. */
  handle: (em: EntityManager, event: EventEnvelope) => Promise<void>;
  stream?: string;
  /** Delay before a failed message is delivered again (ms). */
  retryDelayMs?: number;
}

export interface RunningConsumer {
  stop(): Promise<void>;
}

/**
 * A durable JetStream consumer with explicit acks whose handler is idempotent: the event id
 * is recorded in the service's inbox table in the same transaction as the effect, and an event
 * already recorded is acknowledged without running the effect again (DESIGN §7).
 */
export async function startConsumer(opts: ConsumerOptions): Promise<RunningConsumer> {
  const stream = opts.stream ?? EVENT_STREAM;
  const jsm = await jetstreamManager(opts.nc);
  const config = {
    durable_name: opts.durable,
    ack_policy: AckPolicy.Explicit,
    deliver_policy: DeliverPolicy.All,
    ack_wait: nanos(30_000),
    max_deliver: -1,
    filter_subject: opts.subjects[0],
  };
  try {
    await jsm.consumers.info(stream, opts.durable);
  } catch {
    try {
      await jsm.consumers.add(stream, config);
    } catch (err) {
      if (!String((err as Error).message).includes('already')) throw err;
    }
  }
  const consumer = await jetstream(opts.nc).consumers.get(stream, opts.durable);
  const messages = await consumer.consume({ max_messages: 50 });
  const inbox = qualified(opts.em, 'inbox');

  const loop = (async () => {
    for await (const m of messages) {
      await handleOne(m);
    }
  })();

  async function handleOne(m: JsMsg): Promise<void> {
    let event: EventEnvelope;
    try {
      event = EventEnvelope.parse(m.json()) as EventEnvelope;
    } catch (err) {
      opts.logger.error({ err, subject: m.subject, seq: m.seq }, 'consumer: malformed event dropped');
      m.term();
      return;
    }
    try {
      await opts.em.fork().transactional(async (tem) => {
        const res = await tem.execute<{ affectedRows: number }>(
          `insert into ${inbox} (consumer, event_id, processed_at) values (?, ?, now()) on conflict do nothing`,
          [opts.durable, event.id],
          'run',
        );
        if (res.affectedRows === 0) return; // handled before: effect already happened
        await opts.handle(tem, event);
      });
      await m.ackAck();
    } catch (err) {
      opts.logger.warn({ err, eventId: event.id, type: event.type }, 'consumer: handler failed, will retry');
      m.nak(opts.retryDelayMs ?? 2000);
    }
  }

  return {
    async stop() {
      await messages.close();
      await loop.catch(() => undefined);
    },
  };
}
