import type { EntityManager } from '@mikro-orm/postgresql';
import {
  BOOKING_MESSAGES,
  centsToString,
  earlyEndWindow,
  paidCycleDays,
  EndBookingsEarlyReply,
  endableEarly,
  endedEarlyLine,
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
  type Cents,
  type EndBookingsEarlyRequest,
  type ExtendBookingsRequest,
  type ExtendRentalResponse,
  type Extender,
} from '@dme/contracts';
import { callRpc, HttpProblem, qualified, recordEvent, type NatsConnection, type Principal, newId } from '@dme/platform';
import type { OrderFacts } from '../../process/facts';
import { SOURCE } from '../../events';
import { getOrder, lockOrder } from '../orders/read';

/** What changing a rental's days needs from outside the order service: the catalog's bookings. */
export interface ExtendDeps {
  nc: NatsConnection;
  subjects: { extendBookings: string; endBookingsEarly: string };
}

interface LineRow {
  id: string;
  unit_price: string;
  quantity: number;
  no_of_rental_days: number | null;
  start_date: string | null;
  line_total: string;
}

type RentalLine = LineRow & { no_of_rental_days: number };

/** A line after the change: its days and total (a purchase line keeps its own), and what the change did to it. */
interface PricedRow {
  id: string;
  days: number | null;
  cents: Cents;
  extra: Cents;
  due: string | null;
}

/** The order's lines and the number the next change of its days takes (extensions and early ends share it). */
async function readLines(tem: EntityManager, order: OrderFacts): Promise<{ seq: number; orderDay: string; lines: LineRow[]; rental: RentalLine[] }> {
  const t = (n: string) => qualified(tem, n);
  const [counter] = await tem.execute<Array<{ n: number; created_at: string }>>(
    `select (select count(*) from ${t('order_extensions')} where order_id = ?)::int as n, o.created_at from ${t('orders')} o where o.id = ?`,
    [order.id, order.id],
  );
  const lines = await tem.execute<LineRow[]>(
    `select id, unit_price::text, quantity, no_of_rental_days, to_char(start_date, 'YYYY-MM-DD') as start_date, line_total::text
       from ${t('order_lines')} where order_id = ? order by position`,
    [order.id],
  );
  const rental = lines.filter((l): l is RentalLine => l.no_of_rental_days !== null);
  return { seq: counter!.n + 1, orderDay: manilaDate(new Date(counter!.created_at)), lines, rental };
}

/** A line's due date with `days` (terms plannedDueDate: from delivery once delivered, else from its start). */
const dueOf = (order: OrderFacts, orderDay: string, l: { start_date: string | null }, days: number) =>
  plannedDueDate({ deliveredAt: order.deliveredAt, startDate: l.start_date ?? orderDay, noOfRentalDays: days });

/** The lines re-priced by `reprice` (rental lines only), each with its due date after. */
function priceLines(order: OrderFacts, orderDay: string, lines: LineRow[], reprice: (l: RentalLine) => { noOfRentalDays: number; lineCents: Cents; extraCents: Cents }): PricedRow[] {
  return lines.map((l) => {
    if (l.no_of_rental_days === null) return { id: l.id, days: null, cents: toCents(l.line_total), extra: 0, due: null };
    const x = reprice(l as RentalLine);
    return { id: l.id, days: x.noOfRentalDays, cents: x.lineCents, extra: x.extraCents, due: dueOf(order, orderDay, l, x.noOfRentalDays) };
  });
}

/** A change of a rental's days: more (an extension) or fewer (ended early on `returnOn`). */
interface DaysChange {
  kind: 'EXTEND' | 'END_EARLY';
  seq: number;
  days: number;
  returnOn: string | null;
  by: Extender;
  who: Principal;
}

/**
 * Writes a change of a rental's days in the caller's transaction: the re-priced lines, the order
 * total that follows, the numbered change with who asked, and its event (`dme.order.extended` or
 * `dme.order.ended_early`, which payment keeps its totals from). Answers what the change did to the total.
 */
