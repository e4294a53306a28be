import { describe, expect, it } from 'vitest';
import type { OrderStatus, PaymentStatus } from './enums';
import {
  balanceCents,
  earlyEndWindow,
  endableEarly,
  endedEarlyLine,
  extendedLine,
  chargedAtReturn,
  dueNotice,
  firstDayCents,
  fullPaymentDueDate,
  fullPaymentDueInWords,
  fullPaymentTerms,
  isPastDue,
  levelDamageCharges,
  reminderDayAt,
  rentalReminder,
  levelPrice,
  lineDueDate,
  lineTotalCents,
  orderTotalCents,
  paymentStatusOf,
  rentalDaysOf,
  rentalPeriod,
  rentalStartOf,
  rentalPartialCents,
  returnChargeCents,
  type DueNotice,
  type PaymentFacts,
  type PricedLine,
  type ReturnedUnit,
} from './terms';

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

describe('levelPrice / levelDamageCharges: the chosen level, else the one above', () => {
  const product = { price: '40.00', damageCharges: '1500.00' };
  it.each<[string, { price?: string | null; damageCharges?: string | null } | null, { price?: string | null; damageCharges?: string | null } | null, string, string]>([
    ['a product without variants', null, null, '40.00', '1500.00'],
    ['a variant with its own price', { price: '45.00', damageCharges: '1600.00' }, null, '45.00', '1600.00'],
    ['a variant without its own price takes the product’s', { price: null, damageCharges: null }, null, '40.00', '1500.00'],
    ['a sub-variant with its own price', { price: '45.00', damageCharges: '1600.00' }, { price: '47.50', damageCharges: '1700.00' }, '47.50', '1700.00'],
    ['a sub-variant without its own price takes the variant’s', { price: '45.00', damageCharges: '1600.00' }, { price: null, damageCharges: null }, '45.00', '1600.00'],
    ['a sub-variant and variant without prices take the product’s', { price: null }, { price: undefined }, '40.00', '1500.00'],
    ['a free sub-variant (0.00) is its own price, not missing', { price: '45.00' }, { price: '0.00', damageCharges: '0.00' }, '0.00', '0.00'],
  ])('%s', (_what, variant, sub, price, damage) => {
    expect(levelPrice(product, variant, sub)).toBe(price);
    expect(levelDamageCharges(product, variant, sub)).toBe(damage);
  });
  it('works on cents too (0 is a price)', () => {
    expect(levelPrice({ price: 4000 }, { price: 0 }, null)).toBe(0);
    expect(levelPrice({ price: 4000 }, { price: null }, { price: null })).toBe(4000);
  });
});

describe('line totals and the rental’s first payment', () => {
  it.each<[string, PricedLine, number, number]>([
    ['a purchase line: quantity × unit', { unitCents: 1999, quantity: 2, noOfRentalDays: null }, 3998, 3998],
    ['a rental line: quantity × unit × days', { unitCents: 1600, quantity: 1, noOfRentalDays: 3 }, 4800, 1600],
    ['three units for two days', { unitCents: 800, quantity: 3, noOfRentalDays: 2 }, 4800, 2400],
    ['one cent a day for 30 days', { unitCents: 1, quantity: 1, noOfRentalDays: 30 }, 30, 1],
    ['a free line', { unitCents: 0, quantity: 5, noOfRentalDays: 7 }, 0, 0],
    ['500 units (the most a line holds) at $9,999.99 for 365 days stays exact', { unitCents: 999999, quantity: 500, noOfRentalDays: 365 }, 182499817500, 499999500],
  ])('%s', (_what, line, total, firstDay) => {
    expect(lineTotalCents(line)).toBe(total);
    expect(firstDayCents(line)).toBe(firstDay);
  });
  it('an order total adds its lines exactly (no floating point: 0.10 + 0.20)', () => {
    expect(orderTotalCents([{ unitCents: 10, quantity: 1, noOfRentalDays: null }, { unitCents: 20, quantity: 1, noOfRentalDays: null }])).toBe(30);
    expect(orderTotalCents([])).toBe(0);
  });
  it('the first payment of a bulk rental is the first day of every line (1 × 8.00, 1 × 6.00, 1 × 45.00)', () => {
    expect(rentalPartialCents([{ unitCents: 800, quantity: 1 }, { unitCents: 600, quantity: 1 }, { unitCents: 4500, quantity: 1 }])).toBe(5900);
  });
  it('refuses a fractional quantity or negative days instead of pricing them', () => {
    expect(() => lineTotalCents({ unitCents: 100, quantity: 1.5, noOfRentalDays: null })).toThrow(RangeError);
    expect(() => lineTotalCents({ unitCents: 100, quantity: 1, noOfRentalDays: -1 })).toThrow(RangeError);
    expect(() => lineTotalCents({ unitCents: 10.5, quantity: 1, noOfRentalDays: null })).toThrow(RangeError);
  });
});

