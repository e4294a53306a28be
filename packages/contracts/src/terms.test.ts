import { describe, expect, it } from 'vitest';
import { chargedAtReturn, fullPaymentDueDate, returnChargeCents, type ReturnedUnit } from './terms';

describe('returnChargeCents: the extra charge at full payment', () => {
  const unit = (mark: ReturnedUnit['mark'], feeCents: number): ReturnedUnit => ({ mark, feeCents });
  it.each<[string, ReturnedUnit[], number]>([
    ['nothing returned', [], 0],
    ['all OK', [unit('OK', 15000), unit('OK', 2000)], 0],
    ['one damaged', [unit('DAMAGED', 15000), unit('OK', 15000)], 15000],
    ['one lost', [unit('LOST', 15000)], 15000],
    ['lost and damaged on lines of different fees', [unit('LOST', 15000), unit('DAMAGED', 1999), unit('OK', 50000)], 16999],
    ['a unit not marked yet adds nothing', [unit(null, 15000), unit('DAMAGED', 1)], 1],
    ['a fee of zero', [unit('DAMAGED', 0)], 0],
    ['cents add exactly (0.10 + 0.20)', [unit('DAMAGED', 10), unit('LOST', 20)], 30],
  ])('%s', (_what, units, cents) => {
    expect(returnChargeCents(units)).toBe(cents);
  });
});

describe('chargedAtReturn', () => {
  it.each([
    ['LOST', true],
    ['DAMAGED', true],
    ['OK', false],
    [null, false],
  ] as const)('%s → %s', (mark, charged) => {
    expect(chargedAtReturn(mark)).toBe(charged);
  });
});

describe('fullPaymentDueDate: the Manila day after the full payment is asked for', () => {
  it.each([
    ['mid-morning in Manila', '2026-11-25T02:00:00.000Z', '2026-11-26'],
    ['23:30 in Manila (15:30 UTC): already that Manila day', '2026-11-25T15:30:00.000Z', '2026-11-26'],
    ['00:30 in Manila the next day (16:30 UTC the day before)', '2026-11-25T16:30:00.000Z', '2026-11-27'],
    ['the last day of a month', '2026-11-30T05:00:00.000Z', '2026-12-01'],
    ['new year in Manila', '2026-12-31T16:00:00.000Z', '2027-01-02'],
    ['the end of February in a leap year', '2028-02-28T04:00:00.000Z', '2028-02-29'],
  ])('%s', (_what, at, due) => {
    expect(fullPaymentDueDate(new Date(at))).toBe(due);
  });
});
