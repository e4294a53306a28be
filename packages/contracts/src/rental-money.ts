import { centsToString, toCents, type Cents } from './money';
import { addDays, compareDates, daysBetween } from './time';

/**
 * The money terms of a rental (issue 29), in one home: deposits, late fees, billing cycles,
 * rent-to-own and the deposit's settlement. Pure functions on integer cents and Manila calendar
 * days (YYYY-MM-DD); the services and screens call these and never compute them again.
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

/** One billing cycle: its number (1…), the days it covers (from, to inclusive), the day it is due and its rent. */
export interface Cycle {
  n: number;
  from: string;
  to: string;
  dueOn: string;
  days: number;
  cents: Cents;
}

/** A rental line as billing cycles count it: its days and its rent of a day (unit price × quantity). */
export interface CycleLine {
  days: number;
  dailyCents: Cents;
}

/**
 * A rental's billing cycles (CYCLES billing): 30-day cycles from the delivery day, the last one
 * shorter when the days do not divide; each due on its first day (the first at delivery). A
 * cycle's rent is each line's days within it at the line's rent of a day (lines may have different
 * days: a line ended sooner adds nothing to the later cycles). A rental of 30 days or fewer is one cycle.
 */
export function billingCycles(deliveredOn: string, lines: readonly CycleLine[]): Cycle[] {
  const longest = lines.reduce((m, l) => Math.max(m, l.days), 0);
  const cycles: Cycle[] = [];
  for (let start = 0, n = 1; start < longest; start += CYCLE_DAYS, n += 1) {
    const days = Math.min(CYCLE_DAYS, longest - start);
    const from = addDays(deliveredOn, start);
    const cents = lines.reduce((sum, l) => sum + Math.max(0, Math.min(l.days, start + CYCLE_DAYS) - start) * l.dailyCents, 0);
    cycles.push({ n, from, to: addDays(from, days - 1), dueOn: from, days, cents });
  }
  return cycles;
}

/** The cycles due by `today` (their due day reached) that are not paid yet (`paid`: how many are). */
export function cyclesDue(cycles: readonly Cycle[], paid: number, today: string): Cycle[] {
  return cycles.filter((c) => c.n > paid && compareDates(c.dueOn, today) <= 0);
}

/** The rent of cycles 1…n. */
export function rentThroughCents(cycles: readonly Cycle[], n: number): Cents {
  return cycles.reduce((sum, c) => (c.n <= n ? sum + c.cents : sum), 0);
}

/**
 * The cycle payment to take now: the oldest cycle due by `today` after the last one paid, for the
 * rent through its end less the rent paid so far. The first payment (the first day) counts
 * towards cycle 1; days added by an extension to a cycle already paid are paid with the next
 * (issue 29: "a payment to take before or with the next one"); a cycle the rent paid already
 * covers is skipped. Null when nothing is due.
 */
export function cycleDue(cycles: readonly Cycle[], f: { lastCycle: number; rentPaidCents: Cents; today: string }): { cycle: Cycle; cents: Cents } | null {
  for (const c of cyclesDue(cycles, f.lastCycle, f.today)) {
    const cents = rentThroughCents(cycles, c.n) - f.rentPaidCents;
    if (cents > 0) return { cycle: c, cents };
  }
  return null;
}

/**
 * A rental's cycles from its delivery with their state, as the order and payment screens show them
 * (rent as "3000.00"), from its lines as both services keep them (days, unit price of a day,
 * quantity): computed once, here.
 */
export function rentalCycles(
  deliveredOn: string,
  lines: ReadonlyArray<{ noOfRentalDays: number | null; unitPrice: string; quantity: number }>,
  paid: { lastCycle: number; rentPaidCents: Cents; closed?: boolean },
  today: string,
): Array<Omit<Cycle, 'cents'> & { amount: string; state: CycleState }> {
  return cycleStates(billingCycles(deliveredOn, cycleLines(lines)), { ...paid, today }).map(({ cents, ...c }) => ({ ...c, amount: centsToString(cents) }));
}

/** How many of a rental's cycles are paid and due, of how many (the ongoing rentals list). */
export function cycleCounts(cycles: ReadonlyArray<{ state: CycleState }>): { paid: number; due: number; count: number } {
  return { paid: cycles.filter((c) => c.state === 'PAID').length, due: cycles.filter((c) => c.state === 'DUE').length, count: cycles.length };
}

/** Lines as billing cycles count them: their days at the unit price of a day times the quantity. */
export function cycleLines(lines: ReadonlyArray<{ noOfRentalDays: number | null; unitPrice: string; quantity: number }>): CycleLine[] {
  return lines.map((l) => ({ days: l.noOfRentalDays ?? 0, dailyCents: toCents(l.unitPrice) * l.quantity }));
}

