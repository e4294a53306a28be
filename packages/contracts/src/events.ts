import { z } from 'zod';
import { RENTAL_REMINDERS } from './terms';
import { BILLINGS } from './rental-money';
import { REFUND_KINDS, REFUND_METHODS } from './payment-messages';
import { ORDER_STATUSES, PAYMENT_STATUSES, PAYMENT_TYPES, PRODUCT_TYPES, REQUEST_STATUSES, REQUEST_TYPES, USER_STATUSES, USER_TYPES } from './enums';

/** The envelope every domain event travels in (DESIGN §7). */
export const EventEnvelope = z.object({
  id: z.string().uuid(),
  type: z.string(),
  occurredAt: z.string(),
  source: z.string(),
  aggregateId: z.string(),
  data: z.unknown(),
  version: z.number().int().min(1),
  /**
   * The id of the request (X-Request-Id) whose work recorded the event, carried on by the events
   * recorded while handling it, so logs follow one request across services (issue 14). Optional:
   * events recorded outside a request, and every older event, have none.
   */
  correlationId: z.string().max(100).optional(),
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
    /** A recall was opened (issue 26): the customers who have a unit of it are told. */
    recallOpened: 'dme.catalog.recall_opened',
  },
  order: {
    placed: 'dme.order.placed',
    statusChanged: 'dme.order.status_changed',
    /** Stock was reserved for an order that was never written: the catalog releases it. */
    checkoutAbandoned: 'dme.order.checkout_abandoned',
    /** A rental got more days (issue 25): its lines' days and totals, and the order total, re-priced. */
    extended: 'dme.order.extended',
    /** A rental was ended early by staff (issue 25): its lines' days and totals, and the order total, re-priced. */
    endedEarly: 'dme.order.ended_early',
  },
  payment: {
    /** A payment was taken (a purchase's, or a rental's first or full one). */
    confirmed: 'dme.payment.confirmed',
    /** A payment was taken for an order cancelled meanwhile: what was paid is owed back (issue 22). */
    refundDue: 'dme.payment.refund_due',
    refundRecorded: 'dme.payment.refund_recorded',
  },
  request: {
    /** A fix or replace request was filed or moved on (ON_PROGRESS, DONE). */
    changed: 'dme.request.changed',
  },
  rental: {
    /**
     * A rental's reminder of the day is due (issue 24): written by the order service's schedule at
     * most once per rental, kind and Manila day, whatever the number of replicas.
     */
    reminderDue: 'dme.rental.reminder_due',
  },
} as const;

/**
 * A rental's days changed (issue 25): extended (more days) or ended early (days off, `days` and
 * `amount` below zero). The figures after are absolute, so a consumer applying it twice changes nothing.
 */
