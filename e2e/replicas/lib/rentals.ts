/**
 * Rentals billed by cycles through the replicas (issue 29): each one placed, paid, packed and
 * handed over; then, with the test's faults, its two cycle payments, its return 5 days late (late
 * fees, one unit in two damaged), its full payment and its deposit's refund. Every step is what
 * staff would do again after an error: a keyed request goes again with its key; a payment is
 * taken while the payment says one is due (a retry after a lost answer finds nothing more due and
 * stops), a transition is read back when refused. What was charged is checked afterwards from
 * the database (`checkRentals`) and by accounting's reconciliation.
 */
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { ORDER_MESSAGES, PAYMENT_MESSAGES } from '@dme/contracts';
import { handoverBody } from '@dme/testing/handover';
import { pngUploadForm } from '@dme/testing';
import { json } from '../../api/lib/http';
import type { Client, Staff } from './client';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const detailOf = (b: unknown) => (b && typeof b === 'object' ? String((b as { detail?: unknown }).detail ?? '') : '');

/** ₱100.00 a day, ₱150.00 damage fee, ₱500.00 deposit, ₱50.00 a day late, billed every 30 days. */
export const CYCLE_TERMS = { deposit: { kind: 'FIXED', amount: '500.00' }, lateFeePerDay: '50.00', graceDays: 0, lateFeeCap: null, billing: 'CYCLES' };
export const RENTAL_DAYS = 60;

export async function cycleProduct(c: Client, admin: string, name: string, units: number): Promise<{ id: string; serials: string[] }> {
  const form = pngUploadForm();
  const up = await c.request({ method: 'POST', path: '/api/uploads', headers: { cookie: admin, 'content-type': form.contentType }, body: form.body });
  const image = (json(up) as { imagePath: string }).imagePath;
  const bin = await c.json('POST', '/api/warehouse-bins', { name: `Bin ${name}`, description: 'replicas rentals' }, { cookie: admin });
  if (bin.status !== 201) throw new Error(`bin: ${bin.status} ${JSON.stringify(bin.body)}`);
  const created = await c.json(
    'POST',
    '/api/products',
    { brand: 'Replica', name, description: 'replicas rentals', type: 'FOR_RENT', image, price: '100.00', damageCharges: '150.00', rentalTerms: CYCLE_TERMS },
    { cookie: admin },
  );
  if (created.status !== 201) throw new Error(`product: ${created.status} ${JSON.stringify(created.body)}`);
  const id = (created.body as { product: { id: string } }).product.id;
  const s = await c.json('POST', '/api/stocks', { productID: id, warehouseBinID: (bin.body as { bin: { id: string } }).bin.id, quantity: units }, { cookie: admin });
  if (s.status !== 201) throw new Error(`stock: ${s.status} ${JSON.stringify(s.body)}`);
  return { id, serials: (s.body as { items: Array<{ serialCode: string }> }).items.map((i) => i.serialCode) };
}

export interface Rental {
  customer: string;
  /** The unit it is packed with (the one the catalog booked for it). */
  serial: string;
  damaged: boolean;
  orderId?: string;
  orderNumber?: string;
  paymentId?: string;
  error?: string;
}

type Json = Record<string, unknown>;

/** A keyed POST: again with the same key while another replica holds it (up to 15 s), then with a new key. */
async function keyed(c: Client, path: string, body: unknown, cookie: string, inProgress: string): Promise<{ status: number; body: unknown }> {
  let key = randomUUID();
  let until = Date.now() + 15_000;
  for (;;) {
    const r = await c.json('POST', path, body, { cookie, 'idempotency-key': key });
    if (r.status === 409 && detailOf(r.body) === inProgress) {
      if (Date.now() > until) {
        key = randomUUID();
        until = Date.now() + 15_000;
      }
      await sleep(300);
      continue;
    }
    return r;
  }
}

