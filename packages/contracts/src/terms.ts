import type { OrderStatus, PaymentStatus, ReturnStatus } from './enums';
import { lineTotal, sumCents, type Cents } from './money';
import { addDays, compareDates, daysBetween, manilaDate, manilaInstant } from './time';
import { returnSettlement } from './rental-money';

/**
 * Rental and money terms (issue 23): pure rules over integer cents and Manila business dates, one
 * home for each, called by the services and the screens alike (docs/architecture.md).
 */

// ---- The price of the level a customer picks --------------------------------------------------

/** A level of the product tree with its own price (a variant's or sub-variant's may be unset). */
export interface PricedLevel<T> {
  price?: T | null;
  damageCharges?: T | null;
}

/**
 * The price of the chosen level (SPEC §3): the sub-variant's own, else the variant's, else the
 * product's. Works on wire strings or on cents alike (the caller's unit comes back).
 */
export function levelPrice<T>(product: { price: T }, variant?: PricedLevel<T> | null, sub?: PricedLevel<T> | null): T {
  return sub?.price ?? variant?.price ?? product.price;
}

/** The damage or lost fee of the chosen level: the same inheritance as its price. */
export function levelDamageCharges<T>(product: { damageCharges: T }, variant?: PricedLevel<T> | null, sub?: PricedLevel<T> | null): T {
  return sub?.damageCharges ?? variant?.damageCharges ?? product.damageCharges;
}

// ---- Order lines and the rental's first payment ------------------------------------------------

/** A line as priced at checkout: its unit price (cents), quantity and rental days (null: a purchase). */
export interface PricedLine {
  unitCents: Cents;
  quantity: number;
  noOfRentalDays: number | null;
}

/** Rental days of a line that does not say (a cart line or a bulk line without them). */
export const DEFAULT_RENTAL_DAYS = 1;

/** A line's rental days: a rental's own or the default; none (null) on a purchase. */
export function rentalDaysOf(type: 'RENT' | 'BUY', days: number | null | undefined): number | null {
  return type === 'RENT' ? (days ?? DEFAULT_RENTAL_DAYS) : null;
}

/** A line's total: quantity × unit price, × rental days for a rental line (DESIGN §5). */
export function lineTotalCents(l: PricedLine): Cents {
  return lineTotal(l.unitCents, l.quantity, l.noOfRentalDays ?? 1);
}

/** The total of an order's lines. */
export function orderTotalCents(lines: readonly PricedLine[]): Cents {
  return sumCents(lines.map(lineTotalCents));
}

/** A rental line's first day (its part of the first, partial payment): quantity × unit price. */
export function firstDayCents(l: Pick<PricedLine, 'unitCents' | 'quantity'>): Cents {
  return lineTotal(l.unitCents, l.quantity, 1);
}

/** A rental's first (partial) payment (SPEC §9): the first day of every line. */
export function rentalPartialCents(lines: ReadonlyArray<Pick<PricedLine, 'unitCents' | 'quantity'>>): Cents {
  return sumCents(lines.map(firstDayCents));
}

/** What is left to pay: order total + extra charge − what was paid (= total − partial + extra after the first payment). */
export function balanceCents(f: { totalCents: Cents; paidCents: Cents; extraCents?: Cents | null }): Cents {
  return sumCents([f.totalCents, f.extraCents ?? 0, -f.paidCents]);
}

// ---- Due dates and notices -----------------------------------------------------------------------

/** The Manila date a rental line is due back: the delivered date plus its rental days (DESIGN §5). */
export function lineDueDate(deliveredAt: Date, noOfRentalDays: number): string {
  return addDays(manilaDate(deliveredAt), noOfRentalDays);
}

/** Whether a line due on `dueDate` has reached it on `today` (due today or past): it may be picked up. */
export function isPastDue(dueDate: string, today: string): boolean {
  return compareDates(dueDate, today) <= 0;
}

export type DueNotice = 'OVERDUE' | 'DUE_TODAY' | null;

/**
 * A rental's due notice (SPEC §8) while it is out with the customer (DELIVERED or FOR_RETURN):
 * OVERDUE when some line's due date has passed ('Has to due products'), DUE_TODAY when one is
 * due today ('Some products are due for return today.'), on the Manila calendar.
 */
