import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EntityManager } from '@mikro-orm/postgresql';
import { createOrm, isTransientDbConflict, migrate, sql, type Orm } from '@dme/platform';
import { createTestDatabase } from '@dme/testing';
import { entities, migrations } from '../../app';
import { dayRuns, foldReportDays, KEPT_PER_DAY } from './days';
import { getReport, reportFromFacts, reportTotals } from './report.service';

/**
 * The reports kept per day (issue 30) against the same reports computed from their facts, on a
 * month of read-model rows written as the consumers write them, then changed in every way the
 * consumers change them (moved between days, renamed, cancelled, deleted, added), also while folds
 * run beside the writers.
 */
let orm: Orm;
let drop: () => Promise<void>;
const em = (): EntityManager => orm.em.fork();
const RANGES: Array<[string, string]> = [
  ['2025-05-01', '2025-05-31'],
  ['2025-05-10', '2025-05-10'],
  ['2025-04-25', '2025-06-05'],
  ['2025-05-20', '2025-05-26'],
  // A whole month with a day on each side (the sales reports: May's month groups and two days' groups).
  ['2025-04-30', '2025-06-01'],
];

/** 320 orders over May 2025 (Manila) with lines, payments (deposits), late fees and refunds. */
async function writeMonth(): Promise<void> {
  const db = em();
  await sql(db, `select setseed(0.42)`);
  await sql(db, `insert into reporting.products (id, brand, name, version) select md5('p' || i)::uuid, 'Brand ' || (i % 3), 'Product ' || i, 1 from generate_series(1, 6) i`);
  await sql(
    db,
    `insert into reporting.orders (id, order_number, customer_id, customer_name, type, total_amount, partial_payment, placed_at, status, payment_status,
        first_paid_at, full_paid_at, full_asked_at, full_due_date, full_balance, late_fees, late_fees_waived)
     select md5('o' || i)::uuid, 'ORD-' || lpad(i::text, 5, '0'), md5('c' || (i % 40))::uuid, 'Customer ' || (i % 40),
        case when i % 2 = 0 then 'BUY' else 'RENT' end, 100 + (i % 7) * 50, case when i % 2 = 1 then 50 end, t,
        case when i % 11 = 0 then 'CANCELLED' else 'PREPARING' end,
        case when i % 2 = 0 then 'FULL_PAYMENT' when i % 3 = 0 then 'INITIAL_PAYMENT' else 'FOR_FULL_PAYMENT' end,
        case when i % 2 = 1 then t end,
        case when i % 2 = 0 or i % 5 = 0 then t + interval '2 days' * r end,
        case when i % 2 = 1 and i % 3 <> 0 then t + interval '1 day' * (1 + r * 3) end,
        case when i % 2 = 1 and i % 3 <> 0 then ((t + interval '1 day' * (1 + r * 3)) at time zone 'Asia/Manila')::date + 1 end,
        case when i % 2 = 1 and i % 3 <> 0 then 60 + i % 9 end,
        case when i % 4 = 1 then 10 + i % 5 end, case when i % 8 = 1 then 5 end
     from (select i, timestamptz '2025-04-30 16:00:00+00' + random() * interval '31 days' as t, random() as r from generate_series(1, 320) i) o`,
  );
  await sql(
    db,
    `insert into reporting.order_lines (order_id, line_no, product_id, product_name, quantity, no_of_rental_days, unit_price, line_total, first_day)
     select o.id, n, md5('p' || ((o.n0 + n) % 6 + 1))::uuid, 'Product ' || ((o.n0 + n) % 6 + 1), 1 + n % 3,
        case when o.type = 'RENT' then 2 + o.n0 % 5 end, 50 + 10 * ((o.n0 + n) % 3),
        (1 + n % 3) * (50 + 10 * ((o.n0 + n) % 3)) * case when o.type = 'RENT' then 2 + o.n0 % 5 else 1 end,
        case when o.type = 'RENT' then (1 + n % 3) * (50 + 10 * ((o.n0 + n) % 3)) end
     from (select id, type, substr(order_number, 5)::int as n0 from reporting.orders) o cross join generate_series(1, 3) n
     where n <= 1 + o.n0 % 3`,
  );
  await sql(
    db,
    `insert into reporting.payments (payment_id, type, order_id, order_number, order_type, amount, balance_after, status_after, invoice_number,
        receipt_number, confirmed_at, accommodated_by, version, deposit)
     select md5('pay' || o.id || k)::uuid, k, o.id, o.order_number, o.type,
        case when k = 'PARTIAL' then o.partial_payment else o.total_amount end,
        case when k = 'PARTIAL' then o.total_amount - o.partial_payment else 0 end,
        case when k = 'PARTIAL' then 'INITIAL_PAYMENT' else 'FULL_PAYMENT' end,
        'INV-' || o.order_number || k, 'RCT-' || o.order_number || k,
        case when k = 'PARTIAL' then o.first_paid_at else o.full_paid_at end, md5('staff')::uuid, 1,
        case when k = 'PARTIAL' and substr(o.order_number, 5)::int % 3 = 0 then 20 else 0 end
     from reporting.orders o cross join (values ('PARTIAL'), ('FULL')) x(k)
     where (k = 'PARTIAL' and o.first_paid_at is not null) or (k = 'FULL' and o.full_paid_at is not null)`,
  );
  await sql(
    db,
    `insert into reporting.refunds (refund_id, payment_id, order_id, order_number, number, kind, method, amount, refunded_at)
     select md5('rf' || p.payment_id)::uuid, p.payment_id, p.order_id, p.order_number, 'RF-' || p.order_number, 'CANCELLATION', 'CASH', p.amount,
        p.confirmed_at + interval '3 days'
     from reporting.payments p where substr(p.order_number, 5)::int % 13 = 0`,
  );
}

