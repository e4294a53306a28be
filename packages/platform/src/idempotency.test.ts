import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from '@dme/testing';
import { createOrm, migrate, Migration, type Orm } from './db';
import { conflict, HttpProblem } from './errors';
import { ClaimLostError, claimKeys, forgetKey, holdClaim, IDEMPOTENCY_LEASE_SECONDS, IDEMPOTENCY_RENEW_MS, idempotencyTableSql, idempotent, previousAnswer, requestHash, requireKey, storeAnswer } from './idempotency';
import { sql } from './sql';

const SCHEMA = 'idem_test';
const MESSAGES = { missing: 'A key is required.', mismatch: 'This key was used for something else.', inProgress: 'Already under way.' };

class IdempotencyTables extends Migration {
  override async up(): Promise<void> {
    this.addSql(idempotencyTableSql(SCHEMA));
    this.addSql(`create table "${SCHEMA}"."effects" (id uuid primary key, owner_id uuid not null, what text not null)`);
  }
}

let db: Awaited<ReturnType<typeof createTestDatabase>>;
let orm: Orm;

beforeAll(async () => {
  db = await createTestDatabase('idem');
  orm = await createOrm({ url: db.url, schema: SCHEMA, entities: [], migrations: [{ name: '0001_idem', class: IdempotencyTables }] });
  await migrate(orm, SCHEMA, db.url);
});

afterAll(async () => {
  await orm?.close();
  await db?.drop();
});

const effects = async (owner: string) => (await sql<{ n: number }>(orm.em.fork(), `select count(*)::int as n from "${SCHEMA}"."effects" where owner_id = $1`, [owner]))[0]!.n;

/** The request under test: writes one effect row and answers 201 with what it wrote. */
function doWork(owner: string, what: string, fail?: HttpProblem | Error) {
  return async (tem: Parameters<Parameters<typeof idempotent>[4]>[0]) => {
    const id = randomUUID();
    await sql(tem, `insert into "${SCHEMA}"."effects" (id, owner_id, what) values ($1, $2, $3)`, [id, owner, what]);
    if (fail) throw fail;
    return { status: 201, body: { id, what } };
  };
}