describe('balanceCents: total + extra − paid', () => {
  it.each<[string, { totalCents: number; paidCents: number; extraCents?: number | null }, number]>([
    ['nothing paid', { totalCents: 7900, paidCents: 0 }, 7900],
    ['after the first day', { totalCents: 7900, paidCents: 5900 }, 2000],
    ['after the first day, with a damage fee', { totalCents: 7900, paidCents: 5900, extraCents: 150000 }, 152000],
    ['extra unknown (null) adds nothing', { totalCents: 4800, paidCents: 1600, extraCents: null }, 3200],
    ['paid in full', { totalCents: 4800, paidCents: 4800, extraCents: 0 }, 0],
    ['cents edge: 0.01 left', { totalCents: 100001, paidCents: 100000 }, 1],
  ])('%s', (_what, f, cents) => {
    expect(balanceCents(f)).toBe(cents);
  });
});

describe('lineDueDate: the Manila delivered date + rental days', () => {
  it.each([
    ['delivered mid-day in Manila, 3 days', '2026-11-25T04:00:00.000Z', 3, '2026-11-28'],
    ['delivered at 23:30 Manila (15:30 UTC): that Manila day counts', '2026-11-25T15:30:00.000Z', 1, '2026-11-26'],
    ['delivered at 00:15 Manila (16:15 UTC the day before): the next Manila day', '2026-11-25T16:15:00.000Z', 1, '2026-11-27'],
    ['across a month end', '2026-11-29T02:00:00.000Z', 3, '2026-12-02'],
    ['across the new year', '2026-12-30T02:00:00.000Z', 5, '2027-01-04'],
    ['through a leap day', '2028-02-27T02:00:00.000Z', 2, '2028-02-29'],
  ])('%s', (_what, at, days, due) => {
    expect(lineDueDate(new Date(at), days)).toBe(due);
  });
  it.each([
    ['due tomorrow', '2026-11-26', '2026-11-25', false],
    ['due today', '2026-11-25', '2026-11-25', true],
    ['due yesterday', '2026-11-24', '2026-11-25', true],
    ['due last year', '2025-12-31', '2026-01-01', true],
  ])('isPastDue: %s → %s', (_what, due, today, past) => {
    expect(isPastDue(due, today)).toBe(past);
  });
});

describe('dueNotice: while a rental is out', () => {
  const today = '2026-11-25';
  it.each<[string, OrderStatus, Array<string | null>, DueNotice]>([
    ['delivered, due later', 'DELIVERED', ['2026-11-27'], null],
    ['delivered, one line due today', 'DELIVERED', ['2026-11-27', '2026-11-25'], 'DUE_TODAY'],
    ['delivered, one line overdue (overdue wins over due today)', 'DELIVERED', ['2026-11-25', '2026-11-24'], 'OVERDUE'],
    ['for return, overdue', 'FOR_RETURN', ['2026-11-20'], 'OVERDUE'],
    ['a purchase line (no due date) is ignored', 'DELIVERED', [null, '2026-11-30'], null],
    ['picked up: no notice any more', 'FOR_PICK_UP', ['2026-11-20'], null],
    ['not delivered yet: no notice', 'TO_SHIP', ['2026-11-20'], null],
    ['completed: no notice', 'COMPLETED', ['2026-11-20'], null],
  ])('%s', (_what, status, dates, notice) => {
    expect(dueNotice(status, dates, today)).toBe(notice);
  });
});

