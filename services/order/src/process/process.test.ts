import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { HANDOVER_MESSAGES, lineDueDate, ORDER_MESSAGES, ORDER_STATUSES, ORDER_TRANSITIONS, PACKING_MESSAGES, type OrderStatus, type OrderType, type UserType } from '@dme/contracts';
import type { Principal } from '@dme/platform';
import { allowedTransitions, canPerform, decide, PROCESS_MESSAGES } from './can-perform';
import { EFFECTS } from './effects';
import type { Caller, OrderFacts, TransitionInput } from './facts';
import { GUARD_MESSAGES, GUARDS } from './guards';

/** The process table as pure logic (no database): who may take each row, its guards, and what an order offers. */

const owner = randomUUID();
const driverId = randomUUID();
const person = (userType: UserType, userId: string = randomUUID()): Caller => ({ kind: 'person', principal: { userId, userType, username: 'u' } as Principal });
const CALLERS = {
  owner: person('CUSTOMER', owner),
  otherCustomer: person('CUSTOMER'),
  warehouseStaff: person('WAREHOUSE_STAFF'),
  warehouseAdmin: person('WAREHOUSE_ADMIN'),
  superadmin: person('SUPERADMIN'),
  accounting: person('ACCOUNTING_ADMIN'),
  driver: person('DRIVER', driverId),
  otherDriver: person('DRIVER'),
  support: person('SUPPORT'),
  payment: { kind: 'event', event: 'dme.payment.confirmed', by: null } as Caller,
  otherEvent: { kind: 'event', event: 'dme.catalog.stock_added', by: null } as Caller,
};
type Who = keyof typeof CALLERS;

const NOW = new Date('2026-11-20T04:00:00Z');
const lineA = randomUUID();
const lineB = randomUUID();

/**
 * An order in a status, in the state the shop leaves it there: packed from TO_SHIP on, out with
 * `driverId` from OUT_FOR_DELIVERY on, delivered long enough ago for a 3-day rental to be due,
 * every serial inspected at FOR_PICK_UP.
 */
function facts(type: OrderType, status: OrderStatus, extra: Partial<OrderFacts> = {}): OrderFacts {
  const after = (s: OrderStatus) => ORDER_STATUSES.indexOf(status) >= ORDER_STATUSES.indexOf(s) && status !== 'CANCELLED';
  const packed = after('TO_SHIP');
  return {
    id: randomUUID(),
    orderNumber: 'ORD-20261120-000001',
    customerId: owner,
    type,
    status,
    // A rental for return waits for a pick-up driver (DELIVERED → FOR_RETURN releases the one who delivered it).
    driverId: after('OUT_FOR_DELIVERY') && status !== 'FOR_RETURN' ? driverId : null,
    deliveredAt: after('DELIVERED') ? new Date('2026-11-10T02:00:00Z') : null,
    totalAmount: '1560.00',
    partialPayment: type === 'RENT' ? '70.00' : null,
    lines: [
      { id: lineA, productId: randomUUID(), variantId: null, subVariantId: null, productName: 'Wheelchair', variantName: 'Standard', subVariantName: null, quantity: 2, noOfRentalDays: type === 'RENT' ? 3 : null, damageCharges: '250.00' },
      { id: lineB, productId: randomUUID(), variantId: null, subVariantId: null, productName: 'Cane', variantName: null, subVariantName: null, quantity: 1, noOfRentalDays: type === 'RENT' ? 30 : null, damageCharges: '40.00' },
    ],
    serials: packed
      ? [
          { lineId: lineA, serialCode: 'WHE-0000001', returnStatus: status === 'FOR_PICK_UP' || after('FOR_FULL_PAYMENT') ? 'OK' : null },
          { lineId: lineA, serialCode: 'WHE-0000002', returnStatus: status === 'FOR_PICK_UP' || after('FOR_FULL_PAYMENT') ? 'DAMAGED' : null },
          { lineId: lineB, serialCode: 'CAN-0000003', returnStatus: status === 'FOR_PICK_UP' || after('FOR_FULL_PAYMENT') ? 'LOST' : null },
        ]
      : [],
    ...extra,
  };
}

