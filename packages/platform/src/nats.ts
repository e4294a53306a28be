import { connect, nanos, type NatsConnection } from '@nats-io/transport-node';
import { jetstreamManager, RetentionPolicy, StorageType } from '@nats-io/jetstream';
import { natsNames, type NatsNames } from './naming';

export type { NatsConnection };
// The naming module is the kit's through this one (index.ts exports nats.ts).
export { DEAD_LETTER_PREFIX, DEAD_LETTER_STREAM, NATS_PREFIX_PATTERN, natsNames, natsPrefixProblem, type NatsNames } from './naming';

const NAMES = new WeakMap<NatsConnection, NatsNames>();
const UNPREFIXED = natsNames('');

/**
 * Connects to NATS. `prefix` (NATS_PREFIX) is the deployment's: the connection carries it, and
 * every stream, consumer and subject this kit uses through the connection is named with it
 * (see namesOf), so callers that pass the connection around need not know it.
 */
export async function connectNats(url: string, name: string, opts: { prefix?: string; streamReplicas?: number } = {}): Promise<NatsConnection> {
  const names = natsNames(opts.prefix ?? '');
  // noAsyncTraces: nats.js otherwise builds an Error (with its stack) for every request and
  // timer up front, in case it fails; callers here turn failures into their own problems.
  const nc = await connect({ servers: url.split(','), name, maxReconnectAttempts: -1, reconnectTimeWait: 500, noAsyncTraces: true });
  NAMES.set(nc, names);
  if (opts.streamReplicas) REPLICAS.set(nc, opts.streamReplicas);
  return nc;
}

/**
 * How many copies of its streams the deployment keeps (NATS_STREAM_REPLICAS): 1 on one server;
 * 3 on a three-node JetStream cluster, so a node's loss loses no event.
 */
const REPLICAS = new WeakMap<NatsConnection, number>();

export function streamReplicasOf(nc: NatsConnection): number {
  return REPLICAS.get(nc) ?? 1;
}

/** The NATS names of the deployment a connection belongs to (unprefixed unless connectNats got a prefix). */
export function namesOf(nc: NatsConnection): NatsNames {
  return NAMES.get(nc) ?? UNPREFIXED;
}

/**
 * Makes sure the domain-event stream exists. Messages are kept (limits retention, no age limit)
 * so a consumer that starts later still gets every event; duplicates by message id are dropped
 * for 2 minutes.
 */
export async function ensureEventStream(nc: NatsConnection, stream = namesOf(nc).eventStream, subjects = namesOf(nc).eventSubjects): Promise<void> {
  const jsm = await jetstreamManager(nc);
  const config = {
    name: stream,
    subjects,
    storage: StorageType.File,
    retention: RetentionPolicy.Limits,
    duplicate_window: nanos(120_000),
    // Kept without an age limit: read models of new services are built by replaying the stream.
    max_age: 0,
    num_replicas: streamReplicasOf(nc),
  };
  try {
    await jsm.streams.info(stream);
    await jsm.streams.update(stream, { subjects, duplicate_window: config.duplicate_window, max_age: config.max_age, num_replicas: config.num_replicas });
  } catch (err) {
    if (!isNotFound(err)) throw err;
    try {
      await jsm.streams.add(config);
    } catch (addErr) {
      // Another process created it first.
      if (!String((addErr as Error).message).includes('already in use')) throw addErr;
    }
  }
}

/**
 * Makes sure the dead-letter stream exists (created once, never reconfigured here). Dead letters
 * are kept without an age limit: each one needs a person to look at it.
 */
export async function ensureDeadLetterStream(nc: NatsConnection, stream = namesOf(nc).deadLetterStream, prefix = namesOf(nc).deadLetterPrefix): Promise<void> {
  const jsm = await jetstreamManager(nc);
  try {
    await jsm.streams.info(stream);
    return;
  } catch (err) {
    if (!isNotFound(err)) throw err;
  }
  try {
    await jsm.streams.add({
      name: stream,
      subjects: [`${prefix}.>`],
      storage: StorageType.File,
      retention: RetentionPolicy.Limits,
      duplicate_window: nanos(120_000),
      max_age: 0,
      num_replicas: streamReplicasOf(nc),
    });
  } catch (addErr) {
    if (!String((addErr as Error).message).includes('already in use')) throw addErr;
  }
}

function isNotFound(err: unknown): boolean {
  const msg = String((err as Error)?.message ?? err);
  return msg.includes('not found') || (err as { code?: number })?.code === 404;
}