/**
 * A cycle as the payment screens show it: paid (taken, or covered by the rent paid), due (its day
 * reached), upcoming, or closed — no longer billed on its own: the rental came back (its rent is
 * in the full payment) or became the customer's (not owed).
 */
export type CycleState = 'PAID' | 'DUE' | 'UPCOMING' | 'CLOSED';

export function cycleStates(cycles: readonly Cycle[], f: { lastCycle: number; rentPaidCents: Cents; today: string; closed?: boolean }): Array<Cycle & { state: CycleState }> {
  return cycles.map((c) => ({
    ...c,
    state:
      c.n <= f.lastCycle || rentThroughCents(cycles, c.n) <= f.rentPaidCents ? 'PAID' : f.closed ? 'CLOSED' : compareDates(c.dueOn, f.today) <= 0 ? 'DUE' : 'UPCOMING',
  }));
}

/** The days from delivery that the billing cycles paid so far cover (1…`lastCycle`): a rental is not ended early within them. */
export function paidCycleDays(lastCycle: number): number {
  return CYCLE_DAYS * Math.max(0, lastCycle);
}

/**
 * Rent-to-own of a rental line billed by cycles (issue 29): the rent its paid days cover (the
 * first day, or the days of the cycles paid, at most its own days), the share of it credited, the
 * buy-out price now (the line's sale price, unit price × quantity, less the credit: rental-money
 * `buyOut`) and whether the paid cycles made it the customer's. Null without rent-to-own terms.
 */
export function lineRentToOwn(
  line: { terms: RentalTermsWire | null | undefined; noOfRentalDays: number | null; unitPrice: string; quantity: number },
  lastCycle: number,
): { rentPaidCents: Cents; creditedCents: Cents; buyOutCents: Cents; owned: boolean; cyclesPaid: number; afterCycles: number } | null {
  const own = line.terms?.rentToOwn;
  if (!own) return null;
  const days = Math.min(line.noOfRentalDays ?? 0, Math.max(1, paidCycleDays(lastCycle)));
  const rentPaidCents = days * toCents(line.unitPrice) * line.quantity;
  const terms = moneyTermsOf(line.terms).rentToOwn;
  const b = buyOut(terms, { salePriceCents: toCents(own.salePrice) * line.quantity, rentPaidCents, cyclesPaid: lastCycle })!;
  return { rentPaidCents, creditedCents: shareCents(rentPaidCents, terms!.creditBasisPoints), buyOutCents: b.cents, owned: b.owned, cyclesPaid: lastCycle, afterCycles: own.afterCycles };
}

/** A line's rent-to-own terms as the order event and the payment carry them (issue 29). */
export type RentToOwnTerms = NonNullable<RentalTermsWire['rentToOwn']>;

/**
 * A whole rental's rent-to-own (issue 29): offered when every one of its rental lines has
 * rent-to-own terms (the order becomes a purchase as one); what buying it out costs after
 * `lastCycle` paid cycles (the lines' `lineRentToOwn` added up) and whether those cycles already
 * made it the customer's (every line owned). Null when some line has none.
 */
export function orderBuyOut(
  lines: ReadonlyArray<{ rentToOwn?: RentToOwnTerms | null; noOfRentalDays: number | null; unitPrice: string; quantity: number }>,
  lastCycle: number,
): { cents: Cents; owned: boolean } | null {
  const rental = lines.filter((l) => l.noOfRentalDays !== null);
  if (rental.length === 0 || rental.some((l) => !l.rentToOwn)) return null;
  const each = rental.map((l) => lineRentToOwn({ ...l, terms: { ...NO_RENTAL_TERMS, billing: 'CYCLES', rentToOwn: l.rentToOwn } }, lastCycle)!);
  return { cents: each.reduce((s, x) => s + x.buyOutCents, 0), owned: each.every((x) => x.owned) };
}

/** How a rental's rent is billed: as SPEC §4 (first day, then the rest at the return), or per 30-day cycle. */
export const BILLINGS = ['UPFRONT', 'CYCLES'] as const;
export type Billing = (typeof BILLINGS)[number];
export const BILLING_LABELS: Record<Billing, string> = { UPFRONT: 'First day, then the rest at the return', CYCLES: 'Every 30 days (rentals over 30 days)' };

/**
 * How an order's rent is billed (issue 29): per 30-day cycle when one of its rental lines has
 * terms that bill by cycles and runs more than 30 days; then all its lines are billed together in
 * the same cycles (one bill a month). Otherwise as SPEC §4.
 */
