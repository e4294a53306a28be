import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from '@dme/testing';
import { createOrm, migrate, type Orm } from './db';
import { purgePlatformTables, runExclusive, startHousekeeping } from './housekeeping';
import { createLogger } from './logger';

const SCHEMA = 'housekeeping_test';
const logger = createLogger('housekeeping-test', 'silent');

let db: Awaited<ReturnType<typeof createTestDatabase>>;
let orm: Orm;
/** A second "replica": its own pool on the same database. */
let other: Orm;

beforeAll(async () => {
  db = await createTestDatabase('housekeeping');
  orm = await createOrm({ url: db.url, schema: SCHEMA, entities: [], migrations: [] });
  await migrate(orm, SCHEMA, db.url);
  other = await createOrm({ url: db.url, schema: SCHEMA, entities: [], migrations: [] });
});

afterAll(async () => {
  await other?.close();
  await orm?.close();
  await db?.drop();
});

const sql = <T = unknown>(q: string, params: unknown[] = []) => orm.em.fork().execute<T[]>(q, params);

async function outboxRow(createdDaysAgo: number, publishedDaysAgo: number | null): Promise<string> {
  const id = randomUUID();
  await sql(
    `insert into "${SCHEMA}"."outbox" (id, subject, payload, created_at, published_at)
     values (?, 'dme.test.x', '{}'::jsonb, now() - make_interval(days => ?), ${publishedDaysAgo === null ? 'null' : 'now() - make_interval(days => ?)'})`,
    publishedDaysAgo === null ? [id, createdDaysAgo] : [id, createdDaysAgo, publishedDaysAgo],
  );
  return id;
}

async function inboxRow(daysAgo: number): Promise<string> {
  const id = randomUUID();
  await sql(`insert into "${SCHEMA}"."inbox" (consumer, event_id, processed_at) values ('c', ?, now() - make_interval(days => ?))`, [id, daysAgo]);
  return id;
}

async function failureRow(daysAgo: number): Promise<string> {
  const id = randomUUID();
  await sql(`insert into "${SCHEMA}"."consumer_failures" (consumer, event_id, failures, failed_at) values ('c', ?, 2, now() - make_interval(days => ?))`, [id, daysAgo]);
  return id;
}

const failureIds = async () => new Set((await sql<{ event_id: string }>(`select event_id from "${SCHEMA}"."consumer_failures"`)).map((r) => r.event_id));
const outboxIds = async () => new Set((await sql<{ id: string }>(`select id from "${SCHEMA}"."outbox"`)).map((r) => r.id));
const inboxIds = async () => new Set((await sql<{ event_id: string }>(`select event_id from "${SCHEMA}"."inbox"`)).map((r) => r.event_id));

describe('purge of the outbox, inbox and handler failures', () => {
  it('removes old published outbox rows, old inbox rows and old handler failures, keeps pending and recent ones (in small batches)', async () => {
    const oldPublished = await Promise.all(Array.from({ length: 5 }, () => outboxRow(10, 8)));
    const recentPublished = await outboxRow(10, 2); // created long ago, published recently
    const oldPending = await outboxRow(30, null); // never published: kept whatever its age
    const recentPending = await outboxRow(0, null);
    const oldInbox = await Promise.all(Array.from({ length: 5 }, () => inboxRow(15)));
    const recentInbox = await inboxRow(13);
    const oldFailures = await Promise.all(Array.from({ length: 3 }, () => failureRow(15)));
    const recentFailure = await failureRow(13);

    // Batches of 2: 5 old rows of each table take 3 statements.
    const purged = await purgePlatformTables(orm.em, { batchSize: 2 });
    expect(purged).toEqual({ outbox: 5, inbox: 5, failures: 3 });

    const outbox = await outboxIds();
    for (const id of oldPublished) expect(outbox.has(id)).toBe(false);
    for (const id of [recentPublished, oldPending, recentPending]) expect(outbox.has(id)).toBe(true);
    const inbox = await inboxIds();
    for (const id of oldInbox) expect(inbox.has(id)).toBe(false);
    expect(inbox.has(recentInbox)).toBe(true);
    const failures = await failureIds();
    for (const id of oldFailures) expect(failures.has(id)).toBe(false);
    expect(failures.has(recentFailure)).toBe(true);

    // Nothing more to do; the age limits can be set.
    expect(await purgePlatformTables(orm.em)).toEqual({ outbox: 0, inbox: 0, failures: 0 });
    expect(await purgePlatformTables(orm.em, { outboxDays: 1, inboxDays: 10 })).toEqual({ outbox: 1, inbox: 1, failures: 1 });
    expect((await outboxIds()).has(oldPending)).toBe(true);
  });

  it('stops after maxBatches; the next run goes on', async () => {
    await Promise.all(Array.from({ length: 5 }, () => inboxRow(20)));
    expect((await purgePlatformTables(orm.em, { batchSize: 2, maxBatches: 1 })).inbox).toBe(2);
    expect((await purgePlatformTables(orm.em, { batchSize: 2 })).inbox).toBe(3);
  });
});

describe('one runner at a time (advisory lock)', () => {
  it('of two concurrent callers (two replicas), only one runs the task', async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    let runs = 0;
    const task = async () => {
      runs++;
      await gate;
      return 'done';
    };
    const first = runExclusive(orm.em, 'hk:test', task);
    // Wait until the first holds the lock and runs.
    for (let i = 0; i < 100 && runs === 0; i++) await new Promise((r) => setTimeout(r, 10));
    expect(runs).toBe(1);
    const second = await runExclusive(other.em, 'hk:test', task);
    const third = await runExclusive(orm.em, 'hk:test', task); // same pool, another connection
    expect(second).toEqual({ ran: false });
    expect(third).toEqual({ ran: false });
    // Another key is not blocked.
    expect(await runExclusive(other.em, 'hk:another', async () => 'other')).toEqual({ ran: true, result: 'other' });
    release();
    expect(await first).toEqual({ ran: true, result: 'done' });
    expect(runs).toBe(1);
    // Released: the next caller runs, even when the task fails (and the lock is released then too).
    await expect(runExclusive(other.em, 'hk:test', async () => Promise.reject(new Error('task failed')))).rejects.toThrow('task failed');
    expect(await runExclusive(orm.em, 'hk:test', async () => 'again')).toEqual({ ran: true, result: 'again' });
  });

  it('two simultaneous starts: exactly one runs', async () => {
    let runs = 0;
    const task = async () => {
      runs++;
      await new Promise((r) => setTimeout(r, 200));
    };
    const results = await Promise.all([runExclusive(orm.em, 'hk:race', task), runExclusive(other.em, 'hk:race', task)]);
    expect(results.filter((r) => r.ran)).toHaveLength(1);
    expect(runs).toBe(1);
  });

  it('startHousekeeping runs the purge and the service task under the lock, skips when another replica holds it', async () => {
    const old = await inboxRow(30);
    const seen: string[] = [];
    const hk = startHousekeeping({ em: orm.em, logger, key: 'hk:service', firstAfterMs: 60_000, task: async () => void seen.push('task') });
    let release!: () => void;
    const held = runExclusive(other.em, 'hk:service', () => new Promise<void>((r) => (release = r)));
    await new Promise((r) => setTimeout(r, 100));
    expect(await hk.runOnce()).toBe(false);
    expect(seen).toEqual([]);
    release();
    await held;
    expect(await hk.runOnce()).toBe(true);
    expect(seen).toEqual(['task']);
    expect((await inboxIds()).has(old)).toBe(false);
    await hk.stop();
  });
});
