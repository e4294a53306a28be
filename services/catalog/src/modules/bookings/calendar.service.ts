import type { EntityManager } from '@mikro-orm/postgresql';
import {
  addDays,
  BOOKING_MESSAGES,
  DEFAULT_RENTAL_DAYS,
  isBookableStart,
  manilaDate,
  type AtRiskResponse,
  type AvailabilityResponse,
  type CalendarResponse,
  type UnitBooking,
} from '@dme/contracts';
import { badRequest, HttpProblem, notFound, qualified, sql, type Db } from '@dme/platform';
import type { z } from 'zod';
import type { AvailabilityQuery, CalendarQuery, DowntimeCreateRequest as DowntimeSchema } from '@dme/contracts';
import { LEAF_SQL, outRangeSql, RENTABLE_SQL, unitFreeSql } from './busy';
import { firstStartDate, legacyHeld, levelItemsSql, type Level } from './booking.service';

type Availability = z.output<typeof AvailabilityQuery>;
type Calendar = z.output<typeof CalendarQuery>;
type Downtime = z.output<typeof DowntimeSchema>;

/** Texts of bookings where the spec is silent (the rest are BOOKING_MESSAGES). */
export const CALENDAR_MESSAGES = {
  notRentable: 'Only rental products are booked for dates.',
  unknownLevel: 'This variant or sub-variant is not of this product.',
  unknownUnit: 'Stock item not found.',
  unknownDowntime: 'Downtime not found.',
} as const;

interface ProductRow {
  id: string;
  name: string;
  type: string;
  turnaround_days: number;
}

/** A rental product (not archived) and the level asked of it, or 404 / 400. */
async function rentalLevel(db: Db, productId: string, variantId: string | null | undefined, subVariantId: string | null | undefined): Promise<{ product: ProductRow; level: Level }> {
  const t = (n: string) => qualified(db, n);
  const [product] = await sql<ProductRow>(db, `select id, name, type, turnaround_days from ${t('products')} where id = $1 and archived_at is null`, [productId]);
  if (!product) throw notFound('Product not found.');
  if (product.type !== 'FOR_RENT') throw badRequest(CALENDAR_MESSAGES.notRentable);
  let variant = variantId ?? null;
  const sub = subVariantId ?? null;
  if (sub) {
    const [row] = await sql<{ variant_id: string }>(
      db,
      `select s.variant_id from ${t('sub_variants')} s join ${t('variants')} v on v.id = s.variant_id where s.id = $1 and v.product_id = $2`,
      [sub, productId],
    );
    if (!row || (variant && row.variant_id !== variant)) throw badRequest(CALENDAR_MESSAGES.unknownLevel);
    variant = row.variant_id;
  } else if (variant) {
    const [row] = await sql(db, `select 1 from ${t('variants')} where id = $1 and product_id = $2`, [variant, productId]);
    if (!row) throw badRequest(CALENDAR_MESSAGES.unknownLevel);
  }
  return { product, level: { productId, variantId: variant, subVariantId: sub } };
}

/**
 * Availability of a level over days (issue 25): per day, the units free that day, and whether a
 * rental of `quantity` for `days` days could start then (every unit free for the whole period,
 * turnaround included: busy.ts, the rule bookings are made by); and the first such day. Undated
 * holds of orders placed before dated rentals count against every day.
 */
