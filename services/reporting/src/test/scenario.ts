import { randomUUID } from 'node:crypto';
import { EVENTS, type EventEnvelope, type EventInput, type OrderStatus } from '@dme/contracts';
import { eventEnvelope } from '@dme/platform';

/*
 * A scripted history over two Manila days (2026-03-01 and 2026-03-02; Manila is UTC+8), with
 * figures computed by hand below. Events are built as the producers build them (eventEnvelope),
 * with the time each happened.
 */

export type PlacedData = EventInput<typeof EVENTS.order.placed>;
type Line = PlacedData['lines'][number];

const at = (envelope: EventEnvelope, iso: string): EventEnvelope => ({ ...envelope, occurredAt: iso });

export const PRODUCTS = {
  thermometer: { productId: randomUUID(), name: 'Digital Thermometer', brand: 'Omron', type: 'FOR_SALE' as const, price: '12.99' },
  wheelchairSale: { productId: randomUUID(), name: 'Folding Wheelchair', brand: 'Drive', type: 'FOR_SALE' as const, price: '150.00', variant: randomUUID(), sub: randomUUID() },
  wheelchairRent: { productId: randomUUID(), name: 'Folding Wheelchair', brand: 'Drive Medical', type: 'FOR_RENT' as const, price: '16.50', variant: randomUUID(), sub: randomUUID() },
  oxygen: { productId: randomUUID(), name: 'Oxygen Concentrator', brand: 'Philips', type: 'FOR_RENT' as const, price: '45.00' },
};

export function productEvent(p: (typeof PRODUCTS)[keyof typeof PRODUCTS], version: number, brand = p.brand): EventEnvelope {
  const variants =
    'variant' in p
      ? [{ id: p.variant, name: 'Standard', price: null, damageCharges: null, subVariants: [{ id: p.sub, name: '18 in', price: p.price, damageCharges: '50.00' }] }]
      : [];
  return eventEnvelope('catalog', {
    type: version === 1 ? EVENTS.catalog.productCreated : EVENTS.catalog.productUpdated,
    aggregateId: p.productId,
    version,
    data: { productId: p.productId, name: p.name, brand, type: p.type, image: '', price: p.price, damageCharges: '10.00', variants },
  });
}

const thermo = (quantity: number, unitPrice: string, lineTotal: string): Line => ({
  productId: PRODUCTS.thermometer.productId, variantId: null, subVariantId: null, productName: 'Digital Thermometer', variantName: null, subVariantName: null,
  quantity, noOfRentalDays: null, unitPrice, lineTotal,
});
const chairSale = (quantity: number, lineTotal: string): Line => ({
  productId: PRODUCTS.wheelchairSale.productId, variantId: PRODUCTS.wheelchairSale.variant, subVariantId: PRODUCTS.wheelchairSale.sub, productName: 'Folding Wheelchair',
  variantName: 'Standard', subVariantName: '18 in', quantity, noOfRentalDays: null, unitPrice: '150.00', lineTotal,
});
const chairRent = (quantity: number, days: number, lineTotal: string): Line => ({
  productId: PRODUCTS.wheelchairRent.productId, variantId: PRODUCTS.wheelchairRent.variant, subVariantId: PRODUCTS.wheelchairRent.sub, productName: 'Folding Wheelchair',
  variantName: 'Standard', subVariantName: '18 in', quantity, noOfRentalDays: days, unitPrice: '16.50', lineTotal,
});
export const oxygen = (quantity: number, days: number, lineTotal: string): Line => ({
  productId: PRODUCTS.oxygen.productId, variantId: null, subVariantId: null, productName: 'Oxygen Concentrator', variantName: null, subVariantName: null,
  quantity, noOfRentalDays: days, unitPrice: '45.00', lineTotal,
});

let n = 0;
export function order(type: 'BUY' | 'RENT', customer: string, totalAmount: string, partialPayment: string | null, lines: Line[], placedAt: string): PlacedData {
  n += 1;
  return {
    orderId: randomUUID(),
    orderNumber: `ORD-20260301-${String(900000 + n + Math.floor(Math.random() * 90000))}`,
    customerId: randomUUID(),
    type,
    typeOfOrder: null,
    totalAmount,
    partialPayment,
    customer: { name: customer, email: 'c@example.com', contactNumber: '+63 917 555 0101' },
    delivery: { address: '12 Rizal St', city: 'Makati', state: 'Metro Manila', zipcode: '1210' },
    createdAt: placedAt,
    lines,
  };
}

export function placedEvent(o: PlacedData): EventEnvelope {
  return at(eventEnvelope('order', { type: EVENTS.order.placed, aggregateId: o.orderId, data: o }), o.createdAt!);
}

