import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AckPolicy, DeliverPolicy, jetstream, jetstreamManager } from '@nats-io/jetstream';
import { nanos } from '@nats-io/transport-node';
import { addDays, EVENT_STREAM, EVENTS, manilaDate, type EventEnvelope } from '@dme/contracts';
import { createLogger, ensureEventStream, eventEnvelope, type RunningConsumer } from '@dme/platform';
import { eventually } from '@dme/testing';
import { placedEvent, purchase, rental, rentalToFullPayment, statusEvent } from '@dme/testing/order-events';
import { startPaymentService, type PaymentFixture } from '@dme/testing/payment';
import { startIdentity, type Harness } from '../../test/harness';
import { notificationHandler, startNotificationConsumers } from './notify';

// Issue 24: order, payment and request events become e-mails to their customer — against the real
// payment service (its invoices) and a real SMTP server, every message parsed back.
let h: Harness;
let p: PaymentFixture;
const invoiceSubject = `rpc.payment.invoice.test-${randomUUID().slice(0, 8)}`;
const logger = createLogger('notify-test', 'silent');
beforeAll(async () => {
  h = await startIdentity({ PUBLIC_URL: 'https://shop.example' });
  p = await startPaymentService({ databaseUrl: h.config.DATABASE_URL, nc: h.nc, logger, invoiceSubject });
});
afterAll(async () => {
  await p?.close();
  await h?.close();
});

const handle = () => notificationHandler({ config: h.config, nc: h.nc, logger, invoiceSubject });
async function deliver(...events: EventEnvelope[]) {
  const run = handle();
  for (const e of events) await h.orm.em.fork().transactional((tem) => run(tem, [e]));
  h.mail.kick();
}

async function customer(email: string) {
  const res = await h.api.post('/api/auth/register', h.person({ email, firstName: 'Ana' }));
  expect(res.status).toBe(201);
  await h.mailTo(email); // the confirmation e-mail
  return res.body.user as { id: string };
}

/**
 * Two customers (`<who>-a@`, `<who>-b@example.com`) and A's purchase paid through the payment
 * service (invoice INV-<tag>-1): its payment-confirmed event, as the payment service wrote it.
 */
async function paidPurchase(who: string, tag: string) {
  const a = await customer(`${who}-a@example.com`);
  const b = await customer(`${who}-b@example.com`);
  const order = purchase({ customerId: a.id });
  await p.feed(placedEvent(order), statusEvent(order, 'PENDING', 'FOR_PAYMENT'));
  expect(await p.pay(order.orderId, { invoiceNumber: `INV-${tag}-1`, receiptNumber: `OR-${tag}-1` })).toBe(200);
  const [paid] = await p.events(order.orderId, EVENTS.payment.confirmed);
  return { a, b, order, paid: paid! };
}

const mailsTo = (email: string) => h.smtp.received.filter((m) => m.envelopeTo.includes(email));