/** Every report kept per day, over each range: as kept, as computed from the facts. */
async function expectKeptEqualsFacts(): Promise<void> {
  for (const [from, to] of RANGES) {
    const q = { from, to, limit: 1000, offset: 0 };
    const computed: Record<string, { sum: string; rows: Array<Record<string, unknown>> }> = {};
    for (const [name] of KEPT_PER_DAY) {
      const kept = await getReport(em(), name, q);
      const facts = await reportFromFacts(em(), name, q);
      expect({ name, from, to, report: kept }).toEqual({ name, from, to, report: facts });
      computed[name] = facts;
    }
    // The overall totals are the computed reports' sums.
    const totals = await reportTotals(em(), { from, to });
    const initialBalances = computed['rental-partial-invoice']!.rows.filter((r) => r.paymentStatus === 'INITIAL_PAYMENT').reduce((s, r) => s + Math.round(Number(r.balance) * 100), 0);
    expect(totals).toMatchObject({
      purchasedSales: computed['purchased-sales']!.sum,
      rentalSales: computed['rental-sales']!.sum,
      purchasedInvoice: computed['purchased-invoice']!.sum,
      rentalUnpaidInvoice: computed['rental-unpaid-invoice']!.sum,
      rentalPartialBalance: (initialBalances / 100).toFixed(2),
    });
  }
}

const marked = async () => (await sql<{ n: number }>(em(), `select count(*)::int as n from reporting.report_dirty_days`))[0]!.n;

beforeAll(async () => {
  const db = await createTestDatabase('reporting_days');
  drop = db.drop;
  orm = await createOrm({ url: db.url, schema: 'reporting', entities, migrations, poolMax: 10 });
  await migrate(orm, 'reporting', db.url);
  await writeMonth();
});
afterAll(async () => {
  await orm?.close();
  await drop?.();
});

