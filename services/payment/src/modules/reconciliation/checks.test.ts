import { describe, expect, it } from 'vitest';
import type { Figures } from '../payments/payment.rules';
import { reconcile, type ChargeFact, type RefundFact } from './checks';

/**
 * The reconciliation's checks on hand-made payments (cents): every healthy stage of a purchase and
 * of a rental with a deposit gives no finding; each kind of fault gives its own.
 */
const rental = (over: Partial<Figures> = {}): Figures => ({
  orderType: 'RENT',
  orderStatus: 'DELIVERED',
  status: 'INITIAL_PAYMENT',
  type: 'PARTIAL',
  total: 32_400,
  partial: 7_800,
  extraCharge: null,
  overallTotal: 0,
  balance: 24_600,
  paid: 57_800,
  dueDate: null,
  deposit: 50_000,
  depositHeld: 50_000,
  lateFees: null,
  depositApplied: null,
  depositRefund: null,
  billing: 'UPFRONT',
  deliveredOn: '2026-03-01',
  lastCycle: 0,
  cycleDue: null,
  buyOut: null,
  owned: false,
  ...over,
});
const first: ChargeFact = { type: 'PARTIAL', amount: 57_800, deposit: 50_000, cycle: null };
// At the return: damage 250.00 + late fees 50.00 = 300.00 from the 500.00 deposit, 200.00 back; rent left 246.00.
const settled = rental({ status: 'FOR_FULL_PAYMENT', extraCharge: 30_000, overallTotal: 62_400, balance: 24_600, lateFees: 5_000, depositApplied: 30_000, depositRefund: 20_000 });
const full: ChargeFact = { type: 'FULL', amount: 24_600, deposit: 0, cycle: null };
const depositRefund: RefundFact = { kind: 'DEPOSIT', amount: 20_000, status: 'DUE' };
const paid = rental({ ...settled, status: 'PAID', type: 'FULL', balance: 0, paid: 82_400 });

const purchase = (over: Partial<Figures> = {}): Figures => ({
  ...rental(),
  orderType: 'BUY',
  status: 'PAID',
  type: 'FULL',
  total: 17_598,
  partial: null,
  overallTotal: 17_598,
  balance: 0,
  paid: 17_598,
  deposit: 0,
  depositHeld: 0,
  ...over,
});

