import { randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import {
  BOOKING_MESSAGES,
  centsToString,
  EVENTS,
  extendable,
  extendedLine,
  ExtendBookingsReply,
  manilaDate,
  MAX_RENTAL_DAYS,
  orderTotalCents,
  plannedDueDate,
  sumCents,
  toCents,
  type ExtendBookingsRequest,
  type ExtendRentalResponse,
  type Extender,
} from '@dme/contracts';
import { callRpc, HttpProblem, qualified, recordEvent, type NatsConnection, type Principal } from '@dme/platform';
import { SOURCE } from '../../events';
import { getOrder, lockOrder } from '../orders/read';

/** What extensions need from outside the order service: the catalog's bookings. */
export interface ExtendDeps {
  nc: NatsConnection;
  subjects: { extendBookings: string };
}

interface LineRow {
  id: string;
  unit_price: string;
  quantity: number;
  no_of_rental_days: number | null;
  start_date: string | null;
  line_total: string;
}

/**
 * More days for a rental (issue 25): every rental line of the order gets `days` more. The order
 * row is locked; who may extend now is terms `extendable` (the customer their own DELIVERED
 * rental — another's answers 404 —, staff any rental not back yet). The catalog extends the
 * order's bookings first (extension number `seq`, so a retry after this transaction failed
 * converges there instead of adding twice) and refuses when a unit is booked after, saying how
 * many days could be given; then the lines are re-priced with their own unit price and quantity
 * (terms `extendedLine`), the order total follows, the extension is recorded with who asked, and
 * `dme.order.extended` goes out in the same transaction (payment keeps its totals from it).
 */
export async function extendRental(em: EntityManager, orderId: string, days: number, who: Principal, by: Extender, deps: ExtendDeps): Promise<ExtendRentalResponse> {
  let message = '';
  await em.transactional(async (tem) => {
    const t = (n: string) => qualified(tem, n);
    const order = await lockOrder(tem, { id: orderId }, by === 'CUSTOMER' ? { where: 'and customer_id = ?', params: [who.userId] } : undefined);
    if (!extendable(order.type, order.status, by)) {
      throw new HttpProblem(409, by === 'CUSTOMER' ? BOOKING_MESSAGES.extendNotOngoing : BOOKING_MESSAGES.extendNotOpen);
    }
    const [counter] = await tem.execute<Array<{ n: number; created_at: string }>>(
      `select (select count(*) from ${t('order_extensions')} where order_id = ?)::int as n, o.created_at from ${t('orders')} o where o.id = ?`,
      [orderId, orderId],
    );
    const lines = await tem.execute<LineRow[]>(
      `select id, unit_price::text, quantity, no_of_rental_days, to_char(start_date, 'YYYY-MM-DD') as start_date, line_total::text
         from ${t('order_lines')} where order_id = ? order by position`,
      [orderId],
    );
    const rental = lines.filter((l): l is LineRow & { no_of_rental_days: number } => l.no_of_rental_days !== null);
    if (rental.some((l) => l.no_of_rental_days + days > MAX_RENTAL_DAYS)) {
      throw new HttpProblem(400, BOOKING_MESSAGES.extendTooLong, [{ field: 'days', message: BOOKING_MESSAGES.extendTooLong }]);
    }
    const orderDay = manilaDate(new Date(counter!.created_at));
    const dueOf = (l: { start_date: string | null }, n: number) => plannedDueDate({ deliveredAt: order.deliveredAt, startDate: l.start_date ?? orderDay, noOfRentalDays: n });
    const seq = counter!.n + 1;
    const request: ExtendBookingsRequest = { orderId, seq, days };
    const reply = ExtendBookingsReply.parse(await callRpc(deps.nc, deps.subjects.extendBookings, request));
    if (!reply.ok) {
      const first = rental.map((l) => dueOf(l, l.no_of_rental_days + reply.maxDays)).filter((d): d is string => d !== null).sort()[0] ?? '';
      throw new HttpProblem(409, BOOKING_MESSAGES.extendRefused(reply.maxDays, first), [{ field: 'days', message: BOOKING_MESSAGES.extendRefused(reply.maxDays, first) }]);
    }
    const priced = lines.map((l) => {
      if (l.no_of_rental_days === null) return { id: l.id, days: null, cents: toCents(l.line_total), extra: 0, due: null };
      const x = extendedLine({ unitCents: toCents(l.unit_price), quantity: l.quantity, noOfRentalDays: l.no_of_rental_days }, days);
      return { id: l.id, days: x.noOfRentalDays, cents: x.lineCents, extra: x.extraCents, due: dueOf(l, x.noOfRentalDays) };
    });
    const total = orderTotalCents(
      lines.map((l, i) => ({ unitCents: toCents(l.unit_price), quantity: l.quantity, noOfRentalDays: priced[i]!.days })),
    );
    const amount = sumCents(priced.map((p) => p.extra));
    for (const p of priced.filter((x) => x.days !== null)) {
      await tem.execute(`update ${t('order_lines')} set no_of_rental_days = ?, line_total = ? where id = ?`, [p.days, centsToString(p.cents), p.id]);
    }
    await tem.execute(`update ${t('orders')} set total_amount = ?, updated_at = now() where id = ?`, [centsToString(total), orderId]);
    await tem.execute(`insert into ${t('order_extensions')} (id, order_id, seq, days, amount, by_kind, by_user_id) values (?, ?, ?, ?, ?, ?, ?)`, [
      randomUUID(),
      orderId,
      seq,
      days,
      centsToString(amount),
      by,
      who.userId,
    ]);
    recordEvent(tem, SOURCE, {
      type: EVENTS.order.extended,
      aggregateId: orderId,
      data: {
        orderId,
        orderNumber: order.orderNumber,
        customerId: order.customerId,
        seq,
        days,
        amount: centsToString(amount),
        totalAmount: centsToString(total),
        lines: priced.map((p) => ({ lineId: p.id, noOfRentalDays: p.days, lineTotal: centsToString(p.cents), dueDate: p.due })),
        by,
      },
    });
    await tem.flush();
    const due = priced.map((p) => p.due).filter((d): d is string => d !== null).sort()[0] ?? '';
    message = BOOKING_MESSAGES.extended(days, due);
  });
  return { order: await getOrder(em, orderId, who, by === 'CUSTOMER' ? { customerId: who.userId } : {}), message };
}
