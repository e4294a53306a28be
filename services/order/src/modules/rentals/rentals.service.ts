import { randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import {
  centsToString,
  DRIVER_LIST_STATUS,
  EVENTS,
  manilaDate,
  orderScopeOf,
  parseOrderCode,
  RENTAL_MESSAGES,
  REQUEST_NEXT,
  ReturnSerialReply,
  type CreateRequestBody,
  type DriverScanPurpose,
  type DriverScanResponse,
  type Notice,
  type OngoingRental,
  type OngoingRentalTab,
  type Order,
  type OrderRequest,
  type OrderStatus,
  type OrderSummary,
  type ReturnSerialRequest,
  type ReturnStatus,
  toCents,
} from '@dme/contracts';
import { badRequest, callRpc, containsPattern, HttpProblem, notFound, qualified, recordEvent, type NatsConnection, type Principal } from '@dme/platform';
import type { z } from 'zod';
import { dueNoticeOf, getOrder, listOrders, requestOf, requestsJson, SOURCE, type RequestRow } from '../orders/order.service';
import { loadFacts } from '../../process/facts';
import { perform, visibility, type ProcessDeps } from '../../process/transitions';

/** What returns need from outside the order service: the catalog's return command. */
export interface ReturnDeps {
  nc: NatsConnection;
  subjects: { returnSerial: string };
}

const money = (v: string) => centsToString(toCents(v));

// ---------------------------------------------------------------- drivers

/**
 * A driver scans an order QR (or types its number) — SPEC §2 DRIVER, §4:
 * delivery: TO_SHIP → OUT_FOR_DELIVERY (the order is now this driver's), then OUT_FOR_DELIVERY →
 * DELIVERED by the same driver (delivered time stored; rental due dates count from it);
 * pick-up: FOR_RETURN → FOR_PICK_UP (this driver's). A scan reaches only what `visibility` lets
 * the driver reach with this scan's taking step: their own orders, and orders waiting to be taken
 * this way. Their own order in a status the scan cannot move is refused with a 409 saying why;
 * anything else — another driver's order, a PENDING one, a code that names no order — answers
 * one and the same 404, so order numbers (sequential) cannot be probed. The order row is locked
 * for the step, so two drivers scanning one order at once go one after the other: the second no
 * longer reaches it (404). The superadmin reaches every order and is told why about each.
 */
export async function driverScan(
  em: EntityManager,
  who: Principal,
  body: { purpose: DriverScanPurpose; code: string },
  deps: ProcessDeps,
): Promise<DriverScanResponse> {
  const { orderId, orderNumber } = parseOrderCode(body.code);
  if (!orderId && !orderNumber) throw notFound(RENTAL_MESSAGES.unknownOrder);
  // The scan's taking step leads to the status the purpose's list shows (OUT_FOR_DELIVERY, FOR_PICK_UP).
  const scope = visibility(who, DRIVER_LIST_STATUS[body.purpose]);
  const t = (n: string) => qualified(em, n);
  let message = '';
  let id = '';
  await em.transactional(async (tem) => {
    const conds = [orderId ? 'id = ?' : null, orderNumber ? 'order_number = ?' : null].filter(Boolean).join(' and ');
    const [row] = await tem.execute<Array<{ id: string }>>(`select id from ${t('orders')} where ${conds} ${scope.where} for update`, [
      ...(orderId ? [orderId] : []),
      ...(orderNumber ? [orderNumber] : []),
      ...scope.params,
    ]);
    if (!row) throw notFound(RENTAL_MESSAGES.unknownOrder);
    id = row.id;
    const order = (await loadFacts(tem, row.id))!;
    const mine = order.driverId === who.userId;
    let to: OrderStatus;
    if (body.purpose === 'DELIVERY') {
      if (order.status === 'TO_SHIP') {
        to = 'OUT_FOR_DELIVERY';
        message = RENTAL_MESSAGES.takenOut(order.orderNumber);
      } else if (order.status === 'OUT_FOR_DELIVERY' && mine) {
        to = 'DELIVERED';
        message = RENTAL_MESSAGES.delivered(order.orderNumber);
      } else if (order.status === 'OUT_FOR_DELIVERY') {
        // Only the superadmin reaches another driver's order.
        throw new HttpProblem(409, RENTAL_MESSAGES.otherDriver(order.orderNumber));
      } else {
        throw new HttpProblem(409, RENTAL_MESSAGES.notForDelivery(order.orderNumber, order.status));
      }
    } else if (order.status === 'FOR_RETURN') {
      to = 'FOR_PICK_UP';
      message = RENTAL_MESSAGES.pickedUp(order.orderNumber);
    } else {
      throw new HttpProblem(409, RENTAL_MESSAGES.notForPickup(order.orderNumber, order.status));
    }
    await perform(tem, order, to, { kind: 'person', principal: who }, {}, deps);
  });
  const order = await getOrder(em, id, who, {});
  return { order: summaryOf(order), message };
}

function summaryOf(o: Order): OrderSummary {
  return {
    id: o.id,
    orderNumber: o.orderNumber,
    createdAt: o.createdAt,
    status: o.status,
    type: o.type,
    typeOfOrder: o.typeOfOrder,
    totalAmount: o.totalAmount,
    customerID: o.customerID,
    customerName: o.customerName,
  };
}

/** The driver's list: their OUT_FOR_DELIVERY (delivery) or FOR_PICK_UP (pick-up) orders; the superadmin sees every driver's. */
export function listDriverOrders(em: EntityManager, who: Principal, q: { purpose: DriverScanPurpose; limit: number; offset: number }) {
  const scope = orderScopeOf(who);
  return listOrders(em, {
    status: DRIVER_LIST_STATUS[q.purpose],
    ...(scope.kind === 'all' ? {} : { driverId: who.userId }),
    limit: q.limit,
    offset: q.offset,
  });
}

/**
 * One order as a driver reads it: only one assigned to them (SPEC §6; `visibility`). An order
 * waiting for a driver is not read but taken, by the scan; any other answers 404 exactly like an
 * unknown id. The superadmin reads any.
 */
export async function getDriverOrder(em: EntityManager, who: Principal, id: string): Promise<Order> {
  const scope = visibility(who);
  const [row] = await em.execute<Array<{ id: string }>>(`select id from ${qualified(em, 'orders')} where id = ? ${scope.where}`, [id, ...scope.params]);
  if (!row) throw notFound('Order not found.');
  return getOrder(em, id, who, {});
}

// ---------------------------------------------------------------- ongoing rentals

/** SQL of a rental line's due date: its delivered date on the Manila calendar plus its rental days. */
const LINE_DUE = `((o.delivered_at at time zone 'Asia/Manila')::date + l.no_of_rental_days)`;

/**
 * The ongoing-rentals tabs (SPEC §2), computed here: Ongoing, DELIVERED rentals; Due Date,
 * DELIVERED rentals with a line due today or overdue (Manila); For Return; Picked up, rentals
 * whose payment is PAID. Searched by order number or customer name; the earliest due first.
 */
export async function listOngoingRentals(
  em: EntityManager,
  q: { tab: OngoingRentalTab; search?: string | undefined; limit: number; offset: number },
  now = new Date(),
): Promise<{ items: OngoingRental[]; total: number }> {
  const t = (n: string) => qualified(em, n);
  const today = manilaDate(now);
  const conds = [`o.type = 'RENT'`];
  const params: unknown[] = [];
  if (q.tab === 'ONGOING') conds.push(`o.status = 'DELIVERED'`);
  if (q.tab === 'DUE_DATE') {
    conds.push(`o.status = 'DELIVERED' and exists (select 1 from ${t('order_lines')} l where l.order_id = o.id and l.no_of_rental_days is not null and ${LINE_DUE} <= ?::date)`);
    params.push(today);
  }
  if (q.tab === 'FOR_RETURN') conds.push(`o.status = 'FOR_RETURN'`);
  if (q.tab === 'PICKED_UP') conds.push(`p.status = 'PAID'`);
  const search = q.search?.trim();
  if (search) {
    const like = containsPattern(search);
    conds.push(`(o.order_number ilike ? or (c.first_name || ' ' || c.last_name) ilike ?)`);
    params.push(like, like);
  }
  const rows = await em.execute<
    Array<{ id: string; order_number: string; customer_id: string; status: OrderStatus; type_of_order: 'BULK' | null; total_amount: string; partial_payment: string | null; created_at: string; customer_name: string | null; due_date: string | null; total: number }>
  >(
    `select o.id, o.order_number, o.customer_id, o.status, o.type_of_order, o.total_amount::text, o.partial_payment::text, o.created_at,
            trim(c.first_name || ' ' || c.last_name) as customer_name,
            (select min(${LINE_DUE}) from ${t('order_lines')} l where l.order_id = o.id and l.no_of_rental_days is not null)::text as due_date,
            count(*) over ()::int as total
       from ${t('orders')} o
       left join ${t('customers')} c on c.id = o.customer_id
       left join ${t('order_payments')} p on p.order_id = o.id
      where ${conds.join(' and ')}
      order by due_date asc nulls last, o.created_at desc, o.id
      limit ? offset ?`,
    [...params, q.limit, q.offset],
  );
  let total = rows[0]?.total ?? 0;
  if (rows.length === 0 && q.offset > 0) total = 0;
  return {
    total,
    items: rows.map((r) => ({
      id: r.id,
      orderNumber: r.order_number,
      createdAt: new Date(r.created_at).toISOString(),
      status: r.status,
      type: 'RENT',
      typeOfOrder: r.type_of_order,
      totalAmount: money(r.total_amount),
      customerID: r.customer_id,
      customerName: r.customer_name ?? '',
      displayStatus: r.status === 'DELIVERED' ? 'ON_GOING' : r.status,
      initialPayment: r.partial_payment === null ? null : money(r.partial_payment),
      dueDate: r.due_date,
    })),
  };
}

// ---------------------------------------------------------------- returns

/**
 * Marks one serial code of a FOR_PICK_UP rental as returned OK, LOST or DAMAGED — once (SPEC §4).
 * The order row and the serial's row are locked; the catalog moves the item in its own
 * transaction through the stock ledger (OK → AVAILABLE and IN, DAMAGED → DAMAGED, LOST → LOST;
 * asking again answers the same), then the mark and its time are written here. If this
 * transaction fails after the catalog answered, marking again is a retry there.
 */
export async function returnSerial(
  em: EntityManager,
  orderId: string,
  serialCode: string,
  status: ReturnStatus,
  who: Principal,
  deps: ReturnDeps,
): Promise<Order> {
  const code = serialCode.trim().toUpperCase();
  await em.transactional(async (tem) => {
    const t = (n: string) => qualified(tem, n);
    const [order] = await tem.execute<Array<{ id: string; status: OrderStatus }>>(`select id, status from ${t('orders')} where id = ? for update`, [orderId]);
    if (!order) throw notFound('Order not found.');
    if (order.status !== 'FOR_PICK_UP') throw new HttpProblem(409, RENTAL_MESSAGES.notPickingUp);
    const [serial] = await tem.execute<Array<{ id: string; return_status: ReturnStatus | null }>>(
      `select id, return_status from ${t('order_line_serials')} where order_id = ? and serial_code = ? for update`,
      [orderId, code],
    );
    if (!serial) throw notFound(RENTAL_MESSAGES.unknownSerial);
    if (serial.return_status !== null) throw new HttpProblem(409, RENTAL_MESSAGES.alreadyReturned);
    const request: ReturnSerialRequest = { orderId, serialCode: code, status };
    ReturnSerialReply.parse(await callRpc(deps.nc, deps.subjects.returnSerial, request));
    await tem.execute(`update ${t('order_line_serials')} set return_status = ?, returned_at = now() where id = ?`, [status, serial.id]);
  });
  return getOrder(em, orderId, who, {});
}

// ---------------------------------------------------------------- requests

/**
 * A customer files a fix or replace request for products of their own ongoing (DELIVERED)
 * rental (SPEC §2, §5): another's order answers 404; other statuses 409; the products must be
 * lines of the order. Recorded with `dme.request.changed` in the same transaction.
 */
export async function createRequest(em: EntityManager, orderId: string, who: Principal, body: z.output<typeof CreateRequestBody>): Promise<OrderRequest> {
  const id = randomUUID();
  await em.transactional(async (tem) => {
    const t = (n: string) => qualified(tem, n);
    const [order] = await tem.execute<Array<{ id: string; order_number: string; type: string; status: OrderStatus; customer_id: string }>>(
      `select id, order_number, type, status, customer_id from ${t('orders')} where id = ? and customer_id = ? for update`,
      [orderId, who.userId],
    );
    if (!order) throw notFound('Order not found.');
    if (order.type !== 'RENT' || order.status !== 'DELIVERED') throw new HttpProblem(409, RENTAL_MESSAGES.requestNotOngoing);
    const lineIds = [...new Set(body.lineIDs)];
    const lines = await tem.execute<Array<{ id: string }>>(`select id from ${t('order_lines')} where order_id = ? and id = any(?::uuid[])`, [orderId, `{${lineIds.join(',')}}`]);
    if (lines.length !== lineIds.length) throw badRequest(RENTAL_MESSAGES.unknownLine, [{ field: 'lineIDs', message: RENTAL_MESSAGES.unknownLine }]);
    await tem.execute(`insert into ${t('order_requests')} (id, order_id, customer_id, type, status, user_note, line_ids) values (?, ?, ?, ?, 'PENDING', ?, ?::uuid[])`, [
      id,
      orderId,
      order.customer_id,
      body.type,
      body.note,
      `{${lineIds.join(',')}}`,
    ]);
    recordEvent(tem, SOURCE, {
      type: EVENTS.request.changed,
      aggregateId: orderId,
      data: { requestId: id, orderId, orderNumber: order.order_number, customerId: order.customer_id, type: body.type, status: 'PENDING' },
    });
    await tem.flush();
  });
  return loadRequest(em, orderId, id);
}

/** Staff move a request on: PENDING → ON_PROGRESS ('Mark as On Progress') → DONE ('Mark as Done'); anything else 409. */
export async function updateRequest(em: EntityManager, orderId: string, requestId: string, to: 'ON_PROGRESS' | 'DONE'): Promise<OrderRequest> {
  await em.transactional(async (tem) => {
    const t = (n: string) => qualified(tem, n);
    const [row] = await tem.execute<Array<{ status: string; type: 'FIX' | 'REPLACE'; customer_id: string; order_number: string }>>(
      `select q.status, q.type, q.customer_id, o.order_number from ${t('order_requests')} q join ${t('orders')} o on o.id = q.order_id
        where q.id = ? and q.order_id = ? for update of q`,
      [requestId, orderId],
    );
    if (!row) throw notFound('Request not found.');
    if (REQUEST_NEXT[row.status] !== to) throw new HttpProblem(409, RENTAL_MESSAGES.requestStep(row.status, to));
    await tem.execute(`update ${t('order_requests')} set status = ?, updated_at = now() where id = ?`, [to, requestId]);
    recordEvent(tem, SOURCE, {
      type: EVENTS.request.changed,
      aggregateId: orderId,
      data: { requestId, orderId, orderNumber: row.order_number, customerId: row.customer_id, type: row.type, status: to },
    });
    await tem.flush();
  });
  return loadRequest(em, orderId, requestId);
}

async function loadRequest(em: EntityManager, orderId: string, requestId: string): Promise<OrderRequest> {
  const [row] = await em.execute<Array<{ requests: RequestRow[] }>>(
    `select ${requestsJson(em, 'q.order_id = o.id and q.id = ?')} as requests from ${qualified(em, 'orders')} o where o.id = ?`,
    [requestId, orderId],
  );
  const request = row?.requests[0];
  if (!request) throw notFound('Request not found.');
  return requestOf(request);
}

// ---------------------------------------------------------------- notices

/** The customer's due notices (SPEC §8): one per rental out with them that has a line past due or due today (Manila). */
export async function listNotices(em: EntityManager, customerId: string, now = new Date()): Promise<{ items: Notice[] }> {
  const t = (n: string) => qualified(em, n);
  const rows = await em.execute<Array<{ id: string; order_number: string; status: OrderStatus; dues: Array<string | null> }>>(
    `select o.id, o.order_number, o.status,
            coalesce((select json_agg(${LINE_DUE}::text) from ${t('order_lines')} l where l.order_id = o.id and l.no_of_rental_days is not null), '[]'::json) as dues
       from ${t('orders')} o
      where o.customer_id = ? and o.type = 'RENT' and o.status in ('DELIVERED', 'FOR_RETURN') and o.delivered_at is not null
      order by o.delivered_at, o.id`,
    [customerId],
  );
  const today = manilaDate(now);
  const items: Notice[] = [];
  for (const r of rows) {
    const kind = dueNoticeOf(r.status, r.dues, today);
    if (kind) items.push({ kind, message: kind === 'OVERDUE' ? RENTAL_MESSAGES.hasDueProducts : RENTAL_MESSAGES.dueToday, orderID: r.id, orderNumber: r.order_number });
  }
  return { items };
}
