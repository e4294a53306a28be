import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from '@dme/testing';
import { NEW_ID_SQL, newId } from './ids';

/** Issue 30: new rows' ids sort by the time they were made (UUIDv7), in Node and in SQL. */

const UUID_V7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
/** The milliseconds a version 7 id begins with. */
const msOf = (id: string) => parseInt(id.replace(/-/g, '').slice(0, 12), 16);

let db: Awaited<ReturnType<typeof createTestDatabase>>;
let client: pg.Client;
beforeAll(async () => {
  db = await createTestDatabase('ids');
  client = new pg.Client({ connectionString: db.url });
  await client.connect();
});
afterAll(async () => {
  await client?.end();
  await db?.drop();
});

describe('new row ids', () => {
  it('newId: version 7 with the milliseconds it was made in, a later millisecond sorting after, no two alike', async () => {
    const made: Array<{ id: string; before: number; after: number }> = [];
    for (let i = 0; i < 20_000; i++) {
      const before = Date.now();
      const id = newId();
      made.push({ id, before, after: Date.now() });
      if (i % 5000 === 0) await new Promise((r) => setTimeout(r, 2));
    }
    for (const m of made) {
      expect(m.id).toMatch(UUID_V7);
      expect(msOf(m.id)).toBeGreaterThanOrEqual(m.before);
      expect(msOf(m.id)).toBeLessThanOrEqual(m.after);
    }
    const ids = made.map((m) => m.id);
    // Sorted, they are in the order of their milliseconds (within one millisecond, by their random bits).
    expect([...ids].sort().map(msOf)).toEqual(ids.map(msOf));
    expect(new Set(ids).size).toBe(ids.length);
  });

  it("NEW_ID_SQL: version 7 with the clock's milliseconds; a later statement's ids sort after an earlier one's", async () => {
    // PostgreSQL and this process read the same clock: each id's milliseconds lie within its statement's.
    const made = async () => {
      const before = Date.now();
      const ids = ((await client.query(`select ${NEW_ID_SQL}::text as id from generate_series(1, 500)`)).rows as Array<{ id: string }>).map((r) => r.id);
      const after = Date.now();
      for (const id of ids) {
        expect(id).toMatch(UUID_V7);
        expect(msOf(id)).toBeGreaterThanOrEqual(before);
        expect(msOf(id)).toBeLessThanOrEqual(after);
      }
      return ids;
    };
    const first = await made();
    await new Promise((r) => setTimeout(r, 5));
    const second = await made();
    const lastOfFirst = [...first].sort().at(-1)!;
    expect(second.every((id) => id > lastOfFirst)).toBe(true);
    expect(new Set([...first, ...second]).size).toBe(1000);
  });
});
