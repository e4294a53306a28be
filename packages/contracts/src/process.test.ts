import { describe, expect, it } from 'vitest';
import { ORDER_STATUSES, ORDER_TYPES, PAYMENT_TYPES } from './enums';
import { handoverTransition, ORDER_TRANSITIONS, orderHasQr, paymentTransition, paymentTypeOf, scanTransition } from './process';
import { acceptsRequests } from './rental-constants';

describe('the order process table: every row has its trigger', () => {
  it('every row names at least one trigger, and an event row is started by a payment only', () => {
    for (const row of ORDER_TRANSITIONS) {
      expect(row.on.length, `${row.from} → ${row.to}`).toBeGreaterThan(0);
      expect(row.on.some((o) => o.kind === 'payment')).toBe(row.who.kind === 'event');
      if (row.who.kind === 'event') expect(row.on.every((o) => o.kind === 'payment')).toBe(true);
    }
  });

  it('a scan or a payment finds at most one row from any status, and only rows that name it', () => {
    const found: string[] = [];
    for (const type of ORDER_TYPES) {
      for (const from of ORDER_STATUSES) {
        for (const purpose of ['DELIVERY', 'PICKUP'] as const) {
          const row = scanTransition(type, from, purpose);
          if (row) found.push(`${type} ${purpose} scan: ${row.from} → ${row.to}`);
        }
        for (const paymentType of PAYMENT_TYPES) {
          const row = paymentTransition(type, from, paymentType);
          if (row) found.push(`${type} ${paymentType} payment: ${row.from} → ${row.to}`);
        }
      }
    }
    expect(found.sort()).toEqual(
      [
        'BUY DELIVERY scan: TO_SHIP → OUT_FOR_DELIVERY',
        'BUY DELIVERY scan: OUT_FOR_DELIVERY → DELIVERED',
        'BUY FULL payment: FOR_PAYMENT → PREPARING',
        'RENT DELIVERY scan: TO_SHIP → OUT_FOR_DELIVERY',
        'RENT DELIVERY scan: OUT_FOR_DELIVERY → DELIVERED',
        'RENT PICKUP scan: FOR_RETURN → FOR_PICK_UP',
        'RENT PARTIAL payment: FOR_PAYMENT → PREPARING',
        'RENT FULL payment: FOR_FULL_PAYMENT → COMPLETED',
      ].sort(),
    );
  });

  it('a hand-over finds its row: made moves the order on, a failed delivery goes back to TO_SHIP, a failed pick-up moves nothing', () => {
    const found: string[] = [];
    for (const type of ORDER_TYPES) {
      for (const from of ORDER_STATUSES) {
        for (const leg of ['DELIVERY', 'PICKUP'] as const) {
          for (const made of [true, false]) {
            const row = handoverTransition(type, from, leg, made);
            if (row) found.push(`${type} ${leg} ${made ? 'made' : 'failed'}: ${row.from} → ${row.to} (${row.guard})`);
          }
        }
      }
    }
    expect(found.sort()).toEqual(
      [
        'BUY DELIVERY made: OUT_FOR_DELIVERY → DELIVERED (handed-over)',
        'BUY DELIVERY failed: OUT_FOR_DELIVERY → TO_SHIP (attempt-failed)',
        'RENT DELIVERY made: OUT_FOR_DELIVERY → DELIVERED (handed-over)',
        'RENT DELIVERY failed: OUT_FOR_DELIVERY → TO_SHIP (attempt-failed)',
        'RENT PICKUP made: FOR_RETURN → FOR_PICK_UP (handed-over)',
      ].sort(),
    );
  });

  it("the first payment is a rental's partial one and a purchase's full one", () => {
    expect(paymentTypeOf('first', 'RENT')).toBe('PARTIAL');
    expect(paymentTypeOf('first', 'BUY')).toBe('FULL');
    expect(paymentTypeOf('full', 'RENT')).toBe('FULL');
    expect(paymentTypeOf('full', 'BUY')).toBe('FULL');
  });
});

describe('orderHasQr: from TO_SHIP on', () => {
  it('is true from TO_SHIP to COMPLETED, false before and once cancelled', () => {
    expect(ORDER_STATUSES.filter(orderHasQr)).toEqual(['TO_SHIP', 'OUT_FOR_DELIVERY', 'DELIVERED', 'FOR_RETURN', 'FOR_PICK_UP', 'FOR_FULL_PAYMENT', 'COMPLETED']);
  });
});

describe('acceptsRequests: fix and replace requests while a rental is out', () => {
  it('only a DELIVERED rental', () => {
    expect(ORDER_STATUSES.filter((status) => acceptsRequests({ type: 'RENT', status }))).toEqual(['DELIVERED']);
    expect(ORDER_STATUSES.filter((status) => acceptsRequests({ type: 'BUY', status }))).toEqual([]);
  });
});