describe('idempotent requests (shared by checkout and payments)', () => {
  it('the same body hashes the same whatever the key order; another body or path id does not', () => {
    expect(requestHash({ a: 1, b: { c: 2, d: [1, 2] } })).toBe(requestHash({ b: { d: [1, 2], c: 2 }, a: 1 }));
    expect(requestHash({ a: 1 })).not.toBe(requestHash({ a: 2 }));
    expect(requestHash('payment-1', { a: 1 })).not.toBe(requestHash('payment-2', { a: 1 }));
  });

  it('a missing or overlong key is 400 with the service text', () => {
    expect(() => requireKey(undefined, MESSAGES)).toThrow(MESSAGES.missing);
    expect(() => requireKey('k'.repeat(201), MESSAGES)).toThrow(MESSAGES.missing);
    expect(requireKey('abc', MESSAGES)).toBe('abc');
  });

  it('the same key and body give the same answer and one effect; another body is 422', async () => {
    const owner = randomUUID();
    const claim = { owner, key: 'k1', hash: requestHash({ what: 'x' }) };
    const first = await idempotent(orm.em, claim, MESSAGES, '/x', doWork(owner, 'x'));
    const again = await idempotent(orm.em, claim, MESSAGES, '/x', doWork(owner, 'x'));
    expect(again).toEqual(first);
    expect(await effects(owner)).toBe(1);
    await expect(idempotent(orm.em, { ...claim, hash: requestHash({ what: 'y' }) }, MESSAGES, '/x', doWork(owner, 'y'))).rejects.toMatchObject({ status: 422, detail: MESSAGES.mismatch });
    // Keys are per owner: another user may use the same key.
    const other = randomUUID();
    await idempotent(orm.em, { ...claim, owner: other }, MESSAGES, '/x', doWork(other, 'x'));
    expect(await effects(other)).toBe(1);
  });

  it('20 requests with one key at once: one effect; the others get the answer or 409 while it runs', async () => {
    const owner = randomUUID();
    const claim = { owner, key: 'burst', hash: requestHash({ what: 'b' }) };
    const results = await Promise.allSettled(Array.from({ length: 20 }, () => idempotent(orm.em, claim, MESSAGES, '/x', doWork(owner, 'b'))));
    expect(await effects(owner)).toBe(1);
    for (const r of results) {
      if (r.status === 'rejected') expect(r.reason).toMatchObject({ status: 409, detail: MESSAGES.inProgress });
      else expect(r.value.status).toBe(201);
    }
  });

  it('a refusal (4xx) is the key\'s answer and has no effect; a failure (5xx or a crash) frees the key', async () => {
    const owner = randomUUID();
    const refused = { owner, key: 'refused', hash: requestHash({ what: 'r' }) };
    await expect(idempotent(orm.em, refused, MESSAGES, '/x', doWork(owner, 'r', conflict('Sold out.')))).rejects.toMatchObject({ status: 409 });
    expect(await effects(owner)).toBe(0);
    // The same key and body answer the same refusal, even though the work would now succeed.
    expect(await idempotent(orm.em, refused, MESSAGES, '/x', doWork(owner, 'r'))).toMatchObject({ status: 409, body: { detail: 'Sold out.', instance: '/x' } });
    expect(await effects(owner)).toBe(0);

    const crashed = { owner, key: 'crashed', hash: requestHash({ what: 'c' }) };
    await expect(idempotent(orm.em, crashed, MESSAGES, '/x', doWork(owner, 'c', new Error('database gone')))).rejects.toThrow('database gone');
    expect(await effects(owner)).toBe(0);
    // Nothing was answered: the key is free, and a retry does the work once.
    expect((await idempotent(orm.em, crashed, MESSAGES, '/x', doWork(owner, 'c'))).status).toBe(201);
    expect(await effects(owner)).toBe(1);
  });

  it('claims in one statement: a key twice in one batch is held by the first; a held key is not claimed again', async () => {
    const owner = randomUUID();
    const a = { owner, key: 'a', hash: 'h'.repeat(64) };
    expect((await claimKeys(orm.em, [a, a, { owner, key: 'b', hash: 'h'.repeat(64) }])).map((t) => t !== null)).toEqual([true, false, true]);
    expect(await claimKeys(orm.em, [a])).toEqual([null]);
    // Still running (IN_PROGRESS): 409.
    await expect(previousAnswer(orm.em, a, MESSAGES)).rejects.toMatchObject({ status: 409, detail: MESSAGES.inProgress });
  });

  it('a claim a crash left IN_PROGRESS is taken over after the lease by the same body only; the late claimant writes nothing', async () => {
    const owner = randomUUID();
    const claim = { owner, key: 'crash', hash: requestHash({ what: 'k' }) };
    const [late] = await claimKeys(orm.em, [claim]);
    expect(late).not.toBeNull();
    // Within the lease: still running.
    await expect(idempotent(orm.em, claim, MESSAGES, '/x', doWork(owner, 'k'))).rejects.toMatchObject({ status: 409 });
    await sql(orm.em.fork(), `update "${SCHEMA}"."idempotency_keys" set created_at = created_at - make_interval(secs => $1) where owner_id = $2`, [IDEMPOTENCY_LEASE_SECONDS + 1, owner]);
    // Another body does not take it over; the same body does, once.
    await expect(idempotent(orm.em, { ...claim, hash: requestHash({ what: 'other' }) }, MESSAGES, '/x', doWork(owner, 'other'))).rejects.toMatchObject({ status: 422 });
    const [taker] = await claimKeys(orm.em, [claim]);
    expect(taker).not.toBeNull();
    expect(taker).not.toBe(late);
    expect(await claimKeys(orm.em, [claim])).toEqual([null]);
    // The claimant that lost its lease comes back: it can neither answer nor free the key.
    expect(await storeAnswer(orm.em.fork(), owner, claim.key, late!, { status: 201, body: { late: true } })).toBe(false);
    await forgetKey(orm.em.fork(), owner, claim.key, late!);
    await expect(previousAnswer(orm.em, claim, MESSAGES)).rejects.toMatchObject({ status: 409 });
    expect(await storeAnswer(orm.em.fork(), owner, claim.key, taker!, { status: 201, body: { taker: true } })).toBe(true);
    expect(await previousAnswer(orm.em, claim, MESSAGES)).toEqual({ status: 201, body: { taker: true } });
  });

  it('the lease is short and kept by the living holder: a slow request keeps its key, a dead one frees it within about the lease', async () => {
    // Minutes before (120 s); a retry after a crash now waits seconds. Renewed well inside it.
    expect(IDEMPOTENCY_LEASE_SECONDS).toBeLessThanOrEqual(10);
    expect(IDEMPOTENCY_RENEW_MS * 3).toBeLessThanOrEqual(IDEMPOTENCY_LEASE_SECONDS * 1000);
    const lease = 1;
    const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));
    const owner = randomUUID();
    const slow = { owner, key: 'held', hash: requestHash({ what: 'h' }) };
    const dead = { owner, key: 'dead', hash: requestHash({ what: 'd' }) };
    const [held, gone] = await claimKeys(orm.em, [slow, dead], lease);
    expect(held).not.toBeNull();
    expect(gone).not.toBeNull();
    // The slow request's process renews its claim; the dead one's process is gone (no renewals).
    const release = holdClaim(orm.em, slow, held!, 200);
    await pause(lease * 1000 + 800);
    expect(await claimKeys(orm.em, [slow], lease)).toEqual([null]);
    const [taken] = await claimKeys(orm.em, [dead], lease);
    expect(taken).not.toBeNull();
    // The slow request still holds its key: it answers, and a retry gets that answer.
    expect(await storeAnswer(orm.em.fork(), owner, slow.key, held!, { status: 201, body: { slow: true } })).toBe(true);
    release();
    expect(await previousAnswer(orm.em, slow, MESSAGES)).toEqual({ status: 201, body: { slow: true } });
    // Once released (the request over), nothing renews it: a claim left behind runs out.
    const again = { owner, key: 'released', hash: requestHash({ what: 'r' }) };
    const [token] = await claimKeys(orm.em, [again], lease);
    holdClaim(orm.em, again, token!, 200)();
    await pause(lease * 1000 + 800);
    expect(await claimKeys(orm.em, [again], lease)).not.toEqual([null]);
  });

  it('renewals beside the transaction writing the answer leave the settled claim as it is', async () => {
    const owner = randomUUID();
    const claim = { owner, key: 'busy', hash: requestHash({ what: 'b' }) };
    const [token] = await claimKeys(orm.em, [claim]);
    const release = holdClaim(orm.em, claim, token!, 50);
    await orm.em.fork().transactional(async (tem) => {
      // The answer's row is locked for the rest of this transaction; renewals meanwhile skip it.
      expect(await storeAnswer(tem, owner, claim.key, token!, { status: 201, body: { ok: 1 } })).toBe(true);
      await new Promise((r) => setTimeout(r, 300));
    });
    await new Promise((r) => setTimeout(r, 200));
    release();
    const [row] = await sql<{ state: string; renewed_at: string | null }>(orm.em.fork(), `select state, renewed_at from "${SCHEMA}"."idempotency_keys" where owner_id = $1 and key = $2`, [owner, claim.key]);
    expect(row!.state).toBe('DONE');
    // Renewals touch IN_PROGRESS claims only.
    expect(row!.renewed_at).toBeNull();
  });

  it("a request whose lease ran out while it worked rolls its effect back", async () => {
    const owner = randomUUID();
    const claim = { owner, key: 'slow', hash: requestHash({ what: 's' }) };
    const slow = idempotent(orm.em, claim, MESSAGES, '/x', async (tem) => {
      // Meanwhile its lease runs out and a retry takes the key over.
      await sql(orm.em.fork(), `update "${SCHEMA}"."idempotency_keys" set created_at = created_at - make_interval(secs => $1) where owner_id = $2`, [IDEMPOTENCY_LEASE_SECONDS + 1, owner]);
      expect(await claimKeys(orm.em.fork(), [claim])).not.toEqual([null]);
      return doWork(owner, 's')(tem);
    });
    await expect(slow).rejects.toBeInstanceOf(ClaimLostError);
    expect(await effects(owner)).toBe(0);
    // The taker's claim is untouched by the failure: still running.
    await expect(previousAnswer(orm.em, claim, MESSAGES)).rejects.toMatchObject({ status: 409 });
  });
});
