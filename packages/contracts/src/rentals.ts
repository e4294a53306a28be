import { z } from 'zod';
import { ORDER_STATUSES, ORDER_TYPES, REQUEST_TYPES, RETURN_STATUSES } from './enums';
import { Pagination } from './identity';
import { OrderRequest, OrderSummary, RpcActor } from './ordering';
import { LIVE_KINDS } from './live';
import { MAX_RENTAL_DAYS, RENTAL_MESSAGES } from './order-messages';
import { HANDOVER_LEGS } from './handover-constants';
import { Handover } from './handovers';
import { DRIVER_SCAN_PURPOSES, NOTICE_KINDS, ONGOING_RENTAL_TABS } from './rental-constants';
import { optionalText, searchParam, text } from './text';
import { isIsoDate } from './time';

/**
 * Delivery and pickup, ongoing rentals, returns, requests, customer notices and live updates
 * (SPEC §2 driver and ongoing rentals, §4, §5, §8; issue 10).
 */

// ---- driver

export const DriverScanRequest = z.object({
  purpose: z.enum(DRIVER_SCAN_PURPOSES, { error: 'Choose delivery or pick-up.' }),
  code: text({ max: 300, error: RENTAL_MESSAGES.scanWhat }).pipe(z.string().min(1, { error: RENTAL_MESSAGES.scanWhat })),
});
export type DriverScanRequest = z.input<typeof DriverScanRequest>;

/**
 * The result of a scan: the order after it, and what happened in one sentence. `handover`: the
 * scan found the order at the door, where the step needs a hand-over (issue 28) — the phone opens
 * the hand-over screen for that leg; the order has not moved.
 */
export const DriverScanResponse = z.object({ order: OrderSummary, message: z.string(), handover: z.enum(HANDOVER_LEGS).optional() });
export type DriverScanResponse = z.infer<typeof DriverScanResponse>;

/** The answer to a hand-over: the order after it, the hand-over as recorded, and what happened. */
export const HandoverResponse = z.object({ order: OrderSummary, handover: Handover, message: z.string() });
export type HandoverResponse = z.infer<typeof HandoverResponse>;

export const DriverOrderListQuery = Pagination.extend({
  purpose: z.enum(DRIVER_SCAN_PURPOSES, { error: 'Choose delivery or pick-up.' }),
});

// ---- ongoing rentals (warehouse)

export const OngoingRentalListQuery = Pagination.extend({
  tab: z.enum(ONGOING_RENTAL_TABS, { error: 'Unknown tab.' }).default('ONGOING'),
  search: searchParam(),
});

export const OngoingRental = OrderSummary.extend({
  /** The status as the list shows it: a DELIVERED rental is ON_GOING (SPEC §4). */
  displayStatus: z.string(),
  /** The initial payment: the first day's rental total of every line (docs/decisions.md: not the price alone of SPEC §9). */
  initialPayment: z.string().nullable(),
  /** The earliest due date of its lines (YYYY-MM-DD, Manila), once delivered. */
  dueDate: z.string().nullable(),
  /** A rental billed by cycles (issue 29), once delivered: how many of its cycles are paid and due, of how many; null otherwise. */
  cycles: z.object({ paid: z.number().int(), due: z.number().int(), count: z.number().int() }).nullable().default(null),
});
export type OngoingRental = z.infer<typeof OngoingRental>;
/** A page of a tab, its total, and every tab's count for the same search (issue 27). */
export const OngoingRentalListResponse = z.object({
  items: z.array(OngoingRental),
  total: z.number().int(),
  counts: z.record(z.enum(ONGOING_RENTAL_TABS), z.number().int()),
});
export type OngoingRentalListResponse = z.infer<typeof OngoingRentalListResponse>;

// ---- returns

export const SerialReturnParams = z.object({
  id: z.string().uuid({ error: 'Not found.' }),
  serialCode: text({ max: 40, error: 'Unknown serial code.' }),
});
export const SerialReturnRequest = z.object({
  status: z.enum(RETURN_STATUSES, { error: 'Mark the serial code OK, LOST or DAMAGED.' }),
});
export type SerialReturnRequest = z.input<typeof SerialReturnRequest>;

