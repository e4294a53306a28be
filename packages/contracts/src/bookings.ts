import { z } from 'zod';
import { BOOKING_MESSAGES, DOWNTIME_REASONS, MAX_QUANTITY, MAX_RENTAL_DAYS } from './order-messages';
import { compareDates, isIsoDate } from './time';
import { queryInt, text } from './text';
import { AVAILABILITY_BATCH_MAX } from './limits';
import { STOCK_STATUSES } from './enums';

/**
 * Dated rentals (issue 25): what the catalog answers about units over time. A unit (serial) is
 * taken by bookings (a rental's [start, due + turnaround)) and downtime (maintenance, repair,
 * missing); the database refuses two of them on the same unit for overlapping days.
 */

/** A calendar date of this business (years 2000–2999: no day count runs past the calendar's end). */
const isoDate = (error: string) => z.string({ error }).refine((d) => isIsoDate(d) && d >= '2000-01-01' && d <= '2999-12-31', { error });
const queryUuid = z.string().uuid({ error: 'Not a valid id.' });

/** The longest window one availability or calendar request may ask for. */
export const AVAILABILITY_MAX_DAYS = 200;

const windowOk = (q: { from: string; to: string }) =>
  !isIsoDate(q.from) || !isIsoDate(q.to) || (compareDates(q.from, q.to) <= 0 && Date.parse(q.to) - Date.parse(q.from) <= (AVAILABILITY_MAX_DAYS - 1) * 86_400_000);
const WINDOW_ERROR = `Choose a window of 1 to ${AVAILABILITY_MAX_DAYS} days: "from" on or before "to".`;

/**
 * GET /api/products/:id/availability: per day of [from, to] (inclusive, Manila dates) how many
 * units of the level are free that day, and whether a rental of `quantity` units for `days` days
 * could start that day (every unit free for the whole period, turnaround included).
 */
export const AvailabilityQuery = z
  .object({
    from: isoDate('Enter "from" as YYYY-MM-DD.'),
    to: isoDate('Enter "to" as YYYY-MM-DD.'),
    variantID: queryUuid.optional(),
    subVariantID: queryUuid.optional(),
    quantity: queryInt(1, MAX_QUANTITY).optional(),
    days: queryInt(1, MAX_RENTAL_DAYS).optional(),
  })
  .refine(windowOk, { error: WINDOW_ERROR, path: ['to'] });
export type AvailabilityQuery = z.input<typeof AvailabilityQuery>;

export const AvailabilityDay = z.object({
  date: z.string(),
  /** Units free on this day. */
  free: z.number().int(),
  /** Units free for the whole rental (`days` + turnaround) starting this day: how many may be ordered for it. */
  freeForRental: z.number().int(),
  /** A rental of `quantity` for `days` days may start on this day (and today or later, within the booking horizon). */
  startable: z.boolean(),
});
export type AvailabilityDay = z.infer<typeof AvailabilityDay>;

export const AvailabilityResponse = z.object({
  productID: z.string().uuid(),
  variantID: z.string().uuid().nullable(),
  subVariantID: z.string().uuid().nullable(),
  quantity: z.number().int(),
  rentalDays: z.number().int(),
  turnaroundDays: z.number().int(),
  /** Units of this level that can be rented at all (not damaged, lost or sold). */
  units: z.number().int(),
  days: z.array(AvailabilityDay),
  /** The first day from `from` (within the booking horizon) on which such a rental may start; null when none. */
  firstStartDate: z.string().nullable(),
});
export type AvailabilityResponse = z.infer<typeof AvailabilityResponse>;


/**
 * GET /api/availability: the shop's grid asks, for a page of rental products at once, whether a
 * rental of `quantity` for `days` days can start on each day of [from, to] at some level of the
 * product (the rule and counts of the per-product availability, summed over its levels).
 */
export const AvailabilityBatchQuery = z
  .object({
    productIDs: z
      .string({ error: 'Name the products as comma-separated ids.' })
      .transform((s) => [...new Set(s.split(',').map((x) => x.trim()).filter(Boolean))])
      .pipe(z.array(z.string().uuid({ error: 'Not a valid id.' })).min(1, { error: 'Name at least one product.' }).max(AVAILABILITY_BATCH_MAX, { error: `Ask about at most ${AVAILABILITY_BATCH_MAX} products at once.` })),
    from: isoDate('Enter "from" as YYYY-MM-DD.'),
    to: isoDate('Enter "to" as YYYY-MM-DD.'),
    quantity: queryInt(1, MAX_QUANTITY).optional(),
    days: queryInt(1, MAX_RENTAL_DAYS).optional(),
  })
  .refine(windowOk, { error: WINDOW_ERROR, path: ['to'] });
export type AvailabilityBatchQuery = z.input<typeof AvailabilityBatchQuery>;

