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
 * body. The lease is short, so a retry after such a crash waits seconds, not minutes; the living
 * holder renews it (`renewed_at`) every IDEMPOTENCY_RENEW_MS while its request runs, so a slow
 * request keeps its key. Each claim carries a token (its `created_at`, which renewals leave alone)
 * and every later write of the key checks it: a claimant that lost its lease and comes back late
 * writes nothing (its transaction rolls back), so there is still one effect per key.
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
 * How often the process holding a claim renews it: a quarter of the lease, so two renewals may be
 * late or fail (a busy pool, a database hiccup) before the claim can be taken over.
 */
export const IDEMPOTENCY_RENEW_MS = 2_500;

/**
 * How long a claim is renewed at most. Requests end long before (the gateway's upstream timeout,
 * the services' RPC timeouts); one still running after this hangs, and its key is let go as a dead
 * process's is (the longest a retry waited for a key before leases were renewed).
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
 *
 * Each claim won is then renewed by this process until it is settled (storeAnswer, forgetKey,
 * settleFailure) or found settled (DONE, gone, taken over), so its request may run as long as it
 * needs; only a claim made through an EntityManager (a held connection may be gone by the next
 * renewal), outside a transaction (or the claim would not hold against others to begin with).
 */
export async function claimKeys(db: Db, claims: KeyClaim[], leaseSeconds = IDEMPOTENCY_LEASE_SECONDS): Promise<Array<string | null>> {
  const firstOf = new Map<string, number>();
  const rows = claims.map((c, i) => {
    const id = `${c.owner}\u0000${c.key}`;
    if (!firstOf.has(id)) firstOf.set(id, i);
    return { i, owner_id: c.owner, key: c.key, hash: c.hash, dup: firstOf.get(id) !== i };
  });
  const table = qualified(db, IDEMPOTENCY_TABLE);
  // A claim's lease runs from its last renewal (from its claim if never renewed).
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
  const tokens = claimed.map((c) => c.token);
  if (!isConnection(db)) {
    for (const [i, token] of tokens.entries()) if (token) keepAlive(db, claims[i]!, token);
  }
  return tokens;
}

/**
 * Renewing the claims this process holds: for each database and table, the claims (by owner,
 * key and token) and when each was claimed and last renewed (this process's clock: only the
 * database's clock decides whether a lease ran out).
 */
interface HeldClaim {
  owner: string;
  key: string;
  token: string;
  claimedAt: number;
  renewedAt: number;
}

interface ClaimHolder {
  /** What tells two ORMs (two databases) apart: their driver. */
  driver: unknown;
  table: string;
  /** Outside any transaction: renewals are statements of their own. */
  em: EntityManager;
  claims: Map<string, HeldClaim>;
}

const holders: ClaimHolder[] = [];
let renewTimer: NodeJS.Timeout | undefined;
let renewing = false;

function isConnection(db: Db): db is Extract<Db, { kind: 'connection' }> {
  return (db as { kind?: unknown }).kind === 'connection';
}

function claimId(owner: string, key: string, token: string): string {
  return `${owner}\u0000${key}\u0000${token}`;
}

function keepAlive(em: EntityManager, claim: KeyClaim, token: string): void {
  const driver = em.getDriver();
  const table = qualified(em, IDEMPOTENCY_TABLE);
  let holder = holders.find((h) => h.driver === driver && h.table === table);
  if (!holder) {
    holder = { driver, table, em: em.fork(), claims: new Map() };
    holders.push(holder);
  }
  const now = Date.now();
  holder.claims.set(claimId(claim.owner, claim.key, token), { owner: claim.owner, key: claim.key, token, claimedAt: now, renewedAt: now });
  if (!renewTimer) {
    // Often enough that a claim is renewed within a second of falling due.
    renewTimer = setInterval(() => void renewHeldClaims(), Math.min(1000, IDEMPOTENCY_RENEW_MS));
    // A process may end while it holds claims (their leases then run out).
    renewTimer.unref();
  }
}

