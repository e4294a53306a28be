import { describe, expect, it } from 'vitest';
import { ORDER_STATUSES, PAYMENT_PROCESS, PAYMENT_STATUSES, paymentMoveOf, rentalPartialCents, type OrderStatus, type PaymentStatus } from '@dme/contracts';
import { buyOutNow, confirm, confirmBuyOut, invoiceFileName, nextAction, notPayableReason, onOrderStatus, orderStatusAfter, onRefundRecorded, opening, refundDue, type Figures, type OrderKind } from './payment.rules';

const purchase = () => opening('BUY', 17_598, null);
const rental = () => opening('RENT', 32_400, 7_800);
const at = (f: Figures, orderStatus: OrderStatus): Figures => ({ ...f, orderStatus });

describe('nextAction: what confirming does now (SPEC §4)', () => {
  it('is one of three actions in exactly three situations, and null in every other', () => {
    const found: string[] = [];
    for (const orderType of ['BUY', 'RENT'] as OrderKind[]) {
      for (const status of PAYMENT_STATUSES as readonly PaymentStatus[]) {
        for (const orderStatus of ORDER_STATUSES as readonly OrderStatus[]) {
          const action = nextAction({ orderType, status, orderStatus, cycleDue: null });
          if (action) found.push(`${orderType} ${status} ${orderStatus} → ${action}`);
        }
      }
    }
    expect(found.sort()).toEqual([
      'BUY PENDING FOR_PAYMENT → MARK_AS_PAID',
      'RENT FOR_FULL_PAYMENT FOR_FULL_PAYMENT → COMPLETE_PAYMENT',
      'RENT PENDING FOR_PAYMENT → PAY_PARTIAL',
    ]);
  });
});

describe('nextAction with a cycle due (issue 29)', () => {
  it("a rental's cycle is taken while it is out (delivered, for return, being picked up), and nowhere else", () => {
    const found: string[] = [];
    for (const orderType of ['BUY', 'RENT'] as OrderKind[]) {
      for (const status of PAYMENT_STATUSES as readonly PaymentStatus[]) {
        for (const orderStatus of ORDER_STATUSES as readonly OrderStatus[]) {
          if (nextAction({ orderType, status, orderStatus, cycleDue: { n: 2, cents: 300_000 } }) === 'PAY_CYCLE') found.push(`${orderType} ${status} ${orderStatus}`);
        }
      }
    }
    expect(found.sort()).toEqual(['RENT INITIAL_PAYMENT DELIVERED', 'RENT INITIAL_PAYMENT FOR_PICK_UP', 'RENT INITIAL_PAYMENT FOR_RETURN']);
  });

  it('a cycle payment: its amount, the last cycle paid, the balance less it; the status stays; the delivery day is kept once', () => {
    const first = confirm(at({ ...rental(), billing: 'CYCLES' }, 'FOR_PAYMENT'))!.after;
    const out = onOrderStatus(at(first, 'OUT_FOR_DELIVERY'), 'DELIVERED', null, new Date('2026-03-01T17:00:00Z'));
    expect(out.deliveredOn).toBe('2026-03-02');
    expect(onOrderStatus(out, 'DELIVERED', null, new Date('2026-03-09T01:00:00Z')).deliveredOn).toBe('2026-03-02');
    const c = confirm({ ...out, cycleDue: { n: 1, cents: 16_000 } })!;
    expect(c).toMatchObject({ action: 'PAY_CYCLE', amount: 16_000, deposit: 0, cycle: 1 });
    expect(c.after).toMatchObject({ status: 'INITIAL_PAYMENT', type: 'CYCLE', lastCycle: 1, paid: 7_800 + 16_000, balance: 24_600 - 16_000, cycleDue: null });
    expect(confirm(c.after)).toBeNull();
  });
});

