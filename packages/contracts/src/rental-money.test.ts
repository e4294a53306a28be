import { describe, expect, it } from 'vitest';
import { RentalTermsSchema } from './rental-terms';
import { afterWaiverCents, billingCycles, buyOut, lineRentToOwn, orderBuyOut, rentalRecordLabel, cycleDue, cyclesDue, cycleStates, orderBilling, depositCents, lateDays, lateFeesCents, lineDepositCents, moneyTermsOf, NO_RENTAL_TERMS, rentalLateFees, RENTAL_TERMS_MESSAGES, settleDeposit, shareCents, termsInWords, unitLateFeeCents, type RentalMoneyTerms } from './rental-money';

const terms = (over: Partial<RentalMoneyTerms> = {}): RentalMoneyTerms => ({
  deposit: null,
  lateFeePerDayCents: 500,
  graceDays: 0,
  lateFeeCap: null,
  billing: 'UPFRONT',
  rentToOwn: null,
  ...over,
});

describe('shares of an amount, to the cent (half up)', () => {
  it.each([
    [10_000, 2500, 2500],
    [999, 3333, 333], // 332.97 → 333
    [1, 5000, 1], // 0.5 → 1
    [3, 1666, 0], // 0.4998 → 0
    [12_345, 10_000, 12_345],
    [0, 2500, 0],
  ])('%i cents at %i bp = %i', (cents, bp, want) => expect(shareCents(cents, bp)).toBe(want));
});

describe('deposits per line', () => {
  it.each([
    ['none', null, 2, 12_000, 0],
    ['fixed per unit', { kind: 'FIXED', cents: 5_000 } as const, 3, 12_000, 15_000],
    ['a share of the rental total', { kind: 'PERCENT', basisPoints: 2500 } as const, 2, 12_000, 3_000],
    ['a share, rounded half up', { kind: 'PERCENT', basisPoints: 1500 } as const, 1, 3_333, 500],
  ])('%s', (_name, term, quantity, lineCents, want) => expect(depositCents(term, { quantity, lineCents })).toBe(want));
});

describe('late fees: from the day after the due date plus grace, per unit per day, capped', () => {
  it.each([
    ['returned on the due date', terms(), '2026-03-10', '2026-03-10', 0],
    ['one day late', terms(), '2026-03-10', '2026-03-11', 500],
    ['returned early', terms(), '2026-03-10', '2026-03-08', 0],
    ['within the grace', terms({ graceDays: 2 }), '2026-03-10', '2026-03-12', 0],
    ['the first day past the grace', terms({ graceDays: 2 }), '2026-03-10', '2026-03-13', 500],
    ['5 days late, 2 of grace', terms({ graceDays: 2 }), '2026-03-10', '2026-03-15', 1_500],
    ['capped by an amount', terms({ lateFeeCap: { kind: 'AMOUNT', cents: 1_200 } }), '2026-03-10', '2026-03-20', 1_200],
    ['capped by days', terms({ lateFeeCap: { kind: 'DAYS', days: 3 } }), '2026-03-10', '2026-03-20', 1_500],
    ['under the cap', terms({ lateFeeCap: { kind: 'AMOUNT', cents: 10_000 } }), '2026-03-10', '2026-03-12', 1_000],
    ['across a month end', terms(), '2026-02-27', '2026-03-02', 1_500],
    ['across a leap day', terms(), '2028-02-27', '2028-03-01', 1_500],
  ])('%s', (_name, t, due, back, want) => expect(unitLateFeeCents(t, due, back)).toBe(want));

  it('counts late days on the calendar', () => {
    expect(lateDays('2026-12-30', '2027-01-02', 0)).toBe(3);
    expect(lateDays('2026-12-30', '2027-01-02', 5)).toBe(0);
  });

  it('several units returned on different days: each charged for its own days; one still out counts to today', () => {
    const t = terms({ lateFeePerDayCents: 250, graceDays: 1 });
    const units = [{ returnedOn: '2026-03-10' }, { returnedOn: '2026-03-13' }, { returnedOn: null }];
    // 0 + (3 − 1) × 250 + (6 − 1) × 250 (out until today, the 16th)
    expect(lateFeesCents(t, '2026-03-10', units, '2026-03-16')).toBe(0 + 500 + 1_250);
  });
});

