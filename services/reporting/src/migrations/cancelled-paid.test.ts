import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOrm, migrate, sql } from '@dme/platform';
import { createTestDatabase } from '@dme/testing';
import { migrations } from './0001_reporting';

/**
 * Migration 0009 on a database that held orders cancelled after a payment the old way (the
 * payment status their payments implied): they become REFUND_DUE, or REFUNDED when their refund
 * was paid back; every other order keeps its status.
 */
let db: Awaited<ReturnType<typeof createTestDatabase>>;

async function migrateTo(count: number): Promise<void> {
  const orm = await createOrm({ url: db.url, schema: 'reporting', entities: [], migrations: migrations.slice(0, count), poolMax: 1 });
  try {
    await migrate(orm, 'reporting', db.url);
  } finally {
    await orm.close();
  }
}

async function query<T extends object>(text: string, params: unknown[] = []): Promise<T[]> {
  const orm = await createOrm({ url: db.url, schema: 'reporting', entities: [], migrations: [], poolMax: 1 });
  try {
    return await sql<T>(orm.em.fork(), text, params);
  } finally {
    await orm.close();
  }
}

const ids = {
  due: '00000000-0000-4000-8000-000000000001',
  refunded: '00000000-0000-4000-8000-000000000002',
  unpaid: '00000000-0000-4000-8000-000000000003',
  paid: '00000000-0000-4000-8000-000000000004',
};

beforeAll(async () => {
  db = await createTestDatabase('reporting_0009');
  const at = migrations.findIndex((m) => m.name === '0009_cancelled_paid');
  expect(at).toBeGreaterThan(0);
  await migrateTo(at);
  const paidAt = '2026-05-03T02:00:00Z';
  await query(
    `insert into reporting.orders (id, order_number, customer_id, customer_name, type, total_amount, partial_payment, placed_at, status, payment_status, first_paid_at, full_paid_at)
     values ($1, 'ORD-1', $1, 'A', 'RENT', 1000, 100, $5, 'CANCELLED', 'INITIAL_PAYMENT', $5, null),
            ($2, 'ORD-2', $2, 'B', 'BUY', 500, null, $5, 'CANCELLED', 'PAID', $5, $5),
            ($3, 'ORD-3', $3, 'C', 'BUY', 500, null, $5, 'CANCELLED', 'CANCELLED', null, null),
            ($4, 'ORD-4', $4, 'D', 'RENT', 1000, 100, $5, 'PREPARING', 'INITIAL_PAYMENT', $5, null)`,
    [ids.due, ids.refunded, ids.unpaid, ids.paid, paidAt],
  );
  await query(
    `insert into reporting.refunds (refund_id, payment_id, order_id, order_number, number, kind, method, amount, refunded_at)
     values (gen_random_uuid(), gen_random_uuid(), $1, 'ORD-2', 'RF-20260504-000001', 'CANCELLED', 'CASH', 500, '2026-05-04T02:00:00Z')`,
    [ids.refunded],
  );
  await migrateTo(migrations.length);
});
afterAll(() => db?.drop());

describe('reporting 0009: orders cancelled after a payment', () => {
  it('are owed back (REFUND_DUE) or paid back (REFUNDED); other orders keep their payment status', async () => {
    const rows = await query<{ order_number: string; payment_status: string }>(`select order_number, payment_status from reporting.orders order by order_number`);
    expect(rows).toEqual([
      { order_number: 'ORD-1', payment_status: 'REFUND_DUE' },
      { order_number: 'ORD-2', payment_status: 'REFUNDED' },
      { order_number: 'ORD-3', payment_status: 'CANCELLED' },
      { order_number: 'ORD-4', payment_status: 'INITIAL_PAYMENT' },
    ]);
  });
});