describe('orderStatusAfter: the order status a payment keeps (issue 29)', () => {
  it.each([
    ['the next step', 'TO_SHIP', 'PREPARING', 'TO_SHIP', 'TO_SHIP'],
    ['a step handled before the one it follows', 'PREPARING', 'OUT_FOR_DELIVERY', 'DELIVERED', 'DELIVERED'],
    ['an older step handled late (another replica): kept', 'DELIVERED', 'PREPARING', 'TO_SHIP', 'DELIVERED'],
    ['an older step handled late: kept', 'DELIVERED', 'TO_SHIP', 'OUT_FOR_DELIVERY', 'DELIVERED'],
    ['a failed delivery goes back to TO_SHIP', 'OUT_FOR_DELIVERY', 'OUT_FOR_DELIVERY', 'TO_SHIP', 'TO_SHIP'],
    ['cancelled is last', 'FOR_PAYMENT', 'PENDING', 'CANCELLED', 'CANCELLED'],
    ['no from (older callers): the event', 'DELIVERED', null, 'TO_SHIP', 'TO_SHIP'],
  ] as const)('%s', (_name, kept, from, to, want) => expect(orderStatusAfter(kept, from, to)).toBe(want));

  it('a rental whose DELIVERED step was applied before its OUT_FOR_DELIVERY step stays payable by cycle', () => {
    const first = confirm(at({ ...rental(), billing: 'CYCLES' }, 'FOR_PAYMENT'))!.after;
    const delivered = onOrderStatus(at(first, 'TO_SHIP'), 'DELIVERED', null, new Date('2026-03-01T04:00:00Z'), null, null, 'OUT_FOR_DELIVERY');
    const late = onOrderStatus(delivered, 'OUT_FOR_DELIVERY', null, new Date('2026-03-01T04:00:00Z'), null, null, 'TO_SHIP');
    expect(late).toMatchObject({ orderStatus: 'DELIVERED', deliveredOn: '2026-03-01' });
    expect(nextAction({ ...late, cycleDue: { n: 1, cents: 100 } })).toBe('PAY_CYCLE');
  });
});

describe('rent-to-own (issue 29)', () => {
  const out = () => {
    const first = confirm(at({ ...rental(), billing: 'CYCLES', deposit: 50_000 }, 'FOR_PAYMENT'))!.after;
    return onOrderStatus(at(first, 'OUT_FOR_DELIVERY'), 'DELIVERED', null, new Date('2026-03-01T04:00:00Z'), null, null, 'OUT_FOR_DELIVERY');
  };
  it('bought out while delivered: the buy-out taken, PAID, the customer\'s, the deposit refunded whole, nothing more owed', () => {
    const c = confirmBuyOut({ ...out(), buyOut: 2_700_000 })!;
    expect(c).toMatchObject({ action: 'BUY_OUT', amount: 2_700_000, cycle: null });
    expect(c.after).toMatchObject({ status: 'PAID', type: 'BUYOUT', owned: true, balance: 0, depositApplied: 0, depositRefund: 50_000, overallTotal: 7_800 + 2_700_000 });
    expect(buyOutNow(c.after)).toBeNull();
    expect(confirm(c.after)).toBeNull();
  });
  it('not offered: without rent-to-own, before delivery, past due (for return), or once owned', () => {
    expect(confirmBuyOut(out())).toBeNull();
    expect(buyOutNow({ ...out(), buyOut: 100, orderStatus: 'FOR_RETURN' })).toBeNull();
    expect(buyOutNow({ ...out(), buyOut: 100, orderStatus: 'TO_SHIP' })).toBeNull();
    expect(buyOutNow({ ...out(), buyOut: 100, owned: true })).toBeNull();
    expect(buyOutNow({ ...out(), buyOut: 100 })).toBe(100);
  });
  it('the cycle that makes it the customer\'s: PAID, owned, the deposit refunded, the rest of the rent not charged', () => {
    const c = confirm({ ...out(), lastCycle: 11, cycleDue: { n: 12, cents: 300_000, owns: true } })!;
    expect(c).toMatchObject({ action: 'PAY_CYCLE', amount: 300_000, cycle: 12 });
    expect(c.after).toMatchObject({ status: 'PAID', type: 'CYCLE', owned: true, lastCycle: 12, balance: 0, depositRefund: 50_000 });
  });
});

