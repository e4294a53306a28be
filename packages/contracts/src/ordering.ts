import { z } from 'zod';
import { RentalCycle, RentalTermsSchema } from './rental-terms';
import { BILLINGS } from './rental-money';
import { REFUND_KINDS, REFUND_METHODS } from './payment-messages';
import { CART_TYPES, INVENTORY_TYPES, ORDER_STATUSES, ORDER_TYPES, PAYMENT_TYPES, REQUEST_STATUSES, REQUEST_TYPES } from './enums';
import { ADDRESS_MAX, ZIPCODE_MIN } from './limits';
import { BOOKING_MESSAGES, MAX_QUANTITY, MAX_RENTAL_DAYS, ORDER_MESSAGES } from './order-messages';
import { isBookableStart, lastBookableStart } from './terms';
import { isIsoDate, manilaDate } from './time';
import { Pagination } from './identity';
import { Handover } from './handovers';
import { bodyInt, optionalText, requiredText, searchParam, text } from './text';

/** JSON numbers only (no "3", "0x10", true or [1]), whole, in range. */
const quantity = bodyInt({ min: 1, max: MAX_QUANTITY, error: ORDER_MESSAGES.quantityMin, maxError: `Quantity must be at most ${MAX_QUANTITY}.` });
const days = bodyInt({ min: 1, max: MAX_RENTAL_DAYS, error: ORDER_MESSAGES.daysMin, maxError: `Rental days must be at most ${MAX_RENTAL_DAYS}.` });
/**
 * A rental's start date (issue 25), YYYY-MM-DD on the Manila calendar: from today up to
 * BOOK_AHEAD_DAYS ahead, checked against today when the request is read. Absent: today.
 */
export const RentalStartDate = z
  .string({ error: BOOKING_MESSAGES.startDate })
  .refine(isIsoDate, { error: BOOKING_MESSAGES.startDate })
  .refine((d) => !isIsoDate(d) || isBookableStart(d, manilaDate()), { error: () => BOOKING_MESSAGES.startRange(lastBookableStart(manilaDate())) });

/** The delivery address form of an order (SPEC §5); maxima ≤ the ordering "orders" delivery_* and note columns. */
export const AddressFields = {
  deliveryAddress: requiredText(ORDER_MESSAGES.address, 300).pipe(z.string().max(ADDRESS_MAX, { error: ORDER_MESSAGES.addressMax })),
  deliveryCity: requiredText(ORDER_MESSAGES.city, 80),
  deliveryState: requiredText(ORDER_MESSAGES.state, 80),
  deliveryZipcode: requiredText(ORDER_MESSAGES.zipcode, 20).pipe(z.string().min(ZIPCODE_MIN, { error: ORDER_MESSAGES.zipcodeMin })),
  note: optionalText(500),
};

/** What is being ordered: a product at its leaf level. */
export const LineRef = z.object({
  productID: z.string({ error: ORDER_MESSAGES.unknownProduct }).uuid({ error: ORDER_MESSAGES.unknownProduct }),
  productVariantID: z.string().uuid().nullish().transform((v) => v ?? null),
  productSubVariantID: z.string().uuid().nullish().transform((v) => v ?? null),
});

export const CartAddRequest = LineRef.extend({
  type: z.enum(CART_TYPES, { error: 'Please choose rent or buy.' }),
  quantity,
  noOfRentalDays: days.optional(),
  /** A rental's first day (issue 25); today when absent. Ignored for a purchase. */
  startDate: RentalStartDate.optional(),
}).refine((c) => c.type === 'BUY' || c.noOfRentalDays !== undefined, { error: ORDER_MESSAGES.daysMin, path: ['noOfRentalDays'] });
export type CartAddRequest = z.input<typeof CartAddRequest>;

export const CartUpdateRequest = z.object({ quantity, noOfRentalDays: days.optional(), startDate: RentalStartDate.optional() });
export type CartUpdateRequest = z.input<typeof CartUpdateRequest>;

