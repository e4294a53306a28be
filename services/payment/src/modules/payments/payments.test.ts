import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays, EVENT_DATA, EVENTS, manilaDate, PAYMENT_MESSAGES } from '@dme/contracts';
import { IDENTITY_HEADERS } from '@dme/platform';
import { TEST_INTERNAL_TOKEN, type Json } from '@dme/testing';
import { confirmAs, paymentIdOf, placedEvent, purchase, rental, rentalToFullPayment, startPayments, statusEvent, type PaymentHarness, type PlacedData } from '../../test/harness';

let h: PaymentHarness;
beforeAll(async () => {
  h = await startPayments();
});
afterAll(() => h?.close());

const db = () => h.orm.em.fork();
const get = (id: string, as: Json = h.accounting) => h.api.get(`/api/payments/${id}`, { as });
const recordCount = async (paymentId: string) =>
  (await db().execute<Array<{ n: number }>>('select count(*)::int as n from payment.payment_records where payment_id = ?', [paymentId]))[0]!.n;
/** The dme.payment.confirmed events in the outbox for a payment. */
const confirmedEvents = async (paymentId: string) =>
  db().execute<Array<{ subject: string; payload: Json }>>(`select subject, payload from payment.outbox where payload->>'aggregateId' = ? order by seq`, [paymentId]);

/** An order placed (and, unless said otherwise, confirmed by the warehouse: FOR_PAYMENT). */
async function order(data: PlacedData, opts: { forPayment?: boolean } = {}): Promise<string> {
  await h.feed(placedEvent(data));
  if (opts.forPayment !== false) await h.feed(statusEvent(data, 'PENDING', 'FOR_PAYMENT'));
  return paymentIdOf(h, data.orderId);
}

describe('payments opened by order events', () => {
  it('an order placed opens a PENDING payment with its totals, customer, address and lines; a purchase has no partial payment', async () => {
    const data = purchase();
    const id = await order(data, { forPayment: false });
    const res = await get(id);
    expect(res.status).toBe(200);
    expect(res.body.payment).toEqual({
      id,
      orderID: data.orderId,
      orderNumber: data.orderNumber,
      orderType: 'BUY',
      orderStatus: 'PENDING',
      customerID: data.customerId,
      customerName: 'Maria Santos',
      status: 'PENDING',
      type: null,
      totalOrderPayment: '175.98',
      totalPartialPayment: null,
      balance: '175.98',
      nextAction: null,
      refundDue: null,
      dueNow: null,
      refundsDue: null,
      createdAt: data.createdAt,
      updatedAt: expect.any(String),
      customer: { name: 'Maria Santos', email: 'maria.santos@example.com', contactNumber: '+63 917 555 0101' },
      delivery: { address: '12 Rizal St', city: 'Makati', state: 'Metro Manila', zipcode: '1210' },
      lines: [
        { productName: 'Digital Thermometer', variantName: null, subVariantName: null, quantity: 2, noOfRentalDays: null, unitPrice: '12.99', lineTotal: '25.98', deposit: '0.00', rentToOwn: null },
        { productName: 'Folding Wheelchair', variantName: 'Standard', subVariantName: '18 in', quantity: 1, noOfRentalDays: null, unitPrice: '150.00', lineTotal: '150.00', deposit: '0.00', rentToOwn: null },
      ],
      extraCharge: null,
      overallTotal: null,
      dueDate: null,
      records: [],
      deposit: '0.00',
      depositHeld: '0.00',
      lateFees: null,
      depositApplied: null,
      depositRefund: null,
      refunds: [],
      extensions: [],
      billing: 'UPFRONT',
      deliveredOn: null,
      cycles: [],
      buyOutNow: null,
    });
  });

  it("a rental's partial payment is its first-day total; computed from its lines when an older event lacks it", async () => {
    const withPartial = await order(rental(), { forPayment: false });
    expect((await get(withPartial)).body.payment).toMatchObject({ orderType: 'RENT', totalOrderPayment: '324.00', totalPartialPayment: '78.00', balance: '324.00', status: 'PENDING' });
    // An event written before issue 9 (no partialPayment, customer, delivery or names) still opens a payment.
    const old = rental({ partialPayment: null, customer: null, delivery: null });
    const oldId = await order(old, { forPayment: false });
    expect((await get(oldId)).body.payment).toMatchObject({ totalPartialPayment: '78.00', customerName: '', customer: null, delivery: null });
  });

  it('FOR_PAYMENT makes the payment payable; CANCELLED cancels an unpaid one, and paying it is refused saying why', async () => {
    const buy = purchase();
    const buyId = await order(buy);
    expect((await get(buyId)).body.payment).toMatchObject({ orderStatus: 'FOR_PAYMENT', status: 'PENDING', nextAction: 'MARK_AS_PAID' });
    const rent = rental();
    const rentId = await order(rent);
    expect((await get(rentId)).body.payment.nextAction).toBe('PAY_PARTIAL');
    await h.feed(statusEvent(rent, 'FOR_PAYMENT', 'CANCELLED'));
    expect((await get(rentId)).body.payment).toMatchObject({ orderStatus: 'CANCELLED', status: 'CANCELLED', nextAction: null });
    const res = await confirmAs(h, h.accounting, rentId);
    expect(res.status).toBe(409);
    expect(res.headers.get('content-type')).toContain('application/problem+json');
    expect(res.body.detail).toBe(PAYMENT_MESSAGES.orderCancelled);
    expect(await recordCount(rentId)).toBe(0);
  });

  it('a status event that arrives before its order is held, and applied when the order arrives', async () => {
    const data = purchase();
    await h.feed(statusEvent(data, 'PENDING', 'FOR_PAYMENT'));
    const [held] = await db().execute<Array<{ n: number }>>('select count(*)::int as n from payment.early_order_events where order_id = ?', [data.orderId]);
    expect(held!.n).toBe(1);
    await h.feed(placedEvent(data));
    const id = await paymentIdOf(h, data.orderId);
    expect((await get(id)).body.payment).toMatchObject({ orderStatus: 'FOR_PAYMENT', nextAction: 'MARK_AS_PAID' });
    const [left] = await db().execute<Array<{ n: number }>>('select count(*)::int as n from payment.early_order_events where order_id = ?', [data.orderId]);
    expect(left!.n).toBe(0);
  });
});

