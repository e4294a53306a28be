import { centsToString, EVENTS, manilaDate, ORDER_PLACED_TITLE, orderBilling, type Billing, type Order, type PlaceOrderInput } from '@dme/contracts';
import { eventEnvelope, type Principal, newId } from '@dme/platform';

import { SOURCE } from '../../events';
import { allowedTransitions } from '../../process/can-perform';
import { customerOf } from '../orders/rows';
import type { OrderWrite } from './checkout.store';
import type { PricedLine } from './lines';

/** An order being placed, once its stock is held and its lines priced: what it is answered and written with. */
export interface Placed {
  orderId: string;
  who: Principal;
  body: PlaceOrderInput;
  /** The customer from the order service's read model (read with the claim). */
  customer: Record<string, string> | null;
  priced: PricedLine[];
  totalAmount: string;
  partial: string | null;
  /** A rental's deposit (issue 29), taken with the first payment ("0.00": none). */
  deposit: string;
  now: Date;
}

/** The answer, as GET /api/my/orders/:id will show it; only the order number comes from the write. */
export function orderAnswer(p: Placed): Order {
  const { orderId, who, body, totalAmount, partial } = p;
  const createdAt = p.now.toISOString();
  return {
    id: orderId,
    orderNumber: '',
    createdAt,
    status: 'PENDING',
    type: body.type,
    typeOfOrder: body.typeOfOrder ?? null,
    totalAmount,
    customerID: who.userId,
    customerName: p.customer ? `${p.customer.first_name} ${p.customer.last_name}`.trim() : '',
    deliveryAddress: body.deliveryAddress,
    deliveryCity: body.deliveryCity,
    deliveryState: body.deliveryState,
    deliveryZipcode: body.deliveryZipcode,
    note: body.note,
    partialPayment: partial,
    payment: {
      status: 'UNPAID',
      totalOrderPayment: totalAmount,
      totalPartialPayment: partial,
      extraCharge: null,
      overallTotal: null,
      balance: null,
      dueDate: null,
      records: [],
      deposit: p.deposit,
      lateFees: null,
      depositApplied: null,
      depositRefund: null,
      refunds: [],
    },
    orderTracker: [{ title: ORDER_PLACED_TITLE, status: 'PENDING', createdAt }],
    products: p.priced.map((l) => ({
      id: l.id,
      productID: l.productID,
      productName: l.r.productName,
      productImage: l.r.productImage,
      productVariantID: l.productVariantID,
      productSubVariantID: l.productSubVariantID,
      variant: l.r.variantName ? { name: l.r.variantName, price: l.r.variantPrice } : null,
      subVariant: l.r.subVariantName && l.r.subVariantPrice !== null ? { name: l.r.subVariantName, price: l.r.subVariantPrice } : null,
      quantity: l.quantity,
      noOfRentalDays: l.noOfRentalDays,
      startDate: l.startDate,
      productAmount: l.r.unitPrice,
      productDamageCharges: l.r.damageCharges,
      lineTotal: centsToString(l.total),
      serialCodes: [],
      dueDate: null,
      rentalTerms: l.r.rentalTerms,
      deposit: centsToString(l.deposit),
    })),
    customer: customerOf(p.customer),
    deliveredAt: null,
    driverID: null,
    requests: [],
    dueNotice: null,
    fullPaymentPreview: null,
    extensions: [],
    handovers: [],
    assignment: null,
    // A customer extends a rental once it is delivered (terms `extendable`).
    extendable: false,
    // Staff end a rental early once it is delivered (terms `endableEarly`).
    earlyEnd: null,
    lateFees: null,
    lateFeeWaivers: [],
    billing: billingOf(p),
    cycles: [],
    rentToOwn: [],
    allowedTransitions: allowedTransitions(
      { id: orderId, orderNumber: '', customerId: who.userId, type: body.type, status: 'PENDING', driverId: null, deliveredAt: null, totalAmount, partialPayment: partial, lines: [], serials: [] },
      { kind: 'person', principal: who },
      p.now,
    ),
  };
}