describe('billing cycles of 30 days', () => {
  it('a 60-day rental: two cycles of 30 days, each due on its first day, the first at delivery', () => {
    expect(billingCycles('2026-03-01', [{ days: 60, dailyCents: 1_000 }])).toEqual([
      { n: 1, from: '2026-03-01', to: '2026-03-30', dueOn: '2026-03-01', days: 30, cents: 30_000 },
      { n: 2, from: '2026-03-31', to: '2026-04-29', dueOn: '2026-03-31', days: 30, cents: 30_000 },
    ]);
  });

  it('a 75-day rental: the last cycle is the 15 days left', () => {
    const cycles = billingCycles('2026-11-20', [{ days: 75, dailyCents: 750 }]);
    expect(cycles.map((c) => [c.n, c.days, c.cents, c.dueOn])).toEqual([
      [1, 30, 22_500, '2026-11-20'],
      [2, 30, 22_500, '2026-12-20'],
      [3, 15, 11_250, '2027-01-19'],
    ]);
    expect(cycles.reduce((s, c) => s + c.cents, 0)).toBe(75 * 750);
  });

  it('a rental of 30 days or fewer is one cycle', () => {
    expect(billingCycles('2026-03-01', [{ days: 12, dailyCents: 1_000 }])).toEqual([{ n: 1, from: '2026-03-01', to: '2026-03-12', dueOn: '2026-03-01', days: 12, cents: 12_000 }]);
  });

  it('what is due by a day and not paid yet', () => {
    const cycles = billingCycles('2026-03-01', [{ days: 90, dailyCents: 100 }]);
    expect(cyclesDue(cycles, 0, '2026-03-01').map((c) => c.n)).toEqual([1]);
    expect(cyclesDue(cycles, 1, '2026-03-30').map((c) => c.n)).toEqual([]);
    expect(cyclesDue(cycles, 1, '2026-03-31').map((c) => c.n)).toEqual([2]);
    expect(cyclesDue(cycles, 1, '2026-05-01').map((c) => c.n)).toEqual([2, 3]);
  });
});