describe('messages from events', () => {
  it('a purchase: placed, then paid with INVOICE.pdf attached, on its way and delivered — one message each, to the customer only', async () => {
    const { b, order, paid } = await paidPurchase('buyer', 'N');

    await deliver(placedEvent(order), paid, statusEvent(order, 'TO_SHIP', 'OUT_FOR_DELIVERY'), statusEvent(order, 'OUT_FOR_DELIVERY', 'DELIVERED'));
    const mails = (await h.mailTo('buyer-a@example.com', 5)).slice(1);
    expect(mails.map((m) => m.subject)).toEqual([
      `Your order ${order.orderNumber} is placed`,
      `Payment received for ${order.orderNumber}`,
      `${order.orderNumber} is on its way`,
      `${order.orderNumber} was delivered`,
    ]);
    const [placedMail, paidMail] = mails;
    expect(placedMail!.text).toContain('Digital Thermometer');
    expect(placedMail!.text).toContain('$175.98');
    expect(placedMail!.text).toContain('https://shop.example/orders/purchased');
    expect(placedMail!.html).toContain('DME Medical Equipment Rentals &amp; Sales');
    expect(paidMail!.attachments.map((x) => [x.filename, x.contentType])).toEqual([['INVOICE.pdf', 'application/pdf']]);
    expect(paidMail!.attachments[0]!.content.subarray(0, 5).toString()).toBe('%PDF-');
    expect(paidMail!.text).toContain('INV-N-1');
    expect(mails.every((m) => m.attachments.length === (m === paidMail ? 1 : 0))).toBe(true);
    // Nothing about A's order went to B.
    expect(mailsTo('buyer-b@example.com').map((m) => m.subject)).toEqual(['Confirm your e-mail address for DME Supply']);
    expect(mailsTo('buyer-b@example.com').some((m) => m.text.includes(order.orderNumber))).toBe(false);

    // The payment service hands out an invoice only for the customer's own order: an event naming
    // B with A's order (which no producer writes) would go out without A's invoice.
    const forged = { ...paid, id: randomUUID(), data: { ...(paid.data as object), customerId: b.id } };
    await deliver(forged);
    const [, toB] = await h.mailTo('buyer-b@example.com', 2);
    expect(toB!.attachments).toHaveLength(0);
  });

  it('a batch of events in one transaction (as the consumer hands them): each customer gets their own messages once, the payment with its invoice; nothing for a deleted account or a repeated reminder', async () => {
    const { b, order, paid } = await paidPurchase('batch', 'B');
    const other = purchase({ customerId: b.id });
    const rentalId = randomUUID();
    const reminder = () =>
      eventEnvelope('order', {
        type: EVENTS.rental.reminderDue,
        aggregateId: rentalId,
        data: { orderId: rentalId, orderNumber: 'ORD-20261125-000999', customerId: b.id, kind: 'DUE_TODAY', day: '2026-11-25', dueDate: '2026-11-25' },
      });
    const placedA = placedEvent(order);
    await h.orm.em.fork().transactional((tem) =>
      handle()(tem, [placedA, paid, placedEvent(other), placedEvent(purchase({ customerId: randomUUID() })), statusEvent(order, 'PREPARING', 'TO_SHIP'), reminder(), reminder()]),
    );
    // The same batch handed again (a redelivery the inbox did not stop) writes nothing more.
    await h.orm.em.fork().transactional((tem) => handle()(tem, [placedA, paid]));
    h.mail.kick();
    const toA = (await h.mailTo('batch-a@example.com', 3)).slice(1);
    expect(toA.map((m) => m.subject)).toEqual([`Your order ${order.orderNumber} is placed`, `Payment received for ${order.orderNumber}`]);
    expect(toA.map((m) => m.attachments.map((x) => x.filename))).toEqual([[], ['INVOICE.pdf']]);
    const toB = (await h.mailTo('batch-b@example.com', 3)).slice(1);
    expect(toB.map((m) => m.subject).sort()).toEqual([`Your order ${other.orderNumber} is placed`, 'Your rental ORD-20261125-000999 is due today'].sort());
    await new Promise((r) => setTimeout(r, 500));
    expect(mailsTo('batch-a@example.com')).toHaveLength(3);
    expect(mailsTo('batch-b@example.com')).toHaveLength(3);
  });

  it("a rental's first and full payments attach INITIAL_PAYMENT_INVOICE.pdf and FULL_PAYMENT_INVOICE.pdf; the full-payment request says balance and due date", async () => {
    const a = await customer('renter@example.com');
    const order = rental({ customerId: a.id });
    await p.feed(placedEvent(order), statusEvent(order, 'PENDING', 'FOR_PAYMENT'));
    expect(await p.pay(order.orderId, { invoiceNumber: 'INV-R-1', receiptNumber: 'OR-R-1' })).toBe(200);
    const steps = rentalToFullPayment(order, '20.00');
    await p.feed(...steps);
    expect(await p.pay(order.orderId, { invoiceNumber: 'INV-R-2', receiptNumber: 'OR-R-2' })).toBe(200);
    const paid = await p.events(order.orderId, EVENTS.payment.confirmed);
    const full = steps.at(-1)!;
    const fullData = { ...(full.data as object), fullPaymentDue: '2026-12-01', balance: '266.00' };
    await deliver(paid[0]!, { ...full, data: fullData }, paid[1]!);
    const mails = (await h.mailTo('renter@example.com', 4)).slice(1);
    expect(mails.map((m) => m.attachments.map((x) => x.filename))).toEqual([['INITIAL_PAYMENT_INVOICE.pdf'], [], ['FULL_PAYMENT_INVOICE.pdf']]);
    expect(mails[1]!.subject).toBe(`Full payment due for ${order.orderNumber}`);
    expect(mails[1]!.text).toContain('$266.00');
    expect(mails[1]!.text).toContain('$20.00');
    expect(mails[1]!.text).toContain('Dec 1, 2026');
  });

  /** A 60-day rental billed by cycles (₱100.00 a day) of a new customer, its first day paid and delivered 3 days ago. */
  async function deliveredOnCycles(email: string, rentToOwn: { salePrice: string; creditPercent: number; afterCycles: number } | null = null) {
    const a = await customer(email);
    const base = rental({ customerId: a.id });
    const order = rental({
      customerId: a.id,
      totalAmount: '6000.00',
      partialPayment: '100.00',
      billing: 'CYCLES',
      lines: [{ ...base.lines[0]!, quantity: 1, noOfRentalDays: 60, unitPrice: '100.00', lineTotal: '6000.00', rentToOwn }],
    });
    await p.feed(placedEvent(order), statusEvent(order, 'PENDING', 'FOR_PAYMENT'));
    expect(await p.pay(order.orderId, { invoiceNumber: 'INV-CY-1', receiptNumber: 'OR-CY-1' })).toBe(200);
    const on = `${addDays(manilaDate(), -3)}T04:00:00.000Z`;
    const steps = ['FOR_PAYMENT', 'PREPARING', 'TO_SHIP', 'OUT_FOR_DELIVERY', 'DELIVERED'] as const;
    await p.feed(...steps.slice(1).map((to, i) => statusEvent(order, steps[i]!, to, { at: on })));
    return order;
  }

  it('a cycle payment of a rental billed by cycles attaches CYCLE_INVOICE_1.pdf and says which cycle it pays (issue 29)', async () => {
    const order = await deliveredOnCycles('cycles@example.com');
    expect(await p.pay(order.orderId, { invoiceNumber: 'INV-CY-2', receiptNumber: 'OR-CY-2' })).toBe(200);
    const paid = await p.events(order.orderId, EVENTS.payment.confirmed);
    await deliver(paid[1]!);
    const [, mail] = await h.mailTo('cycles@example.com', 2);
    expect(mail!.attachments.map((x) => x.filename)).toEqual(['CYCLE_INVOICE_1.pdf']);
    expect(mail!.text).toContain('$2,900.00');
    expect(mail!.text).toContain('This pays cycle 1 of your rental (30 days)');
    expect(mail!.text).not.toContain('We are preparing your order now');
  });

  it('a rent-to-own rental bought out: the receipt attaches BUY_OUT_INVOICE.pdf and says the equipment is now theirs (issue 29)', async () => {
    const order = await deliveredOnCycles('bought-out@example.com', { salePrice: '30000.00', creditPercent: 50, afterCycles: 12 });
    expect(await p.pay(order.orderId, { invoiceNumber: 'INV-BO-1', receiptNumber: 'OR-BO-1', action: 'BUY_OUT' })).toBe(200);
    const paid = await p.events(order.orderId, EVENTS.payment.confirmed);
    await deliver(paid[1]!);
    const [, mail] = await h.mailTo('bought-out@example.com', 2);
    expect(mail!.attachments.map((x) => x.filename)).toEqual(['BUY_OUT_INVOICE.pdf']);
    expect(mail!.text).toContain('$29,950.00');
    expect(mail!.text).toContain('The equipment is now yours');
  });

  it('a status nobody waits for sends nothing; an event for a deleted account sends nothing', async () => {
    const a = await customer('quiet@example.com');
    const order = purchase({ customerId: a.id });
    await deliver(statusEvent(order, 'PREPARING', 'TO_SHIP'), placedEvent(purchase({ customerId: randomUUID() })));
    await new Promise((r) => setTimeout(r, 500));
    expect(mailsTo('quiet@example.com')).toHaveLength(1);
  });

  it('a refund paid back is told, with its number, amount and how (issue 29)', async () => {
    const a = await customer('refunded@example.com');
    const event = eventEnvelope('payment', {
      type: EVENTS.payment.refundRecorded,
      aggregateId: randomUUID(),
      data: {
        paymentId: randomUUID(), orderId: randomUUID(), orderNumber: 'ORD-20261128-000555', customerId: a.id, orderType: 'RENT', refundId: randomUUID(),
        number: 'RF-20261128-000003', kind: 'DEPOSIT', amount: '1200.00', method: 'BANK_TRANSFER', status: 'PAID', refundedAt: '2026-11-28T17:30:00.000Z',
      },
    });
    await deliver(event, event);
    const [, mail] = await h.mailTo('refunded@example.com', 2);
    expect(mail!.subject).toBe('Refund RF-20261128-000003 paid back for ORD-20261128-000555');
    expect(mail!.text).toContain('We have paid back $1,200.00, the rest of your deposit for ORD-20261128-000555, by bank transfer.');
    // 17:30 UTC is the next day in Manila.
    expect(mail!.text).toContain('Nov 29, 2026');
    expect(mail!.text).toContain('https://shop.example/orders/rentals');
    await new Promise((r) => setTimeout(r, 300));
    expect(mailsTo('refunded@example.com')).toHaveLength(2);
  });

  it('a request changing status is told', async () => {
    const a = await customer('requester@example.com');
    const event = eventEnvelope('order', {
      type: EVENTS.request.changed,
      aggregateId: randomUUID(),
      data: { requestId: randomUUID(), orderId: randomUUID(), orderNumber: 'ORD-20261125-000777', customerId: a.id, type: 'FIX', status: 'ON_PROGRESS' },
    });
    await deliver(event);
    const [, mail] = await h.mailTo('requester@example.com', 2);
    expect(mail!.subject).toBe('Your fix request for ORD-20261125-000777 is in progress');
  });
});

