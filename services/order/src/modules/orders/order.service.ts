import { createHash, randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import {
  centsToString,
  EVENTS,
  hasPermission,
  lineTotal,
  manilaDate,
  ORDER_MESSAGES,
  ORDER_PLACED_TITLE,
  ReserveLineReply,
  sumCents,
  toCents,
  transitionsFrom,
  type Order,
  type OrderStatus,
  type OrderSummary,
  type OrderType,
  type PlaceOrderInput,
} from '@dme/contracts';
import { badRequest, callRpc, conflict, eventEnvelope, HttpProblem, notFound, qualified, unprocessable, type NatsConnection, type Principal } from '@dme/platform';
import { z } from 'zod';

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
}

const money = (v: string | number) => centsToString(toCents(String(v)));

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
  };
}

/** The transitions this caller may start now (owner cancels; staff by permission). */
export function allowedFor(order: { type: OrderType; status: OrderStatus; customer_id: string }, who: Principal): OrderStatus[] {
  return transitionsFrom(order.type, order.status)
    .filter((t) =>
      t.who.kind === 'owner-or-staff'
        ? who.userId === order.customer_id || hasPermission(who.userType, 'order:process')
        : t.who.kind === 'permission' && hasPermission(who.userType, t.who.permission),
    )
    .map((t) => t.to);
}

export async function loadOrder(em: EntityManager, id: string, scope: { customerId?: string }): Promise<Order & { _row: OrderRow }> {
  const params: unknown[] = [id];
  let where = 'id = ?';
  if (scope.customerId) {
    where += ' and customer_id = ?';
    params.push(scope.customerId);
  }
  const [row] = await em.execute<OrderRow[]>(`select * from ${qualified(em, 'orders')} where ${where}`, params);
  // Another customer's order answers exactly like one that does not exist.
  if (!row) throw notFound('Order not found.');
  const lines = await em.execute<OrderLineRow[]>(`select * from ${qualified(em, 'order_lines')} where order_id = ? order by position`, [id]);
  const tracker = await em.execute<Array<{ title: string; status: OrderStatus; created_at: string }>>(
    `select title, status, created_at from ${qualified(em, 'order_tracker')} where order_id = ? order by created_at, id`,
    [id],
  );
  const [customer] = await em.execute<Array<Record<string, string>>>(`select * from ${qualified(em, 'customers')} where id = ?`, [row.customer_id]);
  const unpaid = row.status === 'PENDING' || row.status === 'FOR_PAYMENT' || row.status === 'CANCELLED';
  return {
    ...summary(row),
    deliveryAddress: row.delivery_address,
    deliveryCity: row.delivery_city,
    deliveryState: row.delivery_state,
    deliveryZipcode: row.delivery_zipcode,
    note: row.note,
    partialPayment: row.partial_payment === null ? null : money(row.partial_payment),
    // Payments arrive with the payment service; until the first payment an order is UNPAID (SPEC §4).
    payment: {
      status: unpaid ? 'UNPAID' : 'PAID',
      totalOrderPayment: money(row.total_amount),
      totalPartialPayment: row.partial_payment === null ? null : money(row.partial_payment),
    },
    orderTracker: tracker.map((t) => ({ title: t.title, status: t.status, createdAt: new Date(t.created_at).toISOString() })),
    products: lines.map((l) => ({
      id: l.id,
      productID: l.product_id,
      productName: l.product_name,
      productImage: l.product_image,
      productVariantID: l.variant_id,
      productSubVariantID: l.sub_variant_id,
      variant: l.variant_name ? { name: l.variant_name, price: l.variant_price === null ? null : money(l.variant_price) } : null,
      subVariant: l.sub_variant_name ? { name: l.sub_variant_name, price: money(l.sub_variant_price) } : null,
      quantity: l.quantity,
      noOfRentalDays: l.no_of_rental_days,
      productAmount: money(l.unit_price),
      productDamageCharges: money(l.damage_charges),
      lineTotal: money(l.line_total),
      serialCodes: [],
    })),
    customer: customerOf(customer ?? null),
    allowedTransitions: [],
    _row: row,
  };
}

export async function getOrder(em: EntityManager, id: string, who: Principal, scope: { customerId?: string }): Promise<Order> {
  const { _row, ...order } = await loadOrder(em, id, scope);
  return { ...order, allowedTransitions: allowedFor(_row, who) };
}

export async function listMyOrders(
  em: EntityManager,
  customerId: string,
  f: { type?: OrderType; status?: OrderStatus; limit: number; offset: number },
): Promise<{ items: OrderSummary[]; total: number }> {
  const conds = ['customer_id = ?'];
  const params: unknown[] = [customerId];
  if (f.type) {
    conds.push('type = ?');
    params.push(f.type);
  }
  if (f.status) {
    conds.push('status = ?');
    params.push(f.status);
  }
  const rows = await em.execute<Array<OrderRow & { total: number }>>(
    `select *, count(*) over ()::int as total from ${qualified(em, 'orders')} where ${conds.join(' and ')} order by created_at desc, id limit ? offset ?`,
    [...params, f.limit, f.offset],
  );
  return { items: rows.map(summary), total: rows[0]?.total ?? 0 };
}