describe('confirm', () => {
  it("a purchase: 'Mark as paid' → PAID, FULL, overall total = order total, one record by the caller, one event", async () => {
    const data = purchase();
    const id = await order(data);
    const res = await confirmAs(h, h.accounting, id, { invoiceNumber: ' INV-2001 ', receiptNumber: 'OR-7001', note: 'Cash' });
    expect(res.status).toBe(200);
    const p = res.body.payment;
    expect(p).toMatchObject({ status: 'PAID', type: 'FULL', overallTotal: '175.98', balance: '0.00', totalOrderPayment: '175.98', nextAction: null });
    expect(p.records).toEqual([
      {
        id: expect.any(String),
        type: 'FULL',
        invoiceNumber: 'INV-2001',
        receiptNumber: 'OR-7001',
        note: 'Cash',
        amount: '175.98',
        accommodatedBy: h.accounting.userId,
        accommodatedByName: h.accounting.username,
        createdAt: expect.any(String),
        cycle: null,
      },
    ]);
    expect((await get(id)).body.payment).toEqual(p);
    const events = await confirmedEvents(id);
    expect(events).toHaveLength(1);
    expect(events[0]!.subject).toBe(EVENTS.payment.confirmed);
    expect(events[0]!.payload).toMatchObject({ type: EVENTS.payment.confirmed, source: 'payment', aggregateId: id, version: 1 });
    expect(EVENT_DATA[EVENTS.payment.confirmed].parse(events[0]!.payload.data)).toEqual({
      paymentId: id,
      orderId: data.orderId,
      orderNumber: data.orderNumber,
      customerId: data.customerId,
      orderType: 'BUY',
      type: 'FULL',
      status: 'PAID',
      amount: '175.98',
      invoiceNumber: 'INV-2001',
      receiptNumber: 'OR-7001',
      note: 'Cash',
      accommodatedBy: h.accounting.userId,
      confirmedAt: p.records[0].createdAt,
      totalPartialPayment: null,
      extraCharge: null,
      overallTotal: '175.98',
      balance: '0.00',
      dueDate: null,
      recordId: p.records[0].id,
      deposit: '0.00',
      cycle: null,
      owned: false,
    });
    // Paid: nothing more can be taken.
    const again = await confirmAs(h, h.accounting, id);
    expect(again.status).toBe(409);
    expect(again.body.detail).toBe(PAYMENT_MESSAGES.notPayable);
    expect(await recordCount(id)).toBe(1);
  });

  it("a rental: 'Pay Partial Payment' → INITIAL_PAYMENT, PARTIAL, overall total 0, partial = first day", async () => {
    const data = rental();
    const id = await order(data);
    const res = await confirmAs(h, h.accounting, id);
    expect(res.status).toBe(200);
    expect(res.body.payment).toMatchObject({ status: 'INITIAL_PAYMENT', type: 'PARTIAL', overallTotal: '0.00', totalPartialPayment: '78.00', balance: '246.00', nextAction: null });
    expect(res.body.payment.records.map((r: Json) => [r.type, r.amount])).toEqual([['PARTIAL', '78.00']]);
    const [event] = await confirmedEvents(id);
    expect(event!.payload.data).toMatchObject({ orderType: 'RENT', type: 'PARTIAL', status: 'INITIAL_PAYMENT', amount: '78.00', totalPartialPayment: '78.00', overallTotal: '0.00', balance: '246.00' });
  });

  it("the amounts are the server's: figures a client adds to the form are ignored", async () => {
    const id = await order(purchase());
    const res = await confirmAs(h, h.accounting, id, { invoiceNumber: 'INV-1', receiptNumber: 'OR-1', note: '', amount: '1.00', balance: '174.98', overallTotal: '1.00' });
    expect(res.status).toBe(200);
    expect(res.body.payment).toMatchObject({ overallTotal: '175.98', balance: '0.00' });
    expect(res.body.payment.records[0].amount).toBe('175.98');
  });

  it('an order still PENDING cannot be paid (409); once FOR_PAYMENT it can', async () => {
    const data = purchase();
    const id = await order(data, { forPayment: false });
    const res = await confirmAs(h, h.accounting, id);
    expect(res.status).toBe(409);
    expect(res.headers.get('content-type')).toContain('application/problem+json');
    expect(res.body.detail).toBe(PAYMENT_MESSAGES.notPayable);
    await h.feed(statusEvent(data, 'PENDING', 'FOR_PAYMENT'));
    expect((await confirmAs(h, h.accounting, id)).status).toBe(200);
  });

  it('invoice and receipt numbers are required with the spec\'s messages; nothing changes', async () => {
    const id = await order(purchase());
    const cases: Array<[Record<string, unknown>, Array<{ field: string; message: string }>]> = [
      [{}, [{ field: 'invoiceNumber', message: PAYMENT_MESSAGES.invoiceNumber }, { field: 'receiptNumber', message: PAYMENT_MESSAGES.receiptNumber }]],
      [{ invoiceNumber: '   ', receiptNumber: 'OR-1' }, [{ field: 'invoiceNumber', message: PAYMENT_MESSAGES.invoiceNumber }]],
      [{ invoiceNumber: 'INV-1', receiptNumber: '' }, [{ field: 'receiptNumber', message: PAYMENT_MESSAGES.receiptNumber }]],
      [{ invoiceNumber: 7, receiptNumber: null }, [{ field: 'invoiceNumber', message: PAYMENT_MESSAGES.invoiceNumber }, { field: 'receiptNumber', message: PAYMENT_MESSAGES.receiptNumber }]],
    ];
    for (const [body, errors] of cases) {
      const res = await confirmAs(h, h.accounting, id, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.errors).toEqual(errors);
    }
    const long = await confirmAs(h, h.accounting, id, { invoiceNumber: 'I'.repeat(51), receiptNumber: 'R', note: '' });
    expect(long.status).toBe(400);
    expect(long.body.errors[0].field).toBe('invoiceNumber');
    expect(await recordCount(id)).toBe(0);
    expect((await get(id)).body.payment.status).toBe('PENDING');
  });

  it('the Idempotency-Key header is required', async () => {
    const id = await order(purchase());
    const res = await h.api.post(`/api/payments/${id}/confirm`, { invoiceNumber: 'INV-1', receiptNumber: 'OR-1' }, { as: h.accounting });
    expect(res.status).toBe(400);
    expect(res.body.detail).toBe(PAYMENT_MESSAGES.idempotencyMissing);
    expect(await recordCount(id)).toBe(0);
  });

  it('the same key and body answer the same and take one payment; the same key with another body or payment is 422', async () => {
    const id = await order(purchase());
    const key = randomUUID();
    const body = { invoiceNumber: 'INV-3001', receiptNumber: 'OR-3001', note: '' };
    const first = await confirmAs(h, h.accounting, id, body, key);
    const second = await confirmAs(h, h.accounting, id, body, key);
    expect(first.status).toBe(200);
    expect(second.status).toBe(200);
    expect(second.body).toEqual(first.body);
    expect(await recordCount(id)).toBe(1);
    expect(await confirmedEvents(id)).toHaveLength(1);
    const other = await confirmAs(h, h.accounting, id, { ...body, receiptNumber: 'OR-3002' }, key);
    expect(other.status).toBe(422);
    expect(other.body.detail).toBe(PAYMENT_MESSAGES.idempotencyMismatch);
    const otherPayment = await order(purchase());
    const elsewhere = await confirmAs(h, h.accounting, otherPayment, body, key);
    expect(elsewhere.status).toBe(422);
    expect(await recordCount(otherPayment)).toBe(0);
    // A refusal is an answer too: the same key and body get it again, even once the payment could be taken.
    const data = purchase();
    const pendingId = await order(data, { forPayment: false });
    const refusedKey = randomUUID();
    expect((await confirmAs(h, h.accounting, pendingId, body, refusedKey)).status).toBe(409);
    await h.feed(statusEvent(data, 'PENDING', 'FOR_PAYMENT'));
    expect((await confirmAs(h, h.accounting, pendingId, body, refusedKey)).status).toBe(409);
    expect((await confirmAs(h, h.accounting, pendingId, body)).status).toBe(200);
  });

  it('20 concurrent confirmations (different keys): exactly one payment taken, the others 409', async () => {
    const id = await order(rental());
    const results = await Promise.all(Array.from({ length: 20 }, (_, i) => confirmAs(h, h.accounting, id, { invoiceNumber: `INV-${i}`, receiptNumber: `OR-${i}` })));
    expect(results.map((r) => r.status).sort()).toEqual([200, ...Array(19).fill(409)]);
    expect(results.filter((r) => r.status === 409).every((r) => r.body.detail === PAYMENT_MESSAGES.notPayable)).toBe(true);
    expect(await recordCount(id)).toBe(1);
    const events = await confirmedEvents(id);
    expect(events).toHaveLength(1);
    expect(events[0]!.payload.data.amount).toBe('78.00');
  });

  it('an unknown or malformed payment id is 404', async () => {
    expect((await confirmAs(h, h.accounting, randomUUID())).status).toBe(404);
    expect((await confirmAs(h, h.accounting, 'not-a-uuid')).status).toBe(404);
    expect((await get(randomUUID())).body.detail).toBe('Payment not found.');
  });
});

