import { centsToString, type Billing, isMoneyString, MAX_CAP_DAYS, MAX_GRACE_DAYS, MAX_OWN_AFTER_CYCLES, NO_RENTAL_TERMS, RENTAL_TERMS_MESSAGES, toCents, type RentalTermsWire } from '@dme/contracts/browser';

/**
 * A rental product's money terms (issue 29) as the product form holds them: the same shape and
 * field paths as the wire (so the server's field errors, e.g. "rentalTerms.deposit.amount", land
 * under their field), with "NONE" for no deposit / no cap and the inputs' raw values.
 */
export interface RentalTermsValues {
  deposit?: { kind?: 'NONE' | 'FIXED' | 'PERCENT'; amount?: number | string | null; percent?: number | null };
  lateFeePerDay?: number | string | null;
  graceDays?: number | null;
  lateFeeCap?: { kind?: 'NONE' | 'AMOUNT' | 'DAYS'; amount?: number | string | null; days?: number | null };
  billing?: Billing;
  rentToOwn?: { kind?: 'OFF' | 'ON'; salePrice?: number | string | null; creditPercent?: number | null; afterCycles?: number | null };
}

const MAX_CENTS = 99_999_999;
const empty = (v: unknown): v is null | undefined | '' => v === null || v === undefined || v === '';

/** The cents of an entered amount, or null when it is not one (a money string or a number with at most two decimals). */
function centsOf(v: number | string): number | null {
  const text = typeof v === 'number' ? String(v) : v.trim();
  if (!isMoneyString(text)) return null;
  const cents = toCents(text);
  return cents >= 0 && cents <= MAX_CENTS ? cents : null;
}

/** An entered amount in the wire form ("500.00"); empty: "0.00". */
function wireMoney(v: number | string | null | undefined): string {
  if (empty(v)) return '0.00';
  const cents = centsOf(v);
  return cents === null ? String(v) : centsToString(cents);
}

/** The form's values for a product's terms (none: no deposit, no late fee, no grace, no cap, billed upfront). */
export function rentalTermsValues(t: RentalTermsWire | null | undefined): RentalTermsValues {
  const w = t ?? NO_RENTAL_TERMS;
  return {
    deposit:
      w.deposit === null ? { kind: 'NONE' } : w.deposit.kind === 'FIXED' ? { kind: 'FIXED', amount: w.deposit.amount } : { kind: 'PERCENT', percent: w.deposit.percent },
    lateFeePerDay: toCents(w.lateFeePerDay) > 0 ? w.lateFeePerDay : null,
    graceDays: w.graceDays,
    lateFeeCap:
      w.lateFeeCap === null ? { kind: 'NONE' } : w.lateFeeCap.kind === 'AMOUNT' ? { kind: 'AMOUNT', amount: w.lateFeeCap.amount } : { kind: 'DAYS', days: w.lateFeeCap.days },
    billing: w.billing ?? 'UPFRONT',
    rentToOwn: w.rentToOwn ? { kind: 'ON', ...w.rentToOwn } : { kind: 'OFF' },
  };
}

/**
 * The terms the form sends: null when there is no deposit, no late fee (empty or 0.00 is none)
 * and the rent is billed upfront; else all four, money as "500.00" strings, an empty grace as 0,
 * with `billing: 'CYCLES'` when billed by cycles (upfront is sent as no `billing`: the wire's
 * default, so terms set before billing cycles keep their shape).
 */
export function rentalTermsOf(v: RentalTermsValues | undefined): RentalTermsWire | null {
  const d = v?.deposit;
  const deposit: RentalTermsWire['deposit'] =
    d?.kind === 'FIXED' ? { kind: 'FIXED', amount: wireMoney(d.amount) } : d?.kind === 'PERCENT' ? { kind: 'PERCENT', percent: Number(d.percent) } : null;
  const lateFeePerDay = wireMoney(v?.lateFeePerDay);
  const cycles = v?.billing === 'CYCLES';
  if (deposit === null && (centsOf(lateFeePerDay) ?? 1) === 0 && !cycles) return null;
  const c = v?.lateFeeCap;
  const lateFeeCap: RentalTermsWire['lateFeeCap'] =
    c?.kind === 'AMOUNT' ? { kind: 'AMOUNT', amount: wireMoney(c.amount) } : c?.kind === 'DAYS' ? { kind: 'DAYS', days: Number(c.days) } : null;
  // Rent-to-own goes with billing by cycles only (the server refuses it otherwise).
  const own = cycles && v?.rentToOwn?.kind === 'ON' ? v.rentToOwn : null;
  const rentToOwn = own ? { salePrice: wireMoney(own.salePrice), creditPercent: Number(own.creditPercent), afterCycles: Number(own.afterCycles) } : null;
  return {
    deposit,
    lateFeePerDay,
    graceDays: typeof v?.graceDays === 'number' ? v.graceDays : 0,
    lateFeeCap,
    ...(cycles ? { billing: 'CYCLES' as const } : {}),
    ...(rentToOwn ? { rentToOwn } : {}),
  };
}

/** A form rule with a validator only (antd's Rule shape, kept local). */
type Check = { validator: (_: unknown, value: unknown) => Promise<void> };
const check = (ok: (value: unknown) => boolean, message: string): Check => ({
  validator: async (_, value) => {
    if (!ok(value)) throw new Error(message);
  },
});

const positiveMoney = (v: unknown) => (typeof v === 'number' || typeof v === 'string') && !empty(v) && (centsOf(v) ?? 0) > 0;
const wholeIn = (min: number, max: number) => (v: unknown) => typeof v === 'number' && Number.isInteger(v) && v >= min && v <= max;

/** The fields' checks, with the texts the server answers too (RENTAL_TERMS_MESSAGES). */
export const RENTAL_TERMS_RULES = {
  depositAmount: [check(positiveMoney, RENTAL_TERMS_MESSAGES.depositAmount)],
  depositPercent: [check(wholeIn(1, 100), RENTAL_TERMS_MESSAGES.depositPercent)],
  lateFee: [check((v) => empty(v) || ((typeof v === 'number' || typeof v === 'string') && centsOf(v) !== null), RENTAL_TERMS_MESSAGES.lateFee)],
  graceDays: [check((v) => empty(v) || wholeIn(0, MAX_GRACE_DAYS)(v), RENTAL_TERMS_MESSAGES.graceDays)],
  capAmount: [check(positiveMoney, RENTAL_TERMS_MESSAGES.capAmount)],
  capDays: [check(wholeIn(1, MAX_CAP_DAYS), RENTAL_TERMS_MESSAGES.capDays)],
  salePrice: [check(positiveMoney, RENTAL_TERMS_MESSAGES.salePrice)],
  creditPercent: [check(wholeIn(0, 100), RENTAL_TERMS_MESSAGES.creditPercent)],
  afterCycles: [check(wholeIn(1, MAX_OWN_AFTER_CYCLES), RENTAL_TERMS_MESSAGES.afterCycles)],
};