describe('paymentStatusOf: the status an order’s money facts imply', () => {
  const t = '2026-11-25T04:00:00.000Z';
  it.each<[string, PaymentFacts, PaymentStatus]>([
    ['nothing yet', { firstPaidAt: null, fullAskedAt: null, fullPaidAt: null, cancelled: false, cancelRefunded: false }, 'PENDING'],
    ['cancelled before any payment', { firstPaidAt: null, fullAskedAt: null, fullPaidAt: null, cancelled: true, cancelRefunded: false }, 'CANCELLED'],
    ['the first day paid', { firstPaidAt: t, fullAskedAt: null, fullPaidAt: null, cancelled: false, cancelRefunded: false }, 'INITIAL_PAYMENT'],
    ['the full payment asked for', { firstPaidAt: t, fullAskedAt: t, fullPaidAt: null, cancelled: false, cancelRefunded: false }, 'FOR_FULL_PAYMENT'],
    ['paid in full (a rental)', { firstPaidAt: t, fullAskedAt: t, fullPaidAt: t, cancelled: false, cancelRefunded: false }, 'PAID'],
    ['paid in full (a purchase: one payment)', { firstPaidAt: t, fullAskedAt: null, fullPaidAt: t, cancelled: false, cancelRefunded: false }, 'PAID'],
    ['the first payment taken while the order was being cancelled: owed back', { firstPaidAt: t, fullAskedAt: null, fullPaidAt: null, cancelled: true, cancelRefunded: false }, 'REFUND_DUE'],
    ['a purchase paid while it was being cancelled: owed back, not PAID', { firstPaidAt: t, fullAskedAt: null, fullPaidAt: t, cancelled: true, cancelRefunded: false }, 'REFUND_DUE'],
    ['owed back, then paid back', { firstPaidAt: t, fullAskedAt: null, fullPaidAt: t, cancelled: true, cancelRefunded: true }, 'REFUNDED'],
  ])('%s', (_what, facts, status) => {
    expect(paymentStatusOf(facts)).toBe(status);
  });
});