describe('reconciliation checks (issue 29)', () => {
  it.each<[string, Figures, ChargeFact[], RefundFact[]]>([
    ['a purchase waiting to be paid', purchase({ status: 'PENDING', type: null, paid: 0, balance: 17_598, overallTotal: null }), [], []],
    ['a purchase paid', purchase(), [{ type: 'FULL', amount: 17_598, deposit: 0, cycle: null }], []],
    ['a rental with its first day and deposit taken', rental(), [first], []],
    ['a rental back, the deposit settled, its rest owed back', settled, [first], [depositRefund]],
    ['a rental paid in full, the deposit refunded', paid, [first, full], [{ ...depositRefund, status: 'REFUNDED' }]],
    ['a rental without deposit paid in full', rental({ status: 'PAID', deposit: 0, depositHeld: 0, paid: 32_400, balance: 0, extraCharge: 0, depositApplied: 0, depositRefund: 0 }), [{ ...first, amount: 7_800, deposit: 0 }, { ...full, amount: 24_600 }], []],
    ['a payment taken while the order was cancelled, owed back', rental({ status: 'REFUND_DUE', orderStatus: 'CANCELLED' }), [first], [{ kind: 'CANCELLED', amount: 57_800, status: 'DUE' }]],
    ['the same, paid back', rental({ status: 'REFUNDED', orderStatus: 'CANCELLED' }), [first], [{ kind: 'CANCELLED', amount: 57_800, status: 'REFUNDED' }]],
  ])('%s: no finding', (_, f, charges, refunds) => {
    expect(reconcile(f, charges, refunds)).toEqual([]);
  });

  it('a charge recorded twice', () => {
    expect(reconcile(paid, [first, full, full], [depositRefund])).toEqual(
      expect.arrayContaining([
        { check: 'DUPLICATE_CHARGE', expected: '1', actual: '2', detail: 'Full payment recorded 2 times' },
        { check: 'PAID_TOTAL', expected: '824.00', actual: '1070.00', detail: 'Paid on the payment against its records' },
      ]),
    );
  });

  it('a charge missing for the status reached', () => {
    expect(reconcile(paid, [first], [depositRefund])).toEqual(
      expect.arrayContaining([{ check: 'MISSING_CHARGE', expected: '1', actual: '0', detail: 'Full payment not recorded for a PAID payment' }]),
    );
    expect(reconcile(purchase(), [], [])[0]).toEqual({ check: 'MISSING_CHARGE', expected: '1', actual: '0', detail: 'Full payment not recorded for a PAID payment' });
  });

  it('an amount other than the terms say: the first day and deposit; the rent left and charges less the deposit applied', () => {
    expect(reconcile(rental({ paid: 7_800 }), [{ ...first, amount: 7_800 }], [])).toContainEqual({
      check: 'WRONG_AMOUNT',
      expected: '578.00',
      actual: '78.00',
      detail: 'First payment: the first day and the deposit',
    });
    expect(reconcile({ ...paid, paid: 87_400 }, [first, { ...full, amount: 29_600 }], [depositRefund])).toContainEqual({
      check: 'WRONG_AMOUNT',
      expected: '246.00',
      actual: '296.00',
      detail: 'Full payment: the rent left (after the first and cycle payments) and the charges, less the deposit applied',
    });
  });

  it('paid in full but short of the order total and charges (the deposit refund counted back)', () => {
    const findings = reconcile({ ...paid, depositRefund: 25_000, depositApplied: 25_000 }, [first, full], [{ ...depositRefund, amount: 25_000 }]);
    expect(findings).toContainEqual({ check: 'PAID_TOTAL', expected: '624.00', actual: '574.00', detail: 'Paid (less the deposit to refund) against the order total and its charges' });
  });

  it('a deposit held other than taken, or settled for less than held', () => {
    expect(reconcile(rental({ depositHeld: 0 }), [first], [])).toContainEqual({ check: 'DEPOSIT_HELD', expected: '500.00', actual: '0.00', detail: 'Deposit held against the deposit taken' });
    expect(reconcile({ ...settled, depositRefund: 10_000 }, [first], [{ ...depositRefund, amount: 10_000 }])).toContainEqual({
      check: 'DEPOSIT_SETTLEMENT',
      expected: '500.00',
      actual: '400.00',
      detail: 'Deposit applied plus deposit refunded',
    });
  });

  it('a refund owed and missing, twice, of another amount, or not owed at all', () => {
    expect(reconcile(settled, [first], [])).toEqual([{ check: 'REFUND', expected: '1', actual: '0', detail: 'Deposit refund: one refund owed' }]);
    expect(reconcile(settled, [first], [depositRefund, depositRefund])).toEqual([{ check: 'REFUND', expected: '1', actual: '2', detail: 'Deposit refund: one refund owed' }]);
    expect(reconcile(settled, [first], [{ ...depositRefund, amount: 15_000 }])).toEqual([{ check: 'REFUND', expected: '200.00', actual: '150.00', detail: 'Deposit refund' }]);
    expect(reconcile(rental(), [first], [{ kind: 'CANCELLED', amount: 57_800, status: 'DUE' }])).toEqual([{ check: 'REFUND', expected: '0.00', actual: '578.00', detail: 'Refund of a cancelled order not owed' }]);
    expect(reconcile(rental({ status: 'REFUNDED', orderStatus: 'CANCELLED' }), [first], [{ kind: 'CANCELLED', amount: 57_800, status: 'DUE' }])).toEqual([
      { check: 'REFUND', expected: 'REFUNDED', actual: 'DUE', detail: 'A REFUNDED payment whose refund is not paid back' },
    ]);
  });

  it('money recorded on a payment that took none', () => {
    expect(reconcile(purchase({ status: 'CANCELLED', paid: 0 }), [{ type: 'FULL', amount: 17_598, deposit: 0, cycle: null }], [])).toContainEqual({
      check: 'DUPLICATE_CHARGE',
      expected: '0',
      actual: '1',
      detail: 'A payment recorded on a CANCELLED payment',
    });
  });

  describe('billing cycles', () => {
    // A 60-day rental at 100.00 a day on cycles with a 500.00 deposit: day 1 + deposit, cycle 1 (29 days left of it), cycle 2.
    const onCycles = (over: Partial<Figures> = {}) =>
      rental({ billing: 'CYCLES', total: 600_000, partial: 10_000, paid: 650_000, balance: 0, lastCycle: 2, ...over });
    const day1: ChargeFact = { type: 'PARTIAL', amount: 60_000, deposit: 50_000, cycle: null };
    const cycle = (n: number, amount: number): ChargeFact => ({ type: 'CYCLE', amount, deposit: 0, cycle: n });

    it('both cycles taken once: no finding; back with 350.00 of charges from the deposit, the full payment of nothing left: no finding', () => {
      expect(reconcile(onCycles(), [day1, cycle(1, 290_000), cycle(2, 300_000)], [])).toEqual([]);
      const back = onCycles({ status: 'PAID', type: 'FULL', extraCharge: 35_000, depositApplied: 35_000, depositRefund: 15_000, overallTotal: 635_000 });
      expect(reconcile(back, [day1, cycle(1, 290_000), cycle(2, 300_000), { type: 'FULL', amount: 0, deposit: 0, cycle: null }], [{ ...depositRefund, amount: 15_000 }])).toEqual([]);
    });

    it('a cycle charged twice, a cycle on record missing, cycles on a rental billed up front, cycles beyond the rent', () => {
      expect(reconcile(onCycles({ paid: 950_000 }), [day1, cycle(1, 290_000), cycle(2, 300_000), cycle(2, 300_000)], [])).toEqual([
        { check: 'DUPLICATE_CHARGE', expected: '1', actual: '2', detail: 'Cycle 2 payment recorded 2 times' },
        { check: 'WRONG_AMOUNT', expected: '6000.00', actual: '9000.00', detail: 'First payment and cycle payments beyond the rent' },
      ]);
      expect(reconcile(onCycles({ paid: 350_000 }), [day1, cycle(1, 290_000)], [])).toEqual([
        { check: 'MISSING_CHARGE', expected: '2', actual: '1', detail: 'Last cycle paid on the payment against its records' },
      ]);
      expect(reconcile(onCycles({ billing: 'UPFRONT', paid: 350_000, lastCycle: 1 }), [day1, cycle(1, 290_000)], [])).toEqual([
        { check: 'DUPLICATE_CHARGE', expected: '0', actual: '1', detail: 'Cycle payments on a rental not billed by cycles' },
      ]);
    });
  });

  describe('rent-to-own (issue 29)', () => {
    const onCycles = (over: Partial<Figures> = {}) =>
      rental({ billing: 'CYCLES', total: 600_000, partial: 10_000, paid: 650_000, balance: 0, lastCycle: 2, ...over });
    const day1: ChargeFact = { type: 'PARTIAL', amount: 60_000, deposit: 50_000, cycle: null };
    const cycle = (n: number, amount: number): ChargeFact => ({ type: 'CYCLE', amount, deposit: 0, cycle: n });
    const boughtOut = onCycles({ status: 'PAID', type: 'BUYOUT', owned: true, paid: 650_000 + 2_700_000, depositApplied: 0, depositRefund: 50_000 });
    const buyOut: ChargeFact = { type: 'BUYOUT', amount: 2_700_000, deposit: 0, cycle: null };

    it('bought out after two cycles, the deposit refunded whole: no finding', () => {
      expect(reconcile(boughtOut, [day1, cycle(1, 290_000), cycle(2, 300_000), buyOut], [{ kind: 'DEPOSIT', amount: 50_000, status: 'DUE' }])).toEqual([]);
    });

    it('a buy-out twice, a buy-out on a rental not owned, a full payment on one owned, the deposit not refunded', () => {
      expect(reconcile({ ...boughtOut, paid: boughtOut.paid + 2_700_000 }, [day1, cycle(1, 290_000), cycle(2, 300_000), buyOut, buyOut], [{ kind: 'DEPOSIT', amount: 50_000, status: 'DUE' }])).toContainEqual({
        check: 'DUPLICATE_CHARGE',
        expected: '1',
        actual: '2',
        detail: 'Buy-out recorded 2 times',
      });
      expect(reconcile(onCycles({ paid: 650_000 + 2_700_000 }), [day1, cycle(1, 290_000), cycle(2, 300_000), buyOut], [])).toContainEqual({
        check: 'DUPLICATE_CHARGE',
        expected: '0',
        actual: '1',
        detail: "A buy-out on a rental that is not the customer's",
      });
      expect(reconcile(boughtOut, [day1, cycle(1, 290_000), cycle(2, 300_000), buyOut], [])).toEqual([{ check: 'REFUND', expected: '1', actual: '0', detail: 'Deposit refund: one refund owed' }]);
      const full: ChargeFact = { type: 'FULL', amount: 0, deposit: 0, cycle: null };
      expect(reconcile(boughtOut, [day1, cycle(1, 290_000), cycle(2, 300_000), buyOut, full], [{ kind: 'DEPOSIT', amount: 50_000, status: 'DUE' }])).toContainEqual({
        check: 'DUPLICATE_CHARGE',
        expected: '0',
        actual: '1',
        detail: 'A full payment on a rental the customer owns',
      });
    });
  });
});
