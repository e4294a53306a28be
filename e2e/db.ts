/**
 * The passage of time, and what the catalog holds, read or moved in the stack's own database (as
 * `npm test` started it, E2E_DATABASE_URL): a rental's due date is its delivered day plus its days,
 * so tests move times back instead of waiting.
 */
import pg from 'pg';
import { expect } from './fixtures';

async function withDb<T>(run: (client: pg.Client) => Promise<T>): Promise<T> {
  const url = process.env.E2E_DATABASE_URL;
  if (!url) throw new Error('E2E_DATABASE_URL is not set (npm test sets it)');
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await run(client);
  } finally {
    await client.end();
  }
}

/** Moves an order's delivered time `days` back (and, for a rental billed by cycles, the delivery day its payment counts cycles from). */
export function deliveredDaysAgo(orderId: string, days: number): Promise<void> {
  return withDb(async (client) => {
    const res = await client.query(`update ordering.orders set delivered_at = delivered_at - make_interval(days => $2) where id = $1`, [orderId, days]);
    expect(res.rowCount).toBe(1);
    await client.query(`update payment.payments set delivered_on = delivered_on - $2::int where order_id = $1 and delivered_on is not null`, [orderId, days]);
  });
}

/** Waits until the payment service has heard the order was delivered (its cycles count from that day). */
export async function paymentDelivered(orderId: string): Promise<void> {
  await expect
    .poll(
      () => withDb(async (client) => (await client.query<{ d: string | null }>(`select delivered_on::text as d from payment.payments where order_id = $1`, [orderId])).rows[0]?.d ?? null),
      { timeout: 60_000 },
    )
    .not.toBeNull();
}

/** Moves orders' bookings `days` back in time, one order at a time, the earliest first (the exclusion constraint is checked row by row). */
export function bookingsDaysAgo(orderIds: string[], days: number): Promise<void> {
  return withDb(async (client) => {
    for (const id of orderIds) {
      const res = await client.query(
        `update catalog.bookings set period = daterange(lower(period) - $2::int, upper(period) - $2::int), due_date = due_date - $2::int where order_id = $1 and status = 'ACTIVE'`,
        [id, days],
      );
      expect(res.rowCount).toBeGreaterThan(0);
    }
  });
}

/** An order's active bookings: due date and end (exclusive, turnaround included). */
export function bookingsOf(orderId: string): Promise<Array<{ due: string; end: string }>> {
  return withDb(async (client) => {
    const res = await client.query<{ due: string; end: string }>(
      `select to_char(due_date, 'YYYY-MM-DD') as due, to_char(upper(period), 'YYYY-MM-DD') as end from catalog.bookings where order_id = $1 and status = 'ACTIVE' order by due_date`,
      [orderId],
    );
    return res.rows;
  });
}
