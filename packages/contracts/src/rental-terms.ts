import { z } from 'zod';
import { centsToString, isMoneyString, toCents } from './money';
import { BILLINGS, LATE_FEE_MESSAGES, MAX_CAP_DAYS, MAX_OWN_AFTER_CYCLES, MAX_GRACE_DAYS, RENTAL_TERMS_MESSAGES, type RentalTermsWire } from './rental-money';
import { requiredText } from './text';

/**
 * The zod schema of a rental product's money terms (issue 29) as the product form sends them; the
 * types, texts and rules are in rental-money.ts (browser-safe, no zod).
 */

const wireMoney = (error: string) =>
  z
    .union([z.string(), z.number()], { error })
    .transform((v) => (typeof v === 'number' ? String(v) : v.trim()))
    .refine((v) => isMoneyString(v) && toCents(v) >= 0 && toCents(v) <= 99_999_999, { error })
    .transform((v) => centsToString(toCents(v)));
const wholeNumber = (min: number, max: number, error: string) => z.number({ error }).int({ error }).min(min, { error }).max(max, { error });

export const RentalTermsSchema = z.object({
  deposit: z
    .discriminatedUnion('kind', [
      z.object({ kind: z.literal('FIXED'), amount: wireMoney(RENTAL_TERMS_MESSAGES.depositAmount).refine((v) => toCents(v) > 0, { error: RENTAL_TERMS_MESSAGES.depositAmount }) }),
      z.object({ kind: z.literal('PERCENT'), percent: wholeNumber(1, 100, RENTAL_TERMS_MESSAGES.depositPercent) }),
    ])
    .nullable()
    .default(null),
  lateFeePerDay: wireMoney(RENTAL_TERMS_MESSAGES.lateFee).default('0.00'),
  graceDays: wholeNumber(0, MAX_GRACE_DAYS, RENTAL_TERMS_MESSAGES.graceDays).default(0),
  lateFeeCap: z
    .discriminatedUnion('kind', [
      z.object({ kind: z.literal('AMOUNT'), amount: wireMoney(RENTAL_TERMS_MESSAGES.capAmount).refine((v) => toCents(v) > 0, { error: RENTAL_TERMS_MESSAGES.capAmount }) }),
      z.object({ kind: z.literal('DAYS'), days: wholeNumber(1, MAX_CAP_DAYS, RENTAL_TERMS_MESSAGES.capDays) }),
    ])
    .nullable()
    .default(null),
  /** Absent: UPFRONT (rental-money `moneyTermsOf`). */
  billing: z.enum(BILLINGS).optional(),
  /** Rent-to-own (issue 29): only with billing every 30 days. */
  rentToOwn: z
    .object({
      salePrice: wireMoney(RENTAL_TERMS_MESSAGES.salePrice).refine((v) => toCents(v) > 0, { error: RENTAL_TERMS_MESSAGES.salePrice }),
      creditPercent: wholeNumber(0, 100, RENTAL_TERMS_MESSAGES.creditPercent),
      afterCycles: wholeNumber(1, MAX_OWN_AFTER_CYCLES, RENTAL_TERMS_MESSAGES.afterCycles),
    })
    .nullable()
    .optional(),
})
  .refine((t) => !t.rentToOwn || t.billing === 'CYCLES', { error: RENTAL_TERMS_MESSAGES.rentToOwnNeedsCycles, path: ['rentToOwn'] }) satisfies z.ZodType<RentalTermsWire, unknown>;


/** Staff waive all or part of a rental's late fees, with a reason (kept with who and when). */
export const LateFeeWaiverRequest = z.object({
  amount: wireMoney(LATE_FEE_MESSAGES.amount).refine((v) => toCents(v) > 0, { error: LATE_FEE_MESSAGES.amount }),
  reason: requiredText(LATE_FEE_MESSAGES.reason, 300),
});
export type LateFeeWaiverRequest = z.input<typeof LateFeeWaiverRequest>;

/** A rental's 30-day billing cycle (issue 29) as the order and payment screens show it (rental-money `rentalCycles`). */
export const RentalCycle = z.object({
  n: z.number().int(),
  from: z.string(),
  to: z.string(),
  dueOn: z.string(),
  days: z.number().int(),
  /** The rent of its days. */
  amount: z.string(),
  state: z.enum(['PAID', 'DUE', 'UPCOMING', 'CLOSED']),
});
export type RentalCycle = z.infer<typeof RentalCycle>;
