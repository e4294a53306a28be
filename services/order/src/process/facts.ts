import { afterWaiverCents, fullPaymentTerms, lineDueDate, manilaDate, rentalLateFees, toCents, type RentalTermsWire, type FieldError, type HandoverLeg, type HandoverOutcome, type OrderStatus, type OrderType, type PackedLine, type ReturnedUnit, type ReturnStatus, type Transition } from '@dme/contracts';
import type { Principal } from '@dme/platform';
import type { z } from 'zod';

/** The guards and effects the process table names (DESIGN §6, packages/contracts process.ts). */
export type Guard = NonNullable<Transition['guard']>;
export type Effect = NonNullable<Transition['effect']>;

/** Who asks for a transition: a signed-in person, or an event (the row's `who` says which may). */
export type Caller =
  | { kind: 'person'; principal: Principal }
  /** `by`: the person behind the event (e.g. who confirmed the payment), recorded in the status event. */
  | { kind: 'event'; event: string; by: string | null };

/**
 * What the request brings besides the target status: packing, the scanned serial codes per line;
 * handover, the hand-over at the door the step is taken with (issue 28: recorded in the same
 * transaction), whose outcome and reason the tracker shows.
 */
export interface TransitionInput {
  packing?: Array<z.output<typeof PackedLine>>;
  handover?: { leg: HandoverLeg; outcome: HandoverOutcome; trackerNote?: string };
}

/** One line of an order as the process reads it. */
export interface FactLine {
  id: string;
  productId: string;
  variantId: string | null;
  subVariantId: string | null;
  productName: string;
  variantName: string | null;
  subVariantName: string | null;
  quantity: number;
  noOfRentalDays: number | null;
  /** The damage or lost fee snapshot of one unit ("250.00"). */
  damageCharges: string;
  /** The rental money terms snapshotted at checkout (issue 29); null or absent: none. */
  rentalTerms?: RentalTermsWire | null;
}

/** A serial code packed for a line, with its return inspection (null until returned). */
export interface FactSerial {
  lineId: string;
  serialCode: string;
  returnStatus: ReturnStatus | null;
  /** The Manila day the unit came back (issue 29: its pick-up hand-over, else its return mark); null or absent: still out. */
  backOn?: string | null;
}

/** What the process table's guards and effects decide on: the order, its lines and their serials (read by `loadOrder`, modules/orders/read.ts). */
export interface OrderFacts {
  id: string;
  orderNumber: string;
  customerId: string;
  type: OrderType;
  status: OrderStatus;
  driverId: string | null;
  deliveredAt: Date | null;
  /** The order total and a rental's first (partial) payment, as placed ("1560.00"; null: a purchase). */
  totalAmount: string;
  partialPayment: string | null;
  /** A rental's deposit (issue 29), taken with the first payment; absent: none. */
  deposit?: string;
  /** Late fees waived by staff so far (issue 29), "0.00" or absent: none. */
  lateFeesWaived?: string;
  /** The rent taken by cycle payments (issue 29), "0.00" or absent: none; the last cycle paid (0: none). */
  cycleRentPaid?: string;
  lastCyclePaid?: number;
  lines: FactLine[];
  serials: FactSerial[];
}

/** A decision of the process: go ahead, or the problem to answer (status, message, fields). */
export type Verdict = { ok: true } | { ok: false; status: 400 | 403 | 409; message: string; errors?: FieldError[] };

export const YES: Verdict = { ok: true };
export const no = (status: 400 | 403 | 409, message: string, errors?: FieldError[]): Verdict => ({ ok: false, status, message, ...(errors ? { errors } : {}) });

/** The order's packed units as they came back (their mark, null until marked) with their line's damage or lost fee. */
export function returnedUnits(order: Pick<OrderFacts, 'lines' | 'serials'>): ReturnedUnit[] {
  const fee = new Map(order.lines.map((l) => [l.id, toCents(l.damageCharges)]));
  return order.serials.map((s) => ({ mark: s.returnStatus, feeCents: fee.get(s.lineId) ?? 0 }));
}

/**
 * A rental's late fees on `today` (issue 29): each line under its own terms from its due date
 * (delivered date + its days), each unit to the day it came back or, still out, to today
 * (rental-money `rentalLateFees`); nothing before delivery.
 */
export function lateFeesOf(order: Pick<OrderFacts, 'deliveredAt' | 'lines' | 'serials'>, today: string): { cents: number; days: number } {
  const delivered = order.deliveredAt;
  if (!delivered) return { cents: 0, days: 0 };
  return rentalLateFees(
    order.lines.map((l) => ({
      terms: l.rentalTerms,
      dueDate: l.noOfRentalDays === null ? null : lineDueDate(delivered, l.noOfRentalDays),
      units: order.serials.filter((s) => s.lineId === l.id).map((s) => ({ returnedOn: s.backOn ?? null })),
    })),
    today,
  );
}

/**
 * What asking for a rental's full payment at `now` charges (contracts `fullPaymentTerms`): the
 * damage or lost fees of its units, its late fees to the day each came back, the deposit held
 * (taken with the first payment, which every rental picked up has had) settled against them.
 * The step (effects `full-payment-due`) and the warehouse's preview read it here alike.
 */
export function fullPaymentTermsOf(order: OrderFacts, now: Date) {
  const countedCents = lateFeesOf(order, manilaDate(now)).cents;
  const lateFeeCents = afterWaiverCents(countedCents, toCents(order.lateFeesWaived ?? '0'));
  const terms = fullPaymentTerms({
    totalCents: toCents(order.totalAmount),
    firstPaymentCents: order.partialPayment === null ? null : toCents(order.partialPayment),
    cycleRentPaidCents: toCents(order.cycleRentPaid ?? '0'),
    units: returnedUnits(order),
    askedAt: now,
    lateFeeCents,
    depositHeldCents: toCents(order.deposit ?? '0'),
  });
  // The part of the late fees counted that waivers took off (never more than was counted).
  return { ...terms, lateFeeWaivedCents: countedCents - lateFeeCents };
}

/** A line as packing names it: product / variant / sub-variant ("Wheelchair / Standard / 18 in"). */
export function lineLabel(line: Pick<FactLine, 'productName' | 'variantName' | 'subVariantName'>): string {
  return [line.productName, line.variantName, line.subVariantName].filter(Boolean).join(' / ');
}

/** Serial codes are matched whatever the case they were typed in (catalog codes are upper case). */
export function normalizeSerial(code: string): string {
  return code.trim().toUpperCase();
}