export const CartItem = z.object({
  id: z.string().uuid(),
  type: z.enum(CART_TYPES),
  productID: z.string().uuid(),
  productVariantID: z.string().uuid().nullable(),
  productSubVariantID: z.string().uuid().nullable(),
  name: z.string(),
  brand: z.string(),
  image: z.string(),
  variant: z.object({ name: z.string(), price: z.string().nullable() }).nullable(),
  subVariant: z.object({ name: z.string(), price: z.string() }).nullable(),
  /** Current unit price (per day for rent); the order takes its own snapshot at checkout. */
  price: z.string(),
  quantity: z.number().int(),
  noOfRentalDays: z.number().int().nullable(),
  /** A rental line's first day (YYYY-MM-DD, Manila; issue 25); null for a purchase. */
  startDate: z.string().nullable(),
  lineTotal: z.string(),
  /** False when the product was archived or its variant removed since it was added. */
  available: z.boolean(),
  createdAt: z.string(),
});
export type CartItem = z.infer<typeof CartItem>;

export const CartQuery = z.object({ type: z.enum(CART_TYPES, { error: 'Please choose rent or buy.' }) });
export const CartResponse = z.object({ items: z.array(CartItem), total: z.string() });
export type CartResponse = z.infer<typeof CartResponse>;
export const CartItemResponse = z.object({ item: CartItem });
export type CartItemResponse = z.infer<typeof CartItemResponse>;

export const BulkLine = LineRef.extend({ quantity, noOfRentalDays: days.optional(), startDate: RentalStartDate.optional() });

/**
 * Place an order: from the customer's cart lines of that type (cartItemIDs, or all of them), or a
 * BULK order entered line by line. Totals sent by a client are ignored: the server computes them.
 */
export const PlaceOrderRequest = z
  .object({
    type: z.enum(ORDER_TYPES, { error: 'Please choose rent or buy.' }),
    typeOfOrder: z.enum(['BULK']).nullish(),
    cartItemIDs: z.array(z.string().uuid()).max(100).optional(),
    lines: z.array(BulkLine).max(100).optional(),
    ...AddressFields,
  })
  .superRefine((o, ctx) => {
    if (o.typeOfOrder === 'BULK') {
      if (!o.lines || o.lines.length === 0) ctx.addIssue({ code: 'custom', path: ['lines'], message: ORDER_MESSAGES.emptyOrder });
      if (o.type === 'RENT') {
        o.lines?.forEach((l, i) => {
          if (l.noOfRentalDays === undefined) ctx.addIssue({ code: 'custom', path: ['lines', i, 'noOfRentalDays'], message: ORDER_MESSAGES.daysMin });
        });
      }
    } else if (o.lines) {
      ctx.addIssue({ code: 'custom', path: ['lines'], message: 'Lines are only for bulk orders; other orders come from the cart.' });
    }
  });
export type PlaceOrderRequest = z.input<typeof PlaceOrderRequest>;
export type PlaceOrderInput = z.output<typeof PlaceOrderRequest>;

/**
 * What a bulk order would cost before it is placed (issue 27: its confirmation shows the server's
 * total): its lines priced as the cart prices them (current unit price × quantity, × days for
 * rent). A quote reserves nothing; placing the order prices it again.
 */
export const OrderQuoteRequest = z
  .object({
    type: z.enum(ORDER_TYPES, { error: 'Please choose rent or buy.' }),
    lines: z.array(BulkLine).max(100),
  })
  .superRefine((o, ctx) => {
    if (o.lines.length === 0) ctx.addIssue({ code: 'custom', path: ['lines'], message: ORDER_MESSAGES.emptyOrder });
    if (o.type === 'RENT') {
      o.lines.forEach((l, i) => {
        if (l.noOfRentalDays === undefined) ctx.addIssue({ code: 'custom', path: ['lines', i, 'noOfRentalDays'], message: ORDER_MESSAGES.daysMin });
      });
    }
  });