async function writeDaysChange(tem: EntityManager, order: OrderFacts, lines: LineRow[], priced: PricedRow[], change: DaysChange): Promise<Cents> {
  const t = (n: string) => qualified(tem, n);
  const total = orderTotalCents(lines.map((l, i) => ({ unitCents: toCents(l.unit_price), quantity: l.quantity, noOfRentalDays: priced[i]!.days })));
  const amount = sumCents(priced.map((p) => p.extra));
  for (const p of priced.filter((x) => x.days !== null)) {
    await tem.execute(`update ${t('order_lines')} set no_of_rental_days = ?, line_total = ? where id = ?`, [p.days, centsToString(p.cents), p.id]);
  }
  await tem.execute(`update ${t('orders')} set total_amount = ?, updated_at = now() where id = ?`, [centsToString(total), order.id]);
  await tem.execute(
    `insert into ${t('order_extensions')} (id, order_id, seq, kind, days, amount, return_on, by_kind, by_user_id) values (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    [newId(), order.id, change.seq, change.kind, change.days, centsToString(amount), change.returnOn, change.by, change.who.userId],
  );
  const data = {
    orderId: order.id,
    orderNumber: order.orderNumber,
    customerId: order.customerId,
    seq: change.seq,
    days: change.days,
    amount: centsToString(amount),
    totalAmount: centsToString(total),
    lines: priced.map((p) => ({ lineId: p.id, noOfRentalDays: p.days, lineTotal: centsToString(p.cents), dueDate: p.due })),
    by: change.by,
  };
  if (change.kind === 'EXTEND') recordEvent(tem, SOURCE, { type: EVENTS.order.extended, aggregateId: order.id, data });
  else recordEvent(tem, SOURCE, { type: EVENTS.order.endedEarly, aggregateId: order.id, data: { ...data, returnOn: change.returnOn! } });
  await tem.flush();
  return amount;
}

/**
 * More days for a rental (issue 25): every rental line of the order gets `days` more. The order
 * row is locked; who may extend now is terms `extendable` (the customer their own DELIVERED
 * rental — another's answers 404 —, staff any rental not back yet). The catalog extends the
 * order's bookings first (change number `seq`, so a retry after this transaction failed
 * converges there instead of adding twice) and refuses when a unit is booked after, saying how
 * many days could be given; then the lines are re-priced with their own unit price and quantity
 * (terms `extendedLine`) and the change is written (writeDaysChange).
 */
export async function extendRental(em: EntityManager, orderId: string, days: number, who: Principal, by: Extender, deps: ExtendDeps): Promise<ExtendRentalResponse> {
  let message = '';
  await em.transactional(async (tem) => {
    const order = await lockOrder(tem, { id: orderId }, by === 'CUSTOMER' ? { where: 'and customer_id = ?', params: [who.userId] } : undefined);
    if (!extendable(order.type, order.status, by)) {
      throw new HttpProblem(409, by === 'CUSTOMER' ? BOOKING_MESSAGES.extendNotOngoing : BOOKING_MESSAGES.extendNotOpen);
    }
    const { seq, orderDay, lines, rental } = await readLines(tem, order);
    if (rental.some((l) => l.no_of_rental_days + days > MAX_RENTAL_DAYS)) {
      throw new HttpProblem(400, BOOKING_MESSAGES.extendTooLong, [{ field: 'days', message: BOOKING_MESSAGES.extendTooLong }]);
    }
    const request: ExtendBookingsRequest = { orderId, seq, days };
    const reply = ExtendBookingsReply.parse(await callRpc(deps.nc, deps.subjects.extendBookings, request));
    if (!reply.ok) {
      const first = rental.map((l) => dueOf(order, orderDay, l, l.no_of_rental_days + reply.maxDays)).filter((d): d is string => d !== null).sort()[0] ?? '';
      throw new HttpProblem(409, BOOKING_MESSAGES.extendRefused(reply.maxDays, first), [{ field: 'days', message: BOOKING_MESSAGES.extendRefused(reply.maxDays, first) }]);
    }
    const priced = priceLines(order, orderDay, lines, (l) =>
      extendedLine({ unitCents: toCents(l.unit_price), quantity: l.quantity, noOfRentalDays: l.no_of_rental_days }, days),
    );
    await writeDaysChange(tem, order, lines, priced, { kind: 'EXTEND', seq, days, returnOn: null, by, who });
    const due = priced.map((p) => p.due).filter((d): d is string => d !== null).sort()[0] ?? '';
    message = BOOKING_MESSAGES.extended(days, due);
  });
  return { order: await getOrder(em, orderId, who, by === 'CUSTOMER' ? { customerId: who.userId } : {}), message };
}

/**
 * Staff end a rental early (issue 25): the customer gives its units back on `returnOn`, a day of
 * terms `earlyEndWindow` (from today, after the delivery day, before the last due date) of a
 * DELIVERED rental (terms `endableEarly`). Every line due later is due that day, its days counted
 * from delivery and re-priced with its own terms (terms `endedEarlyLine`); the catalog frees the
 * rest of the order's bookings first (absolute, so a retry changes nothing there); the change is
 * written like an extension, with days and amount below zero (writeDaysChange). The order can
 * then go For Return on that day, as SPEC's rule has it (a product's period has ended).
 */
export async function endRentalEarly(em: EntityManager, orderId: string, returnOn: string, who: Principal, deps: ExtendDeps): Promise<ExtendRentalResponse> {
  let message = '';
  await em.transactional(async (tem) => {
    const order = await lockOrder(tem, { id: orderId });
    if (!endableEarly(order.type, order.status) || !order.deliveredAt) throw new HttpProblem(409, BOOKING_MESSAGES.endEarlyNotOngoing);
    const { seq, orderDay, lines, rental } = await readLines(tem, order);
    const deliveredDay = manilaDate(order.deliveredAt);
    const dues = rental.map((l) => dueOf(order, orderDay, l, l.no_of_rental_days)).filter((d): d is string => d !== null);
    const window = earlyEndWindow(deliveredDay, dues, manilaDate(), paidCycleDays(order.lastCyclePaid ?? 0));
    if (!window) throw new HttpProblem(409, BOOKING_MESSAGES.endEarlyNothing);
    if (returnOn < window.from || returnOn > window.to) {
      const msg = BOOKING_MESSAGES.endEarlyRange(window.from, window.to);
      throw new HttpProblem(400, msg, [{ field: 'returnOn', message: msg }]);
    }
    const request: EndBookingsEarlyRequest = { orderId, returnOn };
    EndBookingsEarlyReply.parse(await callRpc(deps.nc, deps.subjects.endBookingsEarly, request));
    const priced = priceLines(order, orderDay, lines, (l) =>
      endedEarlyLine({ unitCents: toCents(l.unit_price), quantity: l.quantity, noOfRentalDays: l.no_of_rental_days }, deliveredDay, returnOn),
    );
    const daysOff = Math.min(...priced.map((p, i) => (p.days === null ? 0 : p.days - (lines[i]!.no_of_rental_days ?? 0))));
    await writeDaysChange(tem, order, lines, priced, { kind: 'END_EARLY', seq, days: daysOff, returnOn, by: 'STAFF', who });
    message = BOOKING_MESSAGES.endedEarly(returnOn);
  });
  return { order: await getOrder(em, orderId, who, {}), message };
}