describe('changes of a rental\'s days (issue 25)', () => {
  const changed = (customerId: string, type: typeof EVENTS.order.extended | typeof EVENTS.order.endedEarly, over: Record<string, unknown>) =>
    eventEnvelope('order', {
      type,
      aggregateId: randomUUID(),
      data: {
        orderId: randomUUID(), orderNumber: 'ORD-20261128-000321', customerId, seq: 1, by: 'STAFF',
        lines: [{ lineId: randomUUID(), noOfRentalDays: 3, lineTotal: '60.00', dueDate: '2026-12-01' }, { lineId: randomUUID(), noOfRentalDays: 5, lineTotal: '250.00', dueDate: '2026-12-03' }],
        ...over,
      },
    } as never);

  it('an extension tells the new due date and total; an early end tells the return day and total', async () => {
    const a = await customer('changed@example.com');
    await deliver(changed(a.id, EVENTS.order.extended, { days: 2, amount: '120.00', totalAmount: '310.00' }));
    const [, extended] = await h.mailTo('changed@example.com', 2);
    expect(extended!.subject).toBe('Your rental ORD-20261128-000321 is extended');
    expect(extended!.text).toContain('has 2 more days: it is due back on Dec 3, 2026. Its total is now $310.00');
    await deliver(changed(a.id, EVENTS.order.endedEarly, { days: -2, amount: '-100.00', totalAmount: '210.00', returnOn: '2026-12-01' }));
    const [, , ended] = await h.mailTo('changed@example.com', 3);
    expect(ended!.subject).toBe('Your rental ORD-20261128-000321 ends early');
    expect(ended!.text).toContain('ends on Dec 1, 2026: we will pick up the equipment then');
    expect(ended!.text).toContain('its total is now $210.00');
  });
});