/** This process stops renewing a claim (settled, or no longer to be kept). */
function letGo(owner: string, key: string, token: string): void {
  const id = claimId(owner, key, token);
  for (const h of holders) h.claims.delete(id);
  dropIdleHolders();
}

function dropIdleHolders(): void {
  for (let i = holders.length - 1; i >= 0; i--) if (holders[i]!.claims.size === 0) holders.splice(i, 1);
  if (holders.length === 0 && renewTimer) {
    clearInterval(renewTimer);
    renewTimer = undefined;
  }
}

/**
 * Renews the held claims that are due, one statement per table. A claim found settled (DONE,
 * forgotten, taken over) is let go. A claim's row locked by another transaction is skipped, never
 * waited for (the transaction writing its answer, or one taking it over; renewals never wait in
 * a lock queue, so they cannot deadlock with them), and tried again on the next tick.
 */
async function renewHeldClaims(): Promise<void> {
  if (renewing) return;
  renewing = true;
  try {
    const now = Date.now();
    for (const holder of [...holders]) {
      const due: HeldClaim[] = [];
      for (const [id, c] of holder.claims) {
        if (now - c.claimedAt >= IDEMPOTENCY_MAX_HOLD_SECONDS * 1000) holder.claims.delete(id);
        else if (now - c.renewedAt >= IDEMPOTENCY_RENEW_MS) due.push(c);
      }
      if (due.length === 0) continue;
      let answers: Array<{ i: number; renewed: boolean; held: boolean }>;
      try {
        answers = await sql(
          holder.em,
          `with req as materialized (
             select * from jsonb_to_recordset($1::jsonb) as r(i int, owner_id uuid, key text, token timestamptz)
           ), mine as (
             select k.owner_id, k.key from ${holder.table} k join req r
                 on k.owner_id = r.owner_id and k.key = r.key and k.state = 'IN_PROGRESS' and k.created_at = r.token
              order by k.owner_id, k.key
                for update of k skip locked
           ), renewed as (
             update ${holder.table} k set renewed_at = clock_timestamp() from mine m
              where k.owner_id = m.owner_id and k.key = m.key returning k.owner_id, k.key
           )
           select r.i,
                  exists (select 1 from renewed n where n.owner_id = r.owner_id and n.key = r.key) as renewed,
                  exists (select 1 from ${holder.table} k
                           where k.owner_id = r.owner_id and k.key = r.key and k.state = 'IN_PROGRESS' and k.created_at = r.token) as held
             from req r`,
          [JSON.stringify(due.map((c, i) => ({ i, owner_id: c.owner, key: c.key, token: c.token })))],
        );
      } catch {
        // The database did not answer: tried again on the next tick. If the lease runs out
        // meanwhile, a retry may take the key over, and this request then writes nothing.
        continue;
      }
      for (const a of answers) {
        const c = due[a.i]!;
        if (!a.held) holder.claims.delete(claimId(c.owner, c.key, c.token));
        else if (a.renewed) c.renewedAt = now;
      }
    }
  } finally {
    renewing = false;
    dropIdleHolders();
  }
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
  // Let go even when the delete fails (the database is gone): the lease then frees the key.
  letGo(owner, key, token);
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
  // The request is over whatever happens below: if its key is neither answered nor freed, the
  // lease frees it.
  letGo(owner, key, token);
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
  try {
    const answer = await em.fork().transactional(async (tem) => {
      const answer = await work(tem);
      if (!(await storeAnswer(tem, claim.owner, claim.key, token, answer))) throw new ClaimLostError(claim.key);
      return answer;
    });
    // Answered (DONE): nothing left to renew.
    letGo(claim.owner, claim.key, token);
    return answer;
  } catch (err) {
    await settleFailure(em, claim.owner, claim.key, token, err, instance);
    throw err;
  }
}

/** Housekeeping: stored answers (and claims a crash left IN_PROGRESS) older than the TTL go, in bounded batches. */
export function purgeIdempotencyKeys(em: EntityManager, hours = IDEMPOTENCY_TTL_HOURS): Promise<number> {
  return deleteInBatches(em, qualified(em, IDEMPOTENCY_TABLE), `created_at < now() - make_interval(hours => ?)`, [hours]);
}