describe('confirm: the figures after a payment', () => {
  it('a purchase is paid in full: PAID, FULL, overall total = order total, balance 0', () => {
    expect(confirm(purchase())).toBeNull();
    const c = confirm(at(purchase(), 'FOR_PAYMENT'))!;
    expect(c.action).toBe('MARK_AS_PAID');
    expect(c.amount).toBe(17_598);
    expect(c.after).toMatchObject({ status: 'PAID', type: 'FULL', overallTotal: 17_598, balance: 0, paid: 17_598, partial: null });
    expect(confirm(c.after)).toBeNull();
  });

  it("a rental's first payment is its first day: INITIAL_PAYMENT, PARTIAL, overall total 0, balance = total − partial", () => {
    const c = confirm(at(rental(), 'FOR_PAYMENT'))!;
    expect(c.action).toBe('PAY_PARTIAL');
    expect(c.amount).toBe(7_800);
    expect(c.after).toMatchObject({ status: 'INITIAL_PAYMENT', type: 'PARTIAL', partial: 7_800, overallTotal: 0, balance: 24_600, paid: 7_800 });
    // Nothing more is due until the order asks for the full payment.
    expect(confirm(at(c.after, 'PREPARING'))).toBeNull();
  });

  it("a rental's full payment takes the balance: total − partial + extra charges; then PAID, FULL, balance 0", () => {
    const partial = confirm(at(rental(), 'FOR_PAYMENT'))!.after;
    const asked = onOrderStatus(at(partial, 'FOR_PICK_UP'), 'FOR_FULL_PAYMENT', 12_000, new Date('2026-03-01T04:00:00Z'));
    expect(asked).toMatchObject({ status: 'FOR_FULL_PAYMENT', orderStatus: 'FOR_FULL_PAYMENT', extraCharge: 12_000, overallTotal: 44_400, balance: 36_600, dueDate: '2026-03-02' });
    const c = confirm(asked)!;
    expect(c.action).toBe('COMPLETE_PAYMENT');
    expect(c.amount).toBe(36_600);
    expect(c.after).toMatchObject({ status: 'PAID', type: 'FULL', overallTotal: 44_400, balance: 0, paid: 44_400, partial: 7_800, extraCharge: 12_000 });
    expect(confirm(at(c.after, 'COMPLETED'))).toBeNull();
  });
});

describe('onOrderStatus: order events on a payment', () => {
  it('keeps the order status; FOR_PAYMENT makes a pending payment payable', () => {
    const p = onOrderStatus(purchase(), 'FOR_PAYMENT', null, new Date());
    expect(p).toEqual({ ...purchase(), orderStatus: 'FOR_PAYMENT' });
    expect(nextAction(p)).toBe('MARK_AS_PAID');
  });

  it('CANCELLED cancels a payment nothing was paid on; a payment taken meanwhile becomes REFUND_DUE with what was paid (issue 22)', () => {
    const cancelled = onOrderStatus(at(rental(), 'FOR_PAYMENT'), 'CANCELLED', null, new Date());
    expect(cancelled).toMatchObject({ status: 'CANCELLED', orderStatus: 'CANCELLED' });
    expect(refundDue(cancelled)).toBeNull();
    const paid = confirm(at(purchase(), 'FOR_PAYMENT'))!.after;
    const owed = onOrderStatus(paid, 'CANCELLED', null, new Date());
    expect(owed).toMatchObject({ status: 'REFUND_DUE', orderStatus: 'CANCELLED', balance: 0, paid: 17_598 });
    expect(refundDue(owed)).toBe(17_598);
    expect(nextAction(owed)).toBeNull();
    // A rental's first day taken: that is what is owed back.
    const partial = onOrderStatus(confirm(at(rental(), 'FOR_PAYMENT'))!.after, 'CANCELLED', null, new Date());
    expect(refundDue(partial)).toBe(7_800);
    // The same cancellation again changes nothing.
    expect(onOrderStatus(owed, 'CANCELLED', null, new Date())).toEqual(owed);
  });

  it('why nothing can be taken: the order cancelled (as the payment knows it), or not waiting for a payment', () => {
    expect(notPayableReason(at(purchase(), 'FOR_PAYMENT'))).toBeNull();
    expect(notPayableReason(purchase())).toBe('notPayable');
    expect(notPayableReason(onOrderStatus(at(purchase(), 'FOR_PAYMENT'), 'CANCELLED', null, new Date()))).toBe('orderCancelled');
    expect(notPayableReason(confirm(at(purchase(), 'FOR_PAYMENT'))!.after)).toBe('notPayable');
  });

  it('the full payment is due the Manila day after the request, across the UTC date line', () => {
    const partial = confirm(at(rental(), 'FOR_PAYMENT'))!.after;
    // 2026-03-31 16:30 UTC is already 1 April 00:30 in Manila: due 2 April.
    expect(onOrderStatus(partial, 'FOR_FULL_PAYMENT', 0, new Date('2026-03-31T16:30:00Z')).dueDate).toBe('2026-04-02');
    expect(onOrderStatus(partial, 'FOR_FULL_PAYMENT', 0, new Date('2026-03-31T15:59:00Z')).dueDate).toBe('2026-04-01');
    // No extra charge: the balance is what the partial payment left.
    expect(onOrderStatus(partial, 'FOR_FULL_PAYMENT', null, new Date()).balance).toBe(24_600);
  });

  it('does not reopen a paid payment or ask a purchase for a full payment', () => {
    const paid = confirm(at(purchase(), 'FOR_PAYMENT'))!.after;
    expect(onOrderStatus(paid, 'FOR_FULL_PAYMENT', 500, new Date())).toMatchObject({ status: 'PAID', balance: 0, extraCharge: null });
  });
});

