import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { INVOICE_FILES, manilaDate, PAYMENT_MESSAGES, SELLER } from '@dme/contracts';
import type { Caller } from '@dme/testing';
import { confirmAs, daysChangedEvent, paymentIdOf, placedEvent, purchase, rental, rentalToFullPayment, startPayments, statusEvent, type PaymentHarness, type PlacedData } from '../../test/harness';

let h: PaymentHarness;
beforeAll(async () => {
  h = await startPayments();
});
afterAll(() => h?.close());

interface Run {
  str: string;
  x: number;
  width: number;
}

/**
 * The text of a PDF and where its runs are: runs of a line joined as they are drawn (pdfmake
 * draws a word broken at a hyphen as two runs), lines joined by a space; page sizes in points.
 */
async function readPdf(bytes: ArrayBuffer): Promise<{ text: string; pages: number[][]; runs: Run[] }> {
  const doc = await getDocument({ data: new Uint8Array(bytes), isEvalSupported: false }).promise;
  const parts: string[] = [];
  const pages: number[][] = [];
  const runs: Run[] = [];
  for (let i = 1; i <= doc.numPages; i++) {
    const page = await doc.getPage(i);
    pages.push(page.view.map((v) => Math.round(v)));
    const content = await page.getTextContent();
    for (const it of content.items) {
      if (!('str' in it)) continue;
      parts.push(it.str + (it.hasEOL ? ' ' : ''));
      if (it.str.trim()) runs.push({ str: it.str, x: it.transform[4] as number, width: it.width });
    }
    parts.push(' ');
  }
  await doc.destroy();
  return { text: parts.join('').replace(/\s+/g, ' '), pages, runs };
}

/** An order placed, FOR_PAYMENT, and (unless said otherwise) its first payment taken. */
async function paidOrder(data: PlacedData, body = { invoiceNumber: 'INV-2026-0001', receiptNumber: 'OR-88001', note: '' }, pay = true): Promise<string> {
  await h.feed(placedEvent(data), statusEvent(data, 'PENDING', 'FOR_PAYMENT'));
  const id = await paymentIdOf(h, data.orderId);
  if (pay) expect((await confirmAs(h, h.accounting, id, body)).status).toBe(200);
  return id;
}

async function invoice(path: string, as: Caller, fileName: string) {
  const res = await h.download(path, as);
  expect(res.status, JSON.stringify(res.problem)).toBe(200);
  expect(res.headers.get('content-type')).toBe('application/pdf');
  expect(res.headers.get('content-disposition')).toBe(`attachment; filename="${fileName}"`);
  return readPdf(res.bytes);
}

const A4 = [0, 0, 595, 842];