async function order(c: Client, staff: Staff, orderId: string): Promise<Json & { status: string; products: Array<{ id: string }> }> {
  const r = await c.json('GET', `/api/orders/${orderId}`, undefined, { cookie: staff.warehouse });
  if (r.status !== 200) throw new Error(`order: ${r.status} ${JSON.stringify(r.body)}`);
  return (r.body as { order: Json & { status: string; products: Array<{ id: string }> } }).order;
}

async function payment(c: Client, staff: Staff, orderId: string): Promise<{ id: string; nextAction: string | null; status: string; refunds: Array<{ id: string; status: string }> } | null> {
  const r = await c.json('GET', `/api/orders/${orderId}/payment`, undefined, { cookie: staff.accounting });
  return r.status === 200 ? (r.body as { payment: { id: string; nextAction: string | null; status: string; refunds: Array<{ id: string; status: string }> } }).payment : null;
}

/** Waits (up to 60 s) until `ok` holds of what `read` answers. */
async function until<T>(what: string, read: () => Promise<T>, ok: (v: T) => boolean): Promise<T> {
  const by = Date.now() + 60_000;
  for (let wait = 100; ; wait = Math.min(1000, wait * 1.5)) {
    const v = await read();
    if (ok(v)) return v;
    if (Date.now() > by) throw new Error(`${what}: not within 60 s (${JSON.stringify(v)})`);
    await sleep(wait);
  }
}

/** A transition staff take; refused, it is read back (a retry after the first went through). */
async function move(c: Client, staff: Staff, orderId: string, to: string, extra: Json = {}): Promise<void> {
  const r = await c.json('POST', `/api/orders/${orderId}/transitions`, { to, ...extra }, { cookie: staff.admin });
  if (r.status === 200) return;
  const now = (await order(c, staff, orderId)).status;
  if (now !== to) throw new Error(`${to}: ${r.status} ${JSON.stringify(r.body)}; order is ${now}`);
}

/** Accounting takes `action` while the payment says it is the one due; answers how many it took. */
async function takeWhileDue(c: Client, staff: Staff, orderId: string, action: string): Promise<number> {
  let taken = 0;
  for (;;) {
    const p = await payment(c, staff, orderId);
    if (!p || p.nextAction !== action) return taken;
    const r = await keyed(c, `/api/payments/${p.id}/confirm`, { invoiceNumber: `INV-${randomUUID().slice(0, 8)}`, receiptNumber: 'OR-R', note: '' }, staff.accounting, PAYMENT_MESSAGES.idempotencyInProgress);
    if (r.status === 200) taken++;
    else if (r.status !== 409) throw new Error(`${action}: ${r.status} ${JSON.stringify(r.body)}`);
  }
}

/** The hand-over at the door (its key makes a retry the same hand-over). */
async function handOver(c: Client, staff: Staff, orderId: string, leg: 'DELIVERY' | 'PICKUP'): Promise<void> {
  const read = await c.json('GET', `/api/driver/orders/${orderId}`, undefined, { cookie: staff.admin });
  if (read.status !== 200) throw new Error(`driver order: ${read.status} ${JSON.stringify(read.body)}`);
  const body = handoverBody((read.body as { order: Parameters<typeof handoverBody>[0] }).order, leg);
  const r = await c.json('POST', `/api/driver/orders/${orderId}/handover`, body, { cookie: staff.admin });
  if (r.status !== 200) throw new Error(`hand-over ${leg}: ${r.status} ${JSON.stringify(r.body)}`);
}

/** The unit the catalog booked for an order (its packing must be that one: the others are booked for other rentals of the same days). */
async function bookedSerial(databaseUrl: string, orderId: string): Promise<string> {
  const c = new pg.Client({ connectionString: databaseUrl });
  await c.connect();
  try {
    const { rows } = await c.query<{ serial_code: string }>(
      `select si.serial_code from catalog.bookings b join catalog.stock_items si on si.id = b.stock_item_id where b.order_id = $1 and b.status = 'ACTIVE'`,
      [orderId],
    );
    if (rows.length !== 1) throw new Error(`order ${orderId}: ${rows.length} units booked`);
    return rows[0]!.serial_code;
  } finally {
    await c.end();
  }
}

