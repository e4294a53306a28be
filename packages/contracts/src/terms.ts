import type { ReturnStatus } from './enums';
import { sumCents } from './money';
import { addDays, manilaDate } from './time';

/**
 * Rental and money terms (issue 23): pure rules over integer cents, one home for each, called by
 * the services and the screens alike. More move here as issue 23 goes on.
 */

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
