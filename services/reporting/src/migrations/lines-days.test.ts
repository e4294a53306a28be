import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOrm, migrate, sql, type MikroORM } from '@dme/platform';
import { createTestDatabase } from '@dme/testing';
import { migrations } from './0001_reporting';

/**
 * The order lines' statement trigger marks the days of their orders' instants (0007, 0010). It
 * must find those orders by key: read by a scan of every order, it cost 29 ms of each batch of
 * lines at a year's size (1,000,000 orders; docs/benchmarks.md, twenty-ninth session).
 */
let db: Awaited<ReturnType<typeof createTestDatabase>>;
let orm: MikroORM;
const ORDERS = 20_000;

beforeAll(async () => {
  db = await createTestDatabase('reporting_lines_days');
  orm = await createOrm({ url: db.url, schema: 'reporting', entities: [], migrations, poolMax: 1 });
  await migrate(orm, 'reporting', db.url);
  const em = orm.em.fork();
  await sql(
    em,
    `insert into reporting.orders (id, order_number, customer_id, customer_name, type, total_amount, placed_at, status, payment_status, first_paid_at, full_paid_at)
     select md5('o' || g)::uuid, 'ORD-' || g, md5('c' || g)::uuid, 'C', 'BUY', 100, now() - make_interval(days => g % 365), 'PENDING', 'PAID',
            now() - make_interval(days => g % 365), now() - make_interval(days => g % 365)
       from generate_series(1, ${ORDERS}) g`,
  );
  await sql(
    em,
    `insert into reporting.payments (payment_id, type, order_id, order_number, order_type, amount, balance_after, status_after, invoice_number, receipt_number, confirmed_at, accommodated_by, version)
     select md5('pay' || g)::uuid, 'FULL', md5('o' || g)::uuid, 'ORD-' || g, 'BUY', 100, 0, 'PAID', 'INV-' || g, 'OR-' || g, now() - make_interval(days => g % 365), md5('s')::uuid, 1
       from generate_series(1, ${ORDERS}) g`,
  );
  await sql(em, 'delete from reporting.report_dirty_days');
  // As autovacuum would have: the planner knows the tables' sizes.
  await sql(em, 'analyze reporting.orders');
  await sql(em, 'analyze reporting.payments');
}, 120_000);
afterAll(async () => {
  await orm?.close();
  await db?.drop();
});

/** Sequential scans of a table so far in this connection (its counts not yet reported included). */
const seqScans = async (em: ReturnType<MikroORM['em']['fork']>, table: string) =>
  Number((await sql<{ seq: string }>(em, `select pg_stat_get_xact_numscans('reporting.${table}'::regclass) as seq`))[0]!.seq);

describe("reporting: the statement triggers find their rows' orders and payments by key", () => {
  it('finds a batch of lines orders by key, not by reading every order, and marks their days', async () => {
    // One connection (poolMax 1): a trigger's statement is planned once a connection and the plan
    // kept; a first batch of thousands of lines (a consumer catching up) must not leave the small
    // batches after it with a plan that reads every order.
    await sql(orm.em.fork(), `insert into reporting.order_lines (order_id, line_no, product_id, product_name, quantity, unit_price, line_total)
      select md5('o' || g)::uuid, 2, md5('p')::uuid, 'P', 1, 100, 100 from generate_series(5001, 15000) g`);
    await sql(orm.em.fork(), 'delete from reporting.report_dirty_days');
    const batches = [1, 3, 40];
    for (const [n, size] of batches.entries()) {
      const em = orm.em.fork();
      const got = await em.transactional(async (tem) => {
        const before = await seqScans(tem, 'orders');
        const ids = Array.from({ length: size }, (_, i) => `md5('o' || ${1 + n * 100 + i})::uuid`);
        await sql(
          tem,
          `insert into reporting.order_lines (order_id, line_no, product_id, product_name, quantity, unit_price, line_total)
           select o, 1, md5('p')::uuid, 'P', 1, 100, 100 from unnest(array[${ids.join(',')}]) o`,
        );
        const seq = (await seqScans(tem, 'orders')) - before;
        const days = await sql<{ n: string }>(tem, 'select count(distinct day) as n from reporting.report_dirty_days');
        await sql(tem, 'delete from reporting.report_dirty_days');
        return { seq, days: Number(days[0]!.n) };
      });
      // Each order's two instants (first and full payment) fall on one day.
      expect(got, `a batch of ${size}`).toEqual({ seq: 0, days: size });
    }
  });

  it("an update of orders finds their payments by key, after a first update of thousands, and marks their payments' days", async () => {
    await sql(orm.em.fork(), `update reporting.orders set customer_name = 'B' where order_number like 'ORD-1%'`);
    await sql(orm.em.fork(), 'delete from reporting.report_dirty_days');
    for (const size of [1, 3, 40]) {
      const got = await orm.em.fork().transactional(async (tem) => {
        const before = await seqScans(tem, 'payments');
        // An order's instants and its payment fall on one day: one day marked an order.
        await sql(tem, `update reporting.orders set customer_name = 'D' where order_number = any($1::text[])`, [Array.from({ length: size }, (_, i) => `ORD-${20_000 - i}`)]);
        const seq = (await seqScans(tem, 'payments')) - before;
        const days = await sql<{ n: string }>(tem, 'select count(distinct day) as n from reporting.report_dirty_days');
        await sql(tem, 'delete from reporting.report_dirty_days');
        return { seq, days: Number(days[0]!.n) };
      });
      expect(got, `an update of ${size}`).toEqual({ seq: 0, days: size });
    }
  });
});