describe('billing cycles: lines, what is due and the order\'s billing', () => {
  it('lines of different days: a line ended sooner adds nothing to the later cycles', () => {
    const cycles = billingCycles('2026-03-01', [
      { days: 45, dailyCents: 1_000 },
      { days: 20, dailyCents: 500 },
    ]);
    expect(cycles.map((c) => [c.n, c.days, c.cents])).toEqual([
      [1, 30, 30 * 1_000 + 20 * 500],
      [2, 15, 15 * 1_000],
    ]);
  });

  // A 60-day rental at ₱100.00 a day: first payment (day 1) ₱100.00, then cycles.
  const sixty = billingCycles('2026-03-01', [{ days: 60, dailyCents: 10_000 }]);
  it.each([
    ['before delivery day: nothing', 0, 10_000, '2026-02-28', null],
    ['at delivery: cycle 1 less the first day', 0, 10_000, '2026-03-01', [1, 290_000]],
    ['cycle 1 paid, before cycle 2: nothing', 1, 300_000, '2026-03-30', null],
    ['cycle 2 on its day', 1, 300_000, '2026-03-31', [2, 300_000]],
    ['behind: the oldest cycle first', 0, 10_000, '2026-04-15', [1, 290_000]],
    ['both paid: nothing', 2, 600_000, '2026-05-30', null],
    ['cycle 1 covered by the rent paid: skipped to cycle 2', 0, 300_000, '2026-03-31', [2, 300_000]],
  ] as const)('%s', (_name, lastCycle, rentPaidCents, today, want) => {
    const due = cycleDue(sixty, { lastCycle, rentPaidCents, today });
    expect(due === null ? null : [due.cycle.n, due.cents]).toEqual(want);
  });

  it('an extension adds its days to the cycle it falls in; the next payment takes what the paid cycles lack', () => {
    // 30 days paid in full (cycle 1), then extended to 65 days: cycle 1 is now 30 days still; cycle 2 is 30, cycle 3 is 5.
    const extended = billingCycles('2026-03-01', [{ days: 65, dailyCents: 10_000 }]);
    expect(extended.map((c) => c.days)).toEqual([30, 30, 5]);
    expect(cycleDue(extended, { lastCycle: 2, rentPaidCents: 600_000, today: '2026-04-30' })).toMatchObject({ cycle: { n: 3 }, cents: 50_000 });
    // Extended from 20 days (one short cycle, paid) to 45: cycle 1 grows to 30 days; its 10 new days are paid with cycle 2.
    const grown = billingCycles('2026-03-01', [{ days: 45, dailyCents: 10_000 }]);
    expect(cycleDue(grown, { lastCycle: 1, rentPaidCents: 200_000, today: '2026-03-31' })).toMatchObject({ cycle: { n: 2 }, cents: 250_000 });
  });

  it('each cycle paid, due or upcoming', () => {
    expect(cycleStates(sixty, { lastCycle: 1, rentPaidCents: 300_000, today: '2026-03-31' }).map((c) => c.state)).toEqual(['PAID', 'DUE']);
    expect(cycleStates(sixty, { lastCycle: 0, rentPaidCents: 10_000, today: '2026-03-10' }).map((c) => c.state)).toEqual(['DUE', 'UPCOMING']);
    // Back, or the customer's: what was not paid by cycle is no longer billed on its own.
    expect(cycleStates(sixty, { lastCycle: 1, rentPaidCents: 300_000, today: '2026-03-31', closed: true }).map((c) => c.state)).toEqual(['PAID', 'CLOSED']);
  });

  it('an order is billed by cycles when a line whose terms say so runs more than 30 days', () => {
    const cyc = { ...NO_RENTAL_TERMS, billing: 'CYCLES' as const };
    expect(orderBilling([{ terms: cyc, noOfRentalDays: 31 }])).toBe('CYCLES');
    expect(orderBilling([{ terms: cyc, noOfRentalDays: 30 }])).toBe('UPFRONT');
    expect(orderBilling([{ terms: NO_RENTAL_TERMS, noOfRentalDays: 90 }, { terms: cyc, noOfRentalDays: 60 }])).toBe('CYCLES');
    expect(orderBilling([{ terms: NO_RENTAL_TERMS, noOfRentalDays: 90 }, { terms: null, noOfRentalDays: 60 }])).toBe('UPFRONT');
    expect(orderBilling([{ terms: cyc, noOfRentalDays: null }])).toBe('UPFRONT');
  });
});