export type OrderQuoteRequest = z.input<typeof OrderQuoteRequest>;
export type OrderQuoteInput = z.output<typeof OrderQuoteRequest>;
/** A quoted line: the cart line's shape without a cart line's own id, type and date added. */
export const QuoteLine = CartItem.omit({ id: true, type: true, createdAt: true });
export type QuoteLine = z.infer<typeof QuoteLine>;
export const OrderQuoteResponse = z.object({ items: z.array(QuoteLine), total: z.string() });
export type OrderQuoteResponse = z.infer<typeof OrderQuoteResponse>;

/**
 * A serial code packed for an order line (SPEC §3 "Serial code entry"). `id` is the entry's own id
 * (the order's record of this unit on this line); productID the line's product; status the return
 * inspection (OK, LOST, DAMAGED) once marked, else null; updatedAt the return time (null until
 * returned; `returnedAt` is the same time, kept for older clients); inventoryType where the unit is
 * (OUT from packing on, IN once returned OK or DAMAGED: RETURN_INVENTORY_TYPE); warehouseBin the
 * bin it was packed from, `{ name }` as a stock item shows it (null for orders packed before
 * issue 22); createdAt when it was packed.
 */
export const SerialCodeEntry = z.object({
  id: z.string().uuid(),
  serialCode: z.string(),
  productID: z.string().uuid(),
  status: z.string().nullable(),
  updatedAt: z.string().nullable(),
  returnedAt: z.string().nullable(),
  inventoryType: z.enum(INVENTORY_TYPES),
  warehouseBin: z.object({ name: z.string() }).nullable(),
  createdAt: z.string(),
});
export type SerialCodeEntry = z.infer<typeof SerialCodeEntry>;

export const OrderLine = z.object({
  id: z.string().uuid(),
  productID: z.string().uuid(),
  productName: z.string(),
  productImage: z.string(),
  productVariantID: z.string().uuid().nullable(),
  productSubVariantID: z.string().uuid().nullable(),
  variant: z.object({ name: z.string(), price: z.string().nullable() }).nullable(),
  subVariant: z.object({ name: z.string(), price: z.string() }).nullable(),
  quantity: z.number().int(),
  noOfRentalDays: z.number().int().nullable(),
  /** Unit price snapshot (per day for rent). */
  productAmount: z.string(),
  productDamageCharges: z.string(),
  lineTotal: z.string(),
  /** The serial codes packed for the line (PREPARING → TO_SHIP), in the order they were scanned. */
  serialCodes: z.array(SerialCodeEntry),
  /** A rental line once delivered: the delivered date plus its rental days, on the Manila calendar (YYYY-MM-DD). */
  dueDate: z.string().nullable(),
  /** A rental line's booked first day (issue 25; the order date for rentals placed before it); null for a purchase. */
  startDate: z.string().nullable().default(null),
  /** The rental money terms snapshotted at checkout (issue 29); later edits of the product do not change them. */
  rentalTerms: RentalTermsSchema.nullable().default(null),
  /** The line's deposit under those terms, taken with the first payment ("0.00": none). */
  deposit: z.string().default('0.00'),
});
export type OrderLine = z.infer<typeof OrderLine>;

export const TrackerEntry = z.object({ title: z.string(), status: z.enum(ORDER_STATUSES), createdAt: z.string() });

export const OrderSummary = z.object({
  id: z.string().uuid(),
  orderNumber: z.string(),
  createdAt: z.string(),
  status: z.enum(ORDER_STATUSES),
  type: z.enum(ORDER_TYPES),
  typeOfOrder: z.enum(['BULK']).nullable(),
  totalAmount: z.string(),
  customerID: z.string().uuid(),
  /** First and last name from the order service's read model ('' when it does not know them). */
  customerName: z.string(),
  /** The customer's number (CUS-…) as people read it; absent from older servers. */
  customerNumber: z.string().optional(),
});
export type OrderSummary = z.infer<typeof OrderSummary>;

