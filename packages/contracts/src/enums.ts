/** Enumerations of the product (SPEC §3, §4, §6). Values are the wire values. */

export const USER_TYPES = [
  'CUSTOMER',
  'SUPERADMIN',
  'WAREHOUSE_ADMIN',
  'WAREHOUSE_STAFF',
  'ACCOUNTING_ADMIN',
  'DRIVER',
  'SUPPORT',
] as const;
export type UserType = (typeof USER_TYPES)[number];

/** The user-type filter of the users list (SPEC §6): every type but SUPPORT. */
export const USER_TYPE_FILTER_VALUES = [
  'CUSTOMER',
  'SUPERADMIN',
  'WAREHOUSE_ADMIN',
  'WAREHOUSE_STAFF',
  'ACCOUNTING_ADMIN',
  'DRIVER',
] as const satisfies readonly UserType[];

/** Types an employee can have (the employee form lists SUPPORT too). */
export const EMPLOYEE_TYPES = [
  'SUPERADMIN',
  'WAREHOUSE_ADMIN',
  'WAREHOUSE_STAFF',
  'ACCOUNTING_ADMIN',
  'DRIVER',
  'SUPPORT',
] as const satisfies readonly UserType[];
export type EmployeeType = (typeof EMPLOYEE_TYPES)[number];

export const USER_TYPE_LABELS: Record<UserType, string> = {
  CUSTOMER: 'Customer',
  SUPERADMIN: 'Super Admin',
  WAREHOUSE_ADMIN: 'Warehouse Admin',
  WAREHOUSE_STAFF: 'Warehouse Staff',
  ACCOUNTING_ADMIN: 'Accounting Admin',
  DRIVER: 'Driver',
  SUPPORT: 'Support',
};

export const USER_STATUSES = ['ACTIVE', 'DEACTIVATED'] as const;
export type UserStatus = (typeof USER_STATUSES)[number];

export const GENDERS = ['MALE', 'FEMALE'] as const;
export type Gender = (typeof GENDERS)[number];

export const PRODUCT_TYPES = ['FOR_RENT', 'FOR_SALE'] as const;
export type ProductType = (typeof PRODUCT_TYPES)[number];

export const CART_TYPES = ['RENT', 'BUY'] as const;
export type CartType = (typeof CART_TYPES)[number];

/** Order type: BUY is labelled PURCHASED in the UI. */
export const ORDER_TYPES = ['BUY', 'RENT'] as const;
export type OrderType = (typeof ORDER_TYPES)[number];
/** The products an order of a type is made of: a rental of products for rent, a purchase of products for sale. */
export const productTypeFor = (type: OrderType): ProductType => (type === 'RENT' ? 'FOR_RENT' : 'FOR_SALE');

export const PURCHASE_ORDER_STATUSES = [
  'PENDING',
  'FOR_PAYMENT',
  'PREPARING',
  'TO_SHIP',
  'OUT_FOR_DELIVERY',
  'DELIVERED',
] as const;

export const RENTAL_ORDER_STATUSES = [
  ...PURCHASE_ORDER_STATUSES,
  'FOR_RETURN',
  'FOR_PICK_UP',
  'FOR_FULL_PAYMENT',
  'COMPLETED',
] as const;

/** CANCELLED is not in the spec; DESIGN §5 adds it. */
export const ORDER_STATUSES = [...RENTAL_ORDER_STATUSES, 'CANCELLED'] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];

/**
 * SPEC §4's payment statuses, and two not in the spec: CANCELLED (the order was cancelled before
 * it was paid; nothing can be taken) and REFUND_DUE (a payment was taken, then the payment service
 * learnt that its order had been cancelled meanwhile: the money taken is owed back; issue 22).
 */
export const PAYMENT_STATUSES = ['PENDING', 'INITIAL_PAYMENT', 'FOR_FULL_PAYMENT', 'PAID', 'CANCELLED', 'REFUND_DUE', 'REFUNDED'] as const;
export type PaymentStatus = (typeof PAYMENT_STATUSES)[number];

/**
 * How far along a payment status is: a mirror of the payment (the order service's) never goes
 * back to a lower rank when two replicas apply its events out of order.
 */
export const PAYMENT_RANK: Record<PaymentStatus, number> = { PENDING: 0, INITIAL_PAYMENT: 1, FOR_FULL_PAYMENT: 2, PAID: 3, CANCELLED: 3, REFUND_DUE: 4, REFUNDED: 5 };

/** PARTIAL: a rental's first payment; FULL: a purchase's or a rental's last; CYCLE (issue 29): a rental's 30-day cycle; BUYOUT (issue 29): a rent-to-own rental bought out. */
export const PAYMENT_TYPES = ['PARTIAL', 'FULL', 'CYCLE', 'BUYOUT'] as const;
export type PaymentType = (typeof PAYMENT_TYPES)[number];

export const REQUEST_TYPES = ['FIX', 'REPLACE'] as const;
export type RequestType = (typeof REQUEST_TYPES)[number];