describe('the full payment of a rental', () => {
  it('FOR_FULL_PAYMENT with an extra charge: balance = total − partial + extra, due the next Manila day; Complete Payment → PAID', async () => {
    const data = rental();
    const id = await order(data);
    expect((await confirmAs(h, h.accounting, id)).status).toBe(200);
    // Asked at 2026-05-10 17:00 UTC = 11 May 01:00 in Manila: due 12 May.
    await h.feed(...rentalToFullPayment(data, '120.00', '2026-05-10T17:00:00.000Z'));
    const asked = (await get(id)).body.payment;
    expect(asked).toMatchObject({
      status: 'FOR_FULL_PAYMENT',
      orderStatus: 'FOR_FULL_PAYMENT',
      extraCharge: '120.00',
      overallTotal: '444.00',
      balance: '366.00',
      dueDate: '2026-05-12',
      nextAction: 'COMPLETE_PAYMENT',
    });
    const res = await confirmAs(h, h.accounting, id, { invoiceNumber: 'INV-9', receiptNumber: 'OR-9', note: 'Damage on one wheelchair' });
    expect(res.status).toBe(200);
    expect(res.body.payment).toMatchObject({ status: 'PAID', type: 'FULL', balance: '0.00', overallTotal: '444.00', extraCharge: '120.00', totalPartialPayment: '78.00', nextAction: null });
    expect(res.body.payment.records.map((r: Json) => [r.type, r.amount])).toEqual([['PARTIAL', '78.00'], ['FULL', '366.00']]);
    const events = await confirmedEvents(id);
    expect(events.map((e) => [e.payload.version, e.payload.data.type, e.payload.data.status, e.payload.data.amount])).toEqual([
      [1, 'PARTIAL', 'INITIAL_PAYMENT', '78.00'],
      [2, 'FULL', 'PAID', '366.00'],
    ]);
    expect(events[1]!.payload.data).toMatchObject({ extraCharge: '120.00', overallTotal: '444.00', balance: '0.00', dueDate: '2026-05-12', note: 'Damage on one wheelchair' });
    await h.feed(statusEvent(data, 'FOR_FULL_PAYMENT', 'COMPLETED'));
    expect((await get(id)).body.payment).toMatchObject({ status: 'PAID', orderStatus: 'COMPLETED', nextAction: null });
  });
});