describe('invoice PDFs', () => {
  it('a purchase: INVOICE.pdf, A4, with seller, numbers, date, order, customer, address, lines, totals, payment and balance', async () => {
    const data = purchase();
    const id = await paidOrder(data);
    const { text, pages } = await invoice(`/api/payments/${id}/invoice.pdf`, h.accounting, INVOICE_FILES.purchase);
    expect(pages).toEqual([A4]);
    for (const expected of [
      SELLER.name,
      SELLER.address,
      SELLER.email,
      SELLER.phone,
      'INVOICE',
      'INV-2026-0001',
      'OR-88001',
      manilaDate(),
      data.orderNumber,
      'Maria Santos',
      'maria.santos@example.com',
      '+63 917 555 0101',
      '12 Rizal St',
      'Makati, Metro Manila 1210',
      'Digital Thermometer',
      'Folding Wheelchair',
      'Standard / 18 in',
      '$12.99',
      '$25.98',
      '$150.00',
      'Order total $175.98',
      'Overall total $175.98',
      'Full payment',
      h.accounting.username,
      'Balance $0.00',
      PAYMENT_MESSAGES.invoiceTerms,
    ]) {
      expect(text, expected).toContain(expected);
    }
    // A purchase has no rental days or partial payment.
    expect(text).not.toContain('Days');
    expect(text).not.toContain('Partial payment');
  });

  it("a rental's first payment: INITIAL_PAYMENT_INVOICE.pdf with days, partial payment and balance; its full payment: FULL_PAYMENT_INVOICE.pdf with the terms", async () => {
    const data = rental();
    const id = await paidOrder(data, { invoiceNumber: 'INV-R-1', receiptNumber: 'OR-R-1', note: '' });
    const first = await invoice(`/api/orders/${data.orderId}/invoice.pdf`, h.as('WAREHOUSE_STAFF'), INVOICE_FILES.initial);
    for (const expected of ['INV-R-1', 'OR-R-1', 'Jose Rizal', 'Days', 'Oxygen Concentrator', '$45.00', '$225.00', '$99.00', 'Order total $324.00', 'Partial payment (first day) $78.00', 'Overall total $0.00', 'Partial payment', 'Balance $246.00']) {
      expect(first.text, expected).toContain(expected);
    }
    expect(first.text).not.toContain(PAYMENT_MESSAGES.invoiceTerms);

    await h.feed(...rentalToFullPayment(data, '120.00'));
    // Until the full payment is taken, the invoice is still the first one.
    expect((await h.download(`/api/payments/${id}/invoice.pdf`, h.accounting)).headers.get('content-disposition')).toContain(INVOICE_FILES.initial);
    expect((await confirmAs(h, h.accounting, id, { invoiceNumber: 'INV-R-2', receiptNumber: 'OR-R-2', note: 'Damaged wheel' })).status).toBe(200);
    const full = await invoice(`/api/my/orders/${data.orderId}/invoice.pdf`, { userId: data.customerId, userType: 'CUSTOMER' }, INVOICE_FILES.full);
    for (const expected of ['INV-R-2', 'OR-R-2', 'Extra charges $120.00', 'Overall total $444.00', 'Partial payment (first day) $78.00', '$366.00', 'Balance $0.00', PAYMENT_MESSAGES.invoiceTerms, 'Damaged wheel', 'INV-R-1']) {
      expect(full.text, expected).toContain(expected);
    }
  });

  it('issue 29: the deposit has its own line on the first invoice; the full invoice shows the late fees and the deposit settled', async () => {
    const base = rental();
    const data = rental({ deposit: '500.00', lines: [{ ...base.lines[0]!, deposit: '500.00' }, { ...base.lines[1]!, deposit: '0.00' }] });
    const id = await paidOrder(data, { invoiceNumber: 'INV-DEP-1', receiptNumber: 'OR-DEP-1', note: '' });
    const first = await invoice(`/api/payments/${id}/invoice.pdf`, h.accounting, INVOICE_FILES.initial);
    for (const expected of ['Partial payment (first day) $78.00', 'Deposit (refundable) $500.00', 'Partial payment + deposit', '$578.00', 'Balance $246.00']) {
      expect(first.text, expected).toContain(expected);
    }
    expect(first.text).not.toContain('Deposit to refund');
    await h.feed(...rentalToFullPayment(data, '300.00', undefined, { lateFees: '50.00', depositApplied: '300.00', depositRefund: '200.00' }));
    expect((await confirmAs(h, h.accounting, id, { invoiceNumber: 'INV-DEP-2', receiptNumber: 'OR-DEP-2', note: '' })).status).toBe(200);
    const full = await invoice(`/api/payments/${id}/invoice.pdf`, h.accounting, INVOICE_FILES.full);
    for (const expected of ['Extra charges $300.00', 'of which late fees $50.00', 'Deposit applied to charges $300.00', 'Deposit to refund $200.00', '$246.00', 'Balance $0.00']) {
      expect(full.text, expected).toContain(expected);
    }
  });

  it('issue 29: the full invoice lists the extensions and the early end within the order total, each once; the payment keeps them', async () => {
    const data = rental();
    const id = await paidOrder(data, { invoiceNumber: 'INV-EXT-1', receiptNumber: 'OR-EXT-1', note: '' });
    // Two more days for both lines (+156.00), then one day taken off at the return (−78.00).
    const extended = { seq: 1, days: 2, amount: '156.00', totalAmount: '480.00', lines: [{ noOfRentalDays: 5, lineTotal: '165.00' }, { noOfRentalDays: 7, lineTotal: '315.00' }] };
    await h.feed(daysChangedEvent(data, extended));
    // The same change told again (another message): kept once.
    await h.feed(daysChangedEvent(data, extended));
    await h.feed(daysChangedEvent(data, { seq: 2, days: -1, amount: '-78.00', totalAmount: '402.00', by: 'STAFF', returnOn: '2026-12-09', lines: [{ noOfRentalDays: 4, lineTotal: '132.00' }, { noOfRentalDays: 6, lineTotal: '270.00' }] }));
    const payment = (await h.api.get(`/api/payments/${id}`, { as: h.accounting })).body.payment;
    expect(payment).toMatchObject({ totalOrderPayment: '402.00', balance: '324.00' });
    expect(payment.extensions).toEqual([
      { seq: 1, kind: 'EXTEND', days: 2, amount: '156.00', by: 'CUSTOMER' },
      { seq: 2, kind: 'END_EARLY', days: -1, amount: '-78.00', by: 'STAFF' },
    ]);
    await h.feed(...rentalToFullPayment(data, '0.00'));
    expect((await confirmAs(h, h.accounting, id, { invoiceNumber: 'INV-EXT-2', receiptNumber: 'OR-EXT-2', note: '' })).status).toBe(200);
    const full = await invoice(`/api/payments/${id}/invoice.pdf`, h.accounting, INVOICE_FILES.full);
    for (const expected of ['Order total $402.00', 'Extension (+2 days) $156.00', 'Ended early (−1 day) -$78.00', 'Balance $0.00']) {
      expect(full.text, expected).toContain(expected);
    }
    expect(full.text.split('Extension (+2 days)')).toHaveLength(2);
    // The first invoice was for the first day: no change of days on it.
    const first = await invoice(`/api/payments/${id}/records/${payment.records[0].id}/invoice.pdf`, h.accounting, INVOICE_FILES.initial);
    expect(first.text).not.toContain('Extension');
  });

  it('long invoice and receipt numbers, names and addresses wrap inside the page', async () => {
    const long = (c: string, n: number) => c.repeat(n);
    const data = purchase({
      customer: { name: `${long('W', 60)} Santos`, email: `${long('m', 60)}@example.com`, contactNumber: '+63 917 555 0101' },
      delivery: { address: long('A', 80), city: long('C', 60), state: 'Metro Manila', zipcode: '1210' },
      lines: [{ ...purchase().lines[0]!, productName: long('P', 100), variantName: long('V', 100), subVariantName: long('S', 100), quantity: 1000, unitPrice: '9999999.99', lineTotal: '9999999990.00' }],
      totalAmount: '9999999990.00',
    });
    await h.feed(placedEvent(data), statusEvent(data, 'PENDING', 'FOR_PAYMENT'));
    const id = await paymentIdOf(h, data.orderId);
    const who = { ...h.as('ACCOUNTING_ADMIN'), username: long('u', 100) };
    expect((await confirmAs(h, who, id, { invoiceNumber: long('W', 50), receiptNumber: long('W', 50), note: long('n ', 250).trim() })).status).toBe(200);
    const { runs, text } = await invoice(`/api/payments/${id}/invoice.pdf`, h.accounting, INVOICE_FILES.purchase);
    const outside = runs.filter((r) => r.x < 39 || r.x + r.width > 556);
    expect(outside, JSON.stringify(runs.filter((r) => r.x > 400))).toEqual([]);
    expect(text).toContain('$9,999,999,990.00');
    expect(text).toContain('Amount');
  });
});