const verdictOf = (type: OrderType, from: OrderStatus, to: OrderStatus, who: Who, order = facts(type, from)) => {
  const row = ORDER_TRANSITIONS.find((t) => t.from === from && t.to === to && t.types.includes(type))!;
  return canPerform(row, { order, caller: CALLERS[who], input: handoverInput(row), now: NOW });
};

/** The hand-over a row needs (issue 28): a completed one for 'handed-over', a refused one for 'attempt-failed'; else no input. */
function handoverInput(row: { guard?: string; to: OrderStatus }): TransitionInput | undefined {
  const leg = row.to === 'FOR_PICK_UP' ? 'PICKUP' : 'DELIVERY';
  if (row.guard === 'handed-over') return { handover: { leg, outcome: 'HANDED_OVER' } };
  if (row.guard === 'attempt-failed') return { handover: { leg, outcome: 'REFUSED' } };
  return undefined;
}

describe('the registries cover the process table', () => {
  it('every guard and effect the table names has a function, and nothing else is registered', () => {
    const guards = new Set(ORDER_TRANSITIONS.flatMap((t) => (t.guard ? [t.guard] : [])));
    const effects = new Set(ORDER_TRANSITIONS.flatMap((t) => (t.effect ? [t.effect] : [])));
    expect(Object.keys(GUARDS).sort()).toEqual([...guards].sort());
    expect(Object.keys(EFFECTS).sort()).toEqual([...effects].sort());
    for (const g of guards) expect(typeof GUARDS[g]).toBe('function');
    for (const e of effects) expect(typeof EFFECTS[e]).toBe('function');
  });
});

describe('each row: who may take it', () => {
  // For every row: the callers it accepts (with its guard holding); everyone else gets 403.
  const expected: Record<string, Who[]> = {
    'PENDING>FOR_PAYMENT': ['warehouseStaff', 'warehouseAdmin', 'superadmin'],
    'FOR_PAYMENT>PREPARING': ['payment'],
    'PREPARING>TO_SHIP': ['warehouseStaff', 'warehouseAdmin', 'superadmin'],
    'TO_SHIP>OUT_FOR_DELIVERY': ['driver', 'otherDriver', 'superadmin'],
    // The same driver only (the guard): another driver or a superadmin who did not take it out is refused.
    'OUT_FOR_DELIVERY>DELIVERED': ['driver'],
    'OUT_FOR_DELIVERY>TO_SHIP': ['driver'],
    'DELIVERED>FOR_RETURN': ['warehouseStaff', 'warehouseAdmin', 'superadmin'],
    'FOR_RETURN>FOR_PICK_UP': ['driver', 'otherDriver', 'superadmin'],
    'FOR_PICK_UP>FOR_FULL_PAYMENT': ['warehouseStaff', 'warehouseAdmin', 'superadmin'],
    'FOR_FULL_PAYMENT>COMPLETED': ['payment'],
    // Issue 29: a rent-to-own rental that became the customer's (the payment says so).
    'DELIVERED>COMPLETED': ['payment'],
    'FOR_RETURN>COMPLETED': ['payment'],
    'PENDING>CANCELLED': ['owner', 'warehouseStaff', 'warehouseAdmin', 'superadmin'],
    'FOR_PAYMENT>CANCELLED': ['owner', 'warehouseStaff', 'warehouseAdmin', 'superadmin'],
  };

  it('the table has exactly the rows of DESIGN §6', () => {
    expect(ORDER_TRANSITIONS.map((t) => `${t.from}>${t.to}`).sort()).toEqual(Object.keys(expected).sort());
  });

  for (const row of ORDER_TRANSITIONS) {
    it(`${row.from} → ${row.to} (${row.types.join(', ')}): ${expected[`${row.from}>${row.to}`]!.join(', ')}`, () => {
      for (const type of row.types) {
        for (const who of Object.keys(CALLERS) as Who[]) {
          const v = verdictOf(type, row.from, row.to, who);
          const ok = expected[`${row.from}>${row.to}`]!.includes(who);
          expect(v.ok, `${type} ${who}`).toBe(ok);
          if (!v.ok) expect(v.status, `${type} ${who}`).toBe(403);
        }
      }
    });
  }

  it('a person asking for a step that only a payment takes is told so', () => {
    expect(verdictOf('BUY', 'FOR_PAYMENT', 'PREPARING', 'superadmin')).toEqual({ ok: false, status: 403, message: PROCESS_MESSAGES.byPaymentOnly });
    expect(verdictOf('RENT', 'FOR_FULL_PAYMENT', 'COMPLETED', 'warehouseStaff')).toEqual({ ok: false, status: 403, message: PROCESS_MESSAGES.byPaymentOnly });
    expect(verdictOf('BUY', 'OUT_FOR_DELIVERY', 'DELIVERED', 'otherDriver')).toEqual({ ok: false, status: 403, message: GUARD_MESSAGES.notTheDriver });
  });
});