describe('a rental billed per 30-day cycle (issue 29)', () => {
  /** 60 days of one bed at ₱100.00 a day (₱6,000.00), a ₱500.00 deposit, billed by cycles. */
  const onCycles = () => {
    const base = rental();
    return rental({
      totalAmount: '6000.00',
      partialPayment: '100.00',
      deposit: '500.00',
      billing: 'CYCLES',
      lines: [{ ...base.lines[0]!, quantity: 1, noOfRentalDays: 60, unitPrice: '100.00', lineTotal: '6000.00', deposit: '500.00' }],
    });
  };
  /** Delivered `days` ago (Manila noon of that day). */
  async function deliveredDaysAgo(data: ReturnType<typeof rental>, days: number): Promise<string> {
    const on = addDays(manilaDate(), -days);
    const path = ['PREPARING', 'TO_SHIP', 'OUT_FOR_DELIVERY', 'DELIVERED'] as const;
    let from: (typeof path)[number] | 'FOR_PAYMENT' = 'FOR_PAYMENT';
    for (const to of path) {
      await h.feed(statusEvent(data, from, to, { at: `${on}T04:00:00.000Z` }));
      from = to;
    }
    return on;
  }

  it('the first day and deposit first; from delivery each cycle due on its day, taken once, with its own invoice; the return asks for what is left', async () => {
    const data = onCycles();
    const id = await order(data);
    expect((await confirmAs(h, h.accounting, id)).body.payment).toMatchObject({ status: 'INITIAL_PAYMENT', depositHeld: '500.00', balance: '5900.00', billing: 'CYCLES', cycles: [] });
    const on = await deliveredDaysAgo(data, 31);
    const out = (await get(id)).body.payment;
    expect(out).toMatchObject({ deliveredOn: on, nextAction: 'PAY_CYCLE', dueNow: '2900.00' });
    expect(out.cycles).toEqual([
      { n: 1, from: on, to: addDays(on, 29), dueOn: on, days: 30, amount: '3000.00', state: 'DUE' },
      { n: 2, from: addDays(on, 30), to: addDays(on, 59), dueOn: addDays(on, 30), days: 30, amount: '3000.00', state: 'DUE' },
    ]);
    // Cycle 1 is its 30 days less the first day paid; then cycle 2, due since yesterday.
    const one = await confirmAs(h, h.accounting, id, { invoiceNumber: 'INV-C-1', receiptNumber: 'OR-C-1', note: '' });
    expect(one.body.payment).toMatchObject({ status: 'INITIAL_PAYMENT', type: 'CYCLE', balance: '3000.00', nextAction: 'PAY_CYCLE', dueNow: '3000.00' });
    expect(one.body.payment.cycles.map((c: Json) => c.state)).toEqual(['PAID', 'DUE']);
    const two = await confirmAs(h, h.accounting, id, { invoiceNumber: 'INV-C-2', receiptNumber: 'OR-C-2', note: '' });
    expect(two.body.payment).toMatchObject({ balance: '0.00', nextAction: null, dueNow: null });
    expect(two.body.payment.records.map((r: Json) => [r.type, r.cycle, r.amount])).toEqual([
      ['PARTIAL', null, '600.00'],
      ['CYCLE', 1, '2900.00'],
      ['CYCLE', 2, '3000.00'],
    ]);
    // Nothing more to take: a third confirmation is refused and records nothing.
    expect((await confirmAs(h, h.accounting, id)).status).toBe(409);
    expect(await recordCount(id)).toBe(3);
    const events = await confirmedEvents(id);
    expect(events.map((e) => [e.payload.data.type, e.payload.data.cycle, e.payload.data.amount])).toEqual([
      ['PARTIAL', null, '600.00'],
      ['CYCLE', 1, '2900.00'],
      ['CYCLE', 2, '3000.00'],
    ]);
    // Each cycle's invoice by its record.
    const cycleTwo = two.body.payment.records[2];
    const pdf = await h.download(`/api/payments/${id}/records/${cycleTwo.id}/invoice.pdf`, h.accounting);
    expect(pdf.status).toBe(200);
    expect(pdf.headers.get('content-disposition')).toContain('CYCLE_INVOICE_2.pdf');
    // Back with ₱350.00 of charges (₱50.00 late fees): the deposit pays them, ₱150.00 goes back; no rent is left.
    await h.feed(statusEvent(data, 'DELIVERED', 'FOR_RETURN'), statusEvent(data, 'FOR_RETURN', 'FOR_PICK_UP'));
    await h.feed(statusEvent(data, 'FOR_PICK_UP', 'FOR_FULL_PAYMENT', { extraCharge: '350.00', settlement: { lateFees: '50.00', depositApplied: '350.00', depositRefund: '150.00' } }));
    expect((await get(id)).body.payment).toMatchObject({ status: 'FOR_FULL_PAYMENT', balance: '0.00', nextAction: 'COMPLETE_PAYMENT', dueNow: '0.00', refundsDue: '150.00' });
  });

  it('a cycle cannot be charged twice: two confirmations at once with different keys take cycle 1 once; the database refuses a second record of a cycle', async () => {
    const data = onCycles();
    const id = await order(data);
    await confirmAs(h, h.accounting, id);
    await deliveredDaysAgo(data, 3);
    const answers = await Promise.all([confirmAs(h, h.accounting, id), confirmAs(h, h.accounting, id)]);
    expect(answers.map((a) => a.status).sort()).toEqual([200, 409]);
    const p = (await get(id)).body.payment;
    expect(p.records.filter((r: Json) => r.type === 'CYCLE').map((r: Json) => [r.cycle, r.amount])).toEqual([[1, '2900.00']]);
    expect(p).toMatchObject({ nextAction: null, balance: '3000.00' });
    expect(p.cycles.map((c: Json) => c.state)).toEqual(['PAID', 'UPCOMING']);
    const [rec] = p.records.filter((r: Json) => r.type === 'CYCLE');
    await expect(
      db().execute(
        `insert into payment.payment_records (id, payment_id, type, invoice_number, receipt_number, note, amount, accommodated_by, accommodated_by_name, balance, cycle)
         select ?, payment_id, type, invoice_number, receipt_number, note, amount, accommodated_by, accommodated_by_name, balance, cycle from payment.payment_records where id = ?`,
        [randomUUID(), rec.id],
      ),
    ).rejects.toThrow(/payment_records_cycle_once/);
  });

  it('rent-to-own: bought out while delivered — the buy-out taken once, PAID and the customer\'s, the deposit refunded whole, its final invoice; never again', async () => {
    const base = onCycles();
    const data = { ...base, lines: [{ ...base.lines[0]!, rentToOwn: { salePrice: '30000.00', creditPercent: 50, afterCycles: 12 } }] };
    const id = await order(data);
    await confirmAs(h, h.accounting, id);
    await deliveredDaysAgo(data, 31);
    await confirmAs(h, h.accounting, id); // cycle 1
    // Cycle 1 paid: 30 days of rent (₱3,000.00), half of it credited: ₱30,000.00 − ₱1,500.00.
    expect((await get(id)).body.payment).toMatchObject({ buyOutNow: '28500.00', nextAction: 'PAY_CYCLE' });
    const bought = await confirmAs(h, h.accounting, id, { invoiceNumber: 'INV-BO-1', receiptNumber: 'OR-BO-1', note: '', action: 'BUY_OUT' });
    expect(bought.status, JSON.stringify(bought.body)).toBe(200);
    expect(bought.body.payment).toMatchObject({ status: 'PAID', type: 'BUYOUT', balance: '0.00', buyOutNow: null, nextAction: null, depositRefund: '500.00', refundsDue: '500.00' });
    expect(bought.body.payment.cycles.map((c: Json) => c.state)).toEqual(['PAID', 'CLOSED']);
    expect(bought.body.payment.records.map((r: Json) => [r.type, r.amount])).toEqual([
      ['PARTIAL', '600.00'],
      ['CYCLE', '2900.00'],
      ['BUYOUT', '28500.00'],
    ]);
    const events = await confirmedEvents(id);
    expect(events.map((e) => [e.payload.data.type, e.payload.data.owned])).toEqual([
      ['PARTIAL', false],
      ['CYCLE', false],
      ['BUYOUT', true],
    ]);
    const again = await confirmAs(h, h.accounting, id, { invoiceNumber: 'INV-BO-2', receiptNumber: 'OR-BO-2', note: '', action: 'BUY_OUT' });
    expect(again.status).toBe(409);
    expect(again.body.detail).toBe(PAYMENT_MESSAGES.buyOutNotOffered);
    expect(await recordCount(id)).toBe(3);
    const pdf = await h.download(`/api/payments/${id}/records/${bought.body.payment.records[2].id}/invoice.pdf`, h.accounting);
    expect(pdf.headers.get('content-disposition')).toContain('BUY_OUT_INVOICE.pdf');
    // A rental without rent-to-own is never bought out.
    const plain = onCycles();
    const plainId = await order(plain);
    await confirmAs(h, h.accounting, plainId);
    await deliveredDaysAgo(plain, 3);
    expect((await get(plainId)).body.payment.buyOutNow).toBeNull();
    expect((await confirmAs(h, h.accounting, plainId, { invoiceNumber: 'INV-X', receiptNumber: 'OR-X', note: '', action: 'BUY_OUT' })).status).toBe(409);
  });

  it('rent-to-own: the cycle that reaches ownership makes it the customer\'s — PAID, the deposit refunded, the event says so', async () => {
    const base = onCycles();
    const data = { ...base, lines: [{ ...base.lines[0]!, rentToOwn: { salePrice: '30000.00', creditPercent: 50, afterCycles: 2 } }] };
    const id = await order(data);
    await confirmAs(h, h.accounting, id);
    await deliveredDaysAgo(data, 31);
    await confirmAs(h, h.accounting, id); // cycle 1
    const two = await confirmAs(h, h.accounting, id);
    expect(two.body.payment).toMatchObject({ status: 'PAID', type: 'CYCLE', balance: '0.00', nextAction: null, buyOutNow: null, depositRefund: '500.00', refundsDue: '500.00' });
    const events = await confirmedEvents(id);
    expect(events.map((e) => [e.payload.data.type, e.payload.data.cycle, e.payload.data.owned])).toEqual([
      ['PARTIAL', null, false],
      ['CYCLE', 1, false],
      ['CYCLE', 2, true],
    ]);
  });

  it('a rental of 30 days or fewer on cycle terms is billed as SPEC §4 (the order says UPFRONT): no cycle is ever due', async () => {
    const data = rental();
    const id = await order(data);
    await confirmAs(h, h.accounting, id);
    await deliveredDaysAgo(data, 40);
    expect((await get(id)).body.payment).toMatchObject({ billing: 'UPFRONT', nextAction: null, cycles: [] });
  });
});