describe('fullPaymentTerms: what asking for the full payment charges', () => {
  const none = { lateFeeCents: 0, depositAppliedCents: 0, depositRefundCents: 0 };
  it.each<[string, { totalCents: number; firstPaymentCents: number | null; cycleRentPaidCents?: number; units: ReturnedUnit[]; askedAt: string; lateFeeCents?: number; depositHeldCents?: number }, ReturnType<typeof fullPaymentTerms>]>([
    ['all back OK', { totalCents: 90000, firstPaymentCents: 12000, units: [{ mark: 'OK', feeCents: 25000 }], askedAt: '2026-11-25T04:00:00.000Z' }, { extraCents: 0, balanceCents: 78000, dueDate: '2026-11-26', ...none }],
    [
      'one damaged, one lost, asked at 23:30 Manila',
      { totalCents: 156000, firstPaymentCents: 7000, units: [{ mark: 'OK', feeCents: 12000 }, { mark: 'DAMAGED', feeCents: 12000 }, { mark: 'LOST', feeCents: 90000 }], askedAt: '2026-11-25T15:30:00.000Z' },
      { extraCents: 102000, balanceCents: 251000, dueDate: '2026-11-26', ...none },
    ],
    ['no first payment recorded: the whole total', { totalCents: 5000, firstPaymentCents: null, units: [], askedAt: '2026-11-30T16:30:00.000Z' }, { extraCents: 0, balanceCents: 5000, dueDate: '2026-12-02', ...none }],
    [
      'issue 29: late fees join the extra charge; the deposit pays the charges and the rest is refunded',
      { totalCents: 120000, firstPaymentCents: 4000, units: [{ mark: 'OK', feeCents: 150000 }], askedAt: '2026-11-25T04:00:00.000Z', lateFeeCents: 30000, depositHeldCents: 100000 },
      { extraCents: 30000, lateFeeCents: 30000, depositAppliedCents: 30000, depositRefundCents: 70000, balanceCents: 116000, dueDate: '2026-11-26' },
    ],
    [
      'issue 29: damage and late fees beyond the deposit: none refunded, the shortfall joins the balance',
      { totalCents: 120000, firstPaymentCents: 4000, units: [{ mark: 'DAMAGED', feeCents: 150000 }], askedAt: '2026-11-25T04:00:00.000Z', lateFeeCents: 30000, depositHeldCents: 100000 },
      { extraCents: 180000, lateFeeCents: 30000, depositAppliedCents: 100000, depositRefundCents: 0, balanceCents: 196000, dueDate: '2026-11-26' },
    ],
    [
      'issue 29: nothing charged: the whole deposit is refunded, the balance is the rent left',
      { totalCents: 120000, firstPaymentCents: 4000, units: [{ mark: 'OK', feeCents: 150000 }], askedAt: '2026-11-25T04:00:00.000Z', depositHeldCents: 100000 },
      { extraCents: 0, lateFeeCents: 0, depositAppliedCents: 0, depositRefundCents: 100000, balanceCents: 116000, dueDate: '2026-11-26' },
    ],
    [
      'issue 29: billed by cycles: the rent the cycles took counts like the first payment; damage from the deposit',
      { totalCents: 600000, firstPaymentCents: 10000, cycleRentPaidCents: 590000, units: [{ mark: 'DAMAGED', feeCents: 30000 }], askedAt: '2026-11-25T04:00:00.000Z', depositHeldCents: 50000 },
      { extraCents: 30000, lateFeeCents: 0, depositAppliedCents: 30000, depositRefundCents: 20000, balanceCents: 0, dueDate: '2026-11-26' },
    ],
    [
      'issue 29: billed by cycles, one cycle not paid when it came back: its rent is in the balance',
      { totalCents: 600000, firstPaymentCents: 10000, cycleRentPaidCents: 290000, units: [], askedAt: '2026-11-25T04:00:00.000Z' },
      { extraCents: 0, lateFeeCents: 0, depositAppliedCents: 0, depositRefundCents: 0, balanceCents: 300000, dueDate: '2026-11-26' },
    ],
  ])('%s', (_what, f, want) => {
    expect(fullPaymentTerms({ ...f, askedAt: new Date(f.askedAt) })).toEqual(want);
  });
  it('says the due delay in words for prompts', () => {
    expect(fullPaymentDueInWords()).toBe('one day');
    expect(fullPaymentDueInWords(3)).toBe('3 days');
  });
});

describe('rentalDaysOf', () => {
  it.each<[string, 'RENT' | 'BUY', number | null | undefined, number | null]>([
    ['a rental with its days', 'RENT', 7, 7],
    ['a rental without days gets the default', 'RENT', undefined, 1],
    ['a rental with null days gets the default', 'RENT', null, 1],
    ['a purchase has none', 'BUY', 5, null],
  ])('%s', (_what, type, days, want) => {
    expect(rentalDaysOf(type, days)).toBe(want);
  });
});