// ---------------------------------------------------------------- placing an order

type Stored = { status: number; body: unknown };

/** JSON with keys sorted at every level, so the same body always hashes the same. */
function stableStringify(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(stableStringify).join(',')}]`;
  if (v && typeof v === 'object') {
    return `{${Object.keys(v as object)
      .sort()
      .filter((k) => (v as Record<string, unknown>)[k] !== undefined)
      .map((k) => `${JSON.stringify(k)}:${stableStringify((v as Record<string, unknown>)[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(v);
}

function requestHash(body: PlaceOrderInput): string {
  return createHash('sha256').update(stableStringify(body)).digest('hex');
}

interface Line {
  ref: number;
  productID: string;
  productVariantID: string | null;
  productSubVariantID: string | null;
  quantity: number;
  noOfRentalDays: number | null;
}

interface CartLineRow {
  id: string;
  product_id: string;
  variant_id: string | null;
  sub_variant_id: string | null;
  quantity: number;
  no_of_rental_days: number | null;
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

/**
 * Places an order. The same Idempotency-Key and body give the same answer and one order; the
 * same key with another body is 422. Stock is reserved in the catalog, all lines or none, and
 * the price snapshot comes back with it; every total is computed here.
 *
 * Three round trips for an order: (1) claim the key and read the cart and the customer in one
 * statement; (2) the reservation (NATS request/reply to the catalog); (3) one statement that
 * writes the order, its lines and tracker entry, empties the cart lines, records the
 * `dme.order.placed` event and stores the idempotent answer (data-modifying CTEs: all or
 * nothing). The answer is built from what was written, not read back. Stock reserved for an order
 * that is then not written is released through the outbox (`dme.order.checkout_abandoned`),
 * retried until the catalog has it.
 */
export interface Rpc {
  nc: NatsConnection;
  subjects: { reserve: string };
}

export async function placeOrder(
  em: EntityManager,
  rpc: Rpc,
  who: Principal,
  key: string | undefined,
  body: PlaceOrderInput,
): Promise<Stored> {
  if (!key || key.length > 200) throw badRequest(ORDER_MESSAGES.idempotencyMissing);
  const idem = qualified(em, 'idempotency_keys');
  const hash = requestHash(body);
  const fromCart = body.typeOfOrder !== 'BULK';
  const cartParams: unknown[] = fromCart ? [who.userId, body.type, ...(body.cartItemIDs ? [`{${body.cartItemIDs.join(',')}}`] : [])] : [];
  const [first] = await em.execute<Array<{ claimed: number; customer: Record<string, string> | null; cart: CartLineRow[] | null }>>(
    `with claim as (
       insert into ${idem} (customer_id, key, request_hash, state) values (?, ?, ?, 'IN_PROGRESS') on conflict do nothing returning 1
     )
     select (select count(*) from claim)::int as claimed,
            (select row_to_json(c) from ${qualified(em, 'customers')} c where c.id = ?) as customer,
            ${fromCart
              ? `(select coalesce(json_agg(json_build_object('id', ci.id, 'product_id', ci.product_id, 'variant_id', ci.variant_id,
                   'sub_variant_id', ci.sub_variant_id, 'quantity', ci.quantity, 'no_of_rental_days', ci.no_of_rental_days)
                   order by ci.created_at, ci.id), '[]'::json)
                   from ${qualified(em, 'cart_items')} ci where ci.customer_id = ? and ci.type = ?${body.cartItemIDs ? ' and ci.id = any(?::uuid[])' : ''})`
              : 'null'} as cart`,
    [who.userId, key, hash, who.userId, ...cartParams],
  );
  if (!first || first.claimed === 0) {
    const [prev] = await em.execute<Array<{ request_hash: string; state: string; response_status: number; response_body: unknown }>>(
      `select request_hash, state, response_status, response_body from ${idem} where customer_id = ? and key = ?`,
      [who.userId, key],
    );
    if (!prev) throw conflict(ORDER_MESSAGES.idempotencyInProgress);
    if (prev.request_hash !== hash) throw unprocessable(ORDER_MESSAGES.idempotencyMismatch);
    if (prev.state !== 'DONE') throw conflict(ORDER_MESSAGES.idempotencyInProgress);
    return { status: prev.response_status, body: prev.response_body };
  }

  const orderId = randomUUID();
  // 'asked': the reserve request went out; 'held': the catalog answered that the stock is held.
  let reservation: 'none' | 'asked' | 'held' = 'none';
  try {
    const { lines, cartIds } = linesOf(body, first.cart);
    reservation = 'asked';
    const reply = z
      .object({ lines: z.array(ReserveLineReply) })
      .parse(await callRpc(rpc.nc, rpc.subjects.reserve, { orderId, orderType: body.type, lines }));
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
      deliveryAddress: body.deliveryAddress,
      deliveryCity: body.deliveryCity,
      deliveryState: body.deliveryState,
      deliveryZipcode: body.deliveryZipcode,
      note: body.note,
      partialPayment: partial,
      payment: { status: 'UNPAID', totalOrderPayment: totalAmount, totalPartialPayment: partial },
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
      })),
      customer: customerOf(first.customer),
      allowedTransitions: allowedFor({ type: body.type, status: 'PENDING', customer_id: who.userId }, who),
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
        lines: priced.map((p) => ({
          productId: p.productID,
          variantId: p.productVariantID,
          subVariantId: p.productSubVariantID,
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
    const number = `'ORD-' || ? || '-' || lpad(nextval('${qualified(em, 'order_number_seq')}')::text, 6, '0')`;
    const [written] = await em.execute<Array<{ order_number: string }>>(
      `with o as (
         insert into ${qualified(em, 'orders')} (id, order_number, customer_id, type, type_of_order, status, total_amount, partial_payment,
           delivery_address, delivery_city, delivery_state, delivery_zipcode, note, created_at, updated_at)
         values (?, ${number}, ?, ?, ?, 'PENDING', ?, ?, ?, ?, ?, ?, ?, ?, ?)
         returning order_number
       ), l as (
         insert into ${qualified(em, 'order_lines')} (id, order_id, position, product_id, product_name, product_image, variant_id, variant_name,
           variant_price, sub_variant_id, sub_variant_name, sub_variant_price, quantity, no_of_rental_days, unit_price, damage_charges, line_total)
         select x.id, ?, x.position, x.product_id, x.product_name, x.product_image, x.variant_id, x.variant_name, x.variant_price,
           x.sub_variant_id, x.sub_variant_name, x.sub_variant_price, x.quantity, x.no_of_rental_days, x.unit_price, x.damage_charges, x.line_total
         from jsonb_to_recordset(?::jsonb) as x(id uuid, position int, product_id uuid, product_name text, product_image text, variant_id uuid,
           variant_name text, variant_price numeric, sub_variant_id uuid, sub_variant_name text, sub_variant_price numeric, quantity int,
           no_of_rental_days int, unit_price numeric, damage_charges numeric, line_total numeric)
       ), t as (
         insert into ${qualified(em, 'order_tracker')} (id, order_id, title, status, created_at) values (?, ?, ?, 'PENDING', ?)
       ), c as (
         delete from ${qualified(em, 'cart_items')} where customer_id = ? and id = any(?::uuid[])
       ), e as (
         insert into ${qualified(em, 'outbox')} (id, subject, payload)
         select ?, ?, jsonb_set(?::jsonb, '{data,orderNumber}', to_jsonb(o.order_number)) from o
       ), i as (
         update ${idem} set state = 'DONE', response_status = 201, response_body = jsonb_set(?::jsonb, '{order,orderNumber}', to_jsonb(o.order_number))
           from o where customer_id = ? and key = ?
       )
       select order_number from o`,
      [
        orderId, manilaDate(now).replace(/-/g, ''), who.userId, body.type, body.typeOfOrder ?? null, totalAmount, partial,
        body.deliveryAddress, body.deliveryCity, body.deliveryState, body.deliveryZipcode, body.note, now, now,
        orderId, JSON.stringify(lineRows),
        randomUUID(), orderId, ORDER_PLACED_TITLE, now,
        who.userId, `{${cartIds.join(',')}}`,
        event.id, event.type, JSON.stringify(event),
        JSON.stringify({ order }), who.userId, key,
      ],
    );
    order.orderNumber = written!.order_number;
    return { status: 201, body: { order } };
  } catch (err) {
    // Held stock is given back; so is stock the catalog may have held without its answer reaching
    // us (a timeout). A definite refusal of the reservation held nothing.
    const refused = reservation === 'asked' && err instanceof HttpProblem && err.status < 500;
    if (reservation === 'held' || (reservation === 'asked' && !refused)) await abandonCheckout(em, orderId);
    if (err instanceof HttpProblem && err.status < 500) {
      // A definite answer: the same key and body get it again.
      const response: Stored = { status: err.status, body: err.toProblem('/api/orders') };
      await em.execute(`update ${idem} set state = 'DONE', response_status = ?, response_body = ?::jsonb where customer_id = ? and key = ?`, [
        response.status,
        JSON.stringify(response.body),
        who.userId,
        key,
      ]);
      throw err;
    }
    // Not a definite answer (a service down, a crash): the key may be used again.
    await em.execute(`delete from ${idem} where customer_id = ? and key = ?`, [who.userId, key]).catch(() => undefined);
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
      await em.execute(`insert into ${qualified(em, 'outbox')} (id, subject, payload) values (?, ?, ?::jsonb)`, [event.id, event.type, JSON.stringify(event)]);
      return;
    } catch {
      await new Promise((r) => setTimeout(r, 100 * (attempt + 1)));
    }
  }
}