describe('a rental with a deposit and late fees (issue 29)', () => {
  /** The rental above with a ₱500.00 deposit on its wheelchairs (2 × ₱250.00). */
  const withDeposit = () => {
    const base = rental();
    return rental({ deposit: '500.00', lines: [{ ...base.lines[0]!, deposit: '500.00' }, { ...base.lines[1]!, deposit: '0.00' }] });
  };

  it('the first payment takes the first day and the deposit, its own part of the record; the balance is the rent left', async () => {
    const data = withDeposit();
    const id = await order(data);
    expect((await get(id)).body.payment).toMatchObject({ nextAction: 'PAY_PARTIAL', dueNow: '578.00', deposit: '500.00', depositHeld: '0.00', balance: '324.00' });
    const res = await confirmAs(h, h.accounting, id);
    expect(res.body.payment).toMatchObject({ status: 'INITIAL_PAYMENT', totalPartialPayment: '78.00', depositHeld: '500.00', balance: '246.00', dueNow: null });
    expect(res.body.payment.records.map((r: Json) => [r.type, r.amount])).toEqual([['PARTIAL', '578.00']]);
    expect(res.body.payment.lines.map((l: Json) => l.deposit)).toEqual(['500.00', '0.00']);
    const [event] = await confirmedEvents(id);
    expect(event!.payload.data).toMatchObject({ amount: '578.00', deposit: '500.00', balance: '246.00' });
  });

  it('at the return the deposit pays the charges (late fees in them), the rest is refunded; the balance is the rent left, taken once', async () => {
    const data = withDeposit();
    const id = await order(data);
    await confirmAs(h, h.accounting, id);
    // Damage ₱250.00 + late fees ₱50.00 = ₱300.00 from the ₱500.00 deposit: ₱200.00 back.
    await h.feed(...rentalToFullPayment(data, '300.00', undefined, { lateFees: '50.00', depositApplied: '300.00', depositRefund: '200.00' }));
    const asked = (await get(id)).body.payment;
    expect(asked).toMatchObject({ status: 'FOR_FULL_PAYMENT', extraCharge: '300.00', overallTotal: '624.00', lateFees: '50.00', depositApplied: '300.00', depositRefund: '200.00', balance: '246.00', dueNow: '246.00' });
    const done = await confirmAs(h, h.accounting, id, { invoiceNumber: 'INV-D-2', receiptNumber: 'OR-D-2', note: '' });
    expect(done.body.payment).toMatchObject({ status: 'PAID', balance: '0.00', depositRefund: '200.00' });
    expect(done.body.payment.records.map((r: Json) => r.amount)).toEqual(['578.00', '246.00']);
    // Delivered twice, the status event changes nothing more.
    await h.feed(...rentalToFullPayment(data, '300.00', undefined, { lateFees: '50.00', depositApplied: '300.00', depositRefund: '200.00' }).slice(-1));
    expect((await get(id)).body.payment).toMatchObject({ status: 'PAID', balance: '0.00', records: [{ amount: '578.00' }, { amount: '246.00' }] });
  });

  it('charges beyond the deposit: nothing refunded, the shortfall joins the balance', async () => {
    const data = withDeposit();
    const id = await order(data);
    await confirmAs(h, h.accounting, id);
    // Damage ₱700.00 + late fees ₱100.00 = ₱800.00: the ₱500.00 deposit covers ₱500.00, ₱300.00 is added to the ₱246.00 left.
    await h.feed(...rentalToFullPayment(data, '800.00', undefined, { lateFees: '100.00', depositApplied: '500.00', depositRefund: '0.00' }));
    expect((await get(id)).body.payment).toMatchObject({ balance: '546.00', dueNow: '546.00', depositRefund: '0.00', overallTotal: '1124.00' });
  });

  it('a paid rental with a deposit cancelled meanwhile owes back all that was paid, the deposit included', async () => {
    const data = withDeposit();
    const id = await order(data);
    await confirmAs(h, h.accounting, id);
    await h.feed(statusEvent(data, 'FOR_PAYMENT', 'CANCELLED'));
    expect((await get(id)).body.payment).toMatchObject({ status: 'REFUND_DUE', refundDue: '578.00' });
  });
});