describe('rent-to-own of a line (issue 29)', () => {
  // A bed at ₱100.00 a day for 360 days, sale price ₱30,000.00, half the rent credited, yours after 12 cycles.
  const own = { ...NO_RENTAL_TERMS, billing: 'CYCLES' as const, rentToOwn: { salePrice: '30000.00', creditPercent: 50, afterCycles: 12 } };
  const bed = (quantity = 1, terms: typeof own | typeof NO_RENTAL_TERMS = own) => ({ terms, noOfRentalDays: 360, unitPrice: '100.00', quantity });
  it.each([
    ['only the first day paid', 0, { rentPaidCents: 10_000, creditedCents: 5_000, buyOutCents: 2_995_000, owned: false, cyclesPaid: 0, afterCycles: 12 }],
    ['two cycles paid: 60 days of rent, half of it off the sale price', 2, { rentPaidCents: 600_000, creditedCents: 300_000, buyOutCents: 2_700_000, owned: false, cyclesPaid: 2, afterCycles: 12 }],
    ['twelve cycles paid: the customer\'s', 12, { rentPaidCents: 3_600_000, creditedCents: 1_800_000, buyOutCents: 1_200_000, owned: true, cyclesPaid: 12, afterCycles: 12 }],
  ] as const)('%s', (_name, lastCycle, want) => expect(lineRentToOwn(bed(), lastCycle)).toEqual(want));

  it('two units: twice the sale price and the rent; no terms: none; never below zero', () => {
    expect(lineRentToOwn(bed(2), 2)).toMatchObject({ rentPaidCents: 1_200_000, buyOutCents: 5_400_000 });
    expect(lineRentToOwn(bed(1, NO_RENTAL_TERMS), 2)).toBeNull();
    const cheap = { ...own, rentToOwn: { salePrice: '1000.00', creditPercent: 100, afterCycles: 12 } };
    expect(lineRentToOwn({ terms: cheap, noOfRentalDays: 360, unitPrice: '100.00', quantity: 1 }, 2)!.buyOutCents).toBe(0);
  });

  it('the terms in words, and the form: rent-to-own only with billing every 30 days', () => {
    expect(termsInWords(own, (a) => `$${a}`)).toContain('Rent-to-own: yours after 12 paid cycles, or buy it out any time for $30000.00 a unit less 50% of the rent paid');
    expect(RentalTermsSchema.safeParse({ billing: 'CYCLES', rentToOwn: { salePrice: '30000', creditPercent: 50, afterCycles: 12 } }).data?.rentToOwn).toEqual({ salePrice: '30000.00', creditPercent: 50, afterCycles: 12 });
    const upfront = RentalTermsSchema.safeParse({ rentToOwn: { salePrice: '30000', creditPercent: 50, afterCycles: 12 } });
    expect(upfront.error?.issues.map((i) => [i.path.join('.'), i.message])).toEqual([['rentToOwn', RENTAL_TERMS_MESSAGES.rentToOwnNeedsCycles]]);
    const bad = RentalTermsSchema.safeParse({ billing: 'CYCLES', rentToOwn: { salePrice: '0', creditPercent: 101, afterCycles: 0 } });
    expect(bad.error?.issues.map((i) => i.message).sort()).toEqual([RENTAL_TERMS_MESSAGES.afterCycles, RENTAL_TERMS_MESSAGES.creditPercent, RENTAL_TERMS_MESSAGES.salePrice].sort());
  });
});

describe('the names of issue 29\'s payment records', () => {
  it('a cycle by its number, a buy-out as such; SPEC\'s first and full payments are the screens\' own words', () => {
    expect(rentalRecordLabel({ type: 'CYCLE', cycle: 2 })).toBe('Cycle 2 payment');
    expect(rentalRecordLabel({ type: 'BUYOUT' })).toBe('Buy-out');
    expect(rentalRecordLabel({ type: 'PARTIAL' })).toBeNull();
    expect(rentalRecordLabel({ type: 'FULL' })).toBeNull();
  });
});

describe('a whole rental bought out (issue 29)', () => {
  const own = { salePrice: '30000.00', creditPercent: 50, afterCycles: 12 };
  const line = (over = {}) => ({ rentToOwn: own, noOfRentalDays: 360, unitPrice: '100.00', quantity: 1, ...over });
  it('every rental line rent-to-own: the sum of their buy-outs, owned when every line is', () => {
    expect(orderBuyOut([line(), line({ unitPrice: '50.00', rentToOwn: { ...own, salePrice: '10000.00', afterCycles: 6 } })], 2)).toEqual({ cents: 2_700_000 + 1_000_000 - 150_000, owned: false });
    expect(orderBuyOut([line(), line({ rentToOwn: { ...own, afterCycles: 6 } })], 6)).toMatchObject({ owned: false });
    expect(orderBuyOut([line(), line({ rentToOwn: { ...own, afterCycles: 6 } })], 12)).toMatchObject({ owned: true });
  });
  it('a line without rent-to-own: none for the order (it is not a purchase as one); a purchase line is not a rental line', () => {
    expect(orderBuyOut([line(), line({ rentToOwn: null })], 2)).toBeNull();
    expect(orderBuyOut([line(), { rentToOwn: null, noOfRentalDays: null, unitPrice: '20.00', quantity: 1 }], 0)).toEqual({ cents: 2_995_000, owned: false });
    expect(orderBuyOut([], 0)).toBeNull();
  });
});

