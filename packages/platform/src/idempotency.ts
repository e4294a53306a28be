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
 */

/** The table name in every service's schema. */
export const IDEMPOTENCY_TABLE = 'idempotency_keys';

/** How long a stored answer is kept (a retry after that starts over). */
export const IDEMPOTENCY_TTL_HOURS = 24;

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
 * Claims keys, several in one statement (checkouts waiting together). Answers, per claim, whether
 * this request holds the key now. A key presented twice in one call is held by the first.
 */
export async function claimKeys(db: Db, claims: KeyClaim[]): Promise<boolean[]> {
  const firstOf = new Map<string, number>();
  const rows = claims.map((c, i) => {
    const id = `${c.owner}\u0000${c.key}`;
    if (!firstOf.has(id)) firstOf.set(id, i);
    return { i, owner_id: c.owner, key: c.key, hash: c.hash, dup: firstOf.get(id) !== i };
  });
  const claimed = await sql<{ i: number; claimed: boolean }>(
    db,
    `with req as materialized (
       select * from jsonb_to_recordset($1::jsonb) as r(i int, owner_id uuid, key text, hash text, dup boolean)
     ), claim as (
       insert into ${qualified(db, IDEMPOTENCY_TABLE)} (owner_id, key, request_hash, state)
       select owner_id, key, hash, 'IN_PROGRESS' from req where not dup order by i
       on conflict do nothing returning owner_id, key
     )
     select r.i, not r.dup and exists (select 1 from claim c where c.owner_id = r.owner_id and c.key = r.key) as claimed
       from req r order by r.i`,
    [JSON.stringify(rows)],
  );
  return claimed.map((c) => c.claimed);
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

/** Stores the answer of a claimed key (in the caller's transaction when `db` is in one). */
export async function storeAnswer(db: Db, owner: string, key: string, answer: StoredAnswer): Promise<void> {
  await sql(db, `update ${qualified(db, IDEMPOTENCY_TABLE)} set state = 'DONE', response_status = $1, response_body = $2::jsonb where owner_id = $3 and key = $4`, [
    answer.status,
    JSON.stringify(answer.body),
    owner,
    key,
  ]);
}

/** Lets a key be used again (no definite answer was given). */
export async function forgetKey(db: Db, owner: string, key: string): Promise<void> {
  await sql(db, `delete from ${qualified(db, IDEMPOTENCY_TABLE)} where owner_id = $1 and key = $2`, [owner, key]);
}

/**
 * After a claimed request failed: a definite refusal (a problem under 500) is stored as the key's
 * answer, so the same key and body get it again; anything else frees the key.
 */
export async function settleFailure(db: Db, owner: string, key: string, err: unknown, instance: string): Promise<void> {
  if (err instanceof HttpProblem && err.status < 500) {
    await storeAnswer(db, owner, key, { status: err.status, body: err.toProblem(instance) });
    return;
  }
  await forgetKey(db, owner, key).catch(() => undefined);
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
  const [claimed] = await claimKeys(em, [claim]);
  if (!claimed) return previousAnswer(em, claim, messages);
  try {
    return await em.fork().transactional(async (tem) => {
      const answer = await work(tem);
      await storeAnswer(tem, claim.owner, claim.key, answer);
      return answer;
    });
  } catch (err) {
    await settleFailure(em, claim.owner, claim.key, err, instance);
    throw err;
  }
}

/** Housekeeping: stored answers (and claims a crash left IN_PROGRESS) older than the TTL go, in bounded batches. */
export function purgeIdempotencyKeys(em: EntityManager, hours = IDEMPOTENCY_TTL_HOURS): Promise<number> {
  return deleteInBatches(em, qualified(em, IDEMPOTENCY_TABLE), `created_at < now() - make_interval(hours => ?)`, [hours]);
}