export function statusEvent(
  o: PlacedData,
  from: OrderStatus,
  to: OrderStatus,
  when: string,
  extraCharge: string | null = null,
  carried: Partial<Pick<EventInput<typeof EVENTS.order.statusChanged>, 'fullPaymentDue' | 'balance' | 'lateFees' | 'lateFeesWaived' | 'depositApplied' | 'depositRefund'>> | null = null,
): EventEnvelope {
  return at(
    eventEnvelope('order', {
      type: EVENTS.order.statusChanged,
      aggregateId: o.orderId,
      data: { orderId: o.orderId, orderNumber: o.orderNumber, customerId: o.customerId, type: o.type, from, to, by: randomUUID(), extraCharge, ...carried },
    }),
    when,
  );
}

const paymentIds = new Map<string, string>();
export const paymentIdOf = (o: PlacedData) => {
  if (!paymentIds.has(o.orderId)) paymentIds.set(o.orderId, randomUUID());
  return paymentIds.get(o.orderId)!;
};

export function paymentEvent(
  o: PlacedData,
  p: { type: 'PARTIAL' | 'FULL'; amount: string; when: string; invoice: string; receipt: string; status: 'INITIAL_PAYMENT' | 'PAID'; balance: string; version: number; deposit?: string },
): EventEnvelope {
  return at(
    eventEnvelope('payment', {
      type: EVENTS.payment.confirmed,
      aggregateId: paymentIdOf(o),
      version: p.version,
      data: {
        paymentId: paymentIdOf(o),
        orderId: o.orderId,
        orderNumber: o.orderNumber,
        customerId: o.customerId,
        orderType: o.type,
        type: p.type,
        status: p.status,
        amount: p.amount,
        invoiceNumber: p.invoice,
        receiptNumber: p.receipt,
        note: '',
        accommodatedBy: randomUUID(),
        confirmedAt: p.when,
        totalPartialPayment: o.partialPayment ?? null,
        extraCharge: null,
        overallTotal: null,
        balance: p.balance,
        dueDate: null,
        deposit: p.deposit ?? '0.00',
      },
    }),
    p.when,
  );
}

/** A purchase placed, asked for payment and paid in full at `paidAt`. */
function paidPurchase(o: PlacedData, paidAt: string, invoice: string): EventEnvelope[] {
  return [
    placedEvent(o),
    statusEvent(o, 'PENDING', 'FOR_PAYMENT', o.createdAt!),
    paymentEvent(o, { type: 'FULL', amount: o.totalAmount, when: paidAt, invoice, receipt: invoice.replace('INV', 'OR'), status: 'PAID', balance: '0.00', version: 2 }),
    statusEvent(o, 'FOR_PAYMENT', 'PREPARING', paidAt),
  ];
}

/** A rental's first (partial) payment and the steps up to its return. */
function partlyPaidRental(o: PlacedData, paidAt: string, invoice: string, balance: string): EventEnvelope[] {
  return [
    statusEvent(o, 'PENDING', 'FOR_PAYMENT', o.createdAt!),
    paymentEvent(o, { type: 'PARTIAL', amount: o.partialPayment!, when: paidAt, invoice, receipt: invoice.replace('INV', 'OR'), status: 'INITIAL_PAYMENT', balance, version: 2 }),
    statusEvent(o, 'FOR_PAYMENT', 'PREPARING', paidAt),
  ];
}

function toFullPayment(o: PlacedData, from: string, askedAt: string, extra: string): EventEnvelope[] {
  const steps: OrderStatus[] = ['TO_SHIP', 'OUT_FOR_DELIVERY', 'DELIVERED', 'FOR_RETURN', 'FOR_PICK_UP'];
  let prev: OrderStatus = 'PREPARING';
  const t0 = Date.parse(from);
  const events = steps.map((to, i) => {
    const e = statusEvent(o, prev, to, new Date(t0 + (i + 1) * 60_000).toISOString());
    prev = to;
    return e;
  });
  return [...events, statusEvent(o, 'FOR_PICK_UP', 'FOR_FULL_PAYMENT', askedAt, extra)];
}

const PLACED = '2026-02-28T12:00:00.000Z';

