import { SESSION_REVOKED_SUBJECT, SessionRevoked } from '@dme/contracts';
import { namesOf, type Logger, type NatsConnection } from '@dme/platform';

/**
 * How long an answer waits for NATS to confirm it has the announcement: longer than the 5 s a
 * gateway keeps caching without an answer from NATS (its heartbeat lease, gateway/src/session.ts),
 * so when NATS itself hangs, every gateway has stopped caching before this answer goes out.
 */
const FLUSH_TIMEOUT_MS = 6000;

export interface RevocationDeps {
  nc: NatsConnection;
  logger: Logger;
}

/**
 * Announces that sessions ended, on core NATS (not the events stream: nobody needs it later, and
 * a gateway that was not listening caches nothing). Called after the change committed and
 * awaited before the answer: flush() returns once the NATS server has the message and has queued
 * it for every subscribed gateway (one hop to go), while the answer still has to travel identity
 * → gateway → client, and the client's next request → a gateway. So the gateways drop the session
 * before anyone can learn that it ended.
 *
 * If NATS does not confirm in time, this logs and returns: the change is already committed and
 * the answer must not lie about it. Gateways stop caching while their own NATS connection is down
 * or silent; only a gateway that still reaches NATS while identity alone cannot may keep the
 * session until identity's client delivers the buffered announcement, at most SESSION_CACHE_SECONDS.
 */
export async function announceRevocation(deps: RevocationDeps, revocation: SessionRevoked): Promise<void> {
  const message = SessionRevoked.parse(revocation);
  let timer: NodeJS.Timeout | undefined;
  try {
    deps.nc.publish(namesOf(deps.nc).core(SESSION_REVOKED_SUBJECT), JSON.stringify(message));
    await Promise.race([
      deps.nc.flush(),
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`NATS did not confirm within ${FLUSH_TIMEOUT_MS} ms`)), FLUSH_TIMEOUT_MS);
      }),
    ]);
  } catch (err) {
    deps.logger.error({ err, revocation: message }, 'identity: could not announce the end of sessions to the gateways');
  } finally {
    clearTimeout(timer);
  }
}
