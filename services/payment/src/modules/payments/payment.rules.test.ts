import { describe, expect, it } from 'vitest';
import { ORDER_STATUSES, PAYMENT_STATUSES, type OrderStatus, type PaymentStatus } from '@dme/contracts';
import { confirm, firstDayTotal, invoiceFileName, nextAction, notPayableReason, onOrderStatus, opening, refundDue, type Figures, type OrderKind } from './payment.rules';

const purchase = () => opening('BUY', 17_598, null);
const rental = () => opening('RENT', 32_400, 7_800);
const at = (f: Figures, orderStatus: OrderStatus): Figures => ({ ...f, orderStatus });

describe('nextAction: what confirming does now (SPEC §4)', () => {
  it('is one of three actions in exactly three situations, and null in every other', () => {
    const found: string[] = [];
    for (const orderType of ['BUY', 'RENT'] as OrderKind[]) {
      for (const status of PAYMENT_STATUSES as readonly PaymentStatus[]) {
        for (const orderStatus of ORDER_STATUSES as readonly OrderStatus[]) {
          const action = nextAction({ orderType, status, orderStatus });
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
  it('first-day total = Σ quantity × unit price, in cents', () => {
    expect(firstDayTotal([{ unitPrice: '16.50', quantity: 2 }, { unitPrice: '45.00', quantity: 1 }, { unitPrice: '0.10', quantity: 3 }])).toBe(7_830);
    expect(firstDayTotal([])).toBe(0);
  });

  it('invoice files per SPEC §9', () => {
    expect(invoiceFileName('BUY', 'FULL')).toBe('INVOICE.pdf');
    expect(invoiceFileName('RENT', 'PARTIAL')).toBe('INITIAL_PAYMENT_INVOICE.pdf');
    expect(invoiceFileName('RENT', 'FULL')).toBe('FULL_PAYMENT_INVOICE.pdf');
  });
});