/** A payment taken for an order (from `dme.payment.confirmed`): the first of a rental is PARTIAL. */
export const OrderPaymentRecord = z.object({
  /**
   * The payment record's id, for its invoice (GET /api/my/orders/:id/records/:recordId/invoice.pdf);
   * absent for a record taken before payment events carried it (its invoice is the latest-invoice route's).
   */
  id: z.string().uuid().optional(),
  type: z.enum(PAYMENT_TYPES),
  invoiceNumber: z.string(),
  receiptNumber: z.string(),
  amount: z.string(),
  note: z.string(),
  createdAt: z.string(),
  /** A CYCLE payment's cycle number (issue 29); absent otherwise. */
  cycle: z.number().int().nullable().optional(),
});

/**
 * Payment information as the order shows it (SPEC §4): while the order is PENDING or FOR_PAYMENT
 * the status is UNPAID with the order total and the rental's partial payment; afterwards the
 * payment's own status (INITIAL_PAYMENT, FOR_FULL_PAYMENT, PAID) and its records. In
 * FOR_FULL_PAYMENT and PAID a rental also shows due date, extra charges, overall total and balance.
 * REFUND_DUE (issue 22): a payment was taken for the order after it had been cancelled; `refundDue`
 * is what is owed back.
 */
export const OrderPayment = z.object({
  status: z.string(),
  /** REFUND_DUE only: what was paid and is owed back (absent otherwise). */
  refundDue: z.string().optional(),
  totalOrderPayment: z.string(),
  totalPartialPayment: z.string().nullable(),
  extraCharge: z.string().nullable(),
  overallTotal: z.string().nullable(),
  balance: z.string().nullable(),
  dueDate: z.string().nullable(),
  records: z.array(OrderPaymentRecord),
  /** A rental's deposit (issue 29), taken with the first payment ("0.00": none). */
  deposit: z.string().default('0.00'),
  /** At the full payment: the late fees in the extra charge, the deposit taken for the charges and what is refunded of it; null before. */
  lateFees: z.string().nullable().default(null),
  depositApplied: z.string().nullable().default(null),
  depositRefund: z.string().nullable().default(null),
  /** Refunds paid back (issue 29): the deposit's rest, or what was paid for an order cancelled meanwhile. */
  refunds: z
    .array(z.object({ number: z.string(), kind: z.enum(REFUND_KINDS), amount: z.string(), method: z.enum(REFUND_METHODS), refundedAt: z.string() }))
    .default([]),
});
export type OrderPayment = z.infer<typeof OrderPayment>;