/** How the order's rent is billed (issue 29): per 30-day cycle when a line's terms say so and it runs more than 30 days. */
function billingOf(p: Placed): Billing {
  return p.body.type === 'RENT' ? orderBilling(p.priced.map((l) => ({ terms: l.r.rentalTerms, noOfRentalDays: l.noOfRentalDays }))) : 'UPFRONT';
}

/** `dme.order.placed`, as the outbox records it with the order. */
function placedEvent(p: Placed, order: Order) {
  const { orderId, body } = p;
  return eventEnvelope(SOURCE, {
    type: EVENTS.order.placed,
    aggregateId: orderId,
    data: {
      orderId,
      orderNumber: '',
      customerId: p.who.userId,
      type: body.type,
      typeOfOrder: body.typeOfOrder ?? null,
      totalAmount: p.totalAmount,
      partialPayment: p.partial,
      deposit: p.deposit,
      billing: billingOf(p),
      customer: order.customer ? { name: order.customerName, email: order.customer.email, contactNumber: order.customer.contactNumber } : null,
      delivery: { address: body.deliveryAddress, city: body.deliveryCity, state: body.deliveryState, zipcode: body.deliveryZipcode },
      createdAt: order.createdAt,
      lines: p.priced.map((l) => ({
        productId: l.productID,
        variantId: l.productVariantID,
        subVariantId: l.productSubVariantID,
        productName: l.r.productName,
        variantName: l.r.variantName,
        subVariantName: l.r.subVariantName,
        quantity: l.quantity,
        noOfRentalDays: l.noOfRentalDays,
        startDate: l.startDate,
        unitPrice: l.r.unitPrice,
        lineTotal: centsToString(l.total),
        deposit: centsToString(l.deposit),
        // Issue 29: the payment offers a buy-out by these.
        rentToOwn: body.type === 'RENT' ? (l.r.rentalTerms?.rentToOwn ?? null) : null,
      })),
    },
  });
}

/** The order's lines as ordering.order_lines takes them (with the price snapshot). */
function lineRows(priced: PricedLine[]): OrderWrite['lines'] {
  return priced.map((p) => ({
    id: p.id,
    position: p.ref,
    product_id: p.productID,
    product_name: p.r.productName,
    product_image: p.r.productImage,
    variant_id: p.productVariantID,
    variant_name: p.r.variantName,
    variant_price: p.r.variantPrice,
    sub_variant_id: p.productSubVariantID,
    sub_variant_name: p.r.subVariantName,
    sub_variant_price: p.r.subVariantPrice,
    quantity: p.quantity,
    no_of_rental_days: p.noOfRentalDays,
    start_date: p.startDate,
    unit_price: p.r.unitPrice,
    damage_charges: p.r.damageCharges,
    line_total: centsToString(p.total),
    rental_terms: p.r.rentalTerms,
    deposit: centsToString(p.deposit),
  }));
}

/** Everything the order is written with in one statement: the order, its lines and tracker entry, its event and the stored answer. */
export function orderWrite(p: Placed, order: Order, claim: { cartIds: string[]; key: string; token: string }): OrderWrite {
  const { orderId, body } = p;
  const event = placedEvent(p, order);
  return {
    id: orderId,
    day: manilaDate(p.now).replace(/-/g, ''),
    customerId: p.who.userId,
    type: body.type,
    typeOfOrder: body.typeOfOrder ?? null,
    totalAmount: p.totalAmount,
    partialPayment: p.partial,
    deposit: p.deposit,
    billing: billingOf(p),
    deliveryAddress: body.deliveryAddress,
    deliveryCity: body.deliveryCity,
    deliveryState: body.deliveryState,
    deliveryZipcode: body.deliveryZipcode,
    note: body.note,
    createdAt: p.now,
    lines: lineRows(p.priced),
    trackerId: newId(),
    trackerTitle: ORDER_PLACED_TITLE,
    cartIds: claim.cartIds,
    event: { id: event.id, type: event.type, payload: event },
    answer: { order },
    key: claim.key,
    token: claim.token,
  };
}
