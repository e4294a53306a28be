import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from '@dme/testing';
import { createOrm, migrate, type Orm } from './db';
import { backgroundPool, equalsFilters, literal, sql, sqlCount, sqlScript, uuidArrayLiteral, withConnection } from './sql';

const SCHEMA = 'sql_test';
let db: Awaited<ReturnType<typeof createTestDatabase>>;
let orm: Orm;

beforeAll(async () => {
  db = await createTestDatabase('sql');
  orm = await createOrm({ url: db.url, schema: SCHEMA, entities: [], migrations: [] });
  await migrate(orm, SCHEMA, db.url);
  await orm.em.getConnection().execute(`create table "${SCHEMA}"."things" (id int primary key, name text not null)`);
});

afterAll(async () => {
  await orm?.close();
  await db?.drop();
});

const things = `"${SCHEMA}"."things"`;

describe('prepared statements on the ORM pool', () => {
  it('sends values as parameters: quotes and SQL in a value are only text', async () => {
    const name = `O'Brien'); drop table ${things}; --`;
    expect(await sqlCount(orm.em.fork(), `insert into ${things} (id, name) values ($1, $2)`, [1, name])).toBe(1);
    const rows = await sql<{ name: string }>(orm.em.fork(), `select name from ${things} where id = $1`, [1]);
    expect(rows).toEqual([{ name }]);
  });

  it('the same statement many times at once, over the pool, answers each its own row', async () => {
    await sql(orm.em.fork(), `insert into ${things} (id, name) select g, 'n' || g from generate_series(100, 139) g`);
    const answers = await Promise.all(Array.from({ length: 40 }, (_, i) => sql<{ name: string }>(orm.em.fork(), `select name from ${things} where id = $1`, [100 + i])));
    expect(answers.map((r) => r[0]!.name)).toEqual(Array.from({ length: 40 }, (_, i) => `n${100 + i}`));
  });

  it("runs in the transaction of the EntityManager it is given (rolled back with it)", async () => {
    await expect(
      orm.em.fork().transactional(async (tem) => {
        await sql(tem, `insert into ${things} (id, name) values ($1, $2)`, [2, 'in a transaction']);
        expect(await sql(tem, `select name from ${things} where id = $1`, [2])).toHaveLength(1);
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
    expect(await sql(orm.em.fork(), `select name from ${things} where id = $1`, [2])).toHaveLength(0);
  });
});

describe('held connections and scripts', () => {
  it('a script begins and commits a transaction in the messages of its first and last statements', async () => {
    const results = await withConnection(orm.em.fork(), async (c) => {
      const [, inserted] = await sqlScript(c, `begin; insert into ${things} (id, name) values (3, 'three') returning id`);
      const [, committed] = await sqlScript(c, `update ${things} set name = 'THREE' where id = 3; commit`);
      return [inserted!.rows, committed];
    });
    expect(results[0]).toEqual([{ id: 3 }]);
    expect(await sql(orm.em.fork(), `select name from ${things} where id = 3`)).toEqual([{ name: 'THREE' }]);
  });

  it('a failure inside a held transaction rolls it back before the connection is reused', async () => {
    const pool = backgroundPool(db.url, SCHEMA, 1);
    try {
      await expect(
        pool.withConnection(async (c) => {
          await sqlScript(c, `begin; insert into ${things} (id, name) values (4, 'four')`);
          throw new Error('the work failed');
        }),
      ).rejects.toThrow('the work failed');
      // The pool's one connection again: not inside the failed transaction (whose insert had an id).
      const [status] = await pool.withConnection((c) => sql<{ inherited: boolean }>(c, `select txid_current_if_assigned() is not null as inherited`));
      expect(status!.inherited).toBe(false);
      expect(await sql(orm.em.fork(), `select id from ${things} where id = 4`)).toHaveLength(0);
    } finally {
      await pool.end();
    }
  });

  it('service connections, the ORM pool and a background pool, never JIT-compile a statement nor start parallel workers for one', async () => {
    const settings = `select current_setting('jit') as jit, current_setting('max_parallel_workers_per_gather') as workers`;
    expect(await sql(orm.em.fork(), settings)).toEqual([{ jit: 'off', workers: '0' }]);
    const pool = backgroundPool(db.url, SCHEMA, 1);
    try {
      expect(await pool.withConnection((c) => sql(c, settings))).toEqual([{ jit: 'off', workers: '0' }]);
    } finally {
      await pool.end();
    }
  });

  it('only checked values go into a script: uuids and quoted text', () => {
    expect(uuidArrayLiteral(['7f1a1f40-0000-4000-8000-00000000abcd'])).toBe(`'{7f1a1f40-0000-4000-8000-00000000abcd}'::uuid[]`);
    expect(() => uuidArrayLiteral(["7f1a1f40'}'::uuid[]; drop table x; --"])).toThrow('not a uuid');
    expect(literal("catalog-orders'; drop table x; --")).toBe("'catalog-orders''; drop table x; --'");
  });
});

describe('equalsFilters', () => {
  it('one `column = ?` per given value, in order; undefined values are left out', () => {
    expect(equalsFilters([['o.type', 'RENT'], ['o.status', undefined], ['o.customer_id', 'c1']])).toEqual({ conds: ['o.type = ?', 'o.customer_id = ?'], params: ['RENT', 'c1'] });
    expect(equalsFilters([['o.type', undefined]])).toEqual({ conds: [], params: [] });
  });
});
