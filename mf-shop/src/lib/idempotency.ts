export { newIdempotencyKey } from '@dme/api-client';

/** After a definite refusal (4xx) a new attempt is a new request; after a network error it is a retry. */
export function isDefiniteFailure(err: unknown): boolean {
  const status = (err as { status?: unknown } | undefined)?.status;
  return typeof status === 'number' && status >= 400 && status < 500;
}