describe('helpers', () => {
  it('first-day total = Σ quantity × unit price, in cents (the terms rule the feed calls)', () => {
    expect(rentalPartialCents([{ unitCents: 1650, quantity: 2 }, { unitCents: 4500, quantity: 1 }, { unitCents: 10, quantity: 3 }])).toBe(7_830);
    expect(rentalPartialCents([])).toBe(0);
  });

  it('invoice files per SPEC §9', () => {
    expect(invoiceFileName('BUY', 'FULL')).toBe('INVOICE.pdf');
    expect(invoiceFileName('RENT', 'PARTIAL')).toBe('INITIAL_PAYMENT_INVOICE.pdf');
    expect(invoiceFileName('RENT', 'FULL')).toBe('FULL_PAYMENT_INVOICE.pdf');
  });
});

describe('the payment process table (contracts PAYMENT_PROCESS) drives every status change', () => {
  /** Every payment the rules can hold: each status (nothing paid while PENDING or CANCELLED, something after), for each kind, at each order status. */
  function everyPayment(): Figures[] {
    const out: Figures[] = [];
    for (const orderType of ['BUY', 'RENT'] as OrderKind[]) {
      for (const status of PAYMENT_STATUSES as readonly PaymentStatus[]) {
        for (const orderStatus of ORDER_STATUSES as readonly OrderStatus[]) {
          const paid = status === 'PENDING' || status === 'CANCELLED' ? 0 : 7_800;
          const base = { ...opening(orderType, 32_400, orderType === 'RENT' ? 7_800 : null), status, orderStatus, paid };
          out.push(base);
          // Issue 29: a rent-to-own rental on cycles, its buy-out offered and its next cycle the one that makes it the customer's.
          out.push({ ...base, billing: 'CYCLES', deliveredOn: '2026-03-01', buyOut: 100_000, cycleDue: { n: 1, cents: 10_000, owns: true } });
        }
      }
    }
    return out;
  }

  it('every row has a trigger and its words, and no two rows are the same change', () => {
    const what = (t: (typeof PAYMENT_PROCESS)[number]['trigger']) => (t.by === 'staff' ? t.action : t.by === 'order' ? t.status : t.by);
    const keys = PAYMENT_PROCESS.map((m) => `${m.from}>${m.to}>${what(m.trigger)}`);
    expect(new Set(keys).size).toBe(keys.length);
    for (const m of PAYMENT_PROCESS) {
      expect(what(m.trigger)).toBeTruthy();
      expect(m.when.length).toBeGreaterThan(5);
      expect(m.from).not.toBe(m.to);
    }
  });

  it('taking a payment and order events change a status only along a row, and every row is used', () => {
    const used = new Set<string>();
    const note = (from: PaymentStatus, to: PaymentStatus, trigger: Parameters<typeof paymentMoveOf>[2]) => {
      if (from === to) return;
      const row = paymentMoveOf(from, to, trigger);
      expect(row, `${from} → ${to} on ${JSON.stringify(trigger)}`).not.toBeNull();
      used.add(PAYMENT_PROCESS.indexOf(row!).toString());
    };
    for (const p of everyPayment()) {
      for (const c of [confirm(p), confirmBuyOut(p)]) if (c) note(p.status, c.after.status, { by: 'staff', action: c.action });
      for (const to of ORDER_STATUSES as readonly OrderStatus[]) note(p.status, onOrderStatus(p, to, 100, new Date('2026-11-25T04:00:00Z')).status, { by: 'order', status: to });
      for (const kind of ['DEPOSIT', 'CANCELLED'] as const) note(p.status, onRefundRecorded(p, kind).status, { by: 'refund' });
    }
    expect([...used].sort()).toEqual(PAYMENT_PROCESS.map((_, i) => i.toString()).sort());
  });

  it('a change that is not a row throws instead of being written', () => {
    expect(paymentMoveOf('PAID', 'PENDING', { by: 'order', status: 'PENDING' })).toBeNull();
    expect(paymentMoveOf('PENDING', 'PAID', { by: 'staff', action: 'COMPLETE_PAYMENT' })).toBeNull();
  });

  it('the full payment is due on the date the order event carries, else the Manila day after the event', () => {
    const partial = confirm(at(rental(), 'FOR_PAYMENT'))!.after;
    expect(onOrderStatus(partial, 'FOR_FULL_PAYMENT', 0, new Date('2026-11-25T04:00:00Z'), '2026-11-30').dueDate).toBe('2026-11-30');
    expect(onOrderStatus(partial, 'FOR_FULL_PAYMENT', 0, new Date('2026-11-25T04:00:00Z')).dueDate).toBe('2026-11-26');
  });
});