describe('a recall (issue 26)', () => {
  it('every customer who has a unit of it is told once, naming their order and units', async () => {
    const a = await customer('recall-a@example.com');
    const b = await customer('recall-b@example.com');
    const event = eventEnvelope('catalog', {
      type: EVENTS.catalog.recallOpened,
      aggregateId: randomUUID(),
      data: {
        recallId: randomUUID(), number: 'RCL-000007', title: 'Battery may overheat', productName: 'Oxygen Concentrator',
        holders: [
          { orderId: randomUUID(), orderNumber: 'ORD-20261128-000101', orderType: 'RENT', customerId: a.id, serialCodes: ['OXY-0000001'] },
          { orderId: randomUUID(), orderNumber: 'ORD-20261128-000102', orderType: 'BUY', customerId: b.id, serialCodes: ['OXY-0000002', 'OXY-0000003'] },
        ],
      },
    } as never);
    await deliver(event, event);
    const [, toA] = await h.mailTo('recall-a@example.com', 2);
    expect(toA!.subject).toBe('A safety recall concerns your Oxygen Concentrator (ORD-20261128-000101)');
    expect(toA!.text).toContain('We will contact you to replace it or collect it');
    const [, toB] = await h.mailTo('recall-b@example.com', 2);
    expect(toB!.text).toContain('OXY-0000002, OXY-0000003');
    await new Promise((r) => setTimeout(r, 300));
    expect(mailsTo('recall-a@example.com')).toHaveLength(2);
  });
});

