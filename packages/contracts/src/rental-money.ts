import type { Cents } from './money';
import { addDays, compareDates, daysBetween } from './time';

/**
 * The money terms of a rental (issue 29), in one home: deposits, late fees, billing cycles,
 * rent-to-own and the deposit's settlement. Pure functions on integer cents and Manila calendar
 * days (YYYY-MM-DD); the services and screens call these and never compute them again. Not wired
 * into checkout, payment or return yet: the terms are snapshotted on order lines in a later step.
 */

/** A deposit per unit: a fixed amount, or a share of the line's rental total (basis points: 2500 = 25%). */
export type DepositTerm = { kind: 'FIXED'; cents: Cents } | { kind: 'PERCENT'; basisPoints: number };

/** A cap on a unit's late fee: an amount, or a number of days charged at most. */
export type LateFeeCap = { kind: 'AMOUNT'; cents: Cents } | { kind: 'DAYS'; days: number };

export interface RentalMoneyTerms {
  deposit: DepositTerm | null;
  /** Per unit per day late, from the day after the due date plus the grace days. */
  lateFeePerDayCents: Cents;
  graceDays: number;
  lateFeeCap: LateFeeCap | null;
  /** UPFRONT: as today (first day, then the rest); CYCLES: a payment per 30 days for rentals longer than 30 days. */
  billing: 'UPFRONT' | 'CYCLES';
  /** Ownership after this many paid cycles; the buy-out credits this share of the rent paid (basis points). */
  rentToOwn: { afterCycles: number; creditBasisPoints: number } | null;
}

/** A billing cycle's length in days. */
export const CYCLE_DAYS = 30;

/** A share of an amount in basis points, rounded half up to the cent (never a float on money beyond this one rounding). */
export function shareCents(cents: Cents, basisPoints: number): Cents {
  return Math.floor((cents * basisPoints + 5_000) / 10_000);
}

/**
 * The deposit of a line: a fixed amount per unit times the units, or a share of the line's rental
 * total (which already counts its units); none without a deposit term.
 */
export function depositCents(term: DepositTerm | null, line: { quantity: number; lineCents: Cents }): Cents {
  if (!term) return 0;
  return term.kind === 'FIXED' ? term.cents * line.quantity : shareCents(line.lineCents, term.basisPoints);
}

/**
 * The days a unit is charged late for: from the day after its due date plus the grace days, up to
 * the day it came back (or today while it is out). Returned on the due date, or within the grace:
 * none.
 */
export function lateDays(dueDate: string, backOn: string, graceDays: number): number {
  return Math.max(0, daysBetween(dueDate, backOn) - graceDays);
}

/** A unit's late fee: its late days at the daily fee, capped by amount or by days. */
export function unitLateFeeCents(terms: Pick<RentalMoneyTerms, 'lateFeePerDayCents' | 'graceDays' | 'lateFeeCap'>, dueDate: string, backOn: string): Cents {
  let days = lateDays(dueDate, backOn, terms.graceDays);
  const cap = terms.lateFeeCap;
  if (cap?.kind === 'DAYS') days = Math.min(days, cap.days);
  const fee = days * terms.lateFeePerDayCents;
  return cap?.kind === 'AMOUNT' ? Math.min(fee, cap.cents) : fee;
}

/**
 * The late fees of a line's units, each by the day it came back (null: still out, counted to
 * `today`): units returned on different days are charged for their own days.
 */
export function lateFeesCents(
  terms: Pick<RentalMoneyTerms, 'lateFeePerDayCents' | 'graceDays' | 'lateFeeCap'>,
  dueDate: string,
  units: ReadonlyArray<{ returnedOn: string | null }>,
  today: string,
): Cents {
  return units.reduce((sum, u) => sum + unitLateFeeCents(terms, dueDate, u.returnedOn ?? today), 0);
}

/** One billing cycle: its number (1…), the days it covers (from, to inclusive), the day it is due and its amount. */
export interface Cycle {
  n: number;
  from: string;
  to: string;
  dueOn: string;
  days: number;
  cents: Cents;
}

/**
 * A rental's billing cycles (CYCLES billing): 30-day cycles from the delivery day, the last one
 * shorter when the days do not divide; each due on its first day (the first at delivery), charged
 * at the line's daily rate for its own days. A rental of 30 days or fewer is one cycle.
 */
export function billingCycles(deliveredOn: string, rentalDays: number, dailyCents: Cents): Cycle[] {
  const cycles: Cycle[] = [];
  for (let start = 0, n = 1; start < rentalDays; start += CYCLE_DAYS, n += 1) {
    const days = Math.min(CYCLE_DAYS, rentalDays - start);
    const from = addDays(deliveredOn, start);
    cycles.push({ n, from, to: addDays(from, days - 1), dueOn: from, days, cents: days * dailyCents });
  }
  return cycles;
}

/** The cycles due by `today` (their due day reached) that are not paid yet (`paid`: how many are). */
export function cyclesDue(cycles: readonly Cycle[], paid: number, today: string): Cycle[] {
  return cycles.filter((c) => c.n > paid && compareDates(c.dueOn, today) <= 0);
}

/**
 * Rent-to-own: what buying the units out costs now — the sale price less the credited share of
 * the rent paid, never below zero — and whether ownership is reached by the cycles paid.
 */
export function buyOut(terms: RentalMoneyTerms['rentToOwn'], f: { salePriceCents: Cents; rentPaidCents: Cents; cyclesPaid: number }): { cents: Cents; owned: boolean } | null {
  if (!terms) return null;
  const credit = shareCents(f.rentPaidCents, terms.creditBasisPoints);
  return { cents: Math.max(0, f.salePriceCents - credit), owned: f.cyclesPaid >= terms.afterCycles };
}

/**
 * The deposit at return: what is owed (damage and lost charges, unpaid late fees) comes from it
 * first; what is left is refunded, or what it does not cover is added to the balance.
 */
export function settleDeposit(heldCents: Cents, owedCents: Cents): { appliedCents: Cents; refundCents: Cents; shortfallCents: Cents } {
  const applied = Math.min(heldCents, owedCents);
  return { appliedCents: applied, refundCents: heldCents - applied, shortfallCents: owedCents - applied };
}

/** A waiver by staff: the fee less what was waived, never below zero nor above the fee. */
export function afterWaiverCents(feeCents: Cents, waivedCents: Cents): Cents {
  return feeCents - Math.min(Math.max(0, waivedCents), feeCents);
}
