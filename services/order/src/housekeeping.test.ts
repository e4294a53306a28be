import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOrm, migrate, purgePlatformTables, type Orm } from '@dme/platform';
import { createTestDatabase } from '@dme/testing';
import { migrations } from './app';
import { purgeIdempotencyKeys } from './housekeeping';

let db: Awaited<ReturnType<typeof createTestDatabase>>;
let orm: Orm;

beforeAll(async () => {
  db = await createTestDatabase('orderhk');
  orm = await createOrm({ url: db.url, schema: 'ordering', entities: [], migrations });
  await migrate(orm, 'ordering', db.url);
});

afterAll(async () => {
  await orm?.close();
  await db?.drop();
});

describe("the order service's housekeeping", () => {
  it('purges stored idempotent answers (and stale claims) older than 24 h, keeps recent ones', async () => {
    const customer = randomUUID();
    const add = (key: string, state: string, hoursAgo: number) =>
      orm.em
        .fork()
        .execute(
          `insert into ordering.idempotency_keys (owner_id, key, request_hash, state, response_status, response_body, created_at)
           values (?, ?, repeat('a', 64), ?, 201, '{}'::jsonb, now() - make_interval(hours => ?))`,
          [customer, key, state, hoursAgo],
        );
    await add('old-done', 'DONE', 30);
    await add('old-claim', 'IN_PROGRESS', 25);
    await add('recent', 'DONE', 23);
    expect(await purgeIdempotencyKeys(orm.em)).toBe(2);
    const keys = await orm.em.fork().execute<Array<{ key: string }>>('select key from ordering.idempotency_keys where owner_id = ?', [customer]);
    expect(keys.map((k) => k.key)).toEqual(['recent']);
    // The platform purge works on the service's schema too.
    expect(await purgePlatformTables(orm.em)).toEqual({ outbox: 0, inbox: 0, failures: 0 });
  });
});
