import { randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import {
  centsToString,
  compareDates,
  EVENTS,
  lineTotal,
  manilaDate,
  ORDER_MESSAGES,
  ORDER_PLACED_TITLE,
  ReserveLineReply,
  serialInventoryType,
  sumCents,
  toCents,
  type Order,
  type OrderLine,
  type OrderPayment,
  type OrderStatus,
  type OrderSummary,
  type OrderType,
  type OrderRequest,
  type PaymentType,
  type PlaceOrderInput,
  type ReturnStatus,
} from '@dme/contracts';
import {
  badRequest,
  callRpc,
  containsPattern,
  eventEnvelope,
  HttpProblem,
  notFound,
  previousAnswer,
  qrCodePng,
  qualified,
  requestHash,
  requireKey,
  settleFailure,
  sql,
  type NatsConnection,
  type Principal,
  type StoredAnswer,
} from '@dme/platform';
import { z } from 'zod';
import { allowedTransitions } from '../../process/can-perform';
import type { OrderFacts } from '../../process/facts';
import { dueDate } from '../../process/guards';
import type { CartLineRow, CheckoutStore } from './checkout.store';

export const SOURCE = 'order';

interface OrderRow {
  id: string;
  order_number: string;
  customer_id: string;
  type: OrderType;
  type_of_order: 'BULK' | null;
  status: OrderStatus;
  total_amount: string;
  partial_payment: string | null;
  delivery_address: string;
  delivery_city: string;
  delivery_state: string;
  delivery_zipcode: string;
  note: string;
  created_at: string;
  updated_at: string;
  /** First and last name from the customers read model (joined in). */
  customer_name?: string | null;
}

/** An order as its detail reads it: the row, and its parts as JSON built by the same statement. */
interface OrderDetailRow extends OrderRow {
  driver_id: string | null;
  delivered_at: string | Date | null;
  extra_charge: string | null;
  /** YYYY-MM-DD. */
  full_payment_due_text: string | null;
  lines: OrderLineRow[];
  tracker: Array<{ title: string; status: OrderStatus; created_at: string }>;
  serials: Array<{
    id: string;
    line_id: string;
    serial_code: string;
    return_status: ReturnStatus | null;
    returned_at: string | null;
    warehouse_bin: string | null;
    created_at: string;
  }>;
  requests: RequestRow[];
  customer: Record<string, string> | null;
  payment: PaymentRow | null;
  records: PaymentRecordRow[];
}

/** A fix or replace request of the order, with the names of the lines it is about. */
export interface RequestRow {
  id: string;
  order_id: string;
  type: OrderRequest['type'];
  status: OrderRequest['status'];
  user_note: string;
  created_at: string;
  updated_at: string;
  products: Array<{ line_id: string; product_name: string; variant_name: string | null; sub_variant_name: string | null }>;
}

/** A request as the API shows it. */
export function requestOf(r: RequestRow): OrderRequest {
  return {
    id: r.id,
    orderID: r.order_id,
    type: r.type,
    status: r.status,
    userNote: r.user_note,
    products: r.products.map((p) => ({ lineID: p.line_id, productName: p.product_name, variantName: p.variant_name, subVariantName: p.sub_variant_name })),
    createdAt: new Date(r.created_at).toISOString(),
    updatedAt: new Date(r.updated_at).toISOString(),
  };
}

/** The SQL (a json array per order `o`) of an order's requests with their lines' names, oldest first. */
export function requestsJson(em: EntityManager, where = 'q.order_id = o.id'): string {
  return `coalesce((select json_agg(json_build_object('id', q.id, 'order_id', q.order_id, 'type', q.type, 'status', q.status,
              'user_note', q.user_note, 'created_at', q.created_at, 'updated_at', q.updated_at,
              'products', (select coalesce(json_agg(json_build_object('line_id', l.id, 'product_name', l.product_name,
                             'variant_name', l.variant_name, 'sub_variant_name', l.sub_variant_name) order by l.position), '[]'::json)
                             from ${qualified(em, 'order_lines')} l where l.id = any(q.line_ids)))
            order by q.created_at, q.id) from ${qualified(em, 'order_requests')} q where ${where}), '[]'::json)`;
}

/**
 * A rental's due notice (SPEC §8) while it is out with the customer (DELIVERED or FOR_RETURN):
 * OVERDUE when some line's due date has passed ('Has to due products'), DUE_TODAY when one is
 * due today ('Some products are due for return today.'), on the Manila calendar.
 */
export function dueNoticeOf(status: OrderStatus, dueDates: Array<string | null>, today: string): Order['dueNotice'] {
  if (status !== 'DELIVERED' && status !== 'FOR_RETURN') return null;
  const due = dueDates.filter((d): d is string => d !== null);
  if (due.some((d) => compareDates(d, today) < 0)) return 'OVERDUE';
  if (due.some((d) => d === today)) return 'DUE_TODAY';
  return null;
}

/** The payment read model of an order (from `dme.payment.confirmed`), numeric columns as text. */
interface PaymentRow {
  status: string;
  /** REFUND_DUE: what is owed back (from `dme.payment.refund_due`). */
  refund_due: string | null;
  total_partial_payment: string | null;
  extra_charge: string | null;
  overall_total: string | null;
  balance: string | null;
  due_date: string | null;
}

interface PaymentRecordRow {
  /** The payment service's record id (null for records whose event did not carry it). */
  payment_record_id: string | null;
  type: PaymentType;
  invoice_number: string;
  receipt_number: string;
  amount: string;
  note: string;
  created_at: string;
}

const money = (v: string | number) => centsToString(toCents(String(v)));
const moneyOrNull = (v: string | number | null) => (v === null ? null : money(v));

/** A row of ordering.order_lines (numeric columns arrive as strings). */
interface OrderLineRow {
  id: string;
  product_id: string;
  product_name: string;
  product_image: string;
  variant_id: string | null;
  variant_name: string | null;
  variant_price: string | null;
  sub_variant_id: string | null;
  sub_variant_name: string | null;
  sub_variant_price: string;
  quantity: number;
  no_of_rental_days: number | null;
  unit_price: string;
  damage_charges: string;
  line_total: string;
}

function summary(r: OrderRow): OrderSummary {
  return {
    id: r.id,
    orderNumber: r.order_number,
    createdAt: new Date(r.created_at).toISOString(),
    status: r.status,
    type: r.type,
    typeOfOrder: r.type_of_order,
    totalAmount: money(r.total_amount),
    customerID: r.customer_id,
    customerName: r.customer_name ?? '',
  };
}

/** Order statuses in which nothing has been paid yet (SPEC §4: the payment shows UNPAID). */
const UNPAID_STATUSES: readonly OrderStatus[] = ['PENDING', 'FOR_PAYMENT', 'CANCELLED'];

/**
 * Payment information as the order shows it (SPEC §4). While the order is PENDING or FOR_PAYMENT
 * (or was cancelled then) it is UNPAID with the order total and the rental's partial payment.
 * Afterwards it is the payment's own status and records, from the payment read model. A rental
 * in FOR_FULL_PAYMENT shows what the order asked for at its return (extra charge, due date) with
 * the overall total (total + extra) and the balance (total − partial + extra); once PAID, the
 * payment's own figures. A payment taken for an order cancelled meanwhile (issue 22) shows its
 * own status and records, then REFUND_DUE with the amount owed back once the payment service
 * says so; it is never shown as UNPAID.
 */
function paymentOf(o: OrderDetailRow): OrderPayment {
  const total = money(o.total_amount);
  const partialRecord = o.records.find((r) => r.type === 'PARTIAL');
  const partial = partialRecord ? money(partialRecord.amount) : moneyOrNull(o.payment?.total_partial_payment ?? o.partial_payment);
  const records = o.records.map((r) => ({
    ...(r.payment_record_id ? { id: r.payment_record_id } : {}),
    type: r.type,
    invoiceNumber: r.invoice_number,
    receiptNumber: r.receipt_number,
    amount: money(r.amount),
    note: r.note,
    createdAt: new Date(r.created_at).toISOString(),
  }));
  const base = { totalOrderPayment: total, totalPartialPayment: partial, extraCharge: null, overallTotal: null, balance: null, dueDate: null, records };
  if (o.payment?.status === 'REFUND_DUE') return { ...base, status: 'REFUND_DUE', refundDue: money(o.payment.refund_due ?? '0') };
  if (o.status === 'CANCELLED' && o.payment) return { ...base, status: o.payment.status };
  if (UNPAID_STATUSES.includes(o.status)) return { ...base, status: 'UNPAID' };
  if (o.status === 'FOR_FULL_PAYMENT') {
    const extra = toCents(o.extra_charge ?? '0');
    const totalCents = toCents(total);
    return {
      ...base,
      status: 'FOR_FULL_PAYMENT',
      extraCharge: centsToString(extra),
      overallTotal: centsToString(totalCents + extra),
      balance: centsToString(totalCents - toCents(partial ?? '0') + extra),
      dueDate: o.full_payment_due_text,
    };
  }
  // Past the first payment: the payment as the read model has it (the event that moved the order
  // wrote it in the same transaction; without it nothing was recorded as paid).
  const status = o.payment?.status ?? 'UNPAID';
  if (!o.payment || (status !== 'FOR_FULL_PAYMENT' && status !== 'PAID')) return { ...base, status };
  return {
    ...base,
    status,
    extraCharge: moneyOrNull(o.payment.extra_charge),
    overallTotal: moneyOrNull(o.payment.overall_total),
    balance: moneyOrNull(o.payment.balance),
    dueDate: o.payment.due_date,
  };
}

/** The process's view of an order as its detail was read (the allowed actions are decided on it). */
function factsOf(o: OrderDetailRow): OrderFacts {
  return {
    id: o.id,
    orderNumber: o.order_number,
    customerId: o.customer_id,
    type: o.type,
    status: o.status,
    driverId: o.driver_id,
    deliveredAt: o.delivered_at === null ? null : new Date(o.delivered_at),
    lines: o.lines.map((l) => ({
      id: l.id,
      productId: l.product_id,
      variantId: l.variant_id,
      subVariantId: l.sub_variant_id,
      productName: l.product_name,
      variantName: l.variant_name,
      subVariantName: l.sub_variant_name,
      quantity: l.quantity,
      noOfRentalDays: l.no_of_rental_days,
      damageCharges: money(l.damage_charges),
    })),
    serials: o.serials.map((s) => ({ lineId: s.line_id, serialCode: s.serial_code, returnStatus: s.return_status })),
  };
}

/**
 * One order with everything its detail shows (lines with their serial codes, tracker, customer,
 * payment and records), read in one statement. Another customer's order answers exactly like one
 * that does not exist.
 */
export async function loadOrder(em: EntityManager, id: string, scope: { customerId?: string }): Promise<{ order: Omit<Order, 'allowedTransitions'>; facts: OrderFacts }> {
  const t = (name: string) => qualified(em, name);
  const [row] = await em.execute<OrderDetailRow[]>(
    `select o.*, o.full_payment_due::text as full_payment_due_text,
            (select trim(c.first_name || ' ' || c.last_name) from ${t('customers')} c where c.id = o.customer_id) as customer_name,
            coalesce((select json_agg(json_build_object('id', l.id, 'product_id', l.product_id, 'product_name', l.product_name,
                       'product_image', l.product_image, 'variant_id', l.variant_id, 'variant_name', l.variant_name,
                       'variant_price', l.variant_price::text, 'sub_variant_id', l.sub_variant_id, 'sub_variant_name', l.sub_variant_name,
                       'sub_variant_price', l.sub_variant_price::text, 'quantity', l.quantity, 'no_of_rental_days', l.no_of_rental_days,
                       'unit_price', l.unit_price::text, 'damage_charges', l.damage_charges::text, 'line_total', l.line_total::text)
                       order by l.position) from ${t('order_lines')} l where l.order_id = o.id), '[]'::json) as lines,
            coalesce((select json_agg(json_build_object('title', k.title, 'status', k.status, 'created_at', k.created_at) order by k.created_at, k.id)
                        from ${t('order_tracker')} k where k.order_id = o.id), '[]'::json) as tracker,
            coalesce((select json_agg(json_build_object('id', s.id, 'line_id', s.line_id, 'serial_code', s.serial_code, 'return_status', s.return_status,
                       'returned_at', s.returned_at, 'warehouse_bin', s.warehouse_bin, 'created_at', s.created_at) order by s.line_id, s.position)
                        from ${t('order_line_serials')} s where s.order_id = o.id), '[]'::json) as serials,
            ${requestsJson(em)} as requests,
            (select row_to_json(c) from ${t('customers')} c where c.id = o.customer_id) as customer,
            (select json_build_object('status', p.status, 'refund_due', p.refund_due::text, 'total_partial_payment', p.total_partial_payment::text,
                       'extra_charge', p.extra_charge::text, 'overall_total', p.overall_total::text, 'balance', p.balance::text,
                       'due_date', p.due_date::text) from ${t('order_payments')} p where p.order_id = o.id) as payment,
            coalesce((select json_agg(json_build_object('payment_record_id', r.payment_record_id, 'type', r.type, 'invoice_number', r.invoice_number, 'receipt_number', r.receipt_number,
                       'amount', r.amount::text, 'note', r.note, 'created_at', r.created_at) order by r.created_at, r.id)
                        from ${t('order_payment_records')} r where r.order_id = o.id), '[]'::json) as records
       from ${t('orders')} o where o.id = ?${scope.customerId ? ' and o.customer_id = ?' : ''}`,
    scope.customerId ? [id, scope.customerId] : [id],
  );
  if (!row) throw notFound('Order not found.');
  // Serial code entries (SPEC §3): the line's product; the return time is updatedAt (and returnedAt,
  // kept for older clients); where the unit is follows its return mark (RETURN_INVENTORY_TYPE).
  const productOf = new Map(row.lines.map((l) => [l.id, l.product_id]));
  const serials = new Map<string, OrderLine['serialCodes']>();
  for (const s of row.serials) {
    const list = serials.get(s.line_id) ?? [];
    const returnedAt = s.returned_at === null ? null : new Date(s.returned_at).toISOString();
    list.push({
      id: s.id,
      serialCode: s.serial_code,
      productID: productOf.get(s.line_id)!,
      status: s.return_status,
      updatedAt: returnedAt,
      returnedAt,
      inventoryType: serialInventoryType(s.return_status),
      warehouseBin: s.warehouse_bin === null ? null : { name: s.warehouse_bin },
      createdAt: new Date(s.created_at).toISOString(),
    });
    serials.set(s.line_id, list);
  }
  const deliveredAt = row.delivered_at === null ? null : new Date(row.delivered_at);
  const dueOf = (l: OrderLineRow) => (deliveredAt && l.no_of_rental_days !== null ? dueDate(deliveredAt, l.no_of_rental_days) : null);
  const order: Omit<Order, 'allowedTransitions'> = {
    ...summary(row),
    deliveryAddress: row.delivery_address,
    deliveryCity: row.delivery_city,
    deliveryState: row.delivery_state,
    deliveryZipcode: row.delivery_zipcode,
    note: row.note,
    partialPayment: moneyOrNull(row.partial_payment),
    payment: paymentOf(row),
    orderTracker: row.tracker.map((t) => ({ title: t.title, status: t.status, createdAt: new Date(t.created_at).toISOString() })),
    products: row.lines.map((l) => ({
      id: l.id,
      productID: l.product_id,
      productName: l.product_name,
      productImage: l.product_image,
      productVariantID: l.variant_id,
      productSubVariantID: l.sub_variant_id,
      variant: l.variant_name ? { name: l.variant_name, price: moneyOrNull(l.variant_price) } : null,
      subVariant: l.sub_variant_name ? { name: l.sub_variant_name, price: money(l.sub_variant_price) } : null,
      quantity: l.quantity,
      noOfRentalDays: l.no_of_rental_days,
      productAmount: money(l.unit_price),
      productDamageCharges: money(l.damage_charges),
      lineTotal: money(l.line_total),
      serialCodes: serials.get(l.id) ?? [],
      dueDate: dueOf(l),
    })),
    customer: customerOf(row.customer),
    deliveredAt: deliveredAt ? deliveredAt.toISOString() : null,
    driverID: row.driver_id,
    requests: row.requests.map(requestOf),
    dueNotice: dueNoticeOf(row.status, row.lines.map(dueOf), manilaDate(new Date())),
  };
  return { order, facts: factsOf(row) };
}

/** One order as this caller sees it, with the steps the caller can take now (the process decides). */
export async function getOrder(em: EntityManager, id: string, who: Principal, scope: { customerId?: string }): Promise<Order> {
  const { order, facts } = await loadOrder(em, id, scope);
  return { ...order, allowedTransitions: allowedTransitions(facts, { kind: 'person', principal: who }) };
}

export async function listMyOrders(
  em: EntityManager,
  customerId: string,
  f: { type?: OrderType; status?: OrderStatus; limit: number; offset: number },
): Promise<{ items: OrderSummary[]; total: number }> {
  return listOrders(em, { ...f, customerId });
}

/**
 * Orders newest first, by type and status, searched by order number or customer name (first,
 * last or "first last", from the customers read model), paged with the total; a customer's own
 * (customerId) or everyone's (staff).
 */
export async function listOrders(
  em: EntityManager,
  f: { customerId?: string; driverId?: string; type?: OrderType; status?: OrderStatus; search?: string | undefined; limit: number; offset: number },
): Promise<{ items: OrderSummary[]; total: number }> {
  const conds: string[] = [];
  const params: unknown[] = [];
  const eq = (col: string, v: string | undefined) => {
    if (v === undefined) return;
    conds.push(`${col} = ?`);
    params.push(v);
  };
  eq('o.customer_id', f.customerId);
  eq('o.driver_id', f.driverId);
  eq('o.type', f.type);
  eq('o.status', f.status);
  const search = f.search?.trim();
  if (search) {
    const like = containsPattern(search);
    conds.push(`(o.order_number ilike ? or (c.first_name || ' ' || c.last_name) ilike ? or (c.first_name || ' ' || c.middle_name || ' ' || c.last_name) ilike ?)`);
    params.push(like, like, like);
  }
  const where = conds.length ? `where ${conds.join(' and ')}` : '';
  const from = `${qualified(em, 'orders')} o left join ${qualified(em, 'customers')} c on c.id = o.customer_id`;
  const rows = await em.execute<Array<OrderRow & { total: number }>>(
    `select o.id, o.order_number, o.customer_id, o.type, o.type_of_order, o.status, o.total_amount, o.created_at,
            trim(c.first_name || ' ' || c.last_name) as customer_name, count(*) over ()::int as total
       from ${from} ${where}
      order by o.created_at desc, o.id limit ? offset ?`,
    [...params, f.limit, f.offset],
  );
  let total = rows[0]?.total ?? 0;
  if (rows.length === 0 && f.offset > 0) {
    const [c] = await em.execute<Array<{ n: number }>>(`select count(*)::int as n from ${from} ${where}`, params);
    total = c?.n ?? 0;
  }
  return { items: rows.map(summary), total };
}

/** The order's QR payload (SPEC §3): its id and number. */
export function orderQrPayload(order: { id: string; order_number: string }): string {
  return JSON.stringify({ orderID: order.id, orderNumber: order.order_number });
}

/** An order's QR code as a PNG (a customer's own orders only; another's answers 404). */
export async function orderQrPng(em: EntityManager, id: string, scope: { customerId?: string }): Promise<Buffer> {
  const [row] = await em.execute<Array<{ id: string; order_number: string }>>(
    `select id, order_number from ${qualified(em, 'orders')} where id = ?${scope.customerId ? ' and customer_id = ?' : ''}`,
    scope.customerId ? [id, scope.customerId] : [id],
  );
  if (!row) throw notFound('Order not found.');
  return qrCodePng(orderQrPayload(row));
}

// ---------------------------------------------------------------- placing an order

type Stored = StoredAnswer;

interface Line {
  ref: number;
  productID: string;
  productVariantID: string | null;
  productSubVariantID: string | null;
  quantity: number;
  noOfRentalDays: number | null;
}


/** The order's lines: the bulk lines as sent, or the customer's cart lines of that type. */
function linesOf(body: PlaceOrderInput, cart: CartLineRow[] | null): { lines: Line[]; cartIds: string[] } {
  if (body.typeOfOrder === 'BULK') {
    return {
      cartIds: [],
      lines: (body.lines ?? []).map((l, ref) => ({
        ref,
        productID: l.productID,
        productVariantID: l.productVariantID,
        productSubVariantID: l.productSubVariantID,
        quantity: l.quantity,
        noOfRentalDays: body.type === 'RENT' ? (l.noOfRentalDays ?? 1) : null,
      })),
    };
  }
  const rows = cart ?? [];
  if (rows.length === 0) throw badRequest(ORDER_MESSAGES.emptyOrder, [{ field: 'cartItemIDs', message: ORDER_MESSAGES.emptyOrder }]);
  if (body.cartItemIDs && rows.length !== new Set(body.cartItemIDs).size) throw notFound('Cart item not found.');
  return {
    cartIds: rows.map((r) => r.id),
    lines: rows.map((r, ref) => ({
      ref,
      productID: r.product_id,
      productVariantID: r.variant_id,
      productSubVariantID: r.sub_variant_id,
      quantity: r.quantity,
      noOfRentalDays: body.type === 'RENT' ? (r.no_of_rental_days ?? 1) : null,
    })),
  };
}

/** The customer as the order shows them, from the order service's read model. */
function customerOf(row: Record<string, string> | null): Order['customer'] {
  return row
    ? {
        idNumber: row.id_number!,
        firstName: row.first_name!,
        middleName: row.middle_name!,
        lastName: row.last_name!,
        suffix: row.suffix!,
        email: row.email!,
        contactNumber: row.contact_number!,
      }
    : null;
}

/** The catalog's answer to a reservation (built once: zod compiles a schema on its first use). */
const ReserveReply = z.object({ lines: z.array(ReserveLineReply) });

/** Idempotency-Key texts of checkout. */
const ORDER_IDEMPOTENCY = {
  missing: ORDER_MESSAGES.idempotencyMissing,
  mismatch: ORDER_MESSAGES.idempotencyMismatch,
  inProgress: ORDER_MESSAGES.idempotencyInProgress,
};

export interface Rpc {
  nc: NatsConnection;
  subjects: { reserve: string };
}

/**
 * Places an order. The same Idempotency-Key and body give the same answer and one order; the
 * same key with another body is 422. Stock is reserved in the catalog, all lines or none, and
 * the price snapshot comes back with it; every total is computed here.
 *
 * Three round trips for an order: (1) claim the key and read the cart and the customer in one
 * statement; (2) the reservation (NATS request/reply to the catalog); (3) one statement that
 * writes the order, its lines and tracker entry, empties the cart lines, records the
 * `dme.order.placed` event and stores the idempotent answer (data-modifying CTEs: all or
 * nothing). Both statements are taken in batches with the checkouts waiting at the same time
 * (checkout.store.ts): under load one statement and one commit serve many orders. The answer is
 * built from what was written, not read back. Stock reserved for an order
 * that is then not written is released through the outbox (`dme.order.checkout_abandoned`),
 * retried until the catalog has it.
 */
export async function placeOrder(
  em: EntityManager,
  store: CheckoutStore,
  rpc: Rpc,
  who: Principal,
  key: string | undefined,
  body: PlaceOrderInput,
): Promise<Stored> {
  const idemKey = requireKey(key, ORDER_IDEMPOTENCY);
  const hash = requestHash(body);
  const fromCart = body.typeOfOrder !== 'BULK';
  const first = await store.claim({ customerId: who.userId, key: idemKey, hash, cart: fromCart ? { type: body.type, ids: body.cartItemIDs ?? null } : null });
  const token = first.token;
  if (!token) return previousAnswer(em, { owner: who.userId, key: idemKey, hash }, ORDER_IDEMPOTENCY);

  const orderId = randomUUID();
  // 'asked': the reserve request went out; 'held': the catalog answered that the stock is held.
  let reservation: 'none' | 'asked' | 'held' = 'none';
  try {
    const { lines, cartIds } = linesOf(body, first.cart);
    reservation = 'asked';
    const reply = ReserveReply.parse(await callRpc(rpc.nc, rpc.subjects.reserve, { orderId, orderType: body.type, lines }));
    reservation = 'held';
    const byRef = new Map(reply.lines.map((l) => [l.ref, l]));
    const priced = lines.map((l) => {
      const r = byRef.get(l.ref)!;
      const total = lineTotal(toCents(r.unitPrice), l.quantity, l.noOfRentalDays ?? 1);
      return { ...l, r, id: randomUUID(), total, firstDay: lineTotal(toCents(r.unitPrice), l.quantity, 1) };
    });
    const totalAmount = centsToString(sumCents(priced.map((p) => p.total)));
    const partial = body.type === 'RENT' ? centsToString(sumCents(priced.map((p) => p.firstDay))) : null;
    const now = new Date();
    const createdAt = now.toISOString();

    // The answer, as GET /api/my/orders/:id will show it; only the order number comes from the write.
    const order: Order = {
      id: orderId,
      orderNumber: '',
      createdAt,
      status: 'PENDING',
      type: body.type,
      typeOfOrder: body.typeOfOrder ?? null,
      totalAmount,
      customerID: who.userId,
      customerName: first.customer ? `${first.customer.first_name} ${first.customer.last_name}`.trim() : '',
      deliveryAddress: body.deliveryAddress,
      deliveryCity: body.deliveryCity,
      deliveryState: body.deliveryState,
      deliveryZipcode: body.deliveryZipcode,
      note: body.note,
      partialPayment: partial,
      payment: { status: 'UNPAID', totalOrderPayment: totalAmount, totalPartialPayment: partial, extraCharge: null, overallTotal: null, balance: null, dueDate: null, records: [] },
      orderTracker: [{ title: ORDER_PLACED_TITLE, status: 'PENDING', createdAt }],
      products: priced.map((p) => ({
        id: p.id,
        productID: p.productID,
        productName: p.r.productName,
        productImage: p.r.productImage,
        productVariantID: p.productVariantID,
        productSubVariantID: p.productSubVariantID,
        variant: p.r.variantName ? { name: p.r.variantName, price: p.r.variantPrice } : null,
        subVariant: p.r.subVariantName && p.r.subVariantPrice !== null ? { name: p.r.subVariantName, price: p.r.subVariantPrice } : null,
        quantity: p.quantity,
        noOfRentalDays: p.noOfRentalDays,
        productAmount: p.r.unitPrice,
        productDamageCharges: p.r.damageCharges,
        lineTotal: centsToString(p.total),
        serialCodes: [],
        dueDate: null,
      })),
      customer: customerOf(first.customer),
      deliveredAt: null,
      driverID: null,
      requests: [],
      dueNotice: null,
      allowedTransitions: allowedTransitions(
        { id: orderId, orderNumber: '', customerId: who.userId, type: body.type, status: 'PENDING', driverId: null, deliveredAt: null, lines: [], serials: [] },
        { kind: 'person', principal: who },
        now,
      ),
    };
    const event = eventEnvelope(SOURCE, {
      type: EVENTS.order.placed,
      aggregateId: orderId,
      data: {
        orderId,
        orderNumber: '',
        customerId: who.userId,
        type: body.type,
        typeOfOrder: body.typeOfOrder ?? null,
        totalAmount,
        partialPayment: partial,
        customer: order.customer ? { name: order.customerName, email: order.customer.email, contactNumber: order.customer.contactNumber } : null,
        delivery: { address: body.deliveryAddress, city: body.deliveryCity, state: body.deliveryState, zipcode: body.deliveryZipcode },
        createdAt,
        lines: priced.map((p) => ({
          productId: p.productID,
          variantId: p.productVariantID,
          subVariantId: p.productSubVariantID,
          productName: p.r.productName,
          variantName: p.r.variantName,
          subVariantName: p.r.subVariantName,
          quantity: p.quantity,
          noOfRentalDays: p.noOfRentalDays,
          unitPrice: p.r.unitPrice,
          lineTotal: centsToString(p.total),
        })),
      },
    });
    const lineRows = priced.map((p) => ({
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
      unit_price: p.r.unitPrice,
      damage_charges: p.r.damageCharges,
      line_total: centsToString(p.total),
    }));
    order.orderNumber = await store.write({
      id: orderId,
      day: manilaDate(now).replace(/-/g, ''),
      customerId: who.userId,
      type: body.type,
      typeOfOrder: body.typeOfOrder ?? null,
      totalAmount,
      partialPayment: partial,
      deliveryAddress: body.deliveryAddress,
      deliveryCity: body.deliveryCity,
      deliveryState: body.deliveryState,
      deliveryZipcode: body.deliveryZipcode,
      note: body.note,
      createdAt: now,
      lines: lineRows,
      trackerId: randomUUID(),
      trackerTitle: ORDER_PLACED_TITLE,
      cartIds,
      event: { id: event.id, type: event.type, payload: event },
      answer: { order },
      key: idemKey,
      token,
    });
    return { status: 201, body: { order } };
  } catch (err) {
    // Held stock is given back; so is stock the catalog may have held without its answer reaching
    // us (a timeout). A definite refusal of the reservation held nothing.
    const refused = reservation === 'asked' && err instanceof HttpProblem && err.status < 500;
    if (reservation === 'held' || (reservation === 'asked' && !refused)) await abandonCheckout(em, orderId);
    // A definite answer (4xx) is stored for the same key and body; otherwise the key is freed.
    await settleFailure(em, who.userId, idemKey, token, err, '/api/orders');
    throw err;
  }
}

/**
 * Stock was reserved for an order that was not written: the catalog releases it when it sees
 * `dme.order.checkout_abandoned`, which the outbox relay publishes (and retries) like any event.
 * If even this row cannot be written (the database is gone), the reservation lapses after its
 * hold time in the catalog.
 */
async function abandonCheckout(em: EntityManager, orderId: string): Promise<void> {
  const event = eventEnvelope(SOURCE, { type: EVENTS.order.checkoutAbandoned, aggregateId: orderId, data: { orderId } });
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      await sql(em, `insert into ${qualified(em, 'outbox')} (id, subject, payload) values ($1, $2, $3::jsonb)`, [event.id, event.type, JSON.stringify(event)]);
      return;
    } catch {
      await new Promise((r) => setTimeout(r, 100 * (attempt + 1)));
    }
  }
}