describe('reminders', () => {
  const reminder = (customerId: string, kind: string, day: string, dueDate: string, orderId = randomUUID()) =>
    eventEnvelope('order', {
      type: EVENTS.rental.reminderDue,
      aggregateId: orderId,
      data: { orderId, orderNumber: 'ORD-20261125-000123', customerId, kind: kind as 'DUE_TOMORROW', day, dueDate },
    });

  it('due tomorrow: one e-mail a day per rental, with a one-click link that turns reminders off; then no more reminders, but order e-mails still come', async () => {
    const a = await customer('reminded@example.com');
    const orderId = randomUUID();
    // The same day's reminder twice (two events): one e-mail.
    await deliver(reminder(a.id, 'DUE_TOMORROW', '2026-11-25', '2026-11-26', orderId), reminder(a.id, 'DUE_TOMORROW', '2026-11-25', '2026-11-26', orderId));
    const [, mail] = await h.mailTo('reminded@example.com', 2);
    expect(mail!.subject).toBe('Reminder: your rental ORD-20261125-000123 is due tomorrow');
    expect(mail!.text).toContain('Nov 26, 2026');
    const link = /https:\/\/shop\.example\/unsubscribe\?token=(\S+)/.exec(mail!.text);
    expect(link).not.toBeNull();
    expect(mail!.html).toContain('Stop reminders');

    expect((await h.api.post('/api/auth/unsubscribe', { token: link![1] })).status).toBe(200);
    await deliver(reminder(a.id, 'OVERDUE', '2026-11-27', '2026-11-26', orderId), placedEvent(purchase({ customerId: a.id })));
    const after = await h.mailTo('reminded@example.com', 3);
    await new Promise((r) => setTimeout(r, 500));
    expect(mailsTo('reminded@example.com').map((m) => m.subject)).toEqual([after[0]!.subject, mail!.subject, after[2]!.subject]);
    expect(after[2]!.subject).toContain('is placed');
  });

  it.each([
    ['DUE_TODAY', '2026-11-25', 'Your rental ORD-20261125-000123 is due today'],
    ['OVERDUE', '2026-11-20', 'Your rental ORD-20261125-000123 is overdue'],
    ['FULL_PAYMENT_DUE', '2026-11-25', 'Your full payment for ORD-20261125-000123 is due'],
  ])('%s has its own subject', async (kind, dueDate, subject) => {
    const email = `reminded-${kind.toLowerCase()}@example.com`;
    const a = await customer(email);
    await deliver(reminder(a.id, kind, '2026-11-25', dueDate));
    const [, mail] = await h.mailTo(email, 2);
    expect(mail!.subject).toBe(subject);
  });
});

