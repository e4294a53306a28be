import { createHash } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { badRequest, conflict, HttpProblem, unprocessable } from './errors';
import { deleteInBatches } from './housekeeping';
import { qualified } from './outbox';
import { sql, type Db } from './sql';

/**
 * Idempotent requests (DESIGN §8: `POST /api/orders` and `POST /api/payments/:id/confirm` take an
 * Idempotency-Key): the same key and body give the same answer and one effect; the same key with
 * another body is 422; a key whose first request is still running is 409. One implementation for
 * every service: each keeps its keys in its own schema, in a table made by `idempotencyTableSql`.
 *
 * The life of a key: claimed (IN_PROGRESS) before the work, then DONE with the stored answer in
 * the same transaction as the work's effect, or with the answer of a definite refusal (4xx), or
 * forgotten when no definite answer was given (a service down, a crash) so the key can be used again.
 *
 * A claim is a lease: a process killed mid-request (kill -9, a lost machine) cannot forget its
 * key, so a claim not renewed for IDEMPOTENCY_LEASE_SECONDS is taken over by a retry with the same
 * body. The lease is short, so a retry after such a crash waits seconds, not minutes; a request
 * still running when its lease falls due has it renewed by its process (`holdClaim`), so a slow
 * request keeps its key. Each claim carries a token (its `created_at`, which renewals leave
 * alone) and every later write of the key checks it: a claimant that lost its lease and comes
 * back late writes nothing (its transaction rolls back), so there is still one effect per key.
 */

/** The table name in every service's schema. */
export const IDEMPOTENCY_TABLE = 'idempotency_keys';

/** How long a stored answer is kept (a retry after that starts over). */
export const IDEMPOTENCY_TTL_HOURS = 24;

/**
 * How long a claim may stay IN_PROGRESS without being renewed before a retry with the same key and
 * body takes it over: about how long a retry waits (409) after its first request's process died.
 */
export const IDEMPOTENCY_LEASE_SECONDS = 10;

/**
 * How often the process holding a claim renews it while its request runs: a quarter of the lease,
 * so two renewals may be late or fail (a busy pool, a database hiccup) before it can be taken over.
 * Most requests end before the first renewal, which then never runs.
 */
export const IDEMPOTENCY_RENEW_MS = 2_500;

/**
 * How long a claim is renewed at most. Requests end long before (the gateway's upstream timeout,
 * the services' RPC timeouts); one still running after this hangs, and its key is let go as a dead
 * process's is.
 */
export const IDEMPOTENCY_MAX_HOLD_SECONDS = 120;

/** The keys table, for a service's migration. */
export function idempotencyTableSql(schema: string): string {
  return `create table "${schema}"."${IDEMPOTENCY_TABLE}" (
    "owner_id" uuid not null,
    "key" varchar(200) not null,
    "request_hash" char(64) not null,
    "state" varchar(12) not null check ("state" in ('IN_PROGRESS','DONE')),
    "response_status" int null,
    "response_body" jsonb null,
    "created_at" timestamptz not null default now(),
    "renewed_at" timestamptz null,
    primary key ("owner_id", "key")
  )`;
}

/** Texts a service answers with (its own words: an order, a payment...). */
export interface IdempotencyMessages {
  missing: string;
  mismatch: string;
  inProgress: string;
}

/** A stored answer: status and body, given again to a retry. */
export interface StoredAnswer {
  status: number;
  body: unknown;
}

/** A key as a request presents it: who sends it (keys are per user), the key, the body's hash. */
export interface KeyClaim {
  owner: string;
  key: string;
  hash: string;
}

