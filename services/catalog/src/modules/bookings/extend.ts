import type { EntityManager } from '@mikro-orm/postgresql';
import type { EndBookingsEarlyReply, EndBookingsEarlyRequest, ExtendBookingsReply, ExtendBookingsRequest } from '@dme/contracts';
import { qualified, sql, type Db } from '@dme/platform';
import { nextTakenSql, rentalDaysLeftSql } from './busy';

/**
 * More days for an order's bookings (issue 25; RPC.extendBookings): extension `seq` of the order
 * is `days` days. Every ACTIVE rental booking of the order keeps its unit; its due date and end
 * move by the difference with what this extension was before (0 the first time), so a retry
 * converges and never adds twice. Growing needs each unit free for the extra days (busy.ts
 * `nextTakenSql`: the next booking or downtime of the unit, turnaround included); if one is not,
 * nothing changes and `maxDays` says how many days this extension could be at most. Under the
 * leaves' ledger locks, as bookings are made; the exclusion constraint stays the last word.
 */
export async function extendBookings(em: EntityManager, input: ExtendBookingsRequest): Promise<ExtendBookingsReply> {
  const { orderId, seq, days } = input;
  return em.transactional(async (tem) => {
    const t = (n: string) => qualified(tem, n);
    const leaves = await sql<{ leaf_id: string }>(tem, `select distinct leaf_id from ${t('bookings')} where order_id = $1 and kind = 'RENTAL' and status = 'ACTIVE' order by leaf_id`, [orderId]);
    await sql(tem, `select leaf_id from ${t('stock_levels')} where leaf_id = any($1::uuid[]) order by leaf_id for update`, [leaves.map((l) => l.leaf_id)]);
    const [before] = await sql<{ days: number }>(tem, `select days from ${t('booking_extensions')} where order_id = $1 and seq = $2 for update`, [orderId, seq]);
    const delta = days - (before?.days ?? 0);
    // How far each booking may grow: to the next booking or downtime of its unit, and (issue 26)
    // not past its unit's service (busy.ts rule 5: the day it falls due, the rental days it has left).
    const rows = await sql<{ id: string; room: number | null; service_room: number | null }>(
      tem,
      `select b.id, (${nextTakenSql(t, 'b')} - upper(b.period))::int as room,
              (select least(si.serviced_on + sp.service_every_days + sp.turnaround_days - upper(b.period), ${rentalDaysLeftSql(t, 'si')})
                 from ${t('stock_items')} si join ${t('products')} sp on sp.id = si.product_id where si.id = b.stock_item_id)::int as service_room
         from ${t('bookings')} b where b.order_id = $1 and b.kind in ('RENTAL') and b.status in ('ACTIVE') for update of b`,
      [orderId],
    );
    const rooms = rows.flatMap((r) => [r.room, r.service_room]).filter((r): r is number => r !== null);
    const room = rooms.length === 0 ? null : Math.max(0, Math.min(...rooms));
    if (room !== null && delta > room) return { ok: false, maxDays: room + (before?.days ?? 0), units: rows.length };
    if (delta !== 0 && rows.length > 0) {
      await sql(
        tem,
        `update ${t('bookings')} set period = daterange(lower(period), upper(period) + $2::int), due_date = due_date + $2::int, updated_at = now()
          where id = any($1::uuid[]) and upper(period) + $2::int > lower(period) and due_date + $2::int >= lower(period)`,
        [rows.map((r) => r.id), delta],
      );
    }
    await sql(
      tem,
      `insert into ${t('booking_extensions')} (order_id, seq, days) values ($1, $2, $3)
       on conflict (order_id, seq) do update set days = excluded.days, updated_at = now()`,
      [orderId, seq, days],
    );
    return { ok: true, maxDays: days, units: rows.length };
  });
}

/**
 * An order's rental ended early (issue 25; RPC.endBookingsEarly): every ACTIVE rental booking of
 * the order due after `returnOn` is due that day, its turnaround right after (the booking keeps
 * its length past the due date), so the rest of its days are free for other rentals. Only
 * shortens (the exclusion constraint cannot refuse it) and is absolute, so a retry changes nothing.
 */
export async function endBookingsEarly(em: EntityManager, input: EndBookingsEarlyRequest): Promise<EndBookingsEarlyReply> {
  const t = (n: string) => qualified(em, n);
  const rows = await sql(
    em,
    `update ${t('bookings')}
        set period = daterange(lower(period), $2::date + (upper(period) - due_date)), due_date = $2::date, updated_at = now()
      where order_id = $1 and kind in ('RENTAL') and status in ('ACTIVE') and due_date > $2::date and lower(period) < $2::date
      returning id`,
    [input.orderId, input.returnOn],
  );
  return { units: rows.length };
}

/**
 * An order's rental became the customer's (rent-to-own, issue 29: contracts `completedByOwnership`):
 * its units will not come back, so every ACTIVE rental booking of the order ends on `day` (the
 * day it became theirs) with no turnaround after it: due that day when later, its period ending
 * right after it, so the days after are free. A booking that had not started by then takes none
 * of its days and is cancelled, as a return before the start does. Only shortens (the exclusion
 * constraint cannot refuse it) and is absolute, so a repeat changes nothing. Answers how many
 * bookings changed.
 */
export async function endBookingsOwned(db: Db, orderId: string, day: string): Promise<number> {
  const t = (n: string) => qualified(db, n);
  const rows = await sql(
    db,
    `update ${t('bookings')}
        set status = case when lower(period) > $2::date then 'CANCELLED' else status end,
            period = case when lower(period) > $2::date then period else daterange(lower(period), least(upper(period), $2::date + 1)) end,
            due_date = case when lower(period) > $2::date then due_date else least(due_date, $2::date) end,
            updated_at = now()
      where order_id = $1 and kind in ('RENTAL') and status in ('ACTIVE')
        and (lower(period) > $2::date or due_date > $2::date or upper(period) > $2::date + 1)
      returning id`,
    [orderId, day],
  );
  return rows.length;
}