describe('illegal moves', () => {
  it('a move the table has no row for is 409 with a clear message, whoever asks', () => {
    const cases: Array<[OrderType, OrderStatus, OrderStatus]> = [
      ['BUY', 'PENDING', 'DELIVERED'],
      ['BUY', 'PENDING', 'PREPARING'],
      ['RENT', 'PREPARING', 'FOR_PAYMENT'],
      ['BUY', 'DELIVERED', 'FOR_RETURN'], // a purchase ends at DELIVERED
      ['RENT', 'COMPLETED', 'PENDING'],
      ['RENT', 'TO_SHIP', 'DELIVERED'],
      ['BUY', 'CANCELLED', 'FOR_PAYMENT'],
    ];
    for (const [type, from, to] of cases) {
      for (const who of ['superadmin', 'owner', 'payment'] as Who[]) {
        expect(decide({ order: facts(type, from), caller: CALLERS[who], input: undefined, now: NOW }, to), `${type} ${from}→${to}`).toEqual({
          ok: false,
          status: 409,
          message: PROCESS_MESSAGES.illegal(from, to),
        });
      }
    }
    for (const from of ['PREPARING', 'TO_SHIP', 'DELIVERED', 'CANCELLED'] as OrderStatus[]) {
      expect(decide({ order: facts('BUY', from), caller: CALLERS.owner, input: undefined, now: NOW }, 'CANCELLED')).toEqual({ ok: false, status: 409, message: ORDER_MESSAGES.cannotCancel });
    }
  });

  it('a row of another status is refused by canPerform too (the order moved meanwhile)', () => {
    const row = ORDER_TRANSITIONS.find((t) => t.from === 'PENDING' && t.to === 'FOR_PAYMENT')!;
    expect(canPerform(row, { order: facts('BUY', 'FOR_PAYMENT'), caller: CALLERS.superadmin, input: undefined, now: NOW })).toMatchObject({ ok: false, status: 409 });
  });
});