export function dueNotice(status: OrderStatus, dueDates: ReadonlyArray<string | null>, today: string): DueNotice {
  if (status !== 'DELIVERED' && status !== 'FOR_RETURN') return null;
  const due = dueDates.filter((d): d is string => d !== null);
  if (due.some((d) => compareDates(d, today) < 0)) return 'OVERDUE';
  if (due.some((d) => d === today)) return 'DUE_TODAY';
  return null;
}

// ---- Reminders by e-mail (issue 24) -------------------------------------------------------------

/** Reminders go out from this Manila time of day (the order service's REMINDER_TIME may set another). */
export const REMINDER_TIME = '09:00';

export const RENTAL_REMINDERS = ['DUE_TOMORROW', 'DUE_TODAY', 'OVERDUE', 'FULL_PAYMENT_DUE', 'CYCLE_DUE'] as const;
export type RentalReminder = (typeof RENTAL_REMINDERS)[number];

/**
 * The business day whose reminders are due at `now`: today (Manila) from REMINDER_TIME on, none
 * before it. A day missed entirely (the service was down) is not sent late: the next day's reminder
 * says what is still true then.
 */
export function reminderDayAt(now: Date, from: string = REMINDER_TIME): string | null {
  const today = manilaDate(now);
  return now.getTime() >= manilaInstant(today, from).getTime() ? today : null;
}

/**
 * The reminder a rental gets on `today`, at most one a day: while it is out with the customer
 * (the due notice's statuses) OVERDUE every day after a line's due date, DUE_TODAY on it,
 * DUE_TOMORROW the day before; while its full payment is asked for (FOR_FULL_PAYMENT),
 * FULL_PAYMENT_DUE every day from its due date until it is paid. A rental billed by cycles
 * (issue 29), out and with nothing of the above to say: CYCLE_DUE on the day its oldest unpaid
 * cycle (`cycleDueOn`) falls due, and each week after while it is still not paid.
 */
export function rentalReminder(
  status: OrderStatus,
  dueDates: ReadonlyArray<string | null>,
  fullPaymentDue: string | null,
  today: string,
  cycleDueOn: string | null = null,
): RentalReminder | null {
  if (status === 'FOR_FULL_PAYMENT') return fullPaymentDue !== null && compareDates(fullPaymentDue, today) <= 0 ? 'FULL_PAYMENT_DUE' : null;
  const notice = dueNotice(status, dueDates, today);
  if (notice) return notice;
  if (status !== 'DELIVERED' && status !== 'FOR_RETURN') return null;
  if (dueDates.includes(addDays(today, 1))) return 'DUE_TOMORROW';
  return cycleDueOn !== null && compareDates(cycleDueOn, today) <= 0 && daysBetween(cycleDueOn, today) % 7 === 0 ? 'CYCLE_DUE' : null;
}

// ---- The payment status an order's facts imply ---------------------------------------------------

/** What happened to an order's money, as facts (times or null). */
export interface PaymentFacts {
  firstPaidAt: Date | string | null;
  fullAskedAt: Date | string | null;
  fullPaidAt: Date | string | null;
  cancelled: boolean;
  /** A refund of kind CANCELLED was paid back (what a cancelled order's payment took). */
  cancelRefunded: boolean;
}

/**
 * The payment status (SPEC §4) those facts imply, for read models built from events: cancelled
 * after a payment was taken → REFUND_DUE, REFUNDED once that refund is paid back (as the payment
 * service's table moves it: a cancellation owes back all that was paid); paid in full → PAID;
 * full payment asked → FOR_FULL_PAYMENT; first payment taken → INITIAL_PAYMENT; cancelled before
 * any payment → CANCELLED; else PENDING. (The payment service's own record moves through its
 * table, `PAYMENT_PROCESS` in payment-process.ts.)
 */
export function paymentStatusOf(f: PaymentFacts): PaymentStatus {
  if (f.cancelled && f.firstPaidAt !== null) return f.cancelRefunded ? 'REFUNDED' : 'REFUND_DUE';
  if (f.fullPaidAt !== null) return 'PAID';
  if (f.fullAskedAt !== null) return 'FOR_FULL_PAYMENT';
  if (f.firstPaidAt !== null) return 'INITIAL_PAYMENT';
  if (f.cancelled) return 'CANCELLED';
  return 'PENDING';
}

// ---- At return ------------------------------------------------------------------------------------

/** A unit of a rental as it comes back: how it was marked (none yet: null) and its line's damage or lost fee. */
export interface ReturnedUnit {
  mark: ReturnStatus | null;
  feeCents: number;
}