/** A fix or replace request of a customer on an ongoing rental (SPEC §3, §4). */
export const OrderRequestLine = z.object({
  lineID: z.string().uuid(),
  productName: z.string(),
  variantName: z.string().nullable(),
  subVariantName: z.string().nullable(),
});
export const OrderRequest = z.object({
  id: z.string().uuid(),
  orderID: z.string().uuid(),
  type: z.enum(REQUEST_TYPES),
  status: z.enum(REQUEST_STATUSES),
  userNote: z.string(),
  products: z.array(OrderRequestLine),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type OrderRequest = z.infer<typeof OrderRequest>;

export const Order = OrderSummary.extend({
  deliveryAddress: z.string(),
  deliveryCity: z.string(),
  deliveryState: z.string(),
  deliveryZipcode: z.string(),
  note: z.string(),
  /** First (partial) payment of a rental: the first day's rental total (DESIGN §5). */
  partialPayment: z.string().nullable(),
  payment: OrderPayment,
  orderTracker: z.array(TrackerEntry),
  products: z.array(OrderLine),
  customer: z
    .object({
      idNumber: z.string(),
      firstName: z.string(),
      middleName: z.string(),
      lastName: z.string(),
      suffix: z.string(),
      email: z.string(),
      contactNumber: z.string(),
    })
    .nullable(),
  /** The transitions the caller may make now (from the process table). */
  allowedTransitions: z.array(z.enum(ORDER_STATUSES)),
  /** When it was delivered (ISO), and the driver who has it (delivery or pick-up). */
  deliveredAt: z.string().nullable(),
  driverID: z.string().uuid().nullable(),
  /** Fix or replace requests (rentals), oldest first. */
  requests: z.array(OrderRequest),
  /**
   * A delivered rental with a line past due ('OVERDUE': 'Has to due products') or due today
   * ('DUE_TODAY': 'Some products are due for return today.'), on the Manila calendar; else null.
   */
  dueNotice: z.enum(['OVERDUE', 'DUE_TODAY']).nullable(),
  /**
   * A rental being picked up (FOR_PICK_UP): what asking for the full payment now would charge, as
   * the server computes it (terms `fullPaymentTerms`): the extra charge and the serial codes it is
   * for, the balance and the due date. Null in every other status (absent from older servers).
   */
  fullPaymentPreview: z
    .object({
      extraCharge: z.string(),
      chargedSerials: z.array(z.object({ serialCode: z.string(), status: z.enum(['LOST', 'DAMAGED']) })),
      balance: z.string(),
      dueDate: z.string(),
      /** Issue 29: the late fees within the extra charge, the deposit taken for the charges and what is refunded of it. */
      lateFees: z.string().default('0.00'),
      depositApplied: z.string().default('0.00'),
      depositRefund: z.string().default('0.00'),
    })
    .nullable()
    .optional(),
  /**
   * Changes of the rental's days (issue 25), oldest first: extensions (more days) and an early end
   * (days taken off, `returnOn` the day its units came due instead); what each did to the total, by whom.
   */
  extensions: z
    .array(
      z.object({
        kind: z.enum(['EXTEND', 'END_EARLY']).default('EXTEND'),
        days: z.number().int(),
        amount: z.string(),
        returnOn: z.string().nullable().default(null),
        by: z.enum(['CUSTOMER', 'STAFF']),
        createdAt: z.string(),
      }),
    )
    .default([]),
  /** The caller may give this rental more days now (terms `extendable`). */
  extendable: z.boolean().default(false),
  /** Staff may end this rental early on a day of this window (terms `earlyEndWindow`); null otherwise. */
  earlyEnd: z.object({ from: z.string(), to: z.string() }).nullable().default(null),
  /** The driver assigned or who has the order (name) and the day planned for it (issue 28); null when none. */
  assignment: z.object({ driverId: z.string().uuid(), driverName: z.string(), day: z.string().nullable() }).nullable().default(null),
  /** Hand-overs at the door (issue 28), oldest first: deliveries and pick-ups, made or attempted. */
  handovers: z.array(Handover).default([]),
  /**
   * A rental kept past its due date (issue 29): the late fees so far under its lines' terms (units
   * still out counted to today, those back to the day they came back) and the most days late;
   * null when nothing is charged late.
   */
  lateFees: z.object({ amount: z.string(), days: z.number().int(), charged: z.string().optional(), waived: z.string().optional() }).nullable().default(null),
  /** Late fees waived by staff (issue 29), oldest first: how much, why, who and when. */
  lateFeeWaivers: z.array(z.object({ amount: z.string(), reason: z.string(), byName: z.string(), createdAt: z.string() })).default([]),
  /** How the rent is billed (issue 29); CYCLES: its 30-day cycles from delivery, each paid, due or upcoming (none before delivery). */
  billing: z.enum(BILLINGS).default('UPFRONT'),
  cycles: z.array(RentalCycle).default([]),
  /**
   * Rent-to-own (issue 29), per line whose terms offer it: the rent its paid cycles cover, the
   * share of it credited, what buying it out costs now, and the paid cycles after which it is the
   * customer's (rental-money `lineRentToOwn`).
   */
  rentToOwn: z
    .array(
      z.object({
        lineId: z.string().uuid(),
        productName: z.string(),
        rentPaid: z.string(),
        credited: z.string(),
        buyOut: z.string(),
        cyclesPaid: z.number().int(),
        afterCycles: z.number().int(),
        owned: z.boolean(),
      }),
    )
    .default([]),
});
export type Order = z.infer<typeof Order>;
export const ExtendRentalResponse = z.object({ order: Order, message: z.string() });
export type ExtendRentalResponse = z.infer<typeof ExtendRentalResponse>;
export const OrderResponse = z.object({ order: Order });
export type OrderResponse = z.infer<typeof OrderResponse>;

export const MyOrderListQuery = Pagination.extend({
  type: z.enum(ORDER_TYPES).optional(),
  status: z.enum(ORDER_STATUSES).optional(),
});

/** Staff list of orders (SPEC §2 admin orders): by type and status, searched by order number or customer name. */
export const StaffOrderListQuery = MyOrderListQuery.extend({ search: searchParam() });
/**
 * A page of orders and its total; the customer's and the staff's lists (issue 27) also carry the
 * number of orders in each status for the same type and search, the tabs' counts.
 */
export const OrderListResponse = z.object({
  items: z.array(OrderSummary),
  total: z.number().int(),
  counts: z.partialRecord(z.enum(ORDER_STATUSES), z.number().int()).optional(),
});
export type OrderListResponse = z.infer<typeof OrderListResponse>;

/** A serial code as typed or read from a label: letters, digits and dashes (catalog serial codes). */
export const SerialCode = text({ max: 40, error: 'Scan or type a serial code.' }).pipe(
  z.string().min(1, { error: 'Scan or type a serial code.' }).regex(/^[A-Za-z0-9-]+$/, { error: 'A serial code has only letters, digits and dashes.' }),
);

/** The serial codes packed for each line of an order (PREPARING → TO_SHIP). */
export const PackedLine = z.object({
  lineID: z.string().uuid({ error: 'Unknown order line.' }),
  serialCodes: z.array(SerialCode).min(1).max(500),
});

export const TransitionRequest = z.object({
  to: z.enum(ORDER_STATUSES, { error: 'Unknown status.' }),
  /**
   * Packing: every line of the order with exactly as many scanned serial codes as its quantity.
   * Without it, 'To Ship Order' packs the scans saved on the server (PUT .../packing/... below);
   * kept for older clients (the legacy `orders/update.php`).
   */
  packing: z.array(PackedLine).max(100).optional(),
});
export type TransitionRequest = z.input<typeof TransitionRequest>;

/** An order line being packed (PREPARING): `/api/orders/:id/packing/:lineId/serials`. */
export const PackingLineParams = z.object({
  id: z.string().uuid({ error: 'Not found.' }),
  lineId: z.string().uuid({ error: 'Unknown order line.' }),
});
/** One scanned serial code of a line being packed. */
export const PackingSerialParams = PackingLineParams.extend({ serialCode: text({ max: 40, error: 'Unknown serial code.' }) });
/** A serial code scanned for a line: kept on the server at once (issue 22), checked like packing. */
export const PackingScanRequest = z.object({ serialCode: SerialCode });
export type PackingScanRequest = z.input<typeof PackingScanRequest>;

/**
 * The packing progress of an order (PREPARING): the serial codes scanned so far per line, kept on
 * the server so that a reload or another packer continues it; 'To Ship Order' packs them. Cleared
 * when the order leaves PREPARING.
 */
export const PackingProgress = z.object({
  orderID: z.string().uuid(),
  lines: z.array(
    z.object({
      lineID: z.string().uuid(),
      quantity: z.number().int(),
      serialCodes: z.array(z.object({ serialCode: z.string(), warehouseBin: z.string().nullable(), scannedAt: z.string() })),
    }),
  ),
  /** Every line has exactly its quantity of scanned codes: 'To Ship Order' can be sent. */
  complete: z.boolean(),
});
export type PackingProgress = z.infer<typeof PackingProgress>;
export const PackingProgressResponse = z.object({ packing: PackingProgress });
export type PackingProgressResponse = z.infer<typeof PackingProgressResponse>;

/** The reply of a stock reservation request (catalog, over NATS request/reply). */
export const ReserveLineReply = z.object({
  ref: z.number().int(),
  productName: z.string(),
  productImage: z.string(),
  productType: z.enum(['FOR_RENT', 'FOR_SALE']),
  variantName: z.string().nullable(),
  variantPrice: z.string().nullable(),
  subVariantName: z.string().nullable(),
  subVariantPrice: z.string().nullable(),
  unitPrice: z.string(),
  damageCharges: z.string(),
  /** A rental product's money terms as they are now (issue 29), snapshotted on the order line; null: none. */
  rentalTerms: RentalTermsSchema.nullable().default(null),
});
export type ReserveLineReply = z.infer<typeof ReserveLineReply>;
export const ReserveRequest = z.object({
  orderId: z.string().uuid(),
  orderType: z.enum(ORDER_TYPES),
  lines: z
    .array(
      LineRef.extend({
        ref: z.number().int(),
        quantity: z.number().int().min(1),
        /** A rental line's period (issue 25): its first day and rental days; the catalog books units for it. */
        startDate: z.string().refine(isIsoDate).nullish(),
        noOfRentalDays: z.number().int().min(1).nullish(),
      }),
    )
    .min(1),
});
export type ReserveRequest = z.input<typeof ReserveRequest>;

/**
 * Packing (catalog, over NATS request/reply): the serial codes scanned for each line of an order
 * are assigned in one transaction (AVAILABLE → RENTED for a rental or SOLD for a purchase,
 * inventory OUT) and the order's reservation is consumed by as many units. Asking again for the
 * same order and codes answers the same (a retry).
 */
/** Who asked a command of another service (issue 26: a unit's chain of custody names them); absent from older callers. */
export const RpcActor = z.object({ userId: z.string().uuid(), username: z.string().max(100) }).nullish();

export const AssignSerialsRequest = z.object({
  orderId: z.string().uuid(),
  orderType: z.enum(ORDER_TYPES),
  /** The packer. */
  by: RpcActor,
  lines: z
    .array(
      LineRef.extend({
        lineId: z.string().uuid(),
        productName: z.string(),
        quantity: z.number().int().min(1),
        serialCodes: z.array(z.string().min(1).max(40)).min(1).max(500),
      }),
    )
    .min(1)
    .max(100),
});
export type AssignSerialsRequest = z.input<typeof AssignSerialsRequest>;
/**
 * Per packed unit: its code, its stock status now (RENTED or SOLD), the stock item's id and the
 * name of the bin it was packed from (what the order's serial code entry keeps; null from a
 * catalog that predates issue 22).
 */
export const AssignedSerial = z.object({
  serialCode: z.string(),
  status: z.string(),
  stockItemId: z.string().uuid().nullable().default(null),
  warehouseBin: z.string().nullable().default(null),
});
export const AssignSerialsReply = z.object({
  lines: z.array(z.object({ lineId: z.string().uuid(), serialCodes: z.array(AssignedSerial) })),
});
export type AssignSerialsReply = z.input<typeof AssignSerialsReply>;

/**
 * One scan while packing (catalog, over NATS request/reply; nothing changes there): the unit with
 * this code must exist, be of the line's product, variant and sub-variant and be AVAILABLE in the
 * warehouse, checked by the same rule as AssignSerialsRequest. Answers the unit's id and bin name,
 * else 409 with PACKING_MESSAGES (unknownCode, wrongProduct naming the line, notAvailable).
 */
export const CheckSerialRequest = LineRef.extend({ productName: z.string(), serialCode: z.string().min(1).max(40) });
export type CheckSerialRequest = z.input<typeof CheckSerialRequest>;
export const CheckSerialReply = z.object({ stockItemId: z.string().uuid(), serialCode: z.string(), warehouseBin: z.string().nullable() });
export type CheckSerialReply = z.infer<typeof CheckSerialReply>;

/**
 * What a customer can still order of a product at a variant / sub-variant (catalog, over NATS
 * request/reply; add to cart): the stock ledger's `available - reserved` at that level, the
 * number the product page shows and checkout's reservation checks; 0 for a level with no stock or
 * not of this product. Whether the product can be ordered at that level is the asker's check.
 */
export const StockAvailabilityRequest = LineRef.extend({
  /** A rental's period (issue 25): the units free for all of [startDate, + rental days + turnaround). Absent: today, one day. */
  startDate: z.string().refine(isIsoDate).nullish(),
  noOfRentalDays: z.number().int().min(1).nullish(),
});
export type StockAvailabilityRequest = z.input<typeof StockAvailabilityRequest>;
export const StockAvailabilityReply = z.object({ available: z.number().int() });
export type StockAvailabilityReply = z.infer<typeof StockAvailabilityReply>;

/**
 * More days for an order's bookings (catalog, over NATS request/reply; issue 25): extension
 * number `seq` of the order is `days` days. Every ACTIVE booking of the order keeps its unit and
 * moves its due date and end by the difference with what that extension was before (so asking
 * again converges, never adds twice), if each unit is free for the extra days, turnaround
 * included; else nothing changes and `maxDays` says how many days all of them could get.
 */
export const ExtendBookingsRequest = z.object({ orderId: z.string().uuid(), seq: z.number().int().min(1), days: z.number().int().min(1) });
export type ExtendBookingsRequest = z.input<typeof ExtendBookingsRequest>;
export const ExtendBookingsReply = z.object({ ok: z.boolean(), maxDays: z.number().int(), units: z.number().int() });
export type ExtendBookingsReply = z.infer<typeof ExtendBookingsReply>;

/**
 * An order's rental ended early (catalog, over NATS request/reply; issue 25): every ACTIVE rental
 * booking of the order due after `returnOn` is due that day, its turnaround after it, the rest of
 * its days freed. Absolute, so asking again changes nothing.
 */
export const EndBookingsEarlyRequest = z.object({ orderId: z.string().uuid(), returnOn: z.string() });
export type EndBookingsEarlyRequest = z.input<typeof EndBookingsEarlyRequest>;
export const EndBookingsEarlyReply = z.object({ units: z.number().int() });
export type EndBookingsEarlyReply = z.infer<typeof EndBookingsEarlyReply>;

export const RPC = {
  reserve: 'rpc.catalog.reserve',
  release: 'rpc.catalog.release',
  assignSerials: 'rpc.catalog.assign-serials',
  /** One scan while packing: is this code a unit of the line, AVAILABLE? (CheckSerialRequest). */
  checkSerial: 'rpc.catalog.check-serial',
  /** A returned serial code of an order: OK → AVAILABLE and IN, DAMAGED → DAMAGED, LOST → LOST (rentals.ts ReturnSerialRequest). */
  returnSerial: 'rpc.catalog.return-serial',
  /** What a customer can still order of one leaf, `available - reserved` of the stock ledger (StockAvailabilityRequest): add to cart. */
  availability: 'rpc.catalog.availability',
  /** More days for an order's bookings (ExtendBookingsRequest): issue 25's extensions. */
  extendBookings: 'rpc.catalog.extend-bookings',
  /** An order's bookings end early (EndBookingsEarlyRequest): issue 25's early end. */
  endBookingsEarly: 'rpc.catalog.end-bookings-early',
} as const;