export async function availabilityFor(em: EntityManager, productId: string, q: Availability): Promise<AvailabilityResponse> {
  const today = manilaDate();
  const { product, level } = await rentalLevel(em, productId, q.variantID, q.subVariantID);
  const quantity = q.quantity ?? 1;
  const rentalDays = q.days ?? DEFAULT_RENTAL_DAYS;
  const length = rentalDays + product.turnaround_days;
  const legacy = await legacyHeld(em, level);
  const t = (n: string) => qualified(em, n);
  const rows = await sql<{ day: string; free: number; fits: number; units: number }>(
    em,
    `with units as materialized (
       select i.id, i.status, i.order_id from ${t('stock_items')} i where ${levelItemsSql('i', '$1', '$2', '$3')} and ${RENTABLE_SQL('i')}
     )
     select to_char(d, 'YYYY-MM-DD') as day,
            (select count(*) from units u where ${unitFreeSql(t, 'u', 'daterange(d::date, d::date + 1)', '$7::date')})::int as free,
            (select count(*) from units u where ${unitFreeSql(t, 'u', 'daterange(d::date, d::date + $6::int)', '$7::date')})::int as fits,
            (select count(*) from units)::int as units
       from generate_series($4::date, $5::date, interval '1 day') d
      order by d`,
    [level.productId, level.variantId, level.subVariantId, q.from, q.to, length, today],
  );
  const need = quantity + legacy;
  return {
    productID: productId,
    variantID: level.variantId,
    subVariantID: level.subVariantId,
    quantity,
    rentalDays,
    turnaroundDays: product.turnaround_days,
    units: rows[0]?.units ?? 0,
    days: rows.map((r) => ({
      date: r.day,
      free: Math.max(0, r.free - legacy),
      freeForRental: isBookableStart(r.day, today) ? Math.max(0, r.fits - legacy) : 0,
      startable: isBookableStart(r.day, today) && r.fits >= need,
    })),
    firstStartDate: await firstStartDate(em, level, need, length, q.from, today),
  };
}

interface BookingRow {
  id: string;
  stock_item_id: string;
  kind: 'RENTAL' | 'DOWNTIME';
  order_id: string | null;
  order_number: string | null;
  customer_name: string | null;
  reason: UnitBooking['reason'];
  note: string;
  start: string;
  due: string;
  end: string;
  overdue: boolean;
}

/** Bookings as the calendar shows them; a unit out past its due date shows its days out (busy.ts), overdue. */
function bookingRowsSql(t: (n: string) => string, where: string): string {
  return `select b.id, b.stock_item_id, b.kind, b.order_id, b.order_number, b.customer_name, b.reason, b.note,
                 to_char(lower(x.r), 'YYYY-MM-DD') as start, to_char(b.due_date, 'YYYY-MM-DD') as due, to_char(upper(x.r), 'YYYY-MM-DD') as end,
                 (i.status in ('RENTED') and i.order_id = b.order_id and b.due_date < $today::date) as overdue
            from ${t('bookings')} b join ${t('stock_items')} i on i.id = b.stock_item_id
            cross join lateral (
              select case when i.status in ('RENTED') and i.order_id = b.order_id then ${outRangeSql(t, 'i', '$today::date')} else b.period end as r
            ) x
           where b.status in ('ACTIVE') and ${where}`;
}

const toBooking = (r: BookingRow): UnitBooking => ({
  id: r.id,
  kind: r.kind,
  orderID: r.order_id,
  orderNumber: r.order_number,
  customerName: r.customer_name,
  reason: r.reason,
  note: r.note,
  start: r.start,
  due: r.due,
  end: r.end,
  overdue: r.overdue,
});

/** Numbered parameters for a statement written with `$today` (the Manila date, always the last). */
function withToday(text: string, values: unknown[]): [string, unknown[]] {
  return [text.replaceAll('$today', `$${values.length + 1}`), [...values, manilaDate()]];
}

/**
 * The staff calendar of a product (issue 25): one row per unit that can be rented (serial order)
 * with its bookings and downtime that touch [from, to], overdue ones with their days out.
 */
