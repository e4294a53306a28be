import type { EntityManager } from '@mikro-orm/postgresql';
import type { z } from 'zod';
import { manilaDate, type CalendarQuery, type CalendarResponse, type UnitBooking } from '@dme/contracts';
import { qualified, sql } from '@dme/platform';
import { outRangeSql, RENTABLE_SQL } from './busy';
import { rentalLevel } from './level';

type Calendar = z.output<typeof CalendarQuery>;

export interface BookingRow {
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
export function bookingRowsSql(t: (n: string) => string, where: string): string {
  return `select b.id, b.stock_item_id, b.kind, b.order_id, b.order_number, b.customer_name, b.reason, b.note,
                 to_char(lower(x.r), 'YYYY-MM-DD') as start, to_char(b.due_date, 'YYYY-MM-DD') as due, to_char(upper(x.r), 'YYYY-MM-DD') as end,
                 (i.status in ('RENTED') and i.order_id = b.order_id and b.due_date < $today::date) as overdue
            from ${t('bookings')} b join ${t('stock_items')} i on i.id = b.stock_item_id
            cross join lateral (
              select case when i.status in ('RENTED') and i.order_id = b.order_id then ${outRangeSql(t, 'i', '$today::date')} else b.period end as r
            ) x
           where b.status in ('ACTIVE') and ${where}`;
}

export const toBooking = (r: BookingRow): UnitBooking => ({
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
export function withToday(text: string, values: unknown[]): [string, unknown[]] {
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