describe('refunds with numbers (issue 29)', () => {
  const record = (paymentId: string, refundId: string, body: Json = { method: 'BANK_TRANSFER', reference: 'BT-5521', note: 'to BPI' }, key: string = randomUUID(), as: Json = h.accounting) =>
    h.api.post(`/api/payments/${paymentId}/refunds/${refundId}/record`, body, { as, headers: { 'idempotency-key': key } });
  const withDeposit = () => {
    const base = rental();
    return rental({ deposit: '500.00', lines: [{ ...base.lines[0]!, deposit: '500.00' }, { ...base.lines[1]!, deposit: '0.00' }] });
  };
  const refundEvents = async (paymentId: string) =>
    (await db().execute<Array<{ payload: Json }>>(`select payload from payment.outbox where subject = ? and payload->>'aggregateId' = ? order by created_at`, [EVENTS.payment.refundRecorded, paymentId])).map((e) => e.payload.data);

  it('refund numbers past 999,999 keep every digit', async () => {
    const [seq] = await db().execute<Array<{ n: string }>>('select last_value::text as n from payment.refund_number_seq');
    await db().execute(`select setval('payment.refund_number_seq', 999999)`);
    try {
      const data = withDeposit();
      const id = await order(data);
      await confirmAs(h, h.accounting, id);
      await h.feed(...rentalToFullPayment(data, '300.00', undefined, { lateFees: '50.00', depositApplied: '300.00', depositRefund: '200.00' }));
      const [refund] = (await get(id)).body.payment.refunds;
      expect(refund.number).toMatch(/^RF-\d{8}-1000000$/);
    } finally {
      await db().execute(`select setval('payment.refund_number_seq', ${Number(seq!.n)})`);
    }
  });

  it("the rest of a deposit is a numbered refund from the return, once; accounting records how it was paid back, once, and it is told", async () => {
    const data = withDeposit();
    const id = await order(data);
    await confirmAs(h, h.accounting, id);
    const settle = rentalToFullPayment(data, '300.00', undefined, { lateFees: '50.00', depositApplied: '300.00', depositRefund: '200.00' });
    await h.feed(...settle);
    // The return's event delivered again opens no second refund.
    await h.feed({ ...settle[settle.length - 1]!, id: randomUUID() });
    const [refund, ...more] = (await get(id)).body.payment.refunds;
    expect(more).toEqual([]);
    expect(refund).toMatchObject({ number: expect.stringMatching(/^RF-\d{8}-\d{6}$/), kind: 'DEPOSIT', amount: '200.00', status: 'DUE', method: null, refundedAt: null });
    // Accounting sees it due, on the payment and on its list row.
    expect((await get(id)).body.payment.refundsDue).toBe('200.00');
    expect((await h.api.get(`/api/payments?search=${data.orderNumber}`, { as: h.accounting })).body.items).toEqual([expect.objectContaining({ id, refundsDue: '200.00' })]);
    // Counted and listed among the refunds to pay back, whatever its status (FOR_FULL_PAYMENT here).
    const toPay = await h.api.get(`/api/payments?search=${data.orderNumber}&refunds=DUE`, { as: h.accounting });
    expect(toPay.body).toMatchObject({ total: 1, refundsDue: 1, counts: expect.objectContaining({ FOR_FULL_PAYMENT: 1 }) });
    expect(toPay.body.items).toEqual([expect.objectContaining({ id, status: 'FOR_FULL_PAYMENT' })]);
    expect((await h.api.get(`/api/payments?search=${data.orderNumber}&refunds=SOME`, { as: h.accounting })).status).toBe(400);

    // How it was paid back must be said; a refund of another payment is not found.
    const noMethod = await record(id, refund.id, { reference: 'x' });
    expect(noMethod.status).toBe(400);
    expect(noMethod.body.errors).toContainEqual({ field: 'method', message: PAYMENT_MESSAGES.refundMethod });
    expect((await record(randomUUID(), refund.id)).status).toBe(404);
    // Only those who take payments record refunds.
    expect((await record(id, refund.id, undefined, undefined, h.as('WAREHOUSE_STAFF'))).status).toBe(403);

    const key = randomUUID();
    const done = await record(id, refund.id, undefined, key);
    expect(done.status).toBe(200);
    // Paid back before the rent left was paid: the payment waits for its full payment still.
    expect(done.body.payment.status).toBe('FOR_FULL_PAYMENT');
    expect(done.body.payment.refunds[0]).toMatchObject({ status: 'REFUNDED', method: 'BANK_TRANSFER', reference: 'BT-5521', note: 'to BPI', refundedAt: expect.any(String), refundedByName: expect.any(String) });
    // The same key answers the same; another try is refused: paid back once.
    const again = await record(id, refund.id, undefined, key);
    expect(again.status).toBe(200);
    expect(again.body).toEqual(done.body);
    const twice = await record(id, refund.id);
    expect(twice.status).toBe(409);
    expect(twice.body.detail).toBe(PAYMENT_MESSAGES.refundAlreadyRecorded);
    expect(await refundEvents(id)).toEqual([
      expect.objectContaining({ refundId: refund.id, number: refund.number, kind: 'DEPOSIT', amount: '200.00', method: 'BANK_TRANSFER', status: 'FOR_FULL_PAYMENT', orderId: data.orderId }),
    ]);
    // Paid back: nothing due any more, on the payment nor on its list row.
    expect(done.body.payment.refundsDue).toBeNull();
    const listed = await h.api.get(`/api/payments?search=${data.orderNumber}`, { as: h.accounting });
    expect(listed.body.items).toEqual([expect.objectContaining({ id, refundsDue: null })]);
    expect(listed.body.refundsDue).toBe(0);
    // None to pay back now; the tabs' counts are still those of the search (the payment waits for its full payment).
    expect((await h.api.get(`/api/payments?search=${data.orderNumber}&refunds=DUE`, { as: h.accounting })).body).toMatchObject({
      items: [],
      total: 0,
      refundsDue: 0,
      counts: expect.objectContaining({ FOR_FULL_PAYMENT: 1 }),
    });
  });

  it('the cancel-while-paying race owes back a numbered refund, never a silent kept payment; recording it makes the payment REFUNDED', async () => {
    const data = withDeposit();
    const id = await order(data);
    await confirmAs(h, h.accounting, id);
    await h.feed(statusEvent(data, 'FOR_PAYMENT', 'CANCELLED'));
    const p = (await get(id)).body.payment;
    expect(p.status).toBe('REFUND_DUE');
    expect(p.refunds).toEqual([expect.objectContaining({ kind: 'CANCELLED', amount: '578.00', status: 'DUE' })]);
    const done = await record(id, p.refunds[0].id, { method: 'CASH' });
    expect(done.status).toBe(200);
    expect(done.body.payment).toMatchObject({ status: 'REFUNDED', refundDue: null, nextAction: null });
    expect(await refundEvents(id)).toEqual([expect.objectContaining({ kind: 'CANCELLED', amount: '578.00', method: 'CASH', status: 'REFUNDED' })]);
    const list = await h.api.get(`/api/payments?status=REFUNDED&search=${data.orderNumber}`, { as: h.accounting });
    expect(list.body).toMatchObject({ total: 1, items: [{ id, status: 'REFUNDED' }] });
  });

  it('no deposit left, nothing paid: no refund is opened', async () => {
    const data = withDeposit();
    const id = await order(data);
    await confirmAs(h, h.accounting, id);
    await h.feed(...rentalToFullPayment(data, '800.00', undefined, { lateFees: '100.00', depositApplied: '500.00', depositRefund: '0.00' }));
    expect((await get(id)).body.payment.refunds).toEqual([]);
    const unpaid = purchase();
    const unpaidId = await order(unpaid);
    await h.feed(statusEvent(unpaid, 'FOR_PAYMENT', 'CANCELLED'));
    expect((await get(unpaidId)).body.payment.refunds).toEqual([]);
  });
});

