import { createHash, randomBytes } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { SessionPrincipal } from '@dme/contracts';
import { qualified, sql, newId } from '@dme/platform';
import { SessionEntity } from './session.entity';

export const SESSION_COOKIE = 'dme_session';

export interface SessionPolicy {
  idleMinutes: number;
  absoluteHours: number;
}

export const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

/** Opens a session: a random 256-bit token for the cookie; only its hash is stored. */
export async function openSession(
  em: EntityManager,
  userId: string,
  policy: SessionPolicy,
  meta: { ip: string; userAgent: string },
): Promise<{ token: string; expiresAt: Date; id: string }> {
  const token = randomBytes(32).toString('base64url');
  const now = new Date();
  const expiresAt = new Date(now.getTime() + policy.absoluteHours * 3600_000);
  const session = em.create(SessionEntity, {
    id: newId(),
    tokenHash: hashToken(token),
    userId,
    createdAt: now,
    lastSeenAt: now,
    expiresAt,
    ip: meta.ip.slice(0, 64),
    userAgent: meta.userAgent.slice(0, 300),
  });
  await em.persist(session).flush();
  return { token, expiresAt, id: session.id };
}

/** A resolved session: who is signed in, and until when the answer holds at the latest. */
export interface ResolvedSession {
  principal: SessionPrincipal & { sessionId: string };
  /**
   * When the session ends if nothing else happens: its absolute end or its idle deadline,
   * whichever is first. A gateway that caches the answer never keeps it past this.
   */
  validUntil: Date;
}

/**
 * Resolves a cookie token to the signed-in user, or undefined when the session is unknown,
 * idle too long, past its absolute end, or its user is deactivated or deleted.
 */
export async function resolveSession(em: EntityManager, token: string, policy: SessionPolicy): Promise<ResolvedSession | undefined> {
  return (await resolveSessions(em, [token], policy))[0];
}

/**
 * Resolves cookie tokens as resolveSession does, in one statement: the answer at index i is the
 * session of tokens[i] (undefined as there). A gateway asks for the cookies of the requests that
 * arrived together (its first requests after a start, or every request while it cannot cache).
 */
export async function resolveSessions(em: EntityManager, tokens: string[], policy: SessionPolicy): Promise<Array<ResolvedSession | undefined>> {
  const answers: Array<ResolvedSession | undefined> = tokens.map(() => undefined);
  const hashes = tokens.map((t) => (t && t.length <= 200 ? hashToken(t) : null));
  if (hashes.every((h) => h === null)) return answers;
  // The sliding idle timeout is written at most once a minute per session, in the same statement.
  // (A gateway that caches resolved sessions asks at most every SESSION_CACHE_SECONDS, which is
  // far inside the idle timeout; valid_until already counts this write.)
  const rows = await sql<{ i: number; session_id: string; user_id: string; user_type: string; username: string; name: string | null; valid_until: Date | string }>(
    em,
    `with found as materialized (
       select t.i::int as i, s.id as session_id, u.id as user_id, u.user_type, u.username,
              trim(coalesce(u.first_name, '') || ' ' || coalesce(u.last_name, '')) as name,
              s.last_seen_at < now() - interval '1 minute' as stale,
              least(s.expires_at,
                    (case when s.last_seen_at < now() - interval '1 minute' then now() else s.last_seen_at end)
                      + make_interval(mins => $2)) as valid_until
         from unnest($1::text[]) with ordinality as t(hash, i)
         join ${qualified(em, 'sessions')} s on s.token_hash = t.hash
         join ${qualified(em, 'users')} u on u.id = s.user_id
        where s.expires_at > now()
          and s.last_seen_at > now() - make_interval(mins => $2)
          and u.status = 'ACTIVE' and u.deleted_at is null
     ), touched as (
       update ${qualified(em, 'sessions')} set last_seen_at = now() where id in (select session_id from found where stale)
     )
     select i, session_id, user_id, user_type, username, name, valid_until from found`,
    [hashes, policy.idleMinutes],
  );
  for (const row of rows) {
    answers[row.i - 1] = {
      principal: { userId: row.user_id, userType: row.user_type as SessionPrincipal['userType'], username: row.username, ...(row.name ? { name: row.name } : {}), sessionId: row.session_id },
      validUntil: new Date(row.valid_until),
    };
  }
  return answers;
}

/** Ends the session of a cookie token; answers which session it was (undefined: none). */
export async function closeSession(em: EntityManager, token: string): Promise<{ sessionId: string; userId: string } | undefined> {
  const rows = await em.execute<Array<{ id: string; user_id: string }>>(
    `delete from ${qualified(em, 'sessions')} where token_hash = ? returning id, user_id`,
    [hashToken(token)],
  );
  const row = rows[0];
  return row ? { sessionId: row.id, userId: row.user_id } : undefined;
}

/** Removes sessions past their end; run now and then. */
export async function purgeExpiredSessions(em: EntityManager, policy: SessionPolicy): Promise<number> {
  const res = await em.execute<{ affectedRows: number }>(
    `delete from ${qualified(em, 'sessions')} where expires_at <= now() or last_seen_at <= now() - make_interval(mins => ?)`,
    [policy.idleMinutes],
    'run',
  );
  return res.affectedRows;
}
