import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from '@dme/testing';
import { createOrm, migrate, Migration, type Orm } from './db';
import { HttpProblem } from './errors';
import { ADDRESS_LIMIT_MESSAGE, addressKey, addressLimit, rateLimitTableSql } from './rate-limit';

const SCHEMA = 'rl_test';

class RateLimitTable extends Migration {
  override async up(): Promise<void> {
    for (const statement of rateLimitTableSql(SCHEMA)) this.addSql(statement);
  }
}

let db: Awaited<ReturnType<typeof createTestDatabase>>;
/** Two ORMs (pools) on one database: two replicas of a service. */
let a: Orm;
let b: Orm;

beforeAll(async () => {
  db = await createTestDatabase('ratelimit');
  const open = () => createOrm({ url: db.url, schema: SCHEMA, entities: [], migrations: [{ name: '0001_rate_limits', class: RateLimitTable }] });
  a = await open();
  await migrate(a, SCHEMA, db.url);
  b = await open();
});

afterAll(async () => {
  await a?.close();
  await b?.close();
  await db?.drop();
});

async function refusal(p: Promise<void>): Promise<HttpProblem> {
  const err = await p.then(() => undefined, (e: unknown) => e);
  expect(err).toBeInstanceOf(HttpProblem);
  return err as HttpProblem;
}

describe('addressLimit (rate-limiter-flexible on PostgreSQL)', () => {
  it('two replicas share one count per address; past max, 429 with Retry-After until the window ends', async () => {
    const la = addressLimit(a.em, { name: 'shared', max: 3, windowSeconds: 600 });
    const lb = addressLimit(b.em, { name: 'shared', max: 3, windowSeconds: 600 });
    await la.take('203.0.113.1');
    await lb.take('203.0.113.1');
    await la.take('203.0.113.1');
    const refused = await refusal(lb.take('203.0.113.1'));
    expect(refused.status).toBe(429);
    expect(refused.toProblem().detail).toBe(ADDRESS_LIMIT_MESSAGE);
    const retryAfter = Number(refused.headers?.['Retry-After']);
    expect(retryAfter).toBeGreaterThanOrEqual(599);
    expect(retryAfter).toBeLessThanOrEqual(600);
    expect((await refusal(la.take('203.0.113.1'))).status).toBe(429);
    // Another address, and another limit for the same address, count on their own.
    await la.take('203.0.113.2');
    await addressLimit(b.em, { name: 'other', max: 1, windowSeconds: 600 }).take('203.0.113.1');
  });

  it('a new window starts when the old one ended', async () => {
    const l = addressLimit(a.em, { name: 'short', max: 1, windowSeconds: 1 });
    await l.take('203.0.113.3');
    expect((await refusal(l.take('203.0.113.3'))).status).toBe(429);
    await new Promise((r) => setTimeout(r, 1100));
    await l.take('203.0.113.3');
  });

  it('anonymousOnly: signed-in callers pass uncounted', async () => {
    const l = addressLimit(a.em, { name: 'anon', max: 1, windowSeconds: 600, anonymousOnly: true });
    const principal = { userId: '7f1a1f40-0000-4000-8000-000000000001', userType: 'CUSTOMER' as const, username: 'c' };
    for (let i = 0; i < 3; i++) await l.take('203.0.113.4', principal);
    await l.take('203.0.113.4');
    expect((await refusal(l.take('203.0.113.4'))).status).toBe(429);
    await l.take('203.0.113.4', principal);
  });

  it('keys are hashes of the address (IPv6 by /64), never the address itself', async () => {
    const l = addressLimit(a.em, { name: 'v6', max: 1, windowSeconds: 600 });
    await l.take('2001:db8:7:7::1');
    expect((await refusal(l.take('2001:db8:7:7::2'))).status).toBe(429);
    await l.take('2001:db8:7:8::1');
    expect(addressKey('::ffff:203.0.113.7')).toBe('203.0.113.7');
    const keys = (await a.em.fork().getConnection().execute<Array<{ key: string }>>(`select key from "${SCHEMA}"."rate_limits"`)).map((r) => r.key);
    expect(keys.length).toBeGreaterThan(0);
    for (const key of keys) expect(key).toMatch(/^[a-z0-9]+:[0-9a-f]{64}$/);
  });

  it('a store that does not answer is a 503 with Retry-After, not a 500', async () => {
    // The table is missing in this schema: every statement of the store fails.
    const broken = addressLimit(a.em, { name: 'broken', max: 5, windowSeconds: 600, table: 'no_such_table' });
    const refused = await refusal(broken.take('203.0.113.5'));
    expect(refused.status).toBe(503);
    expect(refused.headers?.['Retry-After']).toBe('5');
    // PostgreSQL itself unreachable (a closed pool).
    const gone = await createOrm({ url: db.url, schema: SCHEMA, entities: [], migrations: [] });
    const limit = addressLimit(gone.em, { name: 'gone', max: 5, windowSeconds: 600 });
    await gone.close();
    expect((await refusal(limit.take('203.0.113.6'))).status).toBe(503);
  });
});
