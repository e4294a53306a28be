/**
 * The rental constants (SPEC §2 driver and ongoing rentals, §4 requests; issue 10) with no schema
 * behind them, kept free of zod on purpose: the warehouse's ongoing-rentals and order screens and
 * the driver's screens import them, and a module with schemas would bring zod along, whose
 * `new Function` probe breaks the CSP (no 'unsafe-eval'; issue 13). The schemas in rentals.ts use
 * these same constants.
 */
import type { OrderStatus } from './enums';

// ---- driver

/** What a driver scans: the order QR (JSON with orderID and orderNumber) or a typed order number. */
export const DRIVER_SCAN_PURPOSES = ['DELIVERY', 'PICKUP'] as const;
export type DriverScanPurpose = (typeof DRIVER_SCAN_PURPOSES)[number];

/** The statuses a driver's list shows: For Delivery the driver's OUT_FOR_DELIVERY orders, For Pickup their FOR_PICK_UP ones. */
export const DRIVER_LIST_STATUS: Record<DriverScanPurpose, OrderStatus> = { DELIVERY: 'OUT_FOR_DELIVERY', PICKUP: 'FOR_PICK_UP' };

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

/** Whether a customer may file a fix or replace request on the order: a rental out with them, DELIVERED (SPEC §2). */
export function acceptsRequests(order: { type: 'BUY' | 'RENT'; status: OrderStatus }): boolean {
  return order.type === 'RENT' && order.status === 'DELIVERED';
}

/** The status as the ongoing rentals show it: a DELIVERED rental is ON_GOING (SPEC §4); the rest as they are. */
export function rentalDisplayStatus<S extends string>(status: S): S | 'ON_GOING' {
  return status === 'DELIVERED' ? 'ON_GOING' : status;
}
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

// ---- requests (fix or replace)

/** A request moves PENDING → ON_PROGRESS → DONE (SPEC §4). */
export const REQUEST_NEXT: Record<string, 'ON_PROGRESS' | 'DONE' | undefined> = { PENDING: 'ON_PROGRESS', ON_PROGRESS: 'DONE' };

// ---- customer notices

/** AT_RISK (issue 25): a booking whose unit is still out with another customer past its due date. */
export const NOTICE_KINDS = ['OVERDUE', 'DUE_TODAY', 'AT_RISK', 'RECALL'] as const;
export type NoticeKind = (typeof NOTICE_KINDS)[number];
