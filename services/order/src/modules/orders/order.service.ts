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
import { badRequest, callRpc, conflict, HttpProblem, notFound, qualified, recordEvent, unprocessable, type NatsConnection, type Principal } from '@dme/platform';
import { z } from 'zod';
import type { CartRow } from '../cart/cart.service';

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
    customer: customer
      ? {
          idNumber: customer.id_number!,
          firstName: customer.first_name!,
          middleName: customer.middle_name!,
          lastName: customer.last_name!,
          suffix: customer.suffix!,
          email: customer.email!,
          contactNumber: customer.contact_number!,
        }
      : null,
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

async function linesOf(em: EntityManager, customerId: string, body: PlaceOrderInput): Promise<{ lines: Line[]; cartIds: string[] }> {
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
  const params: unknown[] = [customerId, body.type];
  let filter = '';
  if (body.cartItemIDs) {
    filter = ' and id = any(?::uuid[])';
    params.push(`{${body.cartItemIDs.join(',')}}`);
  }
  const rows = await em.execute<CartRow[]>(
    `select * from ${qualified(em, 'cart_items')} where customer_id = ? and type = ?${filter} order by created_at, id`,
    params,
  );
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

async function nextOrderNumber(em: EntityManager): Promise<string> {
  const [r] = await em.execute<Array<{ n: string }>>(`select nextval('${qualified(em, 'order_number_seq')}') as n`);
  return `ORD-${manilaDate().replace(/-/g, '')}-${String(r!.n).padStart(6, '0')}`;
}

/**
 * Places an order. The same Idempotency-Key and body give the same answer and one order; the
 * same key with another body is 422. Stock is reserved in the catalog, all lines or none, and
 * the price snapshot comes back with it; every total is computed here. The order, its lines and
 * tracker, the emptied cart lines, the `dme.order.placed` event and the stored answer are written
 * in one transaction.
 */
export interface Rpc {
  nc: NatsConnection;
  subjects: { reserve: string; release: string };
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
  const claimed = await em.execute<Array<{ key: string }>>(
    `insert into ${idem} (customer_id, key, request_hash, state) values (?, ?, ?, 'IN_PROGRESS') on conflict do nothing returning key`,
    [who.userId, key, hash],
  );
  if (claimed.length === 0) {
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
  let reserved = false;
  try {
    const { lines, cartIds } = await linesOf(em, who.userId, body);
    const reply = z
      .object({ lines: z.array(ReserveLineReply) })
      .parse(await callRpc(rpc.nc, rpc.subjects.reserve, { orderId, orderType: body.type, lines }));
    reserved = true;
    const byRef = new Map(reply.lines.map((l) => [l.ref, l]));
    const priced = lines.map((l) => {
      const r = byRef.get(l.ref)!;
      const total = lineTotal(toCents(r.unitPrice), l.quantity, l.noOfRentalDays ?? 1);
      return { ...l, r, total, firstDay: lineTotal(toCents(r.unitPrice), l.quantity, 1) };
    });
    const totalCents = sumCents(priced.map((p) => p.total));
    const partial = body.type === 'RENT' ? centsToString(sumCents(priced.map((p) => p.firstDay))) : null;

    return await em.transactional(async (tem) => {
      const orderNumber = await nextOrderNumber(tem);
      await tem.execute(
        `insert into ${qualified(tem, 'orders')} (id, order_number, customer_id, type, type_of_order, status, total_amount, partial_payment,
           delivery_address, delivery_city, delivery_state, delivery_zipcode, note)
         values (?, ?, ?, ?, ?, 'PENDING', ?, ?, ?, ?, ?, ?, ?)`,
        [orderId, orderNumber, who.userId, body.type, body.typeOfOrder ?? null, centsToString(totalCents), partial,
          body.deliveryAddress, body.deliveryCity, body.deliveryState, body.deliveryZipcode, body.note],
      );
      for (const p of priced) {
        await tem.execute(
          `insert into ${qualified(tem, 'order_lines')} (id, order_id, position, product_id, product_name, product_image, variant_id, variant_name,
             variant_price, sub_variant_id, sub_variant_name, sub_variant_price, quantity, no_of_rental_days, unit_price, damage_charges, line_total)
           values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
          [randomUUID(), orderId, p.ref, p.productID, p.r.productName, p.r.productImage, p.productVariantID, p.r.variantName, p.r.variantPrice,
            p.productSubVariantID, p.r.subVariantName, p.r.subVariantPrice, p.quantity, p.noOfRentalDays, p.r.unitPrice, p.r.damageCharges,
            centsToString(p.total)],
        );
      }
      await tem.execute(`insert into ${qualified(tem, 'order_tracker')} (id, order_id, title, status) values (?, ?, ?, 'PENDING')`, [randomUUID(), orderId, ORDER_PLACED_TITLE]);
      if (cartIds.length) {
        await tem.execute(`delete from ${qualified(tem, 'cart_items')} where customer_id = ? and id = any(?::uuid[])`, [who.userId, `{${cartIds.join(',')}}`]);
      }
      recordEvent(tem, SOURCE, {
        type: EVENTS.order.placed,
        aggregateId: orderId,
        data: {
          orderId,
          orderNumber,
          customerId: who.userId,
          type: body.type,
          typeOfOrder: body.typeOfOrder ?? null,
          totalAmount: centsToString(totalCents),
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
      await tem.flush();
      const order = await getOrder(tem, orderId, who, { customerId: who.userId });
      const response: Stored = { status: 201, body: { order } };
      await tem.execute(`update ${idem} set state = 'DONE', response_status = ?, response_body = ?::jsonb where customer_id = ? and key = ?`, [
        201,
        JSON.stringify(response.body),
        who.userId,
        key,
      ]);
      return response;
    });
  } catch (err) {
    if (reserved) await callRpc(rpc.nc, rpc.subjects.release, { orderId }).catch(() => undefined);
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
