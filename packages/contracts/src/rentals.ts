import { z } from 'zod';
import { ORDER_STATUSES, ORDER_TYPES, REQUEST_TYPES, RETURN_STATUSES, type OrderStatus } from './enums';
import { Pagination } from './identity';
import { OrderRequest, OrderSummary } from './ordering';
import { LIVE_KINDS } from './live';
import { optionalText, searchParam, text } from './text';

/**
 * Delivery and pickup, ongoing rentals, returns, requests, customer notices and live updates
 * (SPEC §2 driver and ongoing rentals, §4, §5, §8; issue 10).
 */

/** Texts of SPEC §5/§8 verbatim, and ours where the spec is silent. */
export const RENTAL_MESSAGES = {
  selectProduct: 'Select at least 1 product!',
  requestSubmitted: 'Request Successfully Submitted!',
  hasDueProducts: 'Has to due products',
  dueToday: 'Some products are due for return today.',
  markOnProgress: 'Mark as On Progress',
  markDone: 'Mark as Done',
  // ours
  scanWhat: 'Scan the order QR code or type the order number.',
  unknownOrder: 'No order has this QR code or order number.',
  notForDelivery: (orderNumber: string, status: string) =>
    `Order ${orderNumber} is ${status.replaceAll('_', ' ')}: only orders TO SHIP, or OUT FOR DELIVERY with you, can be scanned for delivery.`,
  notForPickup: (orderNumber: string, status: string) => `Order ${orderNumber} is ${status.replaceAll('_', ' ')}: only rentals FOR RETURN can be scanned for pick-up.`,
  otherDriver: (orderNumber: string) => `Order ${orderNumber} is out for delivery with another driver.`,
  takenOut: (orderNumber: string) => `Order ${orderNumber} is out for delivery with you.`,
  delivered: (orderNumber: string) => `Order ${orderNumber} delivered.`,
  pickedUp: (orderNumber: string) => `Order ${orderNumber} is yours to pick up.`,
  notPickingUp: 'Serial codes are marked as returned only while the order is FOR PICK UP.',
  unknownSerial: 'This serial code was not packed for this order.',
  alreadyReturned: 'This serial code was already marked as returned.',
  requestNotOngoing: 'Requests can be filed only while the rental is ongoing (delivered).',
  unknownLine: 'Choose products of this order.',
  requestStep: (from: string, to: string) => `A request ${from.replaceAll('_', ' ')} cannot be marked ${to.replaceAll('_', ' ')}.`,
} as const;

// ---- driver

/** What a driver scans: the order QR (JSON with orderID and orderNumber) or a typed order number. */
export const DRIVER_SCAN_PURPOSES = ['DELIVERY', 'PICKUP'] as const;
export type DriverScanPurpose = (typeof DRIVER_SCAN_PURPOSES)[number];

export const DriverScanRequest = z.object({
  purpose: z.enum(DRIVER_SCAN_PURPOSES, { error: 'Choose delivery or pick-up.' }),
  code: text({ max: 300, error: RENTAL_MESSAGES.scanWhat }).pipe(z.string().min(1, { error: RENTAL_MESSAGES.scanWhat })),
});
export type DriverScanRequest = z.input<typeof DriverScanRequest>;

/** The result of a scan: the order after it, and what happened in one sentence. */
export const DriverScanResponse = z.object({ order: OrderSummary, message: z.string() });
export type DriverScanResponse = z.infer<typeof DriverScanResponse>;

/** The statuses a driver's list shows: For Delivery the driver's OUT_FOR_DELIVERY orders, For Pickup their FOR_PICK_UP ones. */
export const DRIVER_LIST_STATUS: Record<DriverScanPurpose, OrderStatus> = { DELIVERY: 'OUT_FOR_DELIVERY', PICKUP: 'FOR_PICK_UP' };

export const DriverOrderListQuery = Pagination.extend({
  purpose: z.enum(DRIVER_SCAN_PURPOSES, { error: 'Choose delivery or pick-up.' }),
});

/**
 * Reads the order QR payload or a typed order number: the QR carries JSON
 * `{"orderID": "...", "orderNumber": "..."}`; anything else is taken as an order number.
 */