/**
 * The extra charge at full payment (SPEC §9): the damage or lost fee of every unit marked LOST or
 * DAMAGED. A unit returned OK, or not marked yet, adds nothing (the process asks for the full
 * payment only once every unit is marked).
 */
export function returnChargeCents(units: readonly ReturnedUnit[]): number {
  return sumCents(units.filter((u) => chargedAtReturn(u.mark)).map((u) => u.feeCents));
}

/** Whether a unit that came back with this mark is charged its line's damage or lost fee. */
export function chargedAtReturn(mark: ReturnStatus | null): boolean {
  return mark === 'LOST' || mark === 'DAMAGED';
}

/** A full rental payment is due this many days after it was asked for (SPEC §9). */
export const FULL_PAYMENT_DUE_DAYS = 1;

/** The due date (Manila business date) of a full rental payment asked for at `askedAt`. */
export function fullPaymentDueDate(askedAt: Date): string {
  return addDays(manilaDate(askedAt), FULL_PAYMENT_DUE_DAYS);
}

/** How long after the request the full payment is due, in words ("one day", "3 days"), for prompts. */
export function fullPaymentDueInWords(days: number = FULL_PAYMENT_DUE_DAYS): string {
  return days === 1 ? 'one day' : `${days} days`;
}

/**
 * What asking for a rental's full payment at `askedAt` charges (SPEC §9, issue 29): the extra
 * charge is the damage or lost fee of the units marked LOST or DAMAGED plus the late fees; the
 * deposit held pays those charges first and the rest of it is refunded (rental-money
 * `returnSettlement`); the balance is the rent not paid yet plus what the deposit did not cover —
 * without a deposit SPEC's total + extra − the first payment — due the day after. The order's step
 * computes it when it asks, and its preview (FOR_PICK_UP) before, alike.
 */
export function fullPaymentTerms(f: {
  totalCents: Cents;
  firstPaymentCents: Cents | null;
  /** The rent taken by cycle payments (issue 29). */
  cycleRentPaidCents?: Cents;
  units: readonly ReturnedUnit[];
  askedAt: Date;
  lateFeeCents?: Cents;
  depositHeldCents?: Cents;
}): {
  extraCents: Cents;
  lateFeeCents: Cents;
  depositAppliedCents: Cents;
  depositRefundCents: Cents;
  balanceCents: Cents;
  dueDate: string;
} {
  const lateFeeCents = f.lateFeeCents ?? 0;
  const s = returnSettlement({
    totalCents: f.totalCents,
    rentPaidCents: (f.firstPaymentCents ?? 0) + (f.cycleRentPaidCents ?? 0),
    depositHeldCents: f.depositHeldCents ?? 0,
    damageCents: returnChargeCents(f.units),
    lateFeeCents,
  });
  return {
    extraCents: s.chargesCents,
    lateFeeCents,
    depositAppliedCents: s.appliedCents,
    depositRefundCents: s.refundCents,
    balanceCents: s.balanceCents,
    dueDate: fullPaymentDueDate(f.askedAt),
  };
}

// ---- Rental periods and bookings (issue 25) -----------------------------------------------------

/** How far ahead a rental may start: today up to this many days ahead (Manila calendar). */
export const BOOK_AHEAD_DAYS = 180;
/** Days a returned unit needs before its next rental (cleaning, inspection), unless the product says. */
export const DEFAULT_TURNAROUND_DAYS = 1;
export const MAX_TURNAROUND_DAYS = 30;

/**
 * The days a rental takes its units, on the Manila calendar: it starts on `start`, is due back on
 * `due` (start + rental days, as SPEC's due date is the delivered date + rental days), and the
 * unit serves no other rental before `end` (due + turnaround days; exclusive), the booked range
 * [start, end).
 */
export interface RentalPeriod {
  start: string;
  due: string;
  end: string;
}

export function rentalPeriod(start: string, rentalDays: number, turnaroundDays: number): RentalPeriod {
  const due = addDays(start, rentalDays);
  return { start, due, end: addDays(due, turnaroundDays) };
}

/**
 * A rental line's start: the chosen date while it is still ahead, else today (a line whose chosen
 * day has passed, e.g. left in the cart, starts when it is ordered); a purchase has none.
 */
export function rentalStartOf(type: 'RENT' | 'BUY', start: string | null | undefined, today: string): string | null {
  if (type !== 'RENT') return null;
  return start && compareDates(start, today) > 0 ? start : today;
}