describe('guards', () => {
  const pack = (order: OrderFacts, packing: Array<{ lineID: string; serialCodes: string[] }>) =>
    GUARDS['all-lines-scanned']({ order, caller: CALLERS.warehouseStaff, input: { packing }, now: NOW });

  it('all-lines-scanned: every line with exactly its quantity of distinct codes', () => {
    const o = facts('RENT', 'PREPARING');
    expect(pack(o, [{ lineID: lineA, serialCodes: ['WHE-1', 'WHE-2'] }, { lineID: lineB, serialCodes: ['CAN-1'] }])).toEqual({ ok: true });
    expect(pack(o, [{ lineID: lineA, serialCodes: ['WHE-1', 'WHE-2'] }])).toEqual({ ok: false, status: 409, message: PACKING_MESSAGES.scanEveryLine });
    expect(pack(o, [{ lineID: lineA, serialCodes: ['WHE-1'] }, { lineID: lineB, serialCodes: ['CAN-1'] }])).toEqual({ ok: false, status: 409, message: PACKING_MESSAGES.scanEveryLine });
    expect(pack(o, [])).toEqual({ ok: false, status: 409, message: PACKING_MESSAGES.scanEveryLine });
    expect(pack(o, [{ lineID: lineA, serialCodes: ['WHE-1', 'WHE-2', 'WHE-3'] }, { lineID: lineB, serialCodes: ['CAN-1'] }])).toEqual({
      ok: false,
      status: 409,
      message: PACKING_MESSAGES.tooMany('Wheelchair / Standard'),
    });
    // A repeat, also in another case or on another line.
    expect(pack(o, [{ lineID: lineA, serialCodes: ['WHE-1', 'whe-1'] }, { lineID: lineB, serialCodes: ['CAN-1'] }])).toEqual({
      ok: false,
      status: 409,
      message: PACKING_MESSAGES.alreadyScanned,
      errors: [{ field: 'packing.0.serialCodes.1', message: PACKING_MESSAGES.alreadyScanned }],
    });
    expect(pack(o, [{ lineID: lineA, serialCodes: ['WHE-1', 'WHE-2'] }, { lineID: lineB, serialCodes: ['WHE-2'] }])).toMatchObject({ status: 409, message: PACKING_MESSAGES.alreadyScanned });
    expect(pack(o, [{ lineID: randomUUID(), serialCodes: ['X-1'] }])).toMatchObject({ status: 400, message: GUARD_MESSAGES.unknownLine });
    expect(pack(o, [{ lineID: lineB, serialCodes: ['CAN-1'] }, { lineID: lineB, serialCodes: ['CAN-2'] }])).toMatchObject({ status: 400, message: GUARD_MESSAGES.lineTwice });
    // Without the input (listing actions) it only knows whether the order was packed already.
    expect(GUARDS['all-lines-scanned']({ order: o, caller: CALLERS.warehouseStaff, input: undefined, now: NOW })).toEqual({ ok: true });
    const packed = facts('RENT', 'PREPARING', { serials: [{ lineId: lineA, serialCode: 'WHE-1', returnStatus: null }] });
    expect(GUARDS['all-lines-scanned']({ order: packed, caller: CALLERS.warehouseStaff, input: undefined, now: NOW })).toEqual({ ok: false, status: 409, message: GUARD_MESSAGES.alreadyPacked });
  });

  it('handed-over: only with a completed hand-over, by the driver who has the order (any driver for a pick-up no one has)', () => {
    const o = facts('BUY', 'OUT_FOR_DELIVERY');
    const made = { handover: { leg: 'DELIVERY', outcome: 'HANDED_OVER' } } as const;
    const g = (who: Who, input?: TransitionInput, order = o) => GUARDS['handed-over']({ order, caller: CALLERS[who], input, now: NOW });
    expect(g('driver', made)).toEqual({ ok: true });
    expect(g('driver')).toEqual({ ok: false, status: 409, message: HANDOVER_MESSAGES.needsHandover });
    expect(g('driver', {})).toEqual({ ok: false, status: 409, message: HANDOVER_MESSAGES.needsHandover });
    expect(g('driver', { handover: { leg: 'DELIVERY', outcome: 'REFUSED' } })).toMatchObject({ ok: false, status: 409 });
    expect(g('otherDriver', made)).toEqual({ ok: false, status: 403, message: GUARD_MESSAGES.notTheDriver });
    expect(g('payment', made)).toMatchObject({ ok: false, status: 403 });
    const waiting = facts('RENT', 'FOR_RETURN', { driverId: null });
    expect(g('otherDriver', { handover: { leg: 'PICKUP', outcome: 'HANDED_OVER' } }, waiting)).toEqual({ ok: true });
  });

  it('attempt-failed: a refused or nobody-home hand-over, by the driver who has the order', () => {
    const o = facts('BUY', 'OUT_FOR_DELIVERY');
    const g = (who: Who, input?: TransitionInput) => GUARDS['attempt-failed']({ order: o, caller: CALLERS[who], input, now: NOW });
    expect(g('driver', { handover: { leg: 'DELIVERY', outcome: 'REFUSED' } })).toEqual({ ok: true });
    expect(g('driver', { handover: { leg: 'DELIVERY', outcome: 'NOBODY_HOME' } })).toEqual({ ok: true });
    expect(g('driver', { handover: { leg: 'DELIVERY', outcome: 'HANDED_OVER' } })).toMatchObject({ ok: false, status: 409 });
    expect(g('driver')).toMatchObject({ ok: false, status: 409 });
    expect(g('otherDriver', { handover: { leg: 'DELIVERY', outcome: 'REFUSED' } })).toEqual({ ok: false, status: 403, message: GUARD_MESSAGES.notTheDriver });
  });

  it('some-line-past-due: a line is due on its delivered date (Manila) plus its rental days', () => {
    // Delivered 2026-11-02 04:00 in Manila (still 1 November in UTC); the 3-day line is due on 5 November (Manila).
    const o = facts('RENT', 'DELIVERED', { deliveredAt: new Date('2026-11-01T20:00:00Z') });
    const at = (iso: string) => GUARDS['some-line-past-due']({ order: o, caller: CALLERS.warehouseStaff, input: undefined, now: new Date(iso) });
    expect(at('2026-11-04T15:59:59Z')).toEqual({ ok: false, status: 409, message: GUARD_MESSAGES.notPastDue }); // 4 Nov, 23:59:59 in Manila
    expect(at('2026-11-04T16:00:00Z')).toEqual({ ok: true }); // 5 Nov, 00:00 in Manila
    expect(GUARDS['some-line-past-due']({ order: { ...o, deliveredAt: null }, caller: CALLERS.warehouseStaff, input: undefined, now: NOW })).toMatchObject({
      ok: false,
      message: GUARD_MESSAGES.notDelivered,
    });
  });

  it('some-line-past-due: delivered at 23:30 Manila time with 1 rental day → due the next Manila day, refused the day before', () => {
    // 2026-03-10 23:30 in Manila is 15:30 UTC the same day; 1 day later on the Manila calendar is 11 March.
    const base = facts('RENT', 'DELIVERED', { deliveredAt: new Date('2026-03-10T15:30:00Z') });
    const o = { ...base, lines: base.lines.map((l) => ({ ...l, noOfRentalDays: 1 })) };
    const at = (iso: string) => GUARDS['some-line-past-due']({ order: o, caller: CALLERS.warehouseStaff, input: undefined, now: new Date(iso) });
    expect(at('2026-03-10T15:45:00Z')).toEqual({ ok: false, status: 409, message: GUARD_MESSAGES.notPastDue }); // 10 Mar, 23:45 in Manila
    expect(at('2026-03-10T16:05:00Z')).toEqual({ ok: true }); // 11 Mar, 00:05 in Manila (still 10 March in UTC)
    expect(lineDueDate(new Date('2026-03-10T15:30:00Z'), 1)).toBe('2026-03-11');
  });

  it('all-serials-returned: every packed serial has its return status', () => {
    const o = facts('RENT', 'FOR_PICK_UP');
    const g = (order: OrderFacts) => GUARDS['all-serials-returned']({ order, caller: CALLERS.warehouseStaff, input: undefined, now: NOW });
    expect(g(o)).toEqual({ ok: true });
    expect(g({ ...o, serials: o.serials.map((s, i) => (i === 1 ? { ...s, returnStatus: null } : s)) })).toEqual({ ok: false, status: 409, message: GUARD_MESSAGES.notReturned });
    expect(g({ ...o, serials: [] })).toMatchObject({ ok: false });
  });

  it('confirm: nothing to check beyond the row', () => {
    expect(GUARDS.confirm({ order: facts('BUY', 'PENDING'), caller: CALLERS.warehouseStaff, input: undefined, now: NOW })).toEqual({ ok: true });
  });
});