describe('reminders (issue 24): which day, and which reminder', () => {
  it.each([
    ['08:59:59 Manila: not yet', '2026-11-25T00:59:59Z', null],
    ['09:00 Manila: that day', '2026-11-25T01:00:00Z', '2026-11-25'],
    ['23:30 Manila: still that day', '2026-11-25T15:30:00Z', '2026-11-25'],
    ['00:15 Manila the next day: not yet (that day starts at 09:00)', '2026-11-25T16:15:00Z', null],
    ['09:00 on a new year', '2027-01-01T01:00:00Z', '2027-01-01'],
  ])('reminderDayAt %s', (_name, iso, day) => {
    expect(reminderDayAt(new Date(iso))).toBe(day);
  });

  const today = '2026-11-25';
  it.each<[string, OrderStatus, Array<string | null>, string | null, string | null]>([
    ['a line due tomorrow', 'DELIVERED', ['2026-11-26', '2026-12-01'], null, 'DUE_TOMORROW'],
    ['tomorrow across a month end', 'DELIVERED', ['2026-12-01'], null, null],
    ['a line due today beats one tomorrow', 'DELIVERED', ['2026-11-26', '2026-11-25'], null, 'DUE_TODAY'],
    ['a line past due beats everything', 'FOR_RETURN', ['2026-11-26', '2026-11-24'], null, 'OVERDUE'],
    ['nothing due soon', 'DELIVERED', ['2026-11-28'], null, null],
    ['not out yet', 'TO_SHIP', ['2026-11-26'], null, null],
    ['being picked up: no due reminder', 'FOR_PICK_UP', ['2026-11-20'], null, null],
    ['full payment due today', 'FOR_FULL_PAYMENT', [], '2026-11-25', 'FULL_PAYMENT_DUE'],
    ['full payment past due: every day', 'FOR_FULL_PAYMENT', [], '2026-11-20', 'FULL_PAYMENT_DUE'],
    ['full payment due tomorrow: not yet', 'FOR_FULL_PAYMENT', [], '2026-11-26', null],
    ['paid in full (COMPLETED)', 'COMPLETED', ['2026-11-20'], '2026-11-20', null],
  ])('rentalReminder: %s', (_name, status, dueDates, fullDue, expected) => {
    expect(rentalReminder(status, dueDates, fullDue, today)).toBe(expected);
  });

  it('tomorrow at a month end is the 1st', () => {
    expect(rentalReminder('DELIVERED', ['2026-12-01'], null, '2026-11-30')).toBe('DUE_TOMORROW');
  });

  it.each<[string, OrderStatus, string[], string | null, string | null]>([
    ['issue 29: a cycle due today', 'DELIVERED', ['2026-12-25'], '2026-11-25', 'CYCLE_DUE'],
    ['a cycle due since yesterday: not today', 'DELIVERED', ['2026-12-25'], '2026-11-24', null],
    ['a cycle still unpaid a week later', 'DELIVERED', ['2026-12-25'], '2026-11-18', 'CYCLE_DUE'],
    ['a cycle due later', 'DELIVERED', ['2026-12-25'], '2026-11-26', null],
    ['the rental due tomorrow says that instead', 'DELIVERED', ['2026-11-26'], '2026-11-25', 'DUE_TOMORROW'],
    ['overdue says that instead', 'FOR_RETURN', ['2026-11-20'], '2026-11-25', 'OVERDUE'],
    ['being picked up: no cycle reminder', 'FOR_PICK_UP', ['2026-12-25'], '2026-11-25', null],
  ])('rentalReminder with a billing cycle: %s', (_name, status, dueDates, cycleDueOn, expected) => {
    expect(rentalReminder(status, dueDates, null, today, cycleDueOn)).toBe(expected);
  });
});

describe('rental periods (issue 25)', () => {
  it.each([
    ['no date: today', 'RENT', null, '2026-11-25'],
    ['a day ahead stays', 'RENT', '2026-12-01', '2026-12-01'],
    ['today stays today', 'RENT', '2026-11-25', '2026-11-25'],
    ['a chosen day that has passed (left in the cart): today', 'RENT', '2026-11-20', '2026-11-25'],
    ['a purchase has no start', 'BUY', '2026-12-01', null],
  ] as const)('rentalStartOf: %s', (_name, type, start, expected) => {
    expect(rentalStartOf(type, start, '2026-11-25')).toBe(expected);
  });

  it('the booked range runs to the due date plus turnaround, across a month end', () => {
    expect(rentalPeriod('2026-11-28', 3, 2)).toEqual({ start: '2026-11-28', due: '2026-12-01', end: '2026-12-03' });
  });
});