describe('who gets which invoice', () => {
  it("a customer gets their own order's invoice once paid; another customer's order and an unknown one are 404 alike", async () => {
    const data = purchase();
    await paidOrder(data);
    const owner: Caller = { userId: data.customerId, userType: 'CUSTOMER' };
    await invoice(`/api/my/orders/${data.orderId}/invoice.pdf`, owner, INVOICE_FILES.purchase);
    const stranger: Caller = { userId: randomUUID(), userType: 'CUSTOMER' };
    const theirs = await h.download(`/api/my/orders/${data.orderId}/invoice.pdf`, stranger);
    const unknown = await h.download(`/api/my/orders/${randomUUID()}/invoice.pdf`, owner);
    expect([theirs.status, theirs.problem.detail]).toEqual([404, 'Order not found.']);
    expect([unknown.status, unknown.problem.detail]).toEqual([404, 'Order not found.']);
    expect((await h.download('/api/my/orders/not-an-id/invoice.pdf', owner)).status).toBe(404);
  });

  it('no payment taken yet: 404 with the no-invoice message', async () => {
    const data = rental();
    const id = await paidOrder(data, undefined, false);
    const owner: Caller = { userId: data.customerId, userType: 'CUSTOMER' };
    for (const [path, who] of [
      [`/api/my/orders/${data.orderId}/invoice.pdf`, owner],
      [`/api/orders/${data.orderId}/invoice.pdf`, h.as('WAREHOUSE_ADMIN')],
      [`/api/payments/${id}/invoice.pdf`, h.accounting],
    ] as const) {
      const res = await h.download(path, who);
      expect([res.status, res.problem.detail], path).toEqual([404, PAYMENT_MESSAGES.noInvoice]);
    }
  });

  it('each route checks its permission: staff without order:read, customers on staff routes, accounting on the customer route', async () => {
    const data = purchase();
    const id = await paidOrder(data);
    expect((await h.download(`/api/orders/${data.orderId}/invoice.pdf`, h.accounting)).status).toBe(403);
    expect((await h.download(`/api/orders/${data.orderId}/invoice.pdf`, { userId: data.customerId, userType: 'CUSTOMER' })).status).toBe(403);
    expect((await h.download(`/api/payments/${id}/invoice.pdf`, { userId: data.customerId, userType: 'CUSTOMER' })).status).toBe(403);
    expect((await h.download(`/api/payments/${id}/invoice.pdf`, h.as('WAREHOUSE_STAFF'))).status).toBe(403);
    expect((await h.download(`/api/my/orders/${data.orderId}/invoice.pdf`, h.accounting)).status).toBe(403);
    expect((await h.download(`/api/orders/${data.orderId}/invoice.pdf`, h.as('SUPERADMIN'))).status).toBe(200);
  });
});