/** The history; `events` in the order they are published (some out of order on purpose). */
export function scriptedHistory() {
  const B1 = order('BUY', 'Maria Santos', '175.98', null, [thermo(2, '12.99', '25.98'), chairSale(1, '150.00')], PLACED);
  const B2 = order('BUY', 'Ana Cruz', '38.97', null, [thermo(3, '12.99', '38.97')], PLACED);
  const B3 = order('BUY', 'Ben Reyes', '11.50', null, [thermo(1, '11.50', '11.50')], PLACED);
  const B4 = order('BUY', 'Carla Lim', '150.00', null, [chairSale(1, '150.00')], PLACED);
  const B5 = order('BUY', 'Dino Tan', '12.99', null, [thermo(1, '12.99', '12.99')], PLACED);
  const B6 = order('BUY', 'Ella Go', '12.99', null, [thermo(1, '12.99', '12.99')], PLACED);
  const B7 = order('BUY', 'Fe Uy', '12.99', null, [thermo(1, '12.99', '12.99')], PLACED);
  const R1 = order('RENT', 'Jose Rizal', '324.00', '78.00', [chairRent(2, 3, '99.00'), oxygen(1, 5, '225.00')], PLACED);
  const R2 = order('RENT', 'Gina Lopez', '324.00', '78.00', [chairRent(2, 3, '99.00'), oxygen(1, 5, '225.00')], PLACED);
  const R3 = order('RENT', 'Hugo Diaz', '90.00', '45.00', [oxygen(1, 2, '90.00')], PLACED);
  const R4 = order('RENT', 'Ivy Sy', '90.00', '45.00', [oxygen(1, 2, '90.00')], PLACED);

  const r2Status = [
    ...partlyPaidRental(R2, '2026-03-02T02:00:00.000Z', 'INV-R2', '246.00'),
    ...toFullPayment(R2, '2026-03-02T02:00:00.000Z', '2026-03-02T10:00:00.000Z', '15.50'),
  ];
  const r3 = partlyPaidRental(R3, '2026-03-01T15:30:00.000Z', 'INV-R3', '45.00');
  const r1FullAsk = toFullPayment(R1, '2026-03-01T01:00:00.000Z', '2026-03-02T06:00:00.000Z', '20.00');
  const events: EventEnvelope[] = [
    // The thermometer's update (version 2) before its creation: the brand ends as the update says.
    productEvent(PRODUCTS.thermometer, 2, 'Omron Healthcare'),
    productEvent(PRODUCTS.thermometer, 1),
    productEvent(PRODUCTS.wheelchairSale, 1),
    productEvent(PRODUCTS.wheelchairRent, 1),
    productEvent(PRODUCTS.oxygen, 1),
    ...paidPurchase(B1, '2026-03-01T02:00:00.000Z', 'INV-B1'), // Mar 1 10:00 Manila
    ...paidPurchase(B2, '2026-03-01T15:30:00.000Z', 'INV-B2'), // Mar 1 23:30 Manila
    ...paidPurchase(B3, '2026-03-01T16:30:00.000Z', 'INV-B3'), // Mar 2 00:30 Manila
    ...paidPurchase(B6, '2026-02-28T15:59:00.000Z', 'INV-B6'), // Feb 28 23:59 Manila: before the range
    ...paidPurchase(B7, '2026-03-02T16:00:00.000Z', 'INV-B7'), // Mar 3 00:00 Manila: after the range
    placedEvent(B4),
    statusEvent(B4, 'PENDING', 'CANCELLED', '2026-03-01T03:00:00.000Z'),
    placedEvent(B5),
    statusEvent(B5, 'PENDING', 'FOR_PAYMENT', '2026-03-01T03:00:00.000Z'),
    placedEvent(R1),
    ...partlyPaidRental(R1, '2026-03-01T01:00:00.000Z', 'INV-R1', '246.00'), // Mar 1 09:00 Manila
    ...r1FullAsk, // asked Mar 2 14:00 Manila, extra 20.00
    paymentEvent(R1, { type: 'FULL', amount: '266.00', when: '2026-03-02T08:00:00.000Z', invoice: 'INV-R1F', receipt: 'OR-R1F', status: 'PAID', balance: '0.00', version: 3 }),
    statusEvent(R1, 'FOR_FULL_PAYMENT', 'COMPLETED', '2026-03-02T08:00:00.000Z'),
    // R2's status changes and payment before the order itself (a relay that published out of order).
    ...r2Status,
    placedEvent(R2),
    // R3's later step published before the earlier one: the newer status stays.
    placedEvent(R3),
    r3[2]!,
    r3[0]!,
    r3[1]!,
    placedEvent(R4),
    statusEvent(R4, 'PENDING', 'CANCELLED', '2026-03-01T05:00:00.000Z'),
  ];
  return { orders: { B1, B2, B3, B4, B5, B6, B7, R1, R2, R3, R4 }, events, r1FullAsk };
}

/** The figures of the history for 2026-03-01..2026-03-02, computed by hand. */
export const EXPECTED = {
  totals: {
    purchasedSales: '226.45', // B1 175.98 + B2 38.97 + B3 11.50
    rentalSales: '738.00', // R1 324.00 + R2 324.00 + R3 90.00
    overallSales: '964.45',
    purchasedInvoice: '226.45',
    rentalUnpaidInvoice: '261.50', // R2: 324.00 − 78.00 + 15.50
    rentalPartialBalance: '45.00', // R3 (R1 paid, R2 asked for its full payment)
    overallInvoice: '532.95', // 226.45 + 261.50 + 45.00
  },
};