describe('allowedTransitions: only what the caller can really do now', () => {
  const roles: Who[] = ['owner', 'otherCustomer', 'warehouseStaff', 'accounting', 'driver', 'otherDriver', 'superadmin'];
  // [status, rental answers per role, purchase answers per role (when the status exists for purchases)]
  const table: Array<[OrderStatus, Partial<Record<Who, OrderStatus[]>>, Partial<Record<Who, OrderStatus[]>> | null]> = [
    ['PENDING', { owner: ['CANCELLED'], warehouseStaff: ['FOR_PAYMENT', 'CANCELLED'], superadmin: ['FOR_PAYMENT', 'CANCELLED'] }, 'same'],
    ['FOR_PAYMENT', { owner: ['CANCELLED'], warehouseStaff: ['CANCELLED'], superadmin: ['CANCELLED'] }, 'same'],
    ['PREPARING', { warehouseStaff: ['TO_SHIP'], superadmin: ['TO_SHIP'] }, 'same'],
    ['TO_SHIP', { driver: ['OUT_FOR_DELIVERY'], otherDriver: ['OUT_FOR_DELIVERY'], superadmin: ['OUT_FOR_DELIVERY'] }, 'same'],
    // Delivering (and picking up) needs the hand-over's input: never offered as a plain action (issue 28).
    ['OUT_FOR_DELIVERY', {}, 'same'],
    ['DELIVERED', { warehouseStaff: ['FOR_RETURN'], superadmin: ['FOR_RETURN'] }, {}],
    ['FOR_RETURN', {}, null],
    ['FOR_PICK_UP', { warehouseStaff: ['FOR_FULL_PAYMENT'], superadmin: ['FOR_FULL_PAYMENT'] }, null],
    ['FOR_FULL_PAYMENT', {}, null],
    ['COMPLETED', {}, null],
    ['CANCELLED', {}, {}],
  ].map(([s, rent, buy]) => [s as OrderStatus, rent as Partial<Record<Who, OrderStatus[]>>, buy === 'same' ? (rent as Partial<Record<Who, OrderStatus[]>>) : (buy as Partial<Record<Who, OrderStatus[]>> | null)]);

  for (const [status, rent, buy] of table) {
    it(`${status}`, () => {
      for (const [type, answers] of [['RENT', rent], ['BUY', buy]] as const) {
        if (!answers) continue;
        for (const who of roles) {
          expect(allowedTransitions(facts(type, status), CALLERS[who], NOW), `${type} ${status} ${who}`).toEqual(answers[who] ?? []);
        }
      }
    });
  }

  it('what a guard refuses is not offered: not yet due, not every serial inspected, already packed', () => {
    const staff = CALLERS.warehouseStaff;
    expect(allowedTransitions(facts('RENT', 'DELIVERED', { deliveredAt: new Date('2026-11-19T02:00:00Z') }), staff, NOW)).toEqual([]);
    const pickUp = facts('RENT', 'FOR_PICK_UP');
    expect(allowedTransitions({ ...pickUp, serials: [...pickUp.serials, { lineId: lineB, serialCode: 'CAN-9', returnStatus: null }] }, staff, NOW)).toEqual([]);
    expect(allowedTransitions(facts('BUY', 'PREPARING', { serials: [{ lineId: lineA, serialCode: 'X', returnStatus: null }] }), staff, NOW)).toEqual([]);
  });

  it('a payment event can take only its own rows', () => {
    expect(allowedTransitions(facts('RENT', 'FOR_PAYMENT'), CALLERS.payment, NOW)).toEqual(['PREPARING']);
    expect(allowedTransitions(facts('RENT', 'FOR_FULL_PAYMENT'), CALLERS.payment, NOW)).toEqual(['COMPLETED']);
    expect(allowedTransitions(facts('RENT', 'FOR_FULL_PAYMENT'), CALLERS.otherEvent, NOW)).toEqual([]);
    expect(allowedTransitions(facts('BUY', 'PENDING'), CALLERS.payment, NOW)).toEqual([]);
  });
});
