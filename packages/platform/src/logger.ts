import { AsyncLocalStorage } from 'node:async_hooks';
import { pino, type DestinationStream, type Logger } from 'pino';

export type { Logger };

/**
 * The correlation id of the work being done (issue 14): the request id the gateway gave an HTTP
 * request (X-Request-Id), carried on to the services over HTTP, into the events the request
 * records (envelope `correlationId`, NATS header Dme-Correlation-Id), to the consumers that
 * handle them and the events those record in turn, and through request/reply commands. Every log
 * line written meanwhile carries it as `requestId`.
 */
export interface RequestContext {
  requestId: string;
}

const context = new AsyncLocalStorage<RequestContext | undefined>();

/** The NATS header that carries the correlation id of an event or a command. */
export const CORRELATION_HEADER = 'Dme-Correlation-Id';

/** What a correlation id may look like (as an incoming X-Request-Id): anything else is replaced, never trusted. */
export const REQUEST_ID_PATTERN = /^[A-Za-z0-9._-]{8,100}$/;

export function isRequestId(value: unknown): value is string {
  return typeof value === 'string' && REQUEST_ID_PATTERN.test(value);
}

/** Runs `fn` with this correlation id (none: outside any, even when called inside another). */
export function withRequestContext<T>(requestId: string | undefined, fn: () => T): T {
  return context.run(requestId ? { requestId } : undefined, fn);
}

/** The correlation id of the request, event or command being handled, if any. */
export function currentRequestId(): string | undefined {
  return context.getStore()?.requestId;
}

/**
 * A pino logger whose every line written inside a request context carries its `requestId`.
 * `destination` (tests) receives the JSON lines instead of stdout.
 */
export function createLogger(name: string, level: string = process.env.LOG_LEVEL ?? 'info', destination?: DestinationStream): Logger {
  const options = {
    name,
    level,
    base: { service: name },
    timestamp: pino.stdTimeFunctions.isoTime,
    // A line that names a requestId itself keeps its own (pino lets the line's fields win).
    mixin: () => {
      const requestId = currentRequestId();
      return requestId ? { requestId } : {};
    },
  };
  return destination ? pino(options, destination) : pino(options);
}