describe('a billing cycle due (issue 29)', () => {
  it('says which cycle, its days and its amount', async () => {
    const a = await customer('cycle-due@example.com');
    const orderId = randomUUID();
    await deliver(
      eventEnvelope('order', {
        type: EVENTS.rental.reminderDue,
        aggregateId: orderId,
        data: { orderId, orderNumber: 'ORD-20261125-000124', customerId: a.id, kind: 'CYCLE_DUE', day: '2026-11-25', dueDate: '2026-11-25', cycle: { n: 2, from: '2026-11-25', to: '2026-12-24', amount: '3000.00' } },
      }),
    );
    const [, mail] = await h.mailTo('cycle-due@example.com', 2);
    expect(mail!.subject).toBe('Cycle 2 of your rental ORD-20261125-000124 is due');
    expect(mail!.text).toContain('Cycle 2 of your rental ORD-20261125-000124 (Nov 25, 2026 to Dec 24, 2026) is due today: $3,000.00');
    expect(mail!.html).toContain('Stop reminders');
  });
});

describe('the consumers', () => {
  it('an event delivered twice (JetStream redelivery) is one message', async () => {
    const a = await customer('twice@example.com');
    const prefix = `identity-mail-test-${randomUUID().slice(0, 8)}`;
    // The event stream as the services make it (a fresh NATS server has none until a process starts).
    await ensureEventStream(h.nc);
    const jsm = await jetstreamManager(h.nc);
    for (const [suffix, filter] of [['order', 'dme.order.>'], ['payment', 'dme.payment.>'], ['request', 'dme.request.>'], ['rental', 'dme.rental.>']] as const) {
      // Created first, delivering only what is published from now on: the stream's history belongs to other runs.
      await jsm.consumers.add(EVENT_STREAM, { durable_name: `${prefix}-${suffix}`, ack_policy: AckPolicy.Explicit, deliver_policy: DeliverPolicy.New, ack_wait: nanos(30_000), filter_subject: filter });
    }
    const consumers: RunningConsumer[] = await startNotificationConsumers({ nc: h.nc, em: h.orm.em, logger, config: h.config, invoiceSubject, durablePrefix: prefix, afterCommit: () => h.mail.kick() });
    try {
      const event = placedEvent(purchase({ customerId: a.id }));
      const js = jetstream(h.nc);
      await js.publish(event.type, JSON.stringify(event), { msgID: event.id });
      await js.publish(event.type, JSON.stringify(event), { msgID: randomUUID() });
      await h.mailTo('twice@example.com', 2);
      await eventually(async () => (await h.orm.em.fork().execute('select 1 from identity.inbox where event_id = ?', [event.id])).length > 0, 10_000);
      await new Promise((r) => setTimeout(r, 1000));
      expect(mailsTo('twice@example.com').filter((m) => m.subject.includes('is placed'))).toHaveLength(1);
    } finally {
      await Promise.all(consumers.map((c) => c.stop()));
      for (const suffix of ['order', 'payment', 'request', 'rental']) await jsm.consumers.delete(EVENT_STREAM, `${prefix}-${suffix}`).catch(() => undefined);
    }
  });
});