/** JSON with keys sorted at every level, so the same body always hashes the same. */
function stableStringify(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(stableStringify).join(',')}]`;
  if (v && typeof v === 'object') {
    return `{${Object.keys(v as object)
      .sort()
      .filter((k) => (v as Record<string, unknown>)[k] !== undefined)
      .map((k) => `${JSON.stringify(k)}:${stableStringify((v as Record<string, unknown>)[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(v);
}

/** The hash a key is stored with: of the request body, and of what else makes the request (a path id). */
export function requestHash(...parts: unknown[]): string {
  return createHash('sha256').update(stableStringify(parts.length === 1 ? parts[0] : parts)).digest('hex');
}

/** The key header's value, or 400 when it is missing or too long. */
export function requireKey(key: string | undefined, messages: IdempotencyMessages): string {
  if (!key || key.length > 200) throw badRequest(messages.missing);
  return key;
}

/**
 * Claims keys, several in one statement (checkouts waiting together). Answers, per claim, this
 * request's token when it holds the key now (a new key, or a claim whose lease ran out with the
 * same body), else null. A key presented twice in one call is held by the first.
 */
export async function claimKeys(db: Db, claims: KeyClaim[], leaseSeconds = IDEMPOTENCY_LEASE_SECONDS): Promise<Array<string | null>> {
  const firstOf = new Map<string, number>();
  const rows = claims.map((c, i) => {
    const id = `${c.owner}\u0000${c.key}`;
    if (!firstOf.has(id)) firstOf.set(id, i);
    return { i, owner_id: c.owner, key: c.key, hash: c.hash, dup: firstOf.get(id) !== i };
  });
  const table = qualified(db, IDEMPOTENCY_TABLE);
  const claimed = await sql<{ i: number; token: string | null }>(
    db,
    `with req as materialized (
       select * from jsonb_to_recordset($1::jsonb) as r(i int, owner_id uuid, key text, hash text, dup boolean)
     ), claim as (
       insert into ${table} as k (owner_id, key, request_hash, state, created_at)
       select owner_id, key, hash, 'IN_PROGRESS', clock_timestamp() from req where not dup order by i
       on conflict (owner_id, key) do update set created_at = excluded.created_at, renewed_at = null
         where k.state = 'IN_PROGRESS' and k.request_hash = excluded.request_hash
           and greatest(k.created_at, k.renewed_at) < now() - make_interval(secs => $2)
       returning owner_id, key, created_at
     )
     select r.i, case when r.dup then null else (select c.created_at::text from claim c where c.owner_id = r.owner_id and c.key = r.key) end as token
       from req r order by r.i`,
    [JSON.stringify(rows), leaseSeconds],
  );
  return claimed.map((c) => c.token);
}

/**
 * Keeps a claim this request holds from being taken over while the request runs: renews its lease
 * every `renewMs` (the first renewal only after that, so a quick request never renews) until the
 * returned function is called, for IDEMPOTENCY_MAX_HOLD_SECONDS at most. A renewal skips a claim
 * whose row another transaction has locked (this request writing its answer, or a retry taking it
 * over) rather than wait in its lock queue, and writes nothing once the claim is settled or lost.
 * A renewal that fails is tried again on the next beat; if the lease runs out meanwhile, a retry
 * may take the key over, and this request then writes nothing (its token no longer matches).
 */
export function holdClaim(em: EntityManager, claim: { owner: string; key: string }, token: string, renewMs = IDEMPOTENCY_RENEW_MS): () => void {
  const table = qualified(em, IDEMPOTENCY_TABLE);
  const until = Date.now() + IDEMPOTENCY_MAX_HOLD_SECONDS * 1000;
  let renewing = false;
  const timer = setInterval(() => {
    if (Date.now() >= until) {
      clearInterval(timer);
      return;
    }
    if (renewing) return;
    renewing = true;
    sql(
      em.fork(),
      `update ${table} k set renewed_at = clock_timestamp()
        where (k.owner_id, k.key) in (
          select owner_id, key from ${table}
           where owner_id = $1 and key = $2 and state = 'IN_PROGRESS' and created_at = $3::timestamptz
             for update skip locked)`,
      [claim.owner, claim.key, token],
    )
      .catch(() => undefined)
      .finally(() => (renewing = false));
  }, renewMs);
  // A process may end while it holds claims: their leases then run out.
  timer.unref();
  return () => clearInterval(timer);
}

/**
 * The answer for a key this request could not claim: the stored answer when the first request
 * with the same body is done; 422 when the key was used with another body; 409 while the first
 * request is still running.
 */
export async function previousAnswer(db: Db, claim: KeyClaim, messages: IdempotencyMessages): Promise<StoredAnswer> {
  const [prev] = await sql<{ request_hash: string; state: string; response_status: number; response_body: unknown }>(
    db,
    `select request_hash, state, response_status, response_body from ${qualified(db, IDEMPOTENCY_TABLE)} where owner_id = $1 and key = $2`,
    [claim.owner, claim.key],
  );
  if (!prev) throw conflict(messages.inProgress);
  if (prev.request_hash !== claim.hash) throw unprocessable(messages.mismatch);
  if (prev.state !== 'DONE') throw conflict(messages.inProgress);
  return { status: prev.response_status, body: prev.response_body };
}

/**
 * Stores the answer of the key this request claimed (in the caller's transaction when `db` is in
 * one). False when the claim is no longer this request's (its lease ran out and a retry took it).
 */
export async function storeAnswer(db: Db, owner: string, key: string, token: string, answer: StoredAnswer): Promise<boolean> {
  const rows = await sql(
    db,
    `update ${qualified(db, IDEMPOTENCY_TABLE)} set state = 'DONE', response_status = $1, response_body = $2::jsonb
      where owner_id = $3 and key = $4 and state = 'IN_PROGRESS' and created_at = $5::timestamptz returning key`,
    [answer.status, JSON.stringify(answer.body), owner, key, token],
  );
  return rows.length === 1;
}

/** Lets a key be used again (no definite answer was given), while this request's claim holds it. */
export async function forgetKey(db: Db, owner: string, key: string, token: string): Promise<void> {
  await sql(db, `delete from ${qualified(db, IDEMPOTENCY_TABLE)} where owner_id = $1 and key = $2 and state = 'IN_PROGRESS' and created_at = $3::timestamptz`, [owner, key, token]);
}

/** A claimant whose lease ran out: its work must not commit (the retry that took the key does it). */
export class ClaimLostError extends Error {
  constructor(key: string) {
    super(`the claim of idempotency key ${key} ran out and was taken over`);
  }
}

/**
 * After a claimed request failed: a definite refusal (a problem under 500) is stored as the key's
 * answer, so the same key and body get it again; anything else frees the key.
 */
export async function settleFailure(db: Db, owner: string, key: string, token: string, err: unknown, instance: string): Promise<void> {
  if (err instanceof HttpProblem && err.status < 500) {
    await storeAnswer(db, owner, key, token, { status: err.status, body: err.toProblem(instance) });
    return;
  }
  await forgetKey(db, owner, key, token).catch(() => undefined);
}

/**
 * One idempotent request from start to end: claim the key; if another request has it, answer
 * what that one answered (or 409/422); else run `work` in a transaction whose effect and stored
 * answer commit together. A definite refusal is stored too; any other failure frees the key.
 */
export async function idempotent(
  em: EntityManager,
  claim: KeyClaim,
  messages: IdempotencyMessages,
  instance: string,
  work: (tem: EntityManager) => Promise<StoredAnswer>,
): Promise<StoredAnswer> {
  const [token] = await claimKeys(em, [claim]);
  if (!token) return previousAnswer(em, claim, messages);
  const release = holdClaim(em, claim, token);
  try {
    return await em.fork().transactional(async (tem) => {
      const answer = await work(tem);
      if (!(await storeAnswer(tem, claim.owner, claim.key, token, answer))) throw new ClaimLostError(claim.key);
      return answer;
    });
  } catch (err) {
    await settleFailure(em, claim.owner, claim.key, token, err, instance);
    throw err;
  } finally {
    release();
  }
}

/** Housekeeping: stored answers (and claims a crash left IN_PROGRESS) older than the TTL go, in bounded batches. */
export function purgeIdempotencyKeys(em: EntityManager, hours = IDEMPOTENCY_TTL_HOURS): Promise<number> {
  return deleteInBatches(em, qualified(em, IDEMPOTENCY_TABLE), `created_at < now() - make_interval(hours => ?)`, [hours]);
}