describe('extensions and ending early (issue 25)', () => {
  const line = { unitCents: 1_333, quantity: 3, noOfRentalDays: 10 };

  it('extendedLine: the same unit price and quantity for more days; the extra is what they add', () => {
    expect(extendedLine(line, 2)).toEqual({ noOfRentalDays: 12, lineCents: 47_988, extraCents: 7_998 });
  });

  it.each([
    ['a delivered rental', 'RENT', 'DELIVERED', true],
    ['not yet out', 'RENT', 'OUT_FOR_DELIVERY', false],
    ['already for return', 'RENT', 'FOR_RETURN', false],
    ['a purchase', 'BUY', 'DELIVERED', false],
  ] as const)('endableEarly: %s', (_name, type, status, expected) => {
    expect(endableEarly(type, status)).toBe(expected);
  });

  it.each([
    ['from today to the day before the last due date', '2026-11-20', ['2026-11-30', '2026-12-05'], '2026-11-25', { from: '2026-11-25', to: '2026-12-04' }],
    ['delivered today: from tomorrow (the first day is paid)', '2026-11-25', ['2026-12-05'], '2026-11-25', { from: '2026-11-26', to: '2026-12-04' }],
    ['across a month end', '2026-11-29', ['2026-12-02'], '2026-11-30', { from: '2026-11-30', to: '2026-12-01' }],
    ['due tomorrow: only today', '2026-11-20', ['2026-11-26'], '2026-11-25', { from: '2026-11-25', to: '2026-11-25' }],
    ['due today: nothing ends early', '2026-11-20', ['2026-11-25'], '2026-11-25', null],
    ['overdue: nothing ends early', '2026-11-20', ['2026-11-23'], '2026-11-25', null],
    ['a one-day rental delivered today', '2026-11-25', ['2026-11-26'], '2026-11-25', null],
    ['no rental line', '2026-11-20', [], '2026-11-25', null],
  ] as const)('earlyEndWindow: %s', (_name, delivered, dues, today, expected) => {
    expect(earlyEndWindow(delivered, dues, today)).toEqual(expected);
  });

  it.each([
    ['issue 29: on cycles, one cycle paid: not before day 30 from delivery', '2026-11-01', ['2026-12-31'], '2026-11-10', 30, { from: '2026-12-01', to: '2026-12-30' }],
    ['issue 29: on cycles, today past the paid days: from today', '2026-11-01', ['2026-12-31'], '2026-12-05', 30, { from: '2026-12-05', to: '2026-12-30' }],
    ['issue 29: on cycles, both cycles paid: nothing ends early', '2026-11-01', ['2026-12-31'], '2026-11-10', 60, null],
    ['no cycle paid: as before', '2026-11-01', ['2026-12-31'], '2026-11-10', 0, { from: '2026-11-10', to: '2026-12-30' }],
  ] as const)('earlyEndWindow with paid cycles: %s', (_name, delivered, dues, today, paidDays, expected) => {
    expect(earlyEndWindow(delivered, dues, today, paidDays)).toEqual(expected);
  });

  it.each([
    ['ends 4 days after delivery: 4 days, 6 days come off', '2026-11-20', '2026-11-24', { noOfRentalDays: 4, lineCents: 15_996, extraCents: -23_994 }],
    ['across a month end', '2026-11-28', '2026-12-03', { noOfRentalDays: 5, lineCents: 19_995, extraCents: -19_995 }],
    ['a line due by then stays as it is', '2026-11-20', '2026-12-15', { noOfRentalDays: 10, lineCents: 39_990, extraCents: 0 }],
    ['never below the first day', '2026-11-20', '2026-11-20', { noOfRentalDays: 1, lineCents: 3_999, extraCents: -35_991 }],
  ] as const)('endedEarlyLine: %s', (_name, delivered, returnOn, expected) => {
    expect(endedEarlyLine(line, delivered, returnOn)).toEqual(expected);
  });
});