describe('a payment and a cancellation at the same time (issue 22)', () => {
  /** The payment events in the outbox for a payment (subject, data), oldest first. */
  const events = async (paymentId: string) => (await confirmedEvents(paymentId)).map((e) => [e.subject, e.payload.data] as const);

  it('a payment taken before the payment service learnt of the cancellation becomes REFUND_DUE with what was paid, and says so once through the outbox', async () => {
    const data = rental();
    const id = await order(data);
    // The order is cancelled at the order service; its event is still on its way: the payment is taken.
    const paid = await confirmAs(h, h.accounting, id, { invoiceNumber: 'INV-R1', receiptNumber: 'OR-R1', note: 'cash at the counter' });
    expect(paid.status).toBe(200);
    const cancelled = statusEvent(data, 'FOR_PAYMENT', 'CANCELLED');
    await h.feed(cancelled);
    const p = (await get(id)).body.payment;
    expect(p).toMatchObject({ status: 'REFUND_DUE', orderStatus: 'CANCELLED', refundDue: '78.00', nextAction: null, type: 'PARTIAL' });
    // The money taken is kept on record.
    expect(p.records.map((r: Json) => [r.type, r.invoiceNumber, r.amount])).toEqual([['PARTIAL', 'INV-R1', '78.00']]);
    const out = await events(id);
    expect(out.map(([subject]) => subject)).toEqual([EVENTS.payment.confirmed, EVENTS.payment.refundDue]);
    expect(EVENT_DATA[EVENTS.payment.refundDue].parse(out[1]![1])).toEqual({
      paymentId: id,
      orderId: data.orderId,
      orderNumber: data.orderNumber,
      customerId: data.customerId,
      orderType: 'RENT',
      status: 'REFUND_DUE',
      amount: '78.00',
    });
    const [refundEvent] = await db().execute<Array<{ payload: Json }>>(`select payload from payment.outbox where subject = ? and payload->>'aggregateId' = ?`, [EVENTS.payment.refundDue, id]);
    expect(refundEvent!.payload).toMatchObject({ source: 'payment', aggregateId: id, version: 2 });
    // The same cancellation delivered again (its inbox record purged) changes nothing and says nothing more.
    await h.feed({ ...cancelled, id: randomUUID() });
    expect((await get(id)).body.payment).toMatchObject({ status: 'REFUND_DUE', refundDue: '78.00' });
    expect(await events(id)).toHaveLength(2);
    // Nothing more can be taken, and the refusal says the order was cancelled.
    const again = await confirmAs(h, h.accounting, id);
    expect(again.status).toBe(409);
    expect(again.body.detail).toBe(PAYMENT_MESSAGES.orderCancelled);
  });

  it('a purchase paid in full then cancelled owes its total; accounting finds it under REFUND_DUE, cancelled ones under CANCELLED, with counts', async () => {
    const tag = randomUUID().slice(0, 6).toUpperCase();
    const paidThenCancelled = purchase({ orderNumber: `ORD-${tag}-1` });
    const cancelledUnpaid = purchase({ orderNumber: `ORD-${tag}-2` });
    const idPaid = await order(paidThenCancelled);
    const idUnpaid = await order(cancelledUnpaid);
    expect((await confirmAs(h, h.accounting, idPaid)).status).toBe(200);
    await h.feed(statusEvent(paidThenCancelled, 'FOR_PAYMENT', 'CANCELLED'), statusEvent(cancelledUnpaid, 'FOR_PAYMENT', 'CANCELLED'));
    const list = (q: string) => h.api.get(`/api/payments?search=${tag}&${q}`, { as: h.accounting });
    const refunds = await list('status=REFUND_DUE');
    expect(refunds.body).toMatchObject({ total: 1, items: [{ id: idPaid, status: 'REFUND_DUE', refundDue: '175.98', orderStatus: 'CANCELLED' }] });
    expect(refunds.body.counts).toEqual({ PENDING: 0, INITIAL_PAYMENT: 0, FOR_FULL_PAYMENT: 0, PAID: 0, CANCELLED: 1, REFUND_DUE: 1, REFUNDED: 0 });
    expect((await list('status=CANCELLED')).body).toMatchObject({ total: 1, items: [{ id: idUnpaid, status: 'CANCELLED', refundDue: null }] });
    expect((await list('status=PAID')).body.total).toBe(0);
  });

  it('a cancellation the payment service already knows refuses the payment (409 saying so): nothing taken, nothing owed', async () => {
    const data = purchase();
    const id = await order(data);
    await h.feed(statusEvent(data, 'FOR_PAYMENT', 'CANCELLED'));
    const res = await confirmAs(h, h.accounting, id);
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ status: 409, detail: PAYMENT_MESSAGES.orderCancelled });
    expect(await recordCount(id)).toBe(0);
    expect((await get(id)).body.payment).toMatchObject({ status: 'CANCELLED', refundDue: null });
    expect(await events(id)).toEqual([]);
  });
});