describe('reports kept per day', () => {
  it('runs of consecutive days', () => {
    expect(dayRuns([])).toEqual([]);
    expect(dayRuns(['2025-02-27', '2025-02-28', '2025-03-01', '2025-03-03', '2025-12-31', '2026-01-01'])).toEqual([
      ['2025-02-27', '2025-03-01'],
      ['2025-03-03', '2025-03-03'],
      ['2025-12-31', '2026-01-01'],
    ]);
  });

  it('the month as written: every kept report (none of them empty) equals the report computed from its facts', async () => {
    expect(await marked()).toBeGreaterThan(0);
    await expectKeptEqualsFacts();
    expect(await marked()).toBe(0);
    expect(await foldReportDays(em(), { wait: true })).toBe(0);
    for (const [name] of KEPT_PER_DAY) expect({ name, total: (await reportFromFacts(em(), name, { from: '2025-05-01', to: '2025-05-31', limit: 1, offset: 0 })).total }).not.toEqual({ name, total: 0 });
  });

  it('after the read model changes (facts moved between days, renamed, cancelled, unpaid, deleted, added) the kept reports still equal the computed ones', async () => {
    await expectKeptEqualsFacts();
    const db = em();
    await sql(db, `update reporting.orders set first_paid_at = first_paid_at + interval '1 day', full_asked_at = full_asked_at - interval '1 day' where order_number like '%3'`);
    await sql(db, `update reporting.orders set customer_name = customer_name || ' Jr' where order_number like '%7'`);
    await sql(db, `update reporting.orders set status = 'CANCELLED' where order_number like '%9'`);
    await sql(db, `update reporting.orders set full_paid_at = null, payment_status = 'INITIAL_PAYMENT' where order_number like '%1' and type = 'RENT'`);
    await sql(db, `update reporting.payments set confirmed_at = confirmed_at - interval '2 days' where order_number like '%4'`);
    await sql(db, `update reporting.payments set amount = amount + 1 where order_number like '%5'`);
    await sql(db, `delete from reporting.refunds where order_number like '%2'`);
    await sql(db, `delete from reporting.order_lines where line_no = 2 and order_id in (select id from reporting.orders where order_number like '%6')`);
    await sql(
      db,
      `insert into reporting.order_lines (order_id, line_no, product_id, product_name, quantity, no_of_rental_days, unit_price, line_total, first_day)
       select id, 9, md5('p1')::uuid, 'Product 1 (renamed)', 2, case when type = 'RENT' then 3 end, 75, case when type = 'RENT' then 450 else 150 end,
         case when type = 'RENT' then 150 end
       from reporting.orders where order_number like '%8'`,
    );
    await sql(db, `delete from reporting.payments where order_number like '%0' and type = 'FULL'`);
    await sql(db, `update reporting.order_lines set unit_price = unit_price + 5, line_total = line_total + 5 * quantity where order_id in (select id from reporting.orders where order_number like '%1')`);
    expect(await marked()).toBeGreaterThan(0);
    await expectKeptEqualsFacts();
    // One rental (a deposit, refunds) whose own instants move to days of nothing else: cancelled and
    // renamed then, its payments' and refunds' days (no other change marks them) change.
    const one = `order_number = 'ORD-00117'`;
    expect(await sql(db, `select 1 from reporting.payments p join reporting.refunds r using (payment_id) where p.deposit > 0 and p.${one}`)).toHaveLength(1);
    await sql(db, `update reporting.orders set first_paid_at = timestamptz '2025-07-20 10:00+08', full_paid_at = null, full_asked_at = null where ${one}`);
    await foldReportDays(em(), { wait: true });
    await sql(db, `update reporting.orders set status = 'CANCELLED', customer_name = 'Someone Else' where ${one}`);
    await expectKeptEqualsFacts();
  });

  it('changes committed while folds run beside them are never lost: after the last fold the kept reports equal the computed ones', async () => {
    const writer = async (w: number) => {
      for (let i = 0; i < 25; i++) {
        // The writers' row sets overlap in different orders, so two of them can deadlock: PostgreSQL
        // then rolls one back whole, and it is written again (as a consumer's batch is redelivered).
        for (let attempt = 1; ; attempt++) {
          try {
            await em().transactional(async (tem) => {
              const n = (w * 25 + i) % 320;
              await sql(tem, `update reporting.payments set confirmed_at = confirmed_at + make_interval(hours => $2::int) where substr(order_number, 5)::int % 37 = $1`, [n % 37, (i % 2 === 0 ? 1 : -1) * (20 + w)]);
              await sql(tem, `update reporting.orders set customer_name = 'Customer ' || $2::text where substr(order_number, 5)::int % 41 = $1`, [n % 41, `${w}-${i}`]);
              await sql(tem, `update reporting.orders set full_paid_at = full_paid_at + interval '13 hours' where substr(order_number, 5)::int % 43 = $1 and full_paid_at is not null`, [n % 43]);
            });
            break;
          } catch (err) {
            if (!isTransientDbConflict(err) || attempt === 5) throw err;
          }
        }
      }
    };
    let writing = true;
    const folder = async () => {
      let folds = 0;
      while (writing) {
        await foldReportDays(em(), { wait: false });
        folds++;
      }
      return folds;
    };
    const folding = [folder(), folder()];
    try {
      await Promise.all([0, 1, 2, 3].map(writer));
    } finally {
      // The folds stop with the writers, whatever became of them.
      writing = false;
    }
    expect((await Promise.all(folding)).reduce((a, b) => a + b, 0)).toBeGreaterThan(2);
    await foldReportDays(em(), { wait: true });
    expect(await marked()).toBe(0);
    // Compared without folding at read: what the folds beside the writers and the last one left.
    await expectKeptEqualsFacts();
  });
});