describe("each payment record's invoice (issue 22: not only the latest)", () => {
  it('a rental paid in full: staff and the customer still get INITIAL_PAYMENT_INVOICE.pdf of the first record, and FULL_PAYMENT_INVOICE.pdf of the second; the latest-invoice routes keep working', async () => {
    const data = rental();
    const id = await paidOrder(data, { invoiceNumber: 'INV-P-1', receiptNumber: 'OR-P-1', note: '' });
    await h.feed(...rentalToFullPayment(data, '120.00'));
    const full = await confirmAs(h, h.accounting, id, { invoiceNumber: 'INV-P-2', receiptNumber: 'OR-P-2', note: '' });
    expect(full.status).toBe(200);
    const [first, second] = full.body.payment.records as Array<{ id: string }>;
    const owner: Caller = { userId: data.customerId, userType: 'CUSTOMER' };

    for (const [path, who] of [
      [`/api/payments/${id}/records/${first!.id}/invoice.pdf`, h.accounting],
      [`/api/my/orders/${data.orderId}/records/${first!.id}/invoice.pdf`, owner],
    ] as const) {
      const initial = await invoice(path, who, INVOICE_FILES.initial);
      // The invoice as it was when the first day was paid: its numbers, balance and no later payment.
      for (const expected of ['INV-P-1', 'OR-P-1', 'Partial payment (first day) $78.00', 'Overall total $0.00', 'Balance $246.00']) expect(initial.text, expected).toContain(expected);
      for (const absent of ['INV-P-2', 'Extra charges', PAYMENT_MESSAGES.invoiceTerms]) expect(initial.text, absent).not.toContain(absent);
    }
    for (const [path, who] of [
      [`/api/payments/${id}/records/${second!.id}/invoice.pdf`, h.accounting],
      [`/api/my/orders/${data.orderId}/records/${second!.id}/invoice.pdf`, owner],
    ] as const) {
      const last = await invoice(path, who, INVOICE_FILES.full);
      for (const expected of ['INV-P-2', 'OR-P-2', 'INV-P-1', 'Extra charges $120.00', 'Balance $0.00', PAYMENT_MESSAGES.invoiceTerms]) expect(last.text, expected).toContain(expected);
    }
    // Legacy callers: the latest invoice, as before.
    await invoice(`/api/my/orders/${data.orderId}/invoice.pdf`, owner, INVOICE_FILES.full);
    await invoice(`/api/payments/${id}/invoice.pdf`, h.accounting, INVOICE_FILES.full);
  });

  it("another customer's order, another payment's record and unknown ids are 404; each route checks its permission", async () => {
    const data = purchase();
    const id = await paidOrder(data);
    const recordId = (await h.api.get(`/api/payments/${id}`, { as: h.accounting })).body.payment.records[0].id as string;
    const otherData = purchase();
    const otherId = await paidOrder(otherData);
    const owner: Caller = { userId: data.customerId, userType: 'CUSTOMER' };
    await invoice(`/api/my/orders/${data.orderId}/records/${recordId}/invoice.pdf`, owner, INVOICE_FILES.purchase);

    const stranger: Caller = { userId: randomUUID(), userType: 'CUSTOMER' };
    const theirs = await h.download(`/api/my/orders/${data.orderId}/records/${recordId}/invoice.pdf`, stranger);
    expect([theirs.status, theirs.problem.detail]).toEqual([404, 'Order not found.']);
    // The record of another payment, through this payment or the customer's own order.
    const crossed = await h.download(`/api/payments/${otherId}/records/${recordId}/invoice.pdf`, h.accounting);
    expect([crossed.status, crossed.problem.detail]).toEqual([404, PAYMENT_MESSAGES.recordNotFound]);
    const notHers = await h.download(`/api/my/orders/${otherData.orderId}/records/${recordId}/invoice.pdf`, { userId: otherData.customerId, userType: 'CUSTOMER' });
    expect(notHers.status).toBe(404);
    expect((await h.download(`/api/payments/${id}/records/${randomUUID()}/invoice.pdf`, h.accounting)).status).toBe(404);
    expect((await h.download(`/api/payments/${randomUUID()}/records/${recordId}/invoice.pdf`, h.accounting)).problem.detail).toBe('Payment not found.');
    expect((await h.download(`/api/payments/${id}/records/not-an-id/invoice.pdf`, h.accounting)).status).toBe(404);
    // Permissions: staff need payment:read, customers invoice:read-own.
    expect((await h.download(`/api/payments/${id}/records/${recordId}/invoice.pdf`, owner)).status).toBe(403);
    expect((await h.download(`/api/payments/${id}/records/${recordId}/invoice.pdf`, h.as('WAREHOUSE_STAFF'))).status).toBe(403);
    expect((await h.download(`/api/my/orders/${data.orderId}/records/${recordId}/invoice.pdf`, h.accounting)).status).toBe(403);
    expect((await h.download(`/api/payments/${id}/records/${recordId}/invoice.pdf`, h.as('SUPERADMIN'))).status).toBe(200);
  });
});
