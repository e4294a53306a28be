import type { EntityManager } from '@mikro-orm/postgresql';
import type { z } from 'zod';
import {
  DRIVER_DAY_MESSAGES,
  DRIVER_WAITING_STATUSES,
  manilaDate,
  type AssignableDriversResponse,
  type AssignmentRequest,
  type DriverDayResponse,
  type DriverStop,
  type Order,
  type OrderStatus,
  type OrderType,
} from '@dme/contracts';
import { badRequest, HttpProblem, qualified, type Principal } from '@dme/platform';
import { addTrackerEntry } from '../../process/transitions';
import { getOrder, lockOrder } from '../orders/read';

/** Where each status of the driver's work stands on their day. */
const STAGE: Partial<Record<OrderStatus, { stage: DriverStop['stage']; leg: DriverStop['leg'] }>> = {
  TO_SHIP: { stage: 'TO_TAKE_OUT', leg: 'DELIVERY' },
  OUT_FOR_DELIVERY: { stage: 'OUT_FOR_DELIVERY', leg: 'DELIVERY' },
  FOR_RETURN: { stage: 'TO_COLLECT', leg: 'PICKUP' },
  FOR_PICK_UP: { stage: 'COLLECTED', leg: 'PICKUP' },
};

interface StopRow {
  id: string;
  order_number: string;
  type: OrderType;
  status: OrderStatus;
  driver_day: string | null;
  delivery_address: string;
  delivery_city: string;
  delivery_state: string;
  delivery_zipcode: string;
  note: string;
  first_name: string | null;
  last_name: string | null;
  id_number: string | null;
  contact_number: string | null;
  items: Array<{ name: string; quantity: number }>;
}

/**
 * The driver's day (issue 28): their stops — planned for today or earlier (or with no day), and
 * everything they have out — in the order they chose (then by day and age), with what a stop needs
 * at the door; and the work no driver has yet as counts per city, without customer details.
 */
export async function driverDay(em: EntityManager, who: Principal): Promise<DriverDayResponse> {
  const today = manilaDate();
  const t = (name: string) => qualified(em, name);
  const rows = await em.execute<StopRow[]>(
    `select o.id, o.order_number, o.type, o.status, to_char(o.driver_day, 'YYYY-MM-DD') as driver_day, o.delivery_address, o.delivery_city,
            o.delivery_state, o.delivery_zipcode, o.note, c.first_name, c.last_name, c.id_number, c.contact_number,
            coalesce((select json_agg(json_build_object('name', concat_ws(' / ', l.product_name, l.variant_name, l.sub_variant_name), 'quantity', l.quantity) order by l.position)
                        from ${t('order_lines')} l where l.order_id = o.id), '[]'::json) as items
       from ${t('orders')} o left join ${t('customers')} c on c.id = o.customer_id
      where o.driver_id = ?
        and (o.status in ('OUT_FOR_DELIVERY', 'FOR_PICK_UP') or (o.status in ('TO_SHIP', 'FOR_RETURN') and (o.driver_day is null or o.driver_day <= ?::date)))
      order by o.stop_position nulls last, o.driver_day nulls last, o.created_at, o.id`,
    [who.userId, today],
  );
  const waiting = await em.execute<Array<{ city: string; deliveries: number; pickups: number }>>(
    `select o.delivery_city as city, count(*) filter (where o.status = 'TO_SHIP')::int as deliveries, count(*) filter (where o.status = 'FOR_RETURN')::int as pickups
       from ${t('orders')} o where o.driver_id is null and o.status in ('TO_SHIP', 'FOR_RETURN')
      group by o.delivery_city order by o.delivery_city`,
    [],
  );
  return { day: today, stops: rows.map(stopOf), waiting };
}

