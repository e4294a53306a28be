import { EVENT_STREAM, EVENT_SUBJECTS } from '@dme/contracts';

/** The stream that keeps events no consumer could handle (poison or malformed), for inspection and replay. */
export const DEAD_LETTER_STREAM = 'DME_DEAD_LETTERS';
/** Dead letters are published on `<prefix>.<consumer>.<original subject>`; must not overlap the events' `dme.>`. */
export const DEAD_LETTER_PREFIX = 'dlq';

/**
 * A deployment's prefix (NATS_PREFIX): letters, digits, `_` and `-`, so it is valid in subjects,
 * stream names and durable names alike. Empty: the names without any prefix.
 */
export const NATS_PREFIX_PATTERN = /^[A-Za-z0-9_-]{0,32}$/;

/**
 * Every name a process uses on NATS, for one deployment prefix (issue 14): two deployments that
 * share a NATS cluster with different prefixes use disjoint streams, consumers and subjects, so
 * neither consumes the other's events or answers the other's requests. With the empty prefix the
 * names are exactly the unprefixed ones. Event types inside envelopes stay unprefixed (contract
 * data); only what NATS sees carries the prefix.
 */
export interface NatsNames {
  prefix: string;
  /** The domain-event stream and the subjects it holds. */
  eventStream: string;
  eventSubjects: string[];
  /** The subject an event type (or a filter such as `dme.order.>`) is published on / read from. */
  eventSubject: (typeOrFilter: string) => string;
  deadLetterStream: string;
  /** The first token(s) of dead-letter subjects. */
  deadLetterPrefix: string;
  /** A durable consumer's name on NATS (the inbox keeps the unprefixed name). */
  durable: (name: string) => string;
  /** A core NATS subject (request/reply commands, cache and session announcements). */
  core: (subject: string) => string;
}

/** Prefixes whose subjects would fall inside the unprefixed deployment's streams (`dme.>`, `dlq.>`). */
const RESERVED = ['dme', 'dlq'];

/** Why a prefix cannot be used, or null when it can. */
export function natsPrefixProblem(prefix: string): string | null {
  if (!NATS_PREFIX_PATTERN.test(prefix)) return 'use up to 32 letters, digits, "_" or "-"';
  if (RESERVED.includes(prefix)) return `"${prefix}" is reserved (the unprefixed subjects start with it)`;
  return null;
}

export function natsNames(prefix = ''): NatsNames {
  const problem = natsPrefixProblem(prefix);
  if (problem) throw new Error(`NATS prefix "${prefix}": ${problem}`);
  const dotted = (s: string) => (prefix ? `${prefix}.${s}` : s);
  return {
    prefix,
    eventStream: prefix ? `${prefix}_${EVENT_STREAM}` : EVENT_STREAM,
    eventSubjects: EVENT_SUBJECTS.map(dotted),
    eventSubject: dotted,
    deadLetterStream: prefix ? `${prefix}_${DEAD_LETTER_STREAM}` : DEAD_LETTER_STREAM,
    deadLetterPrefix: dotted(DEAD_LETTER_PREFIX),
    durable: (name) => (prefix ? `${prefix}_${name}` : name),
    core: dotted,
  };
}
