/**
 * A payment and a cancellation started together (issue 22), through the running stack: the
 * customer or the warehouse cancels a FOR_PAYMENT order while accounting confirms its payment
 * (POST /api/payments/:id/confirm). The order service decides the cancel on its order, the payment
 * service decides the payment on its own copy of the order status, fed a moment later by order
 * events; the two only meet through events. Whatever interleaving a run gets, it must end in one
 * of three outcomes, never in a payment kept for a cancelled order with nothing said:
 *
 * - the payment refused (409: the payment service already knew of the cancellation), the order
 *   CANCELLED, nothing paid;
 * - the cancel refused (409: the payment's event had moved the order on to PREPARING);
 * - both taken: the payment REFUND_DUE with what was paid, for accounting (its tab) and on the
 *   customer's order (eventually: through the outbox and the order service's read model).
 */
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { validPerson } from '@dme/testing';
import { call, signIn, until, uploadImage, type Answer } from './lib/api';

const RUNS = 50;
/** Races run side by side (each on its own order). */
const AT_ONCE = 5;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

let admin = '';
let warehouse = '';
let accounting = '';
let customer = '';
const products: Record<'BUY' | 'RENT', string> = { BUY: '', RENT: '' };

beforeAll(async () => {
  [admin, warehouse, accounting] = await Promise.all([signIn('superadmin'), signIn('warehouseadmin'), signIn('accounting')]);
  const image = await uploadImage(admin);
  const bin = await call('POST', '/api/warehouse-bins', { cookie: admin, body: { name: `Race ${randomUUID().slice(0, 8)}`, description: 'system test' } });
  // A product of each kind of the suite's own, with stock for every run.
  for (const [kind, type, price] of [
    ['BUY', 'FOR_SALE', '30.00'],
    ['RENT', 'FOR_RENT', '12.50'],
  ] as const) {
    const created = await call('POST', '/api/products', {
      cookie: admin,
      body: { brand: 'Drive', name: `Race ${kind} ${randomUUID().slice(0, 6)}`, description: 'Race', type, image, price, damageCharges: '0.00' },
    });
    expect(created.status).toBe(201);
    products[kind] = created.body.product.id;
    const stock = await call('POST', '/api/stocks', { cookie: admin, body: { productID: products[kind], warehouseBinID: bin.body.bin.id, quantity: RUNS } });
    expect(stock.status).toBe(201);
  }
  const person = validPerson({ username: `race_${randomUUID().slice(0, 6)}`, image });
  expect((await call('POST', '/api/auth/register', { body: person })).status).toBe(201);
  customer = await signIn(person.username, person.password);
});

type Outcome = 'payment refused' | 'cancel refused' | 'refund due';

interface Race {
  run: number;
  type: 'BUY' | 'RENT';
  orderId: string;
  paymentId: string;
  canceller: 'customer' | 'staff';
  pay: Answer;
  cancel: Answer;
}

/** An order placed, confirmed by the warehouse, its payment payable at accounting; then cancel and pay at the same time. */
async function race(run: number): Promise<Race> {
  const type = run % 2 === 0 ? 'BUY' : 'RENT';
  const placed = await call('POST', '/api/orders', {
    cookie: customer,
    headers: { 'idempotency-key': randomUUID() },
    body: {
      type,
      typeOfOrder: 'BULK',
      lines: [{ productID: products[type], quantity: 1, ...(type === 'RENT' ? { noOfRentalDays: 3 } : {}) }],
      deliveryAddress: '12 Rizal St',
      deliveryCity: 'Makati',
      deliveryState: 'Metro Manila',
      deliveryZipcode: '121000',
      note: '',
    },
  });
  expect(placed.status, JSON.stringify(placed.body)).toBe(201);
  const order = placed.body.order as { id: string; orderNumber: string };
  expect((await call('POST', `/api/orders/${order.id}/transitions`, { cookie: warehouse, body: { to: 'FOR_PAYMENT' } })).status).toBe(200);
  const payment = await until(`run ${run}: the payment becomes payable`, async () => {
    const list = await call('GET', `/api/payments?search=${encodeURIComponent(order.orderNumber)}`, { cookie: accounting });
    const p = (list.body.items as Array<{ id: string; orderNumber: string; nextAction: string | null }>).find((i) => i.orderNumber === order.orderNumber);
    return p?.nextAction ? p : undefined;
  });
  const canceller = run % 4 < 2 ? 'customer' : 'staff';
  // Started together, one of them up to 100 ms later (from -100 to +100 ms over the runs, a few
  // milliseconds of jitter on top): every interleaving of the two services and their events is met.
  const offset = (((run * 7) % 11) - 5) * 20 + Math.floor(Math.random() * 5);
  const [pay, cancel] = await Promise.all([
    sleep(Math.max(0, offset)).then(() =>
      call('POST', `/api/payments/${payment.id}/confirm`, {
        cookie: accounting,
        headers: { 'idempotency-key': randomUUID() },
        body: { invoiceNumber: `INV-RACE-${run}`, receiptNumber: `OR-RACE-${run}`, note: 'race' },
      }),
    ),
    sleep(Math.max(0, -offset)).then(() => call('POST', `/api/orders/${order.id}/transitions`, { cookie: canceller === 'customer' ? customer : warehouse, body: { to: 'CANCELLED' } })),
  ]);
  return { run, type, orderId: order.id, paymentId: payment.id, canceller, pay, cancel };
}