/** A product's days on the grid: units free that day (all levels) and whether such a rental may start then at some level. */
export const ProductAvailability = z.object({
  productID: z.string().uuid(),
  units: z.number().int(),
  turnaroundDays: z.number().int(),
  days: z.array(z.object({ date: z.string(), free: z.number().int(), startable: z.boolean() })),
  /** The first day from `from` (within the booking horizon) such a rental may start at some level; null when none. */
  firstStartDate: z.string().nullable(),
});
export type ProductAvailability = z.infer<typeof ProductAvailability>;
/** Only the rental products (not archived) of those asked, in the order asked. */
export const AvailabilityBatchResponse = z.object({ from: z.string(), to: z.string(), items: z.array(ProductAvailability) });
export type AvailabilityBatchResponse = z.infer<typeof AvailabilityBatchResponse>;

/** Staff block units for dates: one unit (stockItemID) or every unit of a product level. */
export const DowntimeCreateRequest = z
  .object({
    stockItemID: z.string().uuid().optional(),
    productID: z.string().uuid().optional(),
    variantID: z.string().uuid().nullish().transform((v) => v ?? null),
    subVariantID: z.string().uuid().nullish().transform((v) => v ?? null),
    from: isoDate('Enter the first day as YYYY-MM-DD.'),
    /** The last blocked day (inclusive). */
    to: isoDate('Enter the last day as YYYY-MM-DD.'),
    reason: z.enum(DOWNTIME_REASONS, { error: 'Choose a reason: maintenance, repair or missing.' }),
    note: text({ max: 300 }).default(''),
  })
  .refine((d) => d.stockItemID !== undefined || d.productID !== undefined, { error: BOOKING_MESSAGES.downtimeWhat, path: ['stockItemID'] })
  .refine((d) => !isIsoDate(d.from) || !isIsoDate(d.to) || compareDates(d.from, d.to) <= 0, { error: BOOKING_MESSAGES.downtimeRange, path: ['to'] });
export type DowntimeCreateRequest = z.input<typeof DowntimeCreateRequest>;

/** One booking or downtime of a unit, as the calendar shows it. */
export const UnitBooking = z.object({
  id: z.string().uuid(),
  kind: z.enum(['RENTAL', 'DOWNTIME']),
  orderID: z.string().uuid().nullable(),
  orderNumber: z.string().nullable(),
  customerName: z.string().nullable(),
  reason: z.enum(DOWNTIME_REASONS).nullable(),
  note: z.string(),
  /** First day (inclusive). */
  start: z.string(),
  /** A rental's due date (the unit comes back that day); a downtime's last day + 1. */
  due: z.string(),
  /** First day the unit is free again (exclusive end: due + turnaround for a rental). */
  end: z.string(),
  /** The unit is out with the customer past its due date: the booking stays open until it is back. */
  overdue: z.boolean(),
});
export type UnitBooking = z.infer<typeof UnitBooking>;

export const DowntimeResponse = z.object({ downtime: z.array(UnitBooking), message: z.string() });

export const CalendarQuery = z
  .object({ from: isoDate('Enter "from" as YYYY-MM-DD.'), to: isoDate('Enter "to" as YYYY-MM-DD.') })
  .refine(windowOk, { error: WINDOW_ERROR, path: ['to'] });

/** The staff calendar of a product: one row per unit with what takes it in the window. */
export const CalendarResponse = z.object({
  productID: z.string().uuid(),
  productName: z.string(),
  turnaroundDays: z.number().int(),
  from: z.string(),
  to: z.string(),
  units: z.array(
    z.object({
      stockItemID: z.string().uuid(),
      serialCode: z.string(),
      status: z.string(),
      level: z.string(),
      bookings: z.array(UnitBooking),
    }),
  ),
});
export type CalendarResponse = z.infer<typeof CalendarResponse>;

/**
 * A booking put at risk by an overdue unit (issue 25): the unit it holds is still out with another
 * customer past its due date, into the booking's days; `suggestion` is another unit of the same
 * level free for all of them (scan it when packing: the booking moves to it), null when none is.
 */
export const AtRiskBooking = z.object({
  bookingID: z.string().uuid(),
  orderID: z.string().uuid(),
  orderNumber: z.string().nullable(),
  customerName: z.string().nullable(),
  productID: z.string().uuid(),
  productName: z.string(),
  serialCode: z.string(),
  start: z.string(),
  end: z.string(),
  overdueOrderNumber: z.string().nullable(),
  overdueSince: z.string(),
  suggestion: z.object({ stockItemID: z.string().uuid(), serialCode: z.string() }).nullable(),
  /**
   * Why (issue 26): the unit is still out past its due date (OVERDUE), or can no longer serve the
   * rental (OUT_OF_SERVICE: damaged, in repair, on hold, lost...; `unitStatus` says which, since `overdueSince`).
   */
  reason: z.enum(['OVERDUE', 'OUT_OF_SERVICE']).default('OVERDUE'),
  unitStatus: z.enum(STOCK_STATUSES).nullable().default(null),
});
export type AtRiskBooking = z.infer<typeof AtRiskBooking>;
export const AtRiskResponse = z.object({ items: z.array(AtRiskBooking) });
export type AtRiskResponse = z.infer<typeof AtRiskResponse>;