function stopOf(r: StopRow): DriverStop {
  const where = STAGE[r.status]!;
  return {
    id: r.id,
    orderNumber: r.order_number,
    type: r.type,
    status: r.status,
    leg: where.leg,
    stage: where.stage,
    day: r.driver_day,
    customerName: [r.first_name, r.last_name].filter(Boolean).join(' '),
    customerNumber: r.id_number ?? '',
    contactNumber: r.contact_number ?? '',
    address: r.delivery_address,
    city: r.delivery_city,
    state: r.delivery_state,
    zipcode: r.delivery_zipcode,
    note: r.note,
    items: r.items,
  };
}

/** The driver puts their stops in their own order: each of today's stops once, and nothing else (else 400). */
export async function reorderStops(em: EntityManager, who: Principal, orderIds: string[]): Promise<DriverDayResponse> {
  const day = await driverDay(em, who);
  const mine = new Set(day.stops.map((s) => s.id));
  if (orderIds.length !== mine.size || new Set(orderIds).size !== orderIds.length || orderIds.some((id) => !mine.has(id))) {
    throw badRequest(DRIVER_DAY_MESSAGES.notYourStops, [{ field: 'orderIds', message: DRIVER_DAY_MESSAGES.notYourStops }]);
  }
  await em.execute(
    `update ${qualified(em, 'orders')} o set stop_position = x.pos from unnest(?::uuid[]) with ordinality as x(id, pos) where o.id = x.id and o.driver_id = ?`,
    [`{${orderIds.join(',')}}`, who.userId],
  );
  return driverDay(em, who);
}

/** The active drivers, by name (from the order service's read model of people). */
export async function assignableDrivers(em: EntityManager): Promise<AssignableDriversResponse> {
  const items = await em.execute<Array<{ id: string; name: string }>>(
    `select id, trim(first_name || ' ' || last_name) as name from ${qualified(em, 'customers')}
      where user_type = 'DRIVER' and status = 'ACTIVE' and not deleted order by first_name, last_name, id`,
    [],
  );
  return { items };
}

/**
 * Staff assign an order waiting for a driver (TO_SHIP, FOR_RETURN) to an active driver and a day
 * from today on, or put it back to any driver; the tracker says so. The driver then reads it and
 * finds it on their day; taking it out by scan stays open to any driver (the one who does has it).
 */
export async function assignOrder(em: EntityManager, orderId: string, body: z.output<typeof AssignmentRequest>, who: Principal): Promise<Order> {
  const today = manilaDate();
  if (body.day !== null && body.day < today) throw badRequest(DRIVER_DAY_MESSAGES.dayInvalid, [{ field: 'day', message: DRIVER_DAY_MESSAGES.dayInvalid }]);
  await em.transactional(async (tem) => {
    const order = await lockOrder(tem, { id: orderId });
    if (!DRIVER_WAITING_STATUSES.includes(order.status)) throw new HttpProblem(409, DRIVER_DAY_MESSAGES.notWaiting(order.orderNumber, order.status));
    let title = DRIVER_DAY_MESSAGES.unassigned(order.orderNumber);
    if (body.driverId !== null) {
      const [driver] = await tem.execute<Array<{ name: string }>>(
        `select trim(first_name || ' ' || last_name) as name from ${qualified(tem, 'customers')} where id = ? and user_type = 'DRIVER' and status = 'ACTIVE' and not deleted`,
        [body.driverId],
      );
      if (!driver) throw badRequest(DRIVER_DAY_MESSAGES.chooseDriver, [{ field: 'driverId', message: DRIVER_DAY_MESSAGES.chooseDriver }]);
      title = DRIVER_DAY_MESSAGES.assigned(order.orderNumber, driver.name, body.day ?? today);
    }
    await tem.execute(`update ${qualified(tem, 'orders')} set driver_id = ?, driver_day = ?, stop_position = null, updated_at = now() where id = ?`, [
      body.driverId,
      body.driverId === null ? null : (body.day ?? today),
      order.id,
    ]);
    await addTrackerEntry(tem, order.id, title, order.status, new Date());
  });
  return getOrder(em, orderId, who, {});
}