export async function calendarOf(em: EntityManager, productId: string, q: Calendar): Promise<CalendarResponse> {
  const t = (n: string) => qualified(em, n);
  const { product } = await rentalLevel(em, productId, null, null);
  const units = await sql<{ id: string; serial_code: string; status: string; level: string }>(
    em,
    `select i.id, i.serial_code, i.status,
            concat_ws(' / ', v.name, s.name) as level
       from ${t('stock_items')} i
       left join ${t('variants')} v on v.id = i.variant_id
       left join ${t('sub_variants')} s on s.id = i.sub_variant_id
      where i.product_id = $1 and ${RENTABLE_SQL('i')}
      order by v.name nulls first, s.name nulls first, i.serial_code`,
    [productId],
  );
  const [text, values] = withToday(
    `${bookingRowsSql(t, `b.product_id = $1 and x.r && daterange($2::date, $3::date + 1)`)} order by lower(x.r)`,
    [productId, q.from, q.to],
  );
  const bookings = await sql<BookingRow>(em, text, values);
  const byUnit = new Map<string, UnitBooking[]>();
  for (const b of bookings) byUnit.set(b.stock_item_id, [...(byUnit.get(b.stock_item_id) ?? []), toBooking(b)]);
  return {
    productID: product.id,
    productName: product.name,
    turnaroundDays: product.turnaround_days,
    from: q.from,
    to: q.to,
    units: units.map((u) => ({ stockItemID: u.id, serialCode: u.serial_code, status: u.status, level: u.level, bookings: byUnit.get(u.id) ?? [] })),
  };
}

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
      const [free] = await sql<{ ok: boolean }>(tem, `select ${unitFreeSql(t, 'i', 'daterange($2::date, $3::date)', '$4::date')} as ok from ${t('stock_items')} i where i.id = $1`, [u.id, input.from, end, manilaDate()]);
      if (!free?.ok) problems.push({ field: input.stockItemID ? 'stockItemID' : `units.${i}`, message: BOOKING_MESSAGES.downtimeOverlaps(u.serial_code) });
    }
    if (problems.length > 0) throw new HttpProblem(409, problems[0]!.message, problems);
    const written = await sql<{ id: string }>(
      tem,
      `insert into ${t('bookings')} (id, kind, stock_item_id, leaf_id, product_id, period, due_date, reason, note, status)
       select gen_random_uuid(), 'DOWNTIME', u.id, u.leaf_id, u.product_id, daterange($2::date, $3::date), $3::date, $4, $5, 'ACTIVE'
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


/**
 * Bookings put at risk by overdue units (issue 25): a unit out with a customer past its due date
 * (its days out, busy.ts, run into another active booking of it), newest start first, each with
 * another unit of the same level free for the booking's days, to pack instead.
 */
export async function atRiskBookings(em: EntityManager): Promise<AtRiskResponse> {
  const t = (n: string) => qualified(em, n);
  const today = manilaDate();
  const rows = await sql<{
    id: string; order_id: string; order_number: string | null; customer_name: string | null; product_id: string; serial_code: string;
    start: string; end: string; overdue_order: string | null; overdue_since: string; suggestion: { stockItemID: string; serialCode: string } | null;
  }>(
    em,
    `select b2.id, b2.order_id, b2.order_number, b2.customer_name, b2.product_id, i.serial_code,
            to_char(lower(b2.period), 'YYYY-MM-DD') as start, to_char(upper(b2.period), 'YYYY-MM-DD') as end,
            b1.order_number as overdue_order, to_char(b1.due_date, 'YYYY-MM-DD') as overdue_since,
            (select json_build_object('stockItemID', c.id, 'serialCode', c.serial_code) from ${t('stock_items')} c
              where ${LEAF_SQL('c')} = b2.leaf_id and c.id <> i.id and ${unitFreeSql(t, 'c', 'b2.period', '$1::date')}
              order by (c.status in ('AVAILABLE')) desc, c.serial_code limit 1) as suggestion
       from ${t('stock_items')} i
       join ${t('bookings')} b1 on b1.stock_item_id = i.id and b1.order_id = i.order_id and b1.status in ('ACTIVE') and b1.kind in ('RENTAL')
       join ${t('bookings')} b2 on b2.stock_item_id = i.id and b2.status in ('ACTIVE') and b2.kind in ('RENTAL') and b2.id <> b1.id
      where i.status in ('RENTED') and b1.due_date < $1::date and ${outRangeSql(t, 'i', '$1::date')} && b2.period
      order by lower(b2.period), i.serial_code`,
    [today],
  );
  return {
    items: rows.map((r) => ({
      bookingID: r.id,
      orderID: r.order_id,
      orderNumber: r.order_number,
      customerName: r.customer_name,
      productID: r.product_id,
      serialCode: r.serial_code,
      start: r.start,
      end: r.end,
      overdueOrderNumber: r.overdue_order,
      overdueSince: r.overdue_since,
      suggestion: r.suggestion,
    })),
  };
}