describe('rent-to-own', () => {
  it.each([
    ['no rent-to-own', null, 100_000, 30_000, 1, null],
    ['half the rent credited', { afterCycles: 6, creditBasisPoints: 5000 }, 100_000, 30_000, 2, { cents: 85_000, owned: false }],
    ['never below zero', { afterCycles: 6, creditBasisPoints: 10_000 }, 20_000, 30_000, 2, { cents: 0, owned: false }],
    ['owned after the cycles', { afterCycles: 3, creditBasisPoints: 5000 }, 100_000, 45_000, 3, { cents: 77_500, owned: true }],
  ] as const)('%s', (_name, t, sale, paid, cycles, want) => expect(buyOut(t, { salePriceCents: sale, rentPaidCents: paid, cyclesPaid: cycles })).toEqual(want));
});

describe('the deposit at return', () => {
  it.each([
    ['nothing owed: all refunded', 10_000, 0, { appliedCents: 0, refundCents: 10_000, shortfallCents: 0 }],
    ['damage under the deposit: the rest refunded', 10_000, 3_550, { appliedCents: 3_550, refundCents: 6_450, shortfallCents: 0 }],
    ['damage over the deposit: the rest to pay', 10_000, 25_010, { appliedCents: 10_000, refundCents: 0, shortfallCents: 15_010 }],
    ['no deposit', 0, 1_000, { appliedCents: 0, refundCents: 0, shortfallCents: 1_000 }],
  ])('%s', (_name, held, owed, want) => expect(settleDeposit(held, owed)).toEqual(want));

  it('5 days late with one unit damaged, a 100.00 deposit: late fee and damage from the deposit first, the rest to pay; after a waiver of the late fee, a refund', () => {
    const t = terms({ lateFeePerDayCents: 1_000, graceDays: 1 });
    const late = lateFeesCents(t, '2026-03-10', [{ returnedOn: '2026-03-15' }, { returnedOn: '2026-03-15' }], '2026-03-20');
    expect(late).toBe(2 * 4 * 1_000);
    const damage = 9_000;
    expect(settleDeposit(10_000, late + damage)).toEqual({ appliedCents: 10_000, refundCents: 0, shortfallCents: 7_000 });
    const waived = afterWaiverCents(late, 8_000);
    expect(waived).toBe(0);
    expect(settleDeposit(10_000, waived + damage)).toEqual({ appliedCents: 9_000, refundCents: 1_000, shortfallCents: 0 });
  });

  it('a waiver never goes below zero nor above the fee', () => {
    expect(afterWaiverCents(5_000, 2_000)).toBe(3_000);
    expect(afterWaiverCents(5_000, 9_000)).toBe(0);
    expect(afterWaiverCents(5_000, -100)).toBe(5_000);
  });
});

