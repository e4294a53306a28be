import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { createTestDatabase } from '@dme/testing';
import { createExtensionSql } from './db';

// Services migrate side by side at start; two of them creating the same extension at once must
// both succeed (the loser of an unguarded race fails on pg_extension's unique index).
let db: Awaited<ReturnType<typeof createTestDatabase>>;
beforeAll(async () => {
  db = await createTestDatabase('extension');
});
afterAll(() => db?.drop());

describe('createExtensionSql', () => {
  it('two migrations creating pg_trgm at once: the second waits for the first and both succeed', async () => {
    const [a, b] = [new pg.Client({ connectionString: db.url }), new pg.Client({ connectionString: db.url })];
    await Promise.all([a.connect(), b.connect()]);
    try {
      await a.query('begin');
      for (const s of createExtensionSql('pg_trgm')) await a.query(s);
      await b.query('begin');
      // B's migration runs while A's has created the extension and not committed yet.
      const second = (async () => {
        for (const s of createExtensionSql('pg_trgm')) await b.query(s);
        await b.query('commit');
      })();
      await new Promise((r) => setTimeout(r, 300));
      await a.query('commit');
      await expect(second).resolves.toBeUndefined();
      const rows = (await a.query(`select extnamespace::regnamespace::text as schema from pg_extension where extname = 'pg_trgm'`)).rows;
      expect(rows).toEqual([{ schema: 'public' }]);
    } finally {
      await Promise.all([a.end(), b.end()]);
    }
  });
});
