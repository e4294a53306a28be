/**
 * When a unit is taken (issue 25): the ONE rule, as SQL, that every booking, availability count,
 * calendar and packing check of the catalog composes. A unit (stock item `i`) is free for a range
 * of Manila days R when
 *
 *  1. it can be rented at all: AVAILABLE, RENTED (out now, back before R), or on its way back to
 *     the shelf (RETURNED, CLEANED, INSPECTED: issue 26) — not damaged, in repair, on hold, lost or gone;
 *  2. no ACTIVE booking or downtime of it overlaps R (the exclusion constraint keeps these
 *     disjoint per unit, so the gist index answers this);
 *  3. if it is out with a customer (RENTED for order `i.order_id`), the days it is out: from the
 *     earlier of its booking's start and today, to the later of its booking's end and tomorrow
 *     plus its turnaround. An overdue unit thus stays taken day by day until it is back; a unit out
 *     on an order placed before dated rentals (no booking) is taken until it is back;
 *  4. a unit on its way back to the shelf is not ready today (it is ready once cleaned, inspected
 *     and put away: its return's turnaround gives the days for that);
 *  5. preventive maintenance (issue 26): a unit whose product has a plan is not rented past the day
 *     it falls due (every M calendar days since its last service: taken from then, its turnaround
 *     after the last rental day being the service's), nor for more rental days than it has left
 *     before its service (every N rental days: its rentals since the last service counted, those
 *     booked ahead too).
 *
 * `today` is a SQL expression for the Manila date (a parameter: the caller's clock, not the
 * database's time zone).
 */
export function outRangeSql(t: (name: string) => string, i: string, today: string): string {
  return `coalesce(
      (select daterange(least(lower(ob.period), ${today}), greatest(upper(ob.period), ${today} + 1 + (upper(ob.period) - ob.due_date)))
         from ${t('bookings')} ob
        where ob.stock_item_id = ${i}.id and ob.order_id = ${i}.order_id and ob.status in ('ACTIVE') and ob.kind = 'RENTAL'
        limit 1),
      daterange(${today}, null))`;
}

/**
 * The days a unit is taken within `window` (rules 2 to 4, and for a rental rule 5's calendar plan,
 * as a set): its ACTIVE bookings and downtime that touch the window and, if it is out with a
 * customer, its days out; a datemultirange ('{}' when nothing takes it). One probe of the exclusion constraint's index per
 * unit: a screen that asks about many days reads the set once and tests each day against it.
 */
export function takenDaysSql(t: (name: string) => string, i: string, window: string, today: string, forRental = true): string {
  return `(select coalesce(range_agg(x.r), '{}'::datemultirange) from (
      select fb.period as r from ${t('bookings')} fb where fb.stock_item_id = ${i}.id and fb.status in ('ACTIVE') and fb.period && ${window}
      union all
      select ${outRangeSql(t, i, today)} where ${i}.status in ('RENTED')
      union all
      select daterange(${today}, ${today} + 1) where ${i}.status in (${READYING})
      ${forRental ? `union all
      select daterange(${i}.serviced_on + sp.service_every_days + sp.turnaround_days, null)
        from ${t('products')} sp where sp.id = ${i}.product_id and sp.service_every_days is not null` : ''}) x)`;
}

/**
 * Whether unit `i` is free for the days `range`: it can be rented (rule 1), nothing takes it on any
 * of them, and (a rental: `forRental`) its service does not fall due in them (rule 5); a downtime
 * (the service itself, a repair) asks without rule 5.
 */
export function unitFreeSql(t: (name: string) => string, i: string, range: string, today: string, forRental = true): string {
  return `(${RENTABLE_SQL(i)} and not (${takenDaysSql(t, i, range, today, forRental)} && ${range})${forRental ? ` and ${rentalDaysFitSql(t, i, range)}` : ''})`;
}

/**
 * Rental days unit `i` has left before its service falls due (rule 5: its product's plan of every
 * N rental days, less the rental days of its bookings since its last service, those ahead
 * included); null when its product has no such plan.
 */
export function rentalDaysLeftSql(t: (name: string) => string, i: string): string {
  return `(select (sp.service_every_rental_days - coalesce((select sum(greatest(0, sb.due_date - greatest(lower(sb.period), ${i}.serviced_on)))
                 from ${t('bookings')} sb where sb.stock_item_id = ${i}.id and sb.kind = 'RENTAL' and sb.status in ('ACTIVE') and sb.due_date > ${i}.serviced_on), 0))::int
      from ${t('products')} sp where sp.id = ${i}.product_id and sp.service_every_rental_days is not null)`;
}

/** Whether a rental over `range` (its turnaround included) fits in the rental days unit `i` has left (rule 5). */
function rentalDaysFitSql(t: (name: string) => string, i: string, range: string): string {
  return `coalesce((select (upper(${range}) - lower(${range}) - fp.turnaround_days) <= ${rentalDaysLeftSql(t, i)}
      from ${t('products')} fp where fp.id = ${i}.product_id and fp.service_every_rental_days is not null), true)`;
}

/** Whether a unit whose taken days are `taken` (takenDaysSql over a window holding `range`) is free for `range`. */
export const freeInSql = (taken: string, range: string) => `not (${taken} && ${range})`;

/** Units on their way back to the shelf (rules 1 and 4). */
const READYING = `'RETURNED','CLEANED','INSPECTED'`;

/** Stock items that can be rented at all (rule 1; contracts IN_SERVICE_STATUSES), e.g. the units a level has. */
export const RENTABLE_SQL = (i: string) => `${i}.status in ('AVAILABLE','RENTED',${READYING})`;

/** A stock item's leaf (the product, variant or sub-variant that takes stock). */
export const LEAF_SQL = (i: string) => `coalesce(${i}.sub_variant_id, ${i}.variant_id, ${i}.product_id)`;

/**
 * The first day after booking `b` on which its unit is taken by another booking or downtime (null:
 * never): how far `b` may grow (an extension, issue 25) while its unit stays free, turnaround
 * included since `b`'s end already counts it. A unit out with this booking's own order is taken
 * by this booking only, so nothing else of rule 3 applies to it.
 */
export function nextTakenSql(t: (name: string) => string, b: string): string {
  return `(select min(lower(nb.period)) from ${t('bookings')} nb
            where nb.stock_item_id = ${b}.stock_item_id and nb.status in ('ACTIVE') and nb.id <> ${b}.id and lower(nb.period) >= upper(${b}.period))`;
}