export const REQUEST_STATUSES = ['PENDING', 'ON_PROGRESS', 'DONE'] as const;
export type RequestStatus = (typeof REQUEST_STATUSES)[number];

/**
 * Stock item statuses: SPEC §3's four, and LOST (a rented unit marked LOST at return inspection);
 * from issue 26 a unit's life between rentals: RETURNED (back, to be cleaned), CLEANED (to be
 * inspected), INSPECTED (to be put away), IN_REPAIR, FOUND (a lost unit back, to be cleaned),
 * ON_HOLD (recall, quarantine), and the ends SCRAPPED and WRITTEN_OFF. The moves between them are
 * the table in stock-status.ts.
 */
export const STOCK_STATUSES = [
  'AVAILABLE',
  'RENTED',
  'DAMAGED',
  'SOLD',
  'LOST',
  'RETURNED',
  'CLEANED',
  'INSPECTED',
  'IN_REPAIR',
  'FOUND',
  'ON_HOLD',
  'SCRAPPED',
  'WRITTEN_OFF',
] as const;
export type StockStatus = (typeof STOCK_STATUSES)[number];

export const RETURN_STATUSES = ['OK', 'LOST', 'DAMAGED'] as const;
export type ReturnStatus = (typeof RETURN_STATUSES)[number];

export const INVENTORY_TYPES = ['IN', 'OUT'] as const;
export type InventoryType = (typeof INVENTORY_TYPES)[number];

/**
 * Where a unit packed for an order is, as the order's serial code entry shows it (SPEC §3
 * inventoryType): OUT from packing on (with the customer, sold), and after a return inspection
 * where the catalog puts it: OK and DAMAGED back IN the warehouse, LOST stays OUT.
 */
export const RETURN_INVENTORY_TYPE: Record<ReturnStatus, InventoryType> = { OK: 'IN', DAMAGED: 'IN', LOST: 'OUT' };
export const serialInventoryType = (returnStatus: ReturnStatus | null): InventoryType => (returnStatus ? RETURN_INVENTORY_TYPE[returnStatus] : 'OUT');

/** antd Tag colour names (SPEC §4). */
export type TagColor =
  | 'blue'
  | 'geekblue'
  | 'orange'
  | 'lime'
  | 'cyan'
  | 'green'
  | 'red'
  | 'magenta'
  | 'volcano'
  | 'gold'
  | 'purple';

const ORDER_STATUS_COLORS: Partial<Record<string, TagColor>> = {
  PENDING: 'blue',
  FOR_PAYMENT: 'geekblue',
  FOR_FULL_PAYMENT: 'geekblue',
  PREPARING: 'orange',
  FOR_RETURN: 'orange',
  TO_SHIP: 'lime',
  FOR_PICK_UP: 'lime',
  OUT_FOR_DELIVERY: 'cyan',
  DELIVERED: 'green',
  // A DELIVERED rental as the ongoing list shows it (SPEC §4).
  ON_GOING: 'green',
  COMPLETED: 'green',
};

/** Order status tag colour; anything else (CANCELLED included) is red. */
export function orderStatusColor(status: string): TagColor {
  return ORDER_STATUS_COLORS[status] ?? 'red';
}

const STOCK_STATUS_COLORS: Partial<Record<string, TagColor>> = {
  AVAILABLE: 'green',
  RENTED: 'magenta',
  DAMAGED: 'volcano',
  SOLD: 'gold',
  // Between rentals (issue 26): on their way back to the shelf.
  RETURNED: 'orange',
  CLEANED: 'cyan',
  INSPECTED: 'geekblue',
  FOUND: 'orange',
  IN_REPAIR: 'purple',
  ON_HOLD: 'volcano',
};

/** Stock status tag colour; any other is red. */
export function stockStatusColor(status: string): TagColor {
  return STOCK_STATUS_COLORS[status] ?? 'red';
}

const REQUEST_STATUS_COLORS: Partial<Record<string, TagColor>> = {
  PENDING: 'blue',
  ON_PROGRESS: 'orange',
  DONE: 'green',
};

/** Request status tag colour; any other is red (SPEC §4). */
export function requestStatusColor(status: string): TagColor {
  return REQUEST_STATUS_COLORS[status] ?? 'red';
}

const PAYMENT_STATUS_COLORS: Partial<Record<string, TagColor>> = {
  PENDING: 'blue',
  INITIAL_PAYMENT: 'orange',
  FOR_FULL_PAYMENT: 'geekblue',
  PAID: 'green',
  // Issue 29: what was owed back was paid back: settled, like PAID.
  REFUNDED: 'green',
};

export function paymentStatusColor(status: string): TagColor {
  return PAYMENT_STATUS_COLORS[status] ?? 'red';
}

const USER_STATUS_COLORS: Partial<Record<string, TagColor>> = {
  ACTIVE: 'green',
};

export function userStatusColor(status: string): TagColor {
  return USER_STATUS_COLORS[status] ?? 'red';
}