describe('list', () => {
  it('filters by status, searches order number or customer name, pages with the total', async () => {
    const tag = randomUUID().slice(0, 6).toUpperCase();
    const at = (ms: number) => new Date(Date.now() + ms).toISOString();
    const a = purchase({ orderNumber: `ORD-${tag}-1`, createdAt: at(-2000), customer: { name: `Ana ${tag} Cruz`, email: 'a@example.com', contactNumber: '1' } });
    const b = rental({ orderNumber: `ORD-${tag}-2`, createdAt: at(-1000) });
    const c = purchase({ orderNumber: `ORD-X${tag}-3`, createdAt: at(0) });
    const [ida, idb, idc] = [await order(a), await order(b), await order(c)];
    expect((await confirmAs(h, h.accounting, ida)).status).toBe(200);
    const list = (q: string) => h.api.get(`/api/payments?${q}`, { as: h.accounting });
    const all = await list(`search=${tag.toLowerCase()}`);
    expect(all.status).toBe(200);
    expect(all.body.total).toBe(3);
    // Newest order first.
    expect(all.body.items.map((p: Json) => p.id)).toEqual([idc, idb, ida]);
    expect(all.body.items.find((p: Json) => p.id === idb)).toMatchObject({ orderType: 'RENT', status: 'PENDING', nextAction: 'PAY_PARTIAL', totalPartialPayment: '78.00' });
    expect((await list(`search=${tag}&status=PAID`)).body).toMatchObject({ total: 1, items: [{ id: ida, status: 'PAID' }] });
    expect((await list(`search=Ana%20${tag}`)).body.items.map((p: Json) => p.id)).toEqual([ida]);
    const page = await list(`search=${tag}&limit=2&offset=2`);
    expect(page.body.total).toBe(3);
    expect(page.body.items).toHaveLength(1);
    expect((await list(`search=${tag}&limit=2&offset=10`)).body).toEqual({
      items: [],
      total: 3,
      counts: { PENDING: 2, INITIAL_PAYMENT: 0, FOR_FULL_PAYMENT: 0, PAID: 1, CANCELLED: 0, REFUND_DUE: 0, REFUNDED: 0 },
      refundsDue: 0,
    });
    // Wildcards are taken literally.
    expect((await list('search=%25%25%25_')).body.total).toBe(0);
    expect((await list('status=NOPE')).status).toBe(400);
    expect((await list('limit=1000')).status).toBe(400);
  });
});

describe('who recorded a payment (issue 27)', () => {
  it("names the staff member by their full name, as the gateway forwards it; the username only when the name is unknown", async () => {
    const named = { ...h.as('ACCOUNTING_ADMIN'), name: 'Niña Peñaflor' };
    const id = await order(purchase());
    const res = await confirmAs(h, named, id);
    expect(res.status).toBe(200);
    expect(res.body.payment.records).toEqual([expect.objectContaining({ accommodatedBy: named.userId, accommodatedByName: 'Niña Peñaflor' })]);
    expect((await get(id)).body.payment.records[0].accommodatedByName).toBe('Niña Peñaflor');

    const unnamed = h.as('ACCOUNTING_ADMIN');
    const id2 = await order(purchase());
    expect((await confirmAs(h, unnamed, id2)).body.payment.records[0].accommodatedByName).toBe(unnamed.username);
  });
});

describe('access', () => {
  it('ACCOUNTING_ADMIN and SUPERADMIN confirm; WAREHOUSE_STAFF and CUSTOMER get 403 and change nothing', async () => {
    const id1 = await order(purchase());
    const id2 = await order(purchase());
    const admin = h.as('SUPERADMIN');
    const ok = await confirmAs(h, admin, id1);
    expect(ok.status).toBe(200);
    expect(ok.body.payment.records[0]).toMatchObject({ accommodatedBy: admin.userId, accommodatedByName: admin.username });
    for (const who of [h.as('WAREHOUSE_STAFF'), h.as('CUSTOMER'), h.as('DRIVER')]) {
      expect((await confirmAs(h, who, id2)).status, who.userType).toBe(403);
      expect((await get(id2, who)).status).toBe(403);
      expect((await h.api.get('/api/payments', { as: who })).status).toBe(403);
    }
    expect(await recordCount(id2)).toBe(0);
    expect((await confirmAs(h, h.as('ACCOUNTING_ADMIN'), id2)).status).toBe(200);
  });

  it('not signed in is 401; a request that did not come through the gateway is 403', async () => {
    const id = await order(purchase());
    expect((await h.api.get(`/api/payments/${id}`)).status).toBe(401);
    const res = await h.api.call('GET', `/api/payments/${id}`, {
      as: h.accounting,
      headers: { [IDENTITY_HEADERS.internalToken]: `${TEST_INTERNAL_TOKEN}-wrong` },
    });
    expect(res.status).toBe(403);
  });
});

describe('GET /api/orders/:id/payment (the payment of an order, for the legacy payments/get.php?orderID)', () => {
  it("answers the order's payment as GET /api/payments/:id does; 404 for an order without one; payment readers only", async () => {
    const data = purchase();
    const id = await order(data);
    const byOrder = await h.api.get(`/api/orders/${data.orderId}/payment`, { as: h.accounting });
    expect(byOrder.status).toBe(200);
    expect(byOrder.body).toEqual((await get(id)).body);
    expect((await h.api.get(`/api/orders/${randomUUID()}/payment`, { as: h.accounting })).status).toBe(404);
    for (const userType of ['WAREHOUSE_STAFF', 'DRIVER', 'CUSTOMER'] as const) {
      expect((await h.api.get(`/api/orders/${data.orderId}/payment`, { as: { userId: randomUUID(), userType } })).status, userType).toBe(403);
    }
  });
});