export function orderBilling(lines: ReadonlyArray<{ terms: RentalTermsWire | null | undefined; noOfRentalDays: number | null }>): Billing {
  return lines.some((l) => (l.terms?.billing ?? 'UPFRONT') === 'CYCLES' && (l.noOfRentalDays ?? 0) > CYCLE_DAYS) ? 'CYCLES' : 'UPFRONT';
}

/** The name of a cycle's payment (the payment screens, the order pages, the invoice). */
export function cyclePaymentLabel(n: number): string {
  return `Cycle ${n} payment`;
}

/**
 * The name of a payment record of issue 29's kinds — a cycle's ("Cycle 2 payment"), a buy-out
 * ("Buy-out") — on every screen and the invoice; null for SPEC's first and full payments, which
 * each screen names in its own words.
 */
export function rentalRecordLabel(r: { type: 'PARTIAL' | 'FULL' | 'CYCLE' | 'BUYOUT'; cycle?: number | null }): string | null {
  if (r.type === 'CYCLE') return cyclePaymentLabel(r.cycle ?? 0);
  return r.type === 'BUYOUT' ? 'Buy-out' : null;
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

// ---- The terms as a product and an order line carry them (wire form) -----------------------------

/** The largest grace a late fee may have, and the most days a cap may count. */
export const MAX_GRACE_DAYS = 30;
export const MAX_CAP_DAYS = 365;
/** The most paid cycles rent-to-own may ask before the unit is the customer's. */
export const MAX_OWN_AFTER_CYCLES = 60;

/** The texts of the terms' fields (the product form shows them under the field). */
export const RENTAL_TERMS_MESSAGES = {
  depositAmount: 'Enter the deposit per unit, like 500.00.',
  depositPercent: 'Enter a percent from 1 to 100.',
  lateFee: 'Enter the late fee per day, like 50.00 (0.00: none).',
  graceDays: `Grace days must be a whole number from 0 to ${MAX_GRACE_DAYS}.`,
  capAmount: 'Enter the most a unit is charged late, like 500.00.',
  capDays: `Enter the most days charged late, from 1 to ${MAX_CAP_DAYS}.`,
  salePrice: 'Enter the sale price of a unit, like 30000.00.',
  creditPercent: 'Enter the share of the rent credited, from 0 to 100 percent.',
  afterCycles: `Enter the paid cycles after which it is the customer's, from 1 to ${MAX_OWN_AFTER_CYCLES}.`,
  rentToOwnNeedsCycles: 'Rent-to-own needs billing every 30 days.',
} as const;

/**
 * A rental product's money terms as the product form sends them and the product, the order line
 * and the order show them (money as "500.00" strings, a percent deposit in whole percent). Null
 * (or absent) on a product: no deposit and no late fee.
 */
export interface RentalTermsWire {
  deposit: { kind: 'FIXED'; amount: string } | { kind: 'PERCENT'; percent: number } | null;
  lateFeePerDay: string;
  graceDays: number;
  lateFeeCap: { kind: 'AMOUNT'; amount: string } | { kind: 'DAYS'; days: number } | null;
  /** How the rent is billed (issue 29); absent on terms set before billing cycles: UPFRONT. */
  billing?: Billing;
  /**
   * Rent-to-own (issue 29), with billing by cycles only: the unit's sale price, the share of the
   * rent paid credited to a buy-out (whole percent) and the paid cycles after which it is the
   * customer's. Absent or null: none.
   */
  rentToOwn?: { salePrice: string; creditPercent: number; afterCycles: number } | null;
}

/** Waiving late fees (issue 29): texts of the form and of the refusals. */
export const LATE_FEE_MESSAGES = {
  amount: 'Please input the amount to waive!',
  reason: 'Please give the reason for the waiver!',
  tooMuch: 'The waiver cannot be more than the late fees not waived yet.',
  notNow: 'Late fees can be waived only while the rental is out, being returned or picked up.',
  waived: 'Late fees waived.',
} as const;

/** No deposit, no late fee: the terms of a product that sets none (and of lines placed before issue 29). */
export const NO_RENTAL_TERMS: RentalTermsWire = { deposit: null, lateFeePerDay: '0.00', graceDays: 0, lateFeeCap: null };

/** The wire terms in cents and basis points, for the functions above. */
export function moneyTermsOf(w: RentalTermsWire | null | undefined): RentalMoneyTerms {
  const t = w ?? NO_RENTAL_TERMS;
  return {
    deposit: t.deposit === null ? null : t.deposit.kind === 'FIXED' ? { kind: 'FIXED', cents: toCents(t.deposit.amount) } : { kind: 'PERCENT', basisPoints: t.deposit.percent * 100 },
    lateFeePerDayCents: toCents(t.lateFeePerDay),
    graceDays: t.graceDays,
    lateFeeCap: t.lateFeeCap === null ? null : t.lateFeeCap.kind === 'AMOUNT' ? { kind: 'AMOUNT', cents: toCents(t.lateFeeCap.amount) } : { kind: 'DAYS', days: t.lateFeeCap.days },
    billing: t.billing ?? 'UPFRONT',
    rentToOwn: t.rentToOwn ? { afterCycles: t.rentToOwn.afterCycles, creditBasisPoints: t.rentToOwn.creditPercent * 100 } : null,
  };
}

/** A rental line's deposit under its snapshotted terms (depositCents over the line's quantity and total). */
export function lineDepositCents(terms: RentalTermsWire | null | undefined, line: { quantity: number; lineCents: Cents }): Cents {
  return depositCents(moneyTermsOf(terms).deposit, line);
}

/** The terms in words for the shop and the order ("Deposit ₱500.00 per unit · Late fee ₱50.00 a day after 2 grace days, at most 10 days"). */
export function termsInWords(t: RentalTermsWire | null | undefined, peso: (amount: string) => string): string[] {
  if (!t) return [];
  const out: string[] = [];
  if (t.deposit?.kind === 'FIXED') out.push(`Deposit ${peso(t.deposit.amount)} per unit, refunded at return less any charges`);
  if (t.deposit?.kind === 'PERCENT') out.push(`Deposit ${t.deposit.percent}% of the rental, refunded at return less any charges`);
  if (toCents(t.lateFeePerDay) > 0) {
    const grace = t.graceDays > 0 ? ` after ${t.graceDays} grace day${t.graceDays === 1 ? '' : 's'}` : '';
    const cap = t.lateFeeCap === null ? '' : t.lateFeeCap.kind === 'AMOUNT' ? `, at most ${peso(t.lateFeeCap.amount)} a unit` : `, at most ${t.lateFeeCap.days} day${t.lateFeeCap.days === 1 ? '' : 's'}`;
    out.push(`Late fee ${peso(t.lateFeePerDay)} a day per unit${grace}${cap}`);
  }
  if (t.billing === 'CYCLES') out.push(`Rentals over ${CYCLE_DAYS} days are billed every ${CYCLE_DAYS} days`);
  if (t.rentToOwn) {
    const r = t.rentToOwn;
    out.push(
      `Rent-to-own: yours after ${r.afterCycles} paid cycle${r.afterCycles === 1 ? '' : 's'}, or buy it out any time for ${peso(r.salePrice)} a unit less ${r.creditPercent}% of the rent paid`,
    );
  }
  return out;
}

// ---- A rental at its return: late fees, the deposit's settlement and the balance -----------------

/**
 * What a rental owes when its full payment is asked for (issue 29): the charges (damage or lost
 * fees and late fees) come from the deposit first (settleDeposit); what is left of the deposit is
 * refunded; the balance is the rent not paid yet (order total − the rent paid, deposit apart) plus
 * what the deposit did not cover. Without a deposit it is SPEC §9's balance: total + extra − paid.
 */
export function returnSettlement(f: { totalCents: Cents; rentPaidCents: Cents; depositHeldCents: Cents; damageCents: Cents; lateFeeCents: Cents }): {
  chargesCents: Cents;
  appliedCents: Cents;
  refundCents: Cents;
  shortfallCents: Cents;
  balanceCents: Cents;
} {
  const chargesCents = f.damageCents + f.lateFeeCents;
  const s = settleDeposit(f.depositHeldCents, chargesCents);
  return { chargesCents, ...s, balanceCents: f.totalCents - f.rentPaidCents + s.shortfallCents };
}

/**
 * The late fees of a rental's lines while out or as they came back: each line's units by the day
 * each came back (null: still out, counted to `today`), under the line's own terms and due date.
 */
export function rentalLateFees(
  lines: ReadonlyArray<{ terms: RentalTermsWire | null | undefined; dueDate: string | null; units: ReadonlyArray<{ returnedOn: string | null }> }>,
  today: string,
): { cents: Cents; days: number } {
  let cents = 0;
  let days = 0;
  for (const l of lines) {
    if (l.dueDate === null) continue;
    const t = moneyTermsOf(l.terms);
    if (t.lateFeePerDayCents === 0) continue;
    cents += lateFeesCents(t, l.dueDate, l.units, today);
    for (const u of l.units) days = Math.max(days, lateDays(l.dueDate, u.returnedOn ?? today, t.graceDays));
  }
  return { cents, days };
}