/** The last day a rental may start on, booked on `today`. */
export function lastBookableStart(today: string): string {
  return addDays(today, BOOK_AHEAD_DAYS);
}

/** Whether a rental may start on `start`, booked on `today`: from today up to BOOK_AHEAD_DAYS ahead. */
export function isBookableStart(start: string, today: string): boolean {
  return compareDates(start, today) >= 0 && compareDates(start, lastBookableStart(today)) <= 0;
}

// ---- Extensions (issue 25) ----------------------------------------------------------------------

/** Who asks for more days: the customer (their own rental, once delivered) or staff (any rental not back yet). */
export type Extender = 'CUSTOMER' | 'STAFF';

/**
 * Whether a rental in `status` may get more days now: the customer's own while it is out with
 * them (DELIVERED, an ongoing rental); staff from placing to delivered (a rental booked ahead may
 * be lengthened before it starts). Not once it is being returned, paid in full or cancelled.
 */
export function extendable(type: 'RENT' | 'BUY', status: OrderStatus, by: Extender): boolean {
  if (type !== 'RENT') return false;
  if (by === 'CUSTOMER') return status === 'DELIVERED';
  return ['PENDING', 'FOR_PAYMENT', 'PREPARING', 'TO_SHIP', 'OUT_FOR_DELIVERY', 'DELIVERED'].includes(status);
}

/**
 * A rental line given `days` more: the same unit price and quantity (the line's terms), so its
 * total is re-priced as lineTotalCents and the extra is what the days add.
 */
export function extendedLine(l: PricedLine & { noOfRentalDays: number }, days: number): { noOfRentalDays: number; lineCents: Cents; extraCents: Cents } {
  const after = { ...l, noOfRentalDays: l.noOfRentalDays + days };
  const lineCents = lineTotalCents(after);
  return { noOfRentalDays: after.noOfRentalDays, lineCents, extraCents: lineCents - lineTotalCents(l) };
}

/** A rental line's due date: the delivered date plus its days once delivered, else its booked start plus its days. */
export function plannedDueDate(l: { deliveredAt: Date | null; startDate: string | null; noOfRentalDays: number }): string | null {
  if (l.deliveredAt) return lineDueDate(l.deliveredAt, l.noOfRentalDays);
  return l.startDate ? addDays(l.startDate, l.noOfRentalDays) : null;
}

// ---- Ending a rental early (issue 25) ----------------------------------------------------------

/** Whether staff may end a rental early now: only while it is out with the customer (DELIVERED). */
export function endableEarly(type: 'RENT' | 'BUY', status: OrderStatus): boolean {
  return type === 'RENT' && status === 'DELIVERED';
}

/**
 * The days a delivered rental may be ended early on (its units back that day): not before today
 * (days gone are the customer's), not before the day after delivery (the first day is paid), not
 * before the end of the days its paid billing cycles cover (issue 29: a paid cycle is never partly
 * refunded; `paidDays`, rental-money `paidCycleDays`), and before the last due date of its lines
 * (else nothing ends early). Null when no day fits.
 */
export function earlyEndWindow(deliveredDay: string, dueDates: ReadonlyArray<string>, today: string, paidDays = 0): { from: string; to: string } | null {
  if (dueDates.length === 0) return null;
  const afterDelivery = addDays(deliveredDay, Math.max(1, paidDays));
  const from = compareDates(today, afterDelivery) >= 0 ? today : afterDelivery;
  const to = addDays(dueDates.reduce((a, b) => (compareDates(b, a) > 0 ? b : a)), -1);
  return compareDates(from, to) <= 0 ? { from, to } : null;
}

/**
 * A rental line of a rental delivered on `deliveredDay` that ends on `returnOn`: a line due later
 * is due that day (its days counted from delivery), re-priced with its own terms (extendedLine with
 * fewer days: `extraCents` is what comes off, zero or less); a line due by then stays as it is.
 */
export function endedEarlyLine(
  l: PricedLine & { noOfRentalDays: number },
  deliveredDay: string,
  returnOn: string,
): { noOfRentalDays: number; lineCents: Cents; extraCents: Cents } {
  const days = Math.min(l.noOfRentalDays, Math.max(1, daysBetween(deliveredDay, returnOn)));
  return extendedLine(l, days - l.noOfRentalDays);
}
