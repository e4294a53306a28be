import { connect, nanos, type NatsConnection } from '@nats-io/transport-node';
import { jetstreamManager, RetentionPolicy, StorageType } from '@nats-io/jetstream';
import { EVENT_STREAM, EVENT_SUBJECTS } from '@dme/contracts';

export type { NatsConnection };

export async function connectNats(url: string, name: string): Promise<NatsConnection> {
  // noAsyncTraces: nats.js otherwise builds an Error (with its stack) for every request and
  // timer up front, in case it fails; callers here turn failures into their own problems.
  return connect({ servers: url.split(','), name, maxReconnectAttempts: -1, reconnectTimeWait: 500, noAsyncTraces: true });
}

/**
 * Makes sure the domain-event stream exists. Messages are kept (limits retention, no age limit)
 * so a consumer that starts later still gets every event; duplicates by message id are dropped
 * for 2 minutes.
 */
export async function ensureEventStream(nc: NatsConnection, stream = EVENT_STREAM, subjects = EVENT_SUBJECTS): Promise<void> {
  const jsm = await jetstreamManager(nc);
  const config = {
    name: stream,
    subjects,
    storage: StorageType.File,
    retention: RetentionPolicy.Limits,
    duplicate_window: nanos(120_000),
    // Kept without an age limit: read models of new services are built by replaying the stream.
    max_age: 0,
  };
  try {
    await jsm.streams.info(stream);
    await jsm.streams.update(stream, { subjects, duplicate_window: config.duplicate_window, max_age: config.max_age });
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

/** The stream that keeps events no consumer could handle (poison or malformed), for inspection and replay. */
export const DEAD_LETTER_STREAM = 'DME_DEAD_LETTERS';
/** Dead letters are published on `<prefix>.<consumer>.<original subject>`; must not overlap the events' `dme.>`. */
export const DEAD_LETTER_PREFIX = 'dlq';

/**
 * Makes sure the dead-letter stream exists (created once, never reconfigured here). Dead letters
 * are kept without an age limit: each one needs a person to look at it.
 */
export async function ensureDeadLetterStream(nc: NatsConnection, stream = DEAD_LETTER_STREAM, prefix = DEAD_LETTER_PREFIX): Promise<void> {
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
    });
  } catch (addErr) {
    if (!String((addErr as Error).message).includes('already in use')) throw addErr;
  }
}

function isNotFound(err: unknown): boolean {
  const msg = String((err as Error)?.message ?? err);
  return msg.includes('not found') || (err as { code?: number })?.code === 404;
}