/** Before the faults: placed for 60 days, its first day and deposit paid, packed with its booked unit and handed over (DELIVERED). */
export async function deliverRental(c: Client, staff: Staff, databaseUrl: string, productId: string, r: Rental): Promise<void> {
  const placed = await keyed(
    c,
    '/api/orders',
    { type: 'RENT', typeOfOrder: 'BULK', lines: [{ productID: productId, quantity: 1, noOfRentalDays: RENTAL_DAYS }], deliveryAddress: '12 Rizal St', deliveryCity: 'Makati', deliveryState: 'Metro Manila', deliveryZipcode: '121000', note: '' },
    r.customer,
    ORDER_MESSAGES.idempotencyInProgress,
  );
  if (placed.status !== 201) throw new Error(`place: ${placed.status} ${JSON.stringify(placed.body)}`);
  const o = (placed.body as { order: { id: string; orderNumber: string } }).order;
  r.orderId = o.id;
  r.orderNumber = o.orderNumber;
  await move(c, staff, o.id, 'FOR_PAYMENT');
  await until('first payment payable', () => payment(c, staff, o.id), (p) => p?.nextAction === 'PAY_PARTIAL');
  await takeWhileDue(c, staff, o.id, 'PAY_PARTIAL');
  const preparing = await until('preparing', () => order(c, staff, o.id), (x) => x.status === 'PREPARING');
  r.serial = await bookedSerial(databaseUrl, o.id);
  await move(c, staff, o.id, 'TO_SHIP', { packing: [{ lineID: preparing.products[0]!.id, serialCodes: [r.serial] }] });
  const scan = await c.json('POST', '/api/driver/scan', { purpose: 'DELIVERY', code: o.orderNumber }, { cookie: staff.admin });
  if (scan.status !== 200) throw new Error(`scan: ${scan.status} ${JSON.stringify(scan.body)}`);
  await handOver(c, staff, o.id, 'DELIVERY');
  r.paymentId = (await until('payment delivered', () => payment(c, staff, o.id), (p) => p !== null))!.id;
}

/**
 * Moves the rentals' delivery back `days` days (order and payment alike), once the payment knows
 * each was delivered: their cycles fall due and they are late, as if that time had passed.
 */
export async function deliveredDaysAgo(databaseUrl: string, orderIds: string[], days: number): Promise<void> {
  const c = new pg.Client({ connectionString: databaseUrl });
  await c.connect();
  try {
    await until(
      'payments know the delivery',
      async () => (await c.query<{ n: number }>(`select count(*)::int as n from payment.payments where order_id = any($1::uuid[]) and delivered_on is not null`, [orderIds])).rows[0]!.n,
      (n) => n === orderIds.length,
    );
    await c.query(`update ordering.orders set delivered_at = delivered_at - make_interval(days => $2) where id = any($1::uuid[])`, [orderIds, days]);
    await c.query(`update payment.payments set delivered_on = delivered_on - $2::int where order_id = any($1::uuid[])`, [orderIds, days]);
  } finally {
    await c.end();
  }
}

/**
 * With the faults: both cycles paid, the return asked (late fees counted), picked up with a
 * hand-over, each unit marked (OK or DAMAGED), the full payment asked and taken, the deposit's
 * rest recorded as refunded; done when the order is COMPLETED.
 */