const RentalDaysChanged = z.object({
  orderId: z.string().uuid(),
  orderNumber: z.string(),
  customerId: z.string().uuid(),
  /** The change's number on the order (1, 2, …) and its days. */
  seq: z.number().int(),
  days: z.number().int(),
  /** What the change did to the total, the order's new total, and every line after (in the order's line order). */
  amount: z.string(),
  totalAmount: z.string(),
  lines: z.array(z.object({ lineId: z.string().uuid(), noOfRentalDays: z.number().int().nullable(), lineTotal: z.string(), dueDate: z.string().nullable() })),
  by: z.enum(['CUSTOMER', 'STAFF']),
});

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
  // What payment needs travels with the order (issue 9). Fields added later have defaults, so
  // events already in the stream still read (a new consumer replays the stream from the start).
  [EVENTS.order.placed]: z.object({
    orderId: z.string().uuid(),
    orderNumber: z.string(),
    customerId: z.string().uuid(),
    type: z.enum(['BUY', 'RENT']),
    typeOfOrder: z.enum(['BULK']).nullable(),
    totalAmount: z.string(),
    /** A rental's first (partial) payment: the first day's rental total. */
    partialPayment: z.string().nullable().default(null),
    /** A rental's deposit (issue 29): the lines' deposits, taken with the first payment; "0.00" on older events. */
    deposit: z.string().default('0.00'),
    /** How its rent is billed (issue 29, rental-money `orderBilling`); UPFRONT on older events. */
    billing: z.enum(BILLINGS).default('UPFRONT'),
    customer: z.object({ name: z.string(), email: z.string(), contactNumber: z.string() }).nullable().default(null),
    delivery: z.object({ address: z.string(), city: z.string(), state: z.string(), zipcode: z.string() }).nullable().default(null),
    createdAt: z.string().nullable().default(null),
    lines: z.array(
      z.object({
        productId: z.string().uuid(),
        variantId: z.string().uuid().nullable(),
        subVariantId: z.string().uuid().nullable(),
        productName: z.string().default(''),
        variantName: z.string().nullable().default(null),
        subVariantName: z.string().nullable().default(null),
        quantity: z.number().int(),
        noOfRentalDays: z.number().int().nullable(),
        /** A rental line's first day (issue 25); null for a purchase and in older events. */
        startDate: z.string().nullable().default(null),
        unitPrice: z.string(),
        lineTotal: z.string(),
        /** The line's deposit (issue 29), for the invoice; "0.00" on older events. */
        deposit: z.string().default('0.00'),
        /** The line's rent-to-own terms (issue 29); null: none. */
        rentToOwn: z.object({ salePrice: z.string(), creditPercent: z.number().int(), afterCycles: z.number().int() }).nullable().default(null),
      }),
    ),
  }),
  [EVENTS.order.checkoutAbandoned]: z.object({ orderId: z.string().uuid() }),
  [EVENTS.catalog.recallOpened]: z.object({
    recallId: z.string().uuid(),
    number: z.string(),
    title: z.string(),
    productName: z.string(),
    /** The orders a unit of the recall is out on, with their customer and those units. */
    holders: z.array(z.object({ orderId: z.string().uuid(), orderNumber: z.string(), orderType: z.enum(['BUY', 'RENT']), customerId: z.string().uuid(), serialCodes: z.array(z.string()) })),
  }),
  [EVENTS.order.extended]: RentalDaysChanged,
  [EVENTS.order.endedEarly]: RentalDaysChanged.extend({ returnOn: z.string() }),
  [EVENTS.order.statusChanged]: z.object({
    orderId: z.string().uuid(),
    orderNumber: z.string(),
    customerId: z.string().uuid(),
    type: z.enum(['BUY', 'RENT']),
    from: z.enum(ORDER_STATUSES),
    to: z.enum(ORDER_STATUSES),
    by: z.string().uuid().nullable(),
    /** The username of who took the step (a person; issue 26: the units' chain of custody names them); null for an event's step and on older events. */
    byName: z.string().nullable().default(null),
    /** The driver who has the order after the step (delivery or pick-up), else null. */
    driverId: z.string().uuid().nullable().default(null),
    /** FOR_FULL_PAYMENT: the damage or lost fees of the serials not returned OK (DESIGN §5). */
    extraCharge: z.string().nullable().default(null),
    /** FOR_FULL_PAYMENT: the full payment's due date (Manila date, terms `fullPaymentDueDate`); null on older events. */
    fullPaymentDue: z.string().nullable().default(null),
    /** FOR_FULL_PAYMENT: what is left to pay, order total + extra charge − first payment (terms `balanceCents`); null on older events. */
    balance: z.string().nullable().default(null),
    /** FOR_FULL_PAYMENT (issue 29): the late fees within the extra charge, the deposit taken for the charges and what is refunded of it; null on older events. */
    lateFees: z.string().nullable().default(null),
    depositApplied: z.string().nullable().default(null),
    depositRefund: z.string().nullable().default(null),
    /** FOR_FULL_PAYMENT (issue 29): the late fees staff waived (counted, not charged); null on older events. */
    lateFeesWaived: z.string().nullable().default(null),
  }),
  [EVENTS.payment.confirmed]: z.object({
    paymentId: z.string().uuid(),
    orderId: z.string().uuid(),
    orderNumber: z.string(),
    customerId: z.string().uuid(),
    orderType: z.enum(['BUY', 'RENT']),
    /** PARTIAL: a rental's first payment; FULL: a purchase's payment or a rental's full payment; CYCLE: a rental's 30-day cycle (issue 29). */
    type: z.enum(PAYMENT_TYPES),
    /** The payment's status after this one was taken. */
    status: z.enum(PAYMENT_STATUSES),
    amount: z.string(),
    invoiceNumber: z.string(),
    receiptNumber: z.string(),
    note: z.string(),
    accommodatedBy: z.string().uuid(),
    confirmedAt: z.string(),
    /** After this payment: the payment's figures as the order shows them. */
    totalPartialPayment: z.string().nullable(),
    extraCharge: z.string().nullable(),
    overallTotal: z.string().nullable(),
    balance: z.string(),
    dueDate: z.string().nullable(),
    /** The payment record this payment wrote (its invoice is downloaded by it); older events have none. */
    recordId: z.string().uuid().nullable().default(null),
    /** The deposit within `amount` (issue 29: taken with a rental's first payment); "0.00" otherwise and on older events. */
    deposit: z.string().default('0.00'),
    /** A CYCLE payment's cycle number (issue 29); null otherwise. */
    cycle: z.number().int().nullable().default(null),
    /** Issue 29: this payment made a rent-to-own rental the customer's (a buy-out, or the cycle that reached ownership). */
    owned: z.boolean().default(false),
  }),
  [EVENTS.payment.refundDue]: z.object({
    paymentId: z.string().uuid(),
    orderId: z.string().uuid(),
    orderNumber: z.string(),
    customerId: z.string().uuid(),
    orderType: z.enum(['BUY', 'RENT']),
    /** Always REFUND_DUE: the payment's status after it. */
    status: z.enum(PAYMENT_STATUSES),
    /** What was paid and is owed back. */
    amount: z.string(),
  }),
  // Issue 29: a refund paid back (recorded by accounting); the payment's status after it (REFUNDED for a cancelled order's, else unchanged).
  [EVENTS.payment.refundRecorded]: z.object({
    paymentId: z.string().uuid(),
    orderId: z.string().uuid(),
    orderNumber: z.string(),
    customerId: z.string().uuid(),
    orderType: z.enum(['BUY', 'RENT']),
    refundId: z.string().uuid(),
    number: z.string(),
    kind: z.enum(REFUND_KINDS),
    amount: z.string(),
    method: z.enum(REFUND_METHODS),
    status: z.enum(PAYMENT_STATUSES),
    refundedAt: z.string(),
  }),
  [EVENTS.rental.reminderDue]: z.object({
    orderId: z.string().uuid(),
    orderNumber: z.string(),
    customerId: z.string().uuid(),
    kind: z.enum(RENTAL_REMINDERS),
    /** The Manila business day it is for. */
    day: z.string(),
    /** What is due: the earliest line due date (rentals out), or the full payment's due date; CYCLE_DUE: the cycle's due day. */
    dueDate: z.string(),
    /** CYCLE_DUE (issue 29): the cycle's number, its days and what it takes; null otherwise. */
    cycle: z.object({ n: z.number().int(), from: z.string(), to: z.string(), amount: z.string() }).nullable().default(null),
  }),
  [EVENTS.request.changed]: z.object({
    requestId: z.string().uuid(),
    orderId: z.string().uuid(),
    orderNumber: z.string(),
    customerId: z.string().uuid(),
    type: z.enum(REQUEST_TYPES),
    status: z.enum(REQUEST_STATUSES),
  }),
} as const;

export type EventType = keyof typeof EVENT_DATA;
export type EventData<T extends EventType> = z.infer<(typeof EVENT_DATA)[T]>;
/** What a producer gives (fields with defaults may be left out). */
export type EventInput<T extends EventType> = z.input<(typeof EVENT_DATA)[T]>;
export type UserSnapshot = z.infer<typeof UserSnapshot>;
