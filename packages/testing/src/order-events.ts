import { randomUUID } from 'node:crypto';
import { EVENTS, type EventEnvelope, type EventInput, type OrderStatus } from '@dme/contracts';
import { eventEnvelope } from '@dme/platform';

/**
 * Order events as the order service writes them to its outbox, for the tests of the services that
 * consume them (payment, identity's messages): a purchase, a rental, and their steps.
 */
export type PlacedData = EventInput<typeof EVENTS.order.placed>;

const digits = () => String(Math.floor(Math.random() * 1e6)).padStart(6, '0');

/** A purchase: 2 × thermometer at 12.99 and 1 wheelchair (Standard / 18 in) at 150.00 = 175.98. */
export function purchase(overrides: Partial<PlacedData> = {}): PlacedData {
  return {
    orderId: randomUUID(),
    orderNumber: `ORD-20260301-${digits()}`,
    customerId: randomUUID(),
    type: 'BUY',
    typeOfOrder: null,
    totalAmount: '175.98',
    partialPayment: null,
    customer: { name: 'Maria Santos', email: 'maria.santos@example.com', contactNumber: '+63 917 555 0101' },
    delivery: { address: '12 Rizal St', city: 'Makati', state: 'Metro Manila', zipcode: '1210' },
    createdAt: new Date().toISOString(),
    lines: [
      { productId: randomUUID(), variantId: null, subVariantId: null, productName: 'Digital Thermometer', variantName: null, subVariantName: null, quantity: 2, noOfRentalDays: null, unitPrice: '12.99', lineTotal: '25.98' },
      { productId: randomUUID(), variantId: randomUUID(), subVariantId: randomUUID(), productName: 'Folding Wheelchair', variantName: 'Standard', subVariantName: '18 in', quantity: 1, noOfRentalDays: null, unitPrice: '150.00', lineTotal: '150.00' },
    ],
    ...overrides,
  };
}

/**
 * A rental: 2 wheelchairs (Standard / 18 in) at 16.50 a day for 3 days = 99.00 and an oxygen
 * concentrator at 45.00 for 5 days = 225.00; total 324.00, first day 33.00 + 45.00 = 78.00.
 */
export function rental(overrides: Partial<PlacedData> = {}): PlacedData {
  return {
    ...purchase(),
    type: 'RENT',
    totalAmount: '324.00',
    partialPayment: '78.00',
    customer: { name: 'Jose Rizal', email: 'jose.rizal@example.com', contactNumber: '+63 918 222 3344' },
    lines: [
      { productId: randomUUID(), variantId: randomUUID(), subVariantId: randomUUID(), productName: 'Folding Wheelchair', variantName: 'Standard', subVariantName: '18 in', quantity: 2, noOfRentalDays: 3, unitPrice: '16.50', lineTotal: '99.00' },
      { productId: randomUUID(), variantId: null, subVariantId: null, productName: 'Oxygen Concentrator', variantName: null, subVariantName: null, quantity: 1, noOfRentalDays: 5, unitPrice: '45.00', lineTotal: '225.00' },
    ],
    ...overrides,
  };
}

/** `dme.order.placed` as the order service writes it to its outbox. */
export function placedEvent(data: PlacedData): EventEnvelope {
  return eventEnvelope('order', { type: EVENTS.order.placed, aggregateId: data.orderId, data });
}

/** `dme.order.status_changed` of an order; `at` sets the event's time (due dates are counted from it). */
export function statusEvent(
  order: PlacedData,
  from: OrderStatus,
  to: OrderStatus,
  opts: { extraCharge?: string; at?: string; settlement?: { lateFees: string; depositApplied: string; depositRefund: string } } = {},
): EventEnvelope {
  const env = eventEnvelope('order', {
    type: EVENTS.order.statusChanged,
    aggregateId: order.orderId,
    data: {
      orderId: order.orderId,
      orderNumber: order.orderNumber,
      customerId: order.customerId,
      type: order.type,
      from,
      to,
      by: randomUUID(),
      extraCharge: opts.extraCharge ?? null,
      ...(opts.settlement ?? {}),
    },
  });
  return opts.at ? { ...env, occurredAt: opts.at } : env;
}

/** The steps of a rental from payment to the request of its full payment. */
export function rentalToFullPayment(
  order: PlacedData,
  extraCharge: string,
  at?: string,
  settlement?: { lateFees: string; depositApplied: string; depositRefund: string },
): EventEnvelope[] {
  const path: OrderStatus[] = ['PREPARING', 'TO_SHIP', 'OUT_FOR_DELIVERY', 'DELIVERED', 'FOR_RETURN', 'FOR_PICK_UP', 'FOR_FULL_PAYMENT'];
  let from: OrderStatus = 'FOR_PAYMENT';
  return path.map((to) => {
    const e = statusEvent(order, from, to, to === 'FOR_FULL_PAYMENT' ? { extraCharge, ...(at ? { at } : {}), ...(settlement ? { settlement } : {}) } : {});
    from = to;
    return e;
  });
}

/**
 * `dme.order.extended` (or `ended_early`) of a rental (issue 25): change number `seq` of `days`
 * days (below zero: ended early) that moved the order total by `amount` to `totalAmount`, with its
 * lines after it. A new envelope each call: the same change sent again is a new message.
 */
export function daysChangedEvent(
  order: PlacedData,
  change: { seq: number; days: number; amount: string; totalAmount: string; lines: Array<{ noOfRentalDays: number; lineTotal: string }>; by?: 'CUSTOMER' | 'STAFF'; returnOn?: string },
): EventEnvelope {
  const data = {
    orderId: order.orderId,
    orderNumber: order.orderNumber,
    customerId: order.customerId,
    seq: change.seq,
    days: change.days,
    amount: change.amount,
    totalAmount: change.totalAmount,
    by: change.by ?? 'CUSTOMER',
    lines: change.lines.map((l) => ({ lineId: randomUUID(), noOfRentalDays: l.noOfRentalDays, lineTotal: l.lineTotal, dueDate: change.returnOn ?? null })),
  };
  return change.returnOn === undefined
    ? eventEnvelope('order', { type: EVENTS.order.extended, aggregateId: order.orderId, data })
    : eventEnvelope('order', { type: EVENTS.order.endedEarly, aggregateId: order.orderId, data: { ...data, returnOn: change.returnOn } });
}