describe('the terms as products and order lines carry them (wire form)', () => {
  const wire = { deposit: { kind: 'PERCENT' as const, percent: 25 }, lateFeePerDay: '50.00', graceDays: 2, lateFeeCap: { kind: 'AMOUNT' as const, amount: '300.00' } };
  it('reads them in cents and basis points; none reads as no deposit and no fee', () => {
    expect(moneyTermsOf(wire)).toEqual({
      deposit: { kind: 'PERCENT', basisPoints: 2500 },
      lateFeePerDayCents: 5000,
      graceDays: 2,
      lateFeeCap: { kind: 'AMOUNT', cents: 30000 },
      billing: 'UPFRONT',
      rentToOwn: null,
    });
    expect(moneyTermsOf(null)).toMatchObject({ deposit: null, lateFeePerDayCents: 0, graceDays: 0, lateFeeCap: null });
  });
  it('a line deposit: 25% of a ₱1,234.50 line is ₱308.63 (half up); ₱500 fixed per unit of 3 is ₱1,500', () => {
    expect(lineDepositCents(wire, { quantity: 1, lineCents: 123450 })).toBe(30863);
    expect(lineDepositCents({ ...wire, deposit: { kind: 'FIXED', amount: '500.00' } }, { quantity: 3, lineCents: 999 })).toBe(150000);
    expect(lineDepositCents(null, { quantity: 3, lineCents: 999 })).toBe(0);
  });
  it('parses the form: amounts to two decimals, defaults for what is left out, texts for what is wrong', () => {
    expect(RentalTermsSchema.parse({ deposit: { kind: 'FIXED', amount: '500' } })).toEqual({ deposit: { kind: 'FIXED', amount: '500.00' }, lateFeePerDay: '0.00', graceDays: 0, lateFeeCap: null });
    expect(RentalTermsSchema.safeParse({ billing: 'MONTHLY' }).success).toBe(false);
    const bad = RentalTermsSchema.safeParse({ deposit: { kind: 'PERCENT', percent: 101 }, graceDays: -1 });
    expect(bad.success).toBe(false);
    expect(bad.error!.issues.map((i) => i.message).sort()).toEqual([RENTAL_TERMS_MESSAGES.depositPercent, RENTAL_TERMS_MESSAGES.graceDays].sort());
  });
  it('late fees of a rental: each line by its own terms and due date, units back on different days, capped per unit', () => {
    const lines = [
      // Due the 10th, 2 grace days, ₱50 a day capped at ₱300 a unit: one back on the 15th (3 days), one still out on the 30th (capped).
      { terms: wire, dueDate: '2026-11-10', units: [{ returnedOn: '2026-11-15' }, { returnedOn: null }] },
      // No late fee on this line.
      { terms: null, dueDate: '2026-11-10', units: [{ returnedOn: null }] },
      // Not delivered yet: no due date, nothing late.
      { terms: wire, dueDate: null, units: [] },
    ];
    expect(rentalLateFees(lines, '2026-11-30')).toEqual({ cents: 15000 + 30000, days: 18 });
    // Within the grace: nothing yet; the day after it, one day.
    expect(rentalLateFees([{ terms: wire, dueDate: '2026-11-10', units: [{ returnedOn: null }] }], '2026-11-12')).toEqual({ cents: 0, days: 0 });
    expect(rentalLateFees([{ terms: wire, dueDate: '2026-11-10', units: [{ returnedOn: null }] }], '2026-11-13')).toEqual({ cents: 5000, days: 1 });
  });
  it('says the terms in words', () => {
    const peso = (a: string) => `₱${a}`;
    expect(termsInWords(wire, peso)).toEqual(['Deposit 25% of the rental, refunded at return less any charges', 'Late fee ₱50.00 a day per unit after 2 grace days, at most ₱300.00 a unit']);
    expect(termsInWords({ deposit: { kind: 'FIXED', amount: '1000.00' }, lateFeePerDay: '100.00', graceDays: 1, lateFeeCap: { kind: 'DAYS', days: 10 } }, peso)).toEqual([
      'Deposit ₱1000.00 per unit, refunded at return less any charges',
      'Late fee ₱100.00 a day per unit after 1 grace day, at most 10 days',
    ]);
    expect(termsInWords(NO_RENTAL_TERMS, peso)).toEqual([]);
  });
});