/** Where a run ended, once the events have gone round (every outcome is checked on both sides, and on the customer's page). */
async function settle(r: Race): Promise<Outcome> {
  const label = `run ${r.run} (${r.type}, ${r.canceller} cancel): pay ${r.pay.status} ${JSON.stringify(r.pay.body?.detail ?? '')}, cancel ${r.cancel.status} ${JSON.stringify(r.cancel.body?.detail ?? '')}`;
  for (const a of [r.pay, r.cancel]) {
    expect([200, 409], label).toContain(a.status);
    if (a.status === 409) expect(a.headers.get('content-type'), label).toContain('application/problem+json');
  }
  const payment = async () => (await call('GET', `/api/payments/${r.paymentId}`, { cookie: accounting })).body.payment;
  const mine = async () => (await call('GET', `/api/my/orders/${r.orderId}`, { cookie: customer })).body.order;

  if (r.pay.status === 409) {
    // Refused where the decision is made: the payment service knew the order was cancelled.
    expect(r.cancel.status, label).toBe(200);
    expect(r.pay.body.detail, label).toBe('This order was cancelled: no payment can be taken for it.');
    const p = await until(`${label}: the payment CANCELLED`, async () => {
      const got = await payment();
      return got.status === 'CANCELLED' ? got : undefined;
    });
    expect(p.records, label).toEqual([]);
    const o = await mine();
    expect([o.status, o.payment.status, o.payment.records], label).toEqual(['CANCELLED', 'UNPAID', []]);
    return 'payment refused';
  }
  const paidAmount = r.pay.body.payment.records.at(-1).amount as string;
  if (r.cancel.status === 409) {
    // The payment's event moved the order on before the cancel reached it.
    const o = await until(`${label}: the order PREPARING`, async () => {
      const got = await mine();
      return got.status === 'PREPARING' ? got : undefined;
    });
    expect(o.payment.status, label).toBe(r.type === 'BUY' ? 'PAID' : 'INITIAL_PAYMENT');
    expect((await payment()).status, label).toBe(r.type === 'BUY' ? 'PAID' : 'INITIAL_PAYMENT');
    return 'cancel refused';
  }
  // Both taken: never silent. The payment owes back what was paid, for accounting and the customer.
  const p = await until(`${label}: the payment REFUND_DUE (found ${JSON.stringify((await payment()).status)})`, async () => {
    const got = await payment();
    return got.status === 'REFUND_DUE' ? got : undefined;
  });
  expect([p.orderStatus, p.refundDue, p.records.length], label).toEqual(['CANCELLED', paidAmount, 1]);
  const refunds = await call('GET', `/api/payments?status=REFUND_DUE&search=${encodeURIComponent(p.orderNumber)}`, { cookie: accounting });
  expect(refunds.body.items.map((i: { id: string }) => i.id), label).toEqual([r.paymentId]);
  const o = await until(`${label}: the customer's order shows REFUND_DUE`, async () => {
    const got = await mine();
    return got.payment.status === 'REFUND_DUE' ? got : undefined;
  });
  expect([o.status, o.payment.refundDue, o.payment.records.length], label).toEqual(['CANCELLED', paidAmount, 1]);
  return 'refund due';
}

describe('a payment and a cancellation started together (issue 22)', () => {
  it(`${RUNS} runs: each ends in a refused payment, a refused cancel or a visible refund due — never a payment kept silently`, async () => {
    const outcomes: Outcome[] = [];
    for (let first = 0; first < RUNS; first += AT_ONCE) {
      const races = await Promise.all(Array.from({ length: Math.min(AT_ONCE, RUNS - first) }, (_, i) => race(first + i)));
      outcomes.push(...(await Promise.all(races.map(settle))));
    }
    const tally = outcomes.reduce<Record<string, number>>((t, o) => ({ ...t, [o]: (t[o] ?? 0) + 1 }), {});
    console.log(`payment/cancel race outcomes over ${RUNS} runs: ${JSON.stringify(tally)}`);
    expect(outcomes).toHaveLength(RUNS);
    // Issue 29: accounting's reconciliation finds every race's money accounted for (charged once, owed back whole when both were taken).
    const run = await call('POST', '/api/reconciliation/runs', { cookie: accounting });
    expect(run.status, JSON.stringify(run.body)).toBe(201);
    expect((run.body.mismatches as Array<{ orderNumber: string; check: string; detail: string }>).map((m) => `${m.orderNumber} ${m.check}: ${m.detail}`)).toEqual([]);
  }, 300_000);
});