/** Returns in the catalog (NATS request/reply): the serial code of an order comes back OK, damaged or lost. */
export const ReturnSerialRequest = z.object({
  orderId: z.string().uuid(),
  serialCode: z.string().min(1).max(40),
  status: z.enum(RETURN_STATUSES),
  /** Who inspected it (issue 26: the unit's chain of custody names them). */
  by: RpcActor,
});
export type ReturnSerialRequest = z.input<typeof ReturnSerialRequest>;
export const ReturnSerialReply = z.object({ serialCode: z.string(), stockStatus: z.string(), inventoryType: z.enum(['IN', 'OUT']) });
export type ReturnSerialReply = z.infer<typeof ReturnSerialReply>;

// ---- requests (fix or replace)


export const CreateRequestBody = z.object({
  type: z.enum(REQUEST_TYPES, { error: 'Choose fix or replace.' }),
  lineIDs: z
    .array(z.string().uuid({ error: RENTAL_MESSAGES.unknownLine }), { error: RENTAL_MESSAGES.selectProduct })
    .min(1, { error: RENTAL_MESSAGES.selectProduct })
    .max(100),
  note: optionalText(500),
});
export type CreateRequestBody = z.input<typeof CreateRequestBody>;

/** Staff file a request on a customer's behalf (issue 26: a recalled unit to replace), naming the units by serial code. */
export const StaffRequestBody = z.object({
  type: z.enum(REQUEST_TYPES, { error: 'Choose fix or replace.' }),
  serialCodes: z.array(z.string().trim().min(1).max(40), { error: RENTAL_MESSAGES.selectProduct }).min(1, { error: RENTAL_MESSAGES.selectProduct }).max(100),
  note: optionalText(500),
});
export type StaffRequestBody = z.input<typeof StaffRequestBody>;

export const RequestParams = z.object({
  id: z.string().uuid({ error: 'Not found.' }),
  requestId: z.string().uuid({ error: 'Not found.' }),
});
export const UpdateRequestBody = z.object({
  status: z.enum(['ON_PROGRESS', 'DONE'], { error: 'Mark the request On Progress or Done.' }),
});
export type UpdateRequestBody = z.input<typeof UpdateRequestBody>;
export const OrderRequestResponse = z.object({ request: OrderRequest });
export type OrderRequestResponse = z.infer<typeof OrderRequestResponse>;
export const OrderRequestListResponse = z.object({ items: z.array(OrderRequest) });

// ---- customer notices

export const Notice = z.object({
  kind: z.enum(NOTICE_KINDS),
  /** 'Has to due products' (past due) or 'Some products are due for return today.' */
  message: z.string(),
  orderID: z.string().uuid(),
  orderNumber: z.string(),
  /** A recall's notice may concern a purchase (issue 26); the others are rentals. */
  orderType: z.enum(ORDER_TYPES).optional(),
});
export type Notice = z.infer<typeof Notice>;
export const NoticeListResponse = z.object({ items: z.array(Notice) });
export type NoticeListResponse = z.infer<typeof NoticeListResponse>;

// ---- live updates (server-sent events at the gateway)

export const LiveEvent = z.object({
  kind: z.enum(LIVE_KINDS),
  orderId: z.string().uuid(),
  orderType: z.enum(ORDER_TYPES).nullable(),
  /** The order's status after the change (order events), else null. */
  status: z.enum(ORDER_STATUSES).nullable(),
  at: z.string(),
});
export type LiveEvent = z.infer<typeof LiveEvent>;

/** More days for a rental (issue 25): every rental line of the order, by the same number of days. */
export const ExtendRentalBody = z.object({
  days: z
    .number({ error: `Enter a number of days from 1 to ${MAX_RENTAL_DAYS}.` })
    .int({ error: `Enter a number of days from 1 to ${MAX_RENTAL_DAYS}.` })
    .min(1, { error: `Enter a number of days from 1 to ${MAX_RENTAL_DAYS}.` })
    .max(MAX_RENTAL_DAYS, { error: `Enter a number of days from 1 to ${MAX_RENTAL_DAYS}.` }),
});
export type ExtendRentalBody = z.input<typeof ExtendRentalBody>;

/** Ending a rental early (issue 25): the day its units come back (every line due later is due then). */
export const EndRentalEarlyBody = z.object({
  returnOn: z
    .string({ error: 'Enter the return day as YYYY-MM-DD.' })
    .refine((d) => isIsoDate(d) && d >= '2000-01-01' && d <= '2999-12-31', { error: 'Enter the return day as YYYY-MM-DD.' }),
});
export type EndRentalEarlyBody = z.input<typeof EndRentalEarlyBody>;
