import type { EntityManager } from '@mikro-orm/postgresql';
import type { z } from 'zod';
import { addDays, BOOKING_MESSAGES, manilaDate, type DowntimeCreateRequest as DowntimeSchema, type UnitBooking } from '@dme/contracts';
import { badRequest, HttpProblem, NEW_ID_SQL, notFound, qualified, sql } from '@dme/platform';
import { LEAF_SQL, RENTABLE_SQL, unitFreeSql } from './busy';
import { levelItemsSql } from './booking.service';
import { bookingRowsSql, toBooking, withToday, type BookingRow } from './calendar.service';
import { CALENDAR_MESSAGES, rentalLevel } from './level';

type Downtime = z.output<typeof DowntimeSchema>;

/**
 * Staff block units for days (issue 25): one unit, or every unit of a product level, from `from`
 * to `to` inclusive, with a reason. Downtime takes a unit exactly as a booking does, so a unit
 * booked or blocked on one of those days is refused (naming it), and nothing is written. The
 * leaves' ledger rows are locked first, as bookings lock them.
 */
export async function createDowntime(em: EntityManager, input: Downtime): Promise<{ downtime: UnitBooking[]; message: string }> {
  const t = (n: string) => qualified(em, n);
  return em.transactional(async (tem) => {
    let units: Array<{ id: string; serial_code: string; leaf_id: string; product_id: string; type: string }>;
    if (input.stockItemID) {
      units = await sql(
        tem,
        `select i.id, i.serial_code, ${LEAF_SQL('i')} as leaf_id, i.product_id, p.type from ${t('stock_items')} i join ${t('products')} p on p.id = i.product_id where i.id = $1`,
        [input.stockItemID],
      );
      if (units.length === 0) throw notFound(CALENDAR_MESSAGES.unknownUnit);
      if (units[0]!.type !== 'FOR_RENT') throw badRequest(BOOKING_MESSAGES.downtimeRentOnly);
    } else {
      const { level } = await rentalLevel(tem, input.productID!, input.variantID, input.subVariantID).catch((err: unknown) => {
        if (err instanceof HttpProblem && err.detail === CALENDAR_MESSAGES.notRentable) throw badRequest(BOOKING_MESSAGES.downtimeRentOnly);
        throw err;
      });
      units = await sql(
        tem,
        `select i.id, i.serial_code, ${LEAF_SQL('i')} as leaf_id, i.product_id, 'FOR_RENT' as type from ${t('stock_items')} i
          where ${levelItemsSql('i', '$1', '$2', '$3')} and ${RENTABLE_SQL('i')} order by i.serial_code`,
        [level.productId, level.variantId, level.subVariantId],
      );
      if (units.length === 0) throw badRequest('This product level has no units to block.');
    }
    const leaves = [...new Set(units.map((u) => u.leaf_id))].sort();
    await sql(tem, `select leaf_id from ${t('stock_levels')} where leaf_id = any($1::uuid[]) order by leaf_id for update`, [leaves]);
    const end = addDays(input.to, 1);
    const problems: Array<{ field: string; message: string }> = [];
    for (const [i, u] of units.entries()) {
      const [free] = await sql<{ ok: boolean }>(tem, `select ${unitFreeSql(t, 'i', 'daterange($2::date, $3::date)', '$4::date', false)} as ok from ${t('stock_items')} i where i.id = $1`, [u.id, input.from, end, manilaDate()]);
      if (!free?.ok) problems.push({ field: input.stockItemID ? 'stockItemID' : `units.${i}`, message: BOOKING_MESSAGES.downtimeOverlaps(u.serial_code) });
    }
    if (problems.length > 0) throw new HttpProblem(409, problems[0]!.message, problems);
    const written = await sql<{ id: string }>(
      tem,
      `insert into ${t('bookings')} (id, kind, stock_item_id, leaf_id, product_id, period, due_date, reason, note, status)
       select ${NEW_ID_SQL}, 'DOWNTIME', u.id, u.leaf_id, u.product_id, daterange($2::date, $3::date), $3::date, $4, $5, 'ACTIVE'
         from jsonb_to_recordset($1::jsonb) as u(id uuid, leaf_id uuid, product_id uuid)
       returning id`,
      [JSON.stringify(units.map((u) => ({ id: u.id, leaf_id: u.leaf_id, product_id: u.product_id }))), input.from, end, input.reason, input.note],
    );
    const [text, values] = withToday(`${bookingRowsSql(t, 'b.id = any($1::uuid[])')} order by b.id`, [written.map((w) => w.id)]);
    const rows = await sql<BookingRow>(tem, text, values);
    return { downtime: rows.map(toBooking), message: BOOKING_MESSAGES.downtimeCreated(rows.length) };
  });
}

/** Staff remove a downtime: the unit can be booked on those days again. */
export async function removeDowntime(em: EntityManager, id: string): Promise<void> {
  const rows = await sql<{ id: string }>(
    em,
    `update ${qualified(em, 'bookings')} set status = 'CANCELLED', updated_at = now() where id = $1 and kind = 'DOWNTIME' and status = 'ACTIVE' returning id`,
    [id],
  );
  if (rows.length === 0) throw notFound(CALENDAR_MESSAGES.unknownDowntime);
}