export function parseOrderCode(code: string): { orderId?: string; orderNumber?: string } {
  const c = code.trim();
  if (c.startsWith('{')) {
    try {
      const v = JSON.parse(c) as { orderID?: unknown; orderNumber?: unknown };
      const orderId = typeof v.orderID === 'string' && /^[0-9a-f-]{36}$/i.test(v.orderID) ? v.orderID : undefined;
      const orderNumber = typeof v.orderNumber === 'string' ? v.orderNumber.trim().toUpperCase() : undefined;
      return { ...(orderId ? { orderId } : {}), ...(orderNumber ? { orderNumber } : {}) };
    } catch {
      return {};
    }
  }
  return { orderNumber: c.toUpperCase() };
}

// ---- ongoing rentals (warehouse)

/** The tabs of /admin/ongoing-rentals (SPEC §2), each a filter computed by the server. */
export const ONGOING_RENTAL_TABS = ['ONGOING', 'DUE_DATE', 'FOR_RETURN', 'PICKED_UP'] as const;
export type OngoingRentalTab = (typeof ONGOING_RENTAL_TABS)[number];
export const ONGOING_RENTAL_TAB_LABELS: Record<OngoingRentalTab, string> = {
  ONGOING: 'Ongoing',
  DUE_DATE: 'Due Date',
  FOR_RETURN: 'For Return',
  PICKED_UP: 'Picked up',
};
/**
 * What each tab holds: Ongoing, DELIVERED rentals; Due Date, DELIVERED rentals with a line due
 * today or overdue (Manila); For Return, FOR_RETURN rentals; Picked up, rentals whose payment is
 * PAID.
 */
export const ONGOING_RENTAL_TAB_RULES: Record<OngoingRentalTab, string> = {
  ONGOING: 'DELIVERED rentals',
  DUE_DATE: 'DELIVERED rentals with a product due today or overdue (Asia/Manila)',
  FOR_RETURN: 'FOR_RETURN rentals',
  PICKED_UP: 'rentals whose payment is PAID',
};

export const OngoingRentalListQuery = Pagination.extend({
  tab: z.enum(ONGOING_RENTAL_TABS, { error: 'Unknown tab.' }).default('ONGOING'),
  search: searchParam(),
});

export const OngoingRental = OrderSummary.extend({
  /** The status as the list shows it: a DELIVERED rental is ON_GOING (SPEC §4). */
  displayStatus: z.string(),
  /** The initial (first-day) payment, shown as the price alone (SPEC §9). */
  initialPayment: z.string().nullable(),
  /** The earliest due date of its lines (YYYY-MM-DD, Manila), once delivered. */
  dueDate: z.string().nullable(),
});
export type OngoingRental = z.infer<typeof OngoingRental>;
export const OngoingRentalListResponse = z.object({ items: z.array(OngoingRental), total: z.number().int() });
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

export const RequestParams = z.object({
  id: z.string().uuid({ error: 'Not found.' }),
  requestId: z.string().uuid({ error: 'Not found.' }),
});
export const UpdateRequestBody = z.object({
  status: z.enum(['ON_PROGRESS', 'DONE'], { error: 'Mark the request On Progress or Done.' }),
});
export type UpdateRequestBody = z.input<typeof UpdateRequestBody>;
export const OrderRequestResponse = z.object({ request: OrderRequest });
export const OrderRequestListResponse = z.object({ items: z.array(OrderRequest) });

/** A request moves PENDING → ON_PROGRESS → DONE (SPEC §4). */
export const REQUEST_NEXT: Record<string, 'ON_PROGRESS' | 'DONE' | undefined> = { PENDING: 'ON_PROGRESS', ON_PROGRESS: 'DONE' };

// ---- customer notices

export const NOTICE_KINDS = ['OVERDUE', 'DUE_TODAY'] as const;
export type NoticeKind = (typeof NOTICE_KINDS)[number];
export const Notice = z.object({
  kind: z.enum(NOTICE_KINDS),
  /** 'Has to due products' (past due) or 'Some products are due for return today.' */
  message: z.string(),
  orderID: z.string().uuid(),
  orderNumber: z.string(),
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
