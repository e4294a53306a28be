import { z } from 'zod';
import { ORDER_STATUSES, PRODUCT_TYPES, USER_STATUSES, USER_TYPES } from './enums';

/** The envelope every domain event travels in (DESIGN §7). */
export const EventEnvelope = z.object({
  id: z.string().uuid(),
  type: z.string(),
  occurredAt: z.string(),
  source: z.string(),
  aggregateId: z.string(),
  data: z.unknown(),
  version: z.number().int().min(1),
});
export type EventEnvelope<T = unknown> = Omit<z.infer<typeof EventEnvelope>, 'data'> & { data: T };

/** The JetStream stream that carries every domain event. */
export const EVENT_STREAM = 'DME_EVENTS';
export const EVENT_SUBJECTS = ['dme.>'];

export const EVENTS = {
  identity: {
    userRegistered: 'dme.identity.user_registered',
    employeeCreated: 'dme.identity.employee_created',
    userUpdated: 'dme.identity.user_updated',
    userStatusChanged: 'dme.identity.user_status_changed',
    userDeleted: 'dme.identity.user_deleted',
  },
  catalog: {
    productCreated: 'dme.catalog.product_created',
    productUpdated: 'dme.catalog.product_updated',
    productArchived: 'dme.catalog.product_archived',
    productDeleted: 'dme.catalog.product_deleted',
    stockAdded: 'dme.catalog.stock_added',
  },
  order: {
    placed: 'dme.order.placed',
    statusChanged: 'dme.order.status_changed',
    /** Stock was reserved for an order that was never written: the catalog releases it. */
    checkoutAbandoned: 'dme.order.checkout_abandoned',
  },
} as const;

const UserSnapshot = z.object({
  id: z.string().uuid(),
  idNumber: z.string(),
  username: z.string(),
  firstName: z.string(),
  middleName: z.string(),
  lastName: z.string(),
  suffix: z.string(),
  email: z.string(),
  contactNumber: z.string(),
  userType: z.enum(USER_TYPES),
  status: z.enum(USER_STATUSES),
});

/** What other services learn about a product (names and prices for read models). */
const ProductSnapshot = z.object({
  productId: z.string().uuid(),
  name: z.string(),
  brand: z.string(),
  type: z.enum(PRODUCT_TYPES),
  image: z.string().default(''),
  price: z.string(),
  damageCharges: z.string(),
  variants: z.array(
    z.object({
      id: z.string().uuid(),
      name: z.string(),
      price: z.string().nullable(),
      damageCharges: z.string().nullable(),
      subVariants: z.array(z.object({ id: z.string().uuid(), name: z.string(), price: z.string(), damageCharges: z.string() })),
    }),
  ),
});

export const EVENT_DATA = {
  [EVENTS.identity.userRegistered]: UserSnapshot,
  [EVENTS.identity.employeeCreated]: UserSnapshot,
  [EVENTS.identity.userUpdated]: UserSnapshot,
  [EVENTS.identity.userStatusChanged]: z.object({
    userId: z.string().uuid(),
    status: z.enum(USER_STATUSES),
    previousStatus: z.enum(USER_STATUSES),
    changedBy: z.string().uuid().nullable(),
  }),
  [EVENTS.identity.userDeleted]: z.object({ userId: z.string().uuid(), deletedBy: z.string().uuid().nullable() }),
  [EVENTS.catalog.productCreated]: ProductSnapshot,
  [EVENTS.catalog.productUpdated]: ProductSnapshot,
  [EVENTS.catalog.productArchived]: z.object({ productId: z.string().uuid() }),
  [EVENTS.catalog.productDeleted]: z.object({ productId: z.string().uuid() }),
  [EVENTS.catalog.stockAdded]: z.object({
    batchId: z.string().uuid(),
    productId: z.string().uuid(),
    variantId: z.string().uuid().nullable(),
    subVariantId: z.string().uuid().nullable(),
    warehouseBinId: z.string().uuid(),
    quantity: z.number().int().min(1),
    serialCodes: z.array(z.string()),
  }),
  [EVENTS.order.placed]: z.object({
    orderId: z.string().uuid(),
    orderNumber: z.string(),
    customerId: z.string().uuid(),
    type: z.enum(['BUY', 'RENT']),
    typeOfOrder: z.enum(['BULK']).nullable(),
    totalAmount: z.string(),
    lines: z.array(
      z.object({
        productId: z.string().uuid(),
        variantId: z.string().uuid().nullable(),
        subVariantId: z.string().uuid().nullable(),
        quantity: z.number().int(),
        noOfRentalDays: z.number().int().nullable(),
        unitPrice: z.string(),
        lineTotal: z.string(),
      }),
    ),
  }),
  [EVENTS.order.checkoutAbandoned]: z.object({ orderId: z.string().uuid() }),
  [EVENTS.order.statusChanged]: z.object({
    orderId: z.string().uuid(),
    orderNumber: z.string(),
    customerId: z.string().uuid(),
    type: z.enum(['BUY', 'RENT']),
    from: z.enum(ORDER_STATUSES),
    to: z.enum(ORDER_STATUSES),
    by: z.string().uuid().nullable(),
  }),
} as const;

export type EventType = keyof typeof EVENT_DATA;
export type EventData<T extends EventType> = z.infer<(typeof EVENT_DATA)[T]>;
export type UserSnapshot = z.infer<typeof UserSnapshot>;
