import { z } from 'zod';
import { ORDER_STATUSES, ORDER_TYPES } from './enums';
import { DRIVER_DAY_MESSAGES, HANDOVER_LEGS } from './handover-constants';
import { isIsoDate } from './time';

/**
 * The driver's day (issue 28): the stops assigned to a driver — orders to take out of the
 * warehouse and deliver, rentals to collect — and work in progress; work no driver has yet only
 * as a count per city. Staff assign an order waiting for a driver (TO_SHIP, FOR_RETURN) to a
 * driver and a day.
 */

/** Where a stop stands: to take out of the warehouse, out with the driver, to collect, collected. */
export const STOP_STAGES = ['TO_TAKE_OUT', 'OUT_FOR_DELIVERY', 'TO_COLLECT', 'COLLECTED'] as const;

export const DriverStop = z.object({
  id: z.string().uuid(),
  orderNumber: z.string(),
  type: z.enum(ORDER_TYPES),
  status: z.enum(ORDER_STATUSES),
  leg: z.enum(HANDOVER_LEGS),
  stage: z.enum(STOP_STAGES),
  /** The day staff planned it for (YYYY-MM-DD, Manila); null when taken by scan without a plan. */
  day: z.string().nullable(),
  customerName: z.string(),
  /** The customer's number (CUS-…), never an internal id. */
  customerNumber: z.string(),
  contactNumber: z.string(),
  address: z.string(),
  city: z.string(),
  state: z.string(),
  zipcode: z.string(),
  note: z.string(),
  items: z.array(z.object({ name: z.string(), quantity: z.number().int() })),
});
export type DriverStop = z.infer<typeof DriverStop>;

export const DriverDayResponse = z.object({
  /** Today in Manila (YYYY-MM-DD). */
  day: z.string(),
  /** This driver's stops in their order: planned for today or earlier, and everything in progress. */
  stops: z.array(DriverStop),
  /** Work no driver has yet, as counts per city (no customer details). */
  waiting: z.array(z.object({ city: z.string(), deliveries: z.number().int(), pickups: z.number().int() })),
});
export type DriverDayResponse = z.infer<typeof DriverDayResponse>;

export const DriverStopOrderRequest = z.object({
  orderIds: z.array(z.string().uuid({ error: DRIVER_DAY_MESSAGES.notYourStops })).max(500),
});

const day = z
  .string({ error: DRIVER_DAY_MESSAGES.dayInvalid })
  .refine(isIsoDate, { error: DRIVER_DAY_MESSAGES.dayInvalid });

/** Assign an order waiting for a driver to one (and a day), or back to any driver (driverId null). */
export const AssignmentRequest = z.object({
  driverId: z.string({ error: DRIVER_DAY_MESSAGES.chooseDriver }).uuid({ error: DRIVER_DAY_MESSAGES.chooseDriver }).nullable(),
  day: day.nullable().default(null),
});

export const AssignableDriversResponse = z.object({
  items: z.array(z.object({ id: z.string().uuid(), name: z.string() })),
});
export type AssignableDriversResponse = z.infer<typeof AssignableDriversResponse>;