export async function settleRental(c: Client, staff: Staff, r: Rental): Promise<void> {
  const id = r.orderId!;
  await until('cycles payable', () => payment(c, staff, id), (p) => p?.nextAction === 'PAY_CYCLE');
  await takeWhileDue(c, staff, id, 'PAY_CYCLE');
  await move(c, staff, id, 'FOR_RETURN');
  if ((await order(c, staff, id)).status === 'FOR_RETURN') await handOver(c, staff, id, 'PICKUP');
  const mark = await c.json('POST', `/api/orders/${id}/serials/${encodeURIComponent(r.serial)}/return`, { status: r.damaged ? 'DAMAGED' : 'OK' }, { cookie: staff.admin });
  // 409 "already marked": a retry after the first mark went through (its answer lost with its replica).
  if (mark.status !== 200 && mark.status !== 409) throw new Error(`return mark: ${mark.status} ${JSON.stringify(mark.body)}`);
  await move(c, staff, id, 'FOR_FULL_PAYMENT');
  await until('full payment payable', () => payment(c, staff, id), (p) => p?.nextAction === 'COMPLETE_PAYMENT' || p?.status === 'PAID');
  await takeWhileDue(c, staff, id, 'COMPLETE_PAYMENT');
  for (;;) {
    const p = await until('deposit refund opened', () => payment(c, staff, id), (x) => (x?.refunds.length ?? 0) > 0);
    const due = p!.refunds.find((x) => x.status === 'DUE');
    if (!due) break;
    const rec = await keyed(c, `/api/payments/${p!.id}/refunds/${due.id}/record`, { method: 'BANK_TRANSFER', reference: `BT-${r.orderNumber}`, note: '' }, staff.accounting, PAYMENT_MESSAGES.refundIdempotencyInProgress);
    if (rec.status !== 200 && rec.status !== 409) throw new Error(`refund: ${rec.status} ${JSON.stringify(rec.body)}`);
  }
  await until('completed', () => order(c, staff, id), (x) => x.status === 'COMPLETED');
}

/**
 * What the rentals were charged, from the payment and order schemas: each with its first payment,
 * cycles 1 and 2 once each, one full payment, one deposit refund paid back, and the order's copy
 * of the records; the rent charged is the order total, the full payment its charges less the
 * deposit (₱150.00 damage + ₱250.00 late fees, or the late fees alone, from the ₱500.00 deposit).
 */
export async function checkRentals(databaseUrl: string, rentals: Rental[]): Promise<string[]> {
  const c = new pg.Client({ connectionString: databaseUrl });
  await c.connect();
  const problems: string[] = [];
  try {
    for (const r of rentals) {
      const rows = (
        await c.query<{ type: string; cycle: number | null; amount: string }>(
          `select type, cycle, amount::text from payment.payment_records where payment_id = $1 order by seq`,
          [r.paymentId],
        )
      ).rows.map((x) => `${x.type}${x.cycle ?? ''} ${x.amount}`);
      const want = ['PARTIAL 600.00', 'CYCLE1 2900.00', 'CYCLE2 3000.00', 'FULL 0.00'];
      if (JSON.stringify(rows) !== JSON.stringify(want)) problems.push(`${r.orderNumber}: records ${rows.join(', ')} (want ${want.join(', ')})`);
      const refunds = (await c.query<{ kind: string; amount: string; status: string }>(`select kind, amount::text, status from payment.payment_refunds where payment_id = $1`, [r.paymentId])).rows.map(
        (x) => `${x.kind} ${x.amount} ${x.status}`,
      );
      const refund = r.damaged ? 'DEPOSIT 100.00 REFUNDED' : 'DEPOSIT 250.00 REFUNDED';
      if (JSON.stringify(refunds) !== JSON.stringify([refund])) problems.push(`${r.orderNumber}: refunds ${refunds.join(', ')} (want ${refund})`);
      const copies = (await c.query<{ n: number }>(`select count(*)::int as n from ordering.order_payment_records where order_id = $1`, [r.orderId])).rows[0]!.n;
      if (copies !== 4) problems.push(`${r.orderNumber}: the order keeps ${copies} payment records (want 4)`);
      const late = (await c.query<{ late: string | null }>(`select late_fees::text as late from payment.payments where id = $1`, [r.paymentId])).rows[0]?.late;
      if (late !== '250.00') problems.push(`${r.orderNumber}: late fees ${late} (want 250.00)`);
    }
  } finally {
    await c.end();
  }
  return problems;
}
