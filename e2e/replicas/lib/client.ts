/**
 * The shop's clients for the burst: customers placing orders, the warehouse confirming them and
 * accounting taking the payments, through the shop's address (the balancer in front of the
 * gateway replicas; several addresses are taken in turn). Every request goes on a connection of
 * its own (node:http, no keep-alive), so each failure is read exactly:
 *  - refused: no connection was made (nothing listened, or the connection was reset while being
 *    made), so the request was never sent; it goes again (to the next address when there are several);
 *  - reset: a connection that was made and then broken without an answer (ECONNRESET, socket
 *    hang up, an answer cut off): allowed only where the test killed a process;
 *  - an answer, whatever its status (502/503/504 are tried again).
 * Retries of a POST carry the same Idempotency-Key.
 */
import { randomUUID } from 'node:crypto';
import { ORDER_MESSAGES, PAYMENT_MESSAGES } from '@dme/contracts';
import { validPerson } from '@dme/testing';
import { pngUploadForm } from '@dme/testing';
import { cookieFrom, json, send, type RawRequest, type RawResponse } from '../../api/lib/http';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export interface Failure {
  at: number;
  gateway: string;
  request: string;
  kind: 'refused' | 'reset' | 'timeout' | '5xx';
  detail: string;
}

/** Requests spread over the gateways, with what went wrong on the way. */
export class Client {
  readonly failures: Failure[] = [];
  private turn = 0;
  /** Until when a gateway that refused a connection is passed over (a health check's view of it). */
  private readonly downUntil: number[];

  constructor(readonly gateways: string[]) {
    this.downUntil = gateways.map(() => 0);
  }

  private pick(): number {
    for (let i = 0; i < this.gateways.length; i++) {
      const g = this.turn++ % this.gateways.length;
      if (this.downUntil[g]! <= Date.now()) return g;
    }
    return this.turn++ % this.gateways.length;
  }

  /**
   * Sends until an answer that is not a 502/503/504 comes (or attempts run out): a refused
   * connection goes at once to the next gateway; a reset, a timeout or a 5xx is tried again,
   * on the next gateway, after a pause.
   */
  async request(req: RawRequest, attempts = 30, seen?: { failures: number }): Promise<RawResponse> {
    let g = this.pick();
    let last: RawResponse | undefined;
    for (let i = 0; i < attempts; i++) {
      if (i > 0 && seen) seen.failures++;
      const gateway = this.gateways[g]!;
      const r = await send(gateway, req, { timeoutMs: 30_000 });
      last = r;
      const what = `${req.method} ${req.path}`;
      if (r.kind === 'answer' && r.status !== 502 && r.status !== 503 && r.status !== 504) return r;
      // Refused, or reset before the connection was made (a listener closed with the connection
      // still in its accept queue): either way the request was never sent.
      if (r.kind === 'error' && (/ECONNREFUSED/.test(r.message) || /^connect /.test(r.message))) {
        this.failures.push({ at: Date.now(), gateway, request: what, kind: 'refused', detail: r.message });
        this.downUntil[g] = Date.now() + 1000;
        g = (g + 1) % this.gateways.length;
        // Every gateway refused in a row: give the restarting one a moment.
        if (i % this.gateways.length === this.gateways.length - 1) await sleep(200);
        continue;
      }
      const kind = r.kind === 'answer' ? '5xx' : r.kind === 'timeout' ? 'timeout' : 'reset';
      this.failures.push({ at: Date.now(), gateway, request: what, kind, detail: r.kind === 'answer' ? `${r.status} ${r.body.toString('utf8').slice(0, 200)}` : r.kind === 'error' ? r.message : 'no answer in 30 s' });
      g = (g + 1) % this.gateways.length;
      await sleep(150 + 100 * i);
    }
    return last!;
  }

  async json(method: string, path: string, body: unknown, headers: Record<string, string> = {}, seen?: { failures: number }): Promise<{ status: number; body: unknown; raw: RawResponse }> {
    const r = await this.request(
      {
        method,
        path,
        headers: { accept: 'application/json', ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
        ...(body === undefined ? {} : { body: Buffer.from(JSON.stringify(body)) }),
      },
      30,
      seen,
    );
    return { status: r.kind === 'answer' ? r.status : 0, body: json(r), raw: r };
  }

  async signIn(username: string, password: string): Promise<string> {
    const r = await this.json('POST', '/api/auth/login', { username, password });
    const token = cookieFrom(r.raw, 'dme_session');
    if (r.status !== 200 || !token) throw new Error(`sign in ${username}: ${r.status} ${JSON.stringify(r.body)}`);
    return `dme_session=${token}`;
  }

  /** A new customer through the API (anonymous upload of the picture, then registration). */
  async registerCustomer(username: string): Promise<{ username: string; password: string }> {
    const form = pngUploadForm();
    const up = await this.request({ method: 'POST', path: '/api/uploads', headers: { 'content-type': form.contentType }, body: form.body });
    const image = (json(up) as { imagePath?: string } | undefined)?.imagePath;
    if (!image) throw new Error(`upload: ${up.kind === 'answer' ? up.status : up.kind}`);
    const person = validPerson({ username, image });
    const reg = await this.json('POST', '/api/auth/register', person);
    if (reg.status !== 201) throw new Error(`register ${username}: ${reg.status} ${JSON.stringify(reg.body)}`);
    return { username, password: person.password as string };
  }
}

export interface Staff {
  admin: string;
  warehouse: string;
  accounting: string;
}

/** A product of the test's own, with `units` items in stock (Add Stock takes at most 500 at once). */
export async function productWithStock(c: Client, admin: string, name: string, price: string, units: number): Promise<{ id: string; units: number }> {
  const form = pngUploadForm();
  const up = await c.request({ method: 'POST', path: '/api/uploads', headers: { cookie: admin, 'content-type': form.contentType }, body: form.body });
  const image = (json(up) as { imagePath: string }).imagePath;
  const bin = await c.json('POST', '/api/warehouse-bins', { name: `Bin ${name}`, description: 'replicas test' }, { cookie: admin });
  if (bin.status !== 201) throw new Error(`bin: ${bin.status} ${JSON.stringify(bin.body)}`);
  const binId = (bin.body as { bin: { id: string } }).bin.id;
  const created = await c.json('POST', '/api/products', { brand: 'Replica', name, description: 'replicas test', type: 'FOR_SALE', image, price, damageCharges: '0.00' }, { cookie: admin });
  if (created.status !== 201) throw new Error(`product: ${created.status} ${JSON.stringify(created.body)}`);
  const id = (created.body as { product: { id: string } }).product.id;
  for (let left = units; left > 0; left -= 500) {
    const s = await c.json('POST', '/api/stocks', { productID: id, warehouseBinID: binId, quantity: Math.min(500, left) }, { cookie: admin });
    if (s.status !== 201) throw new Error(`stock: ${s.status} ${JSON.stringify(s.body)}`);
  }
  return { id, units };
}

export interface Intent {
  /** The client's Idempotency-Key for the order; kept across retries. */
  key: string;
  customer: string;
  productId: string;
  quantity: number;
  /** May be refused for want of stock (the last units' race). */
  scarce: boolean;
}

export interface Outcome {
  intent: Intent;
  /** The order id from a 201 (first answer or a retry's stored one). */
  orderId?: string;
  /** 409 out of stock (scarce products only). */
  refused?: boolean;
  /** Where it stopped when it did not get through: the step and the last answer. */
  error?: string;
  /**
   * Keys left "being placed" for good: the replica working on the first attempt died after it
   * claimed the key and before the order was written. The customer then tries again with a new
   * key, as the shop does after a 4xx (mf-shop useCheckout); these keys must have no order.
   */
  abandonedKeys: string[];
  /** The same for the payment's confirmation (accounting confirms again with a new key). */
  abandonedPaymentKeys: string[];
  paid?: boolean;
  /** Placing took more than one attempt (some failed on the way). */
  retried?: boolean;
}

const body = (i: Intent) => ({
  type: 'BUY',
  typeOfOrder: 'BULK',
  lines: [{ productID: i.productId, quantity: i.quantity }],
  deliveryAddress: '12 Rizal St',
  deliveryCity: 'Makati',
  deliveryState: 'Metro Manila',
  deliveryZipcode: '121000',
  note: '',
});

const detailOf = (b: unknown) => (b && typeof b === 'object' ? String((b as { detail?: unknown }).detail ?? '') : '');

/**
 * One order from checkout to a taken payment: the customer places it (Idempotency-Key), the
 * warehouse confirms it (PENDING → FOR_PAYMENT), accounting waits until its payment can be marked
 * paid and confirms it (its own Idempotency-Key). Retries repeat the same request.
 */
export async function orderAndPay(c: Client, staff: Staff, intent: Intent, opts: { inProgressWaitMs?: number } = {}): Promise<Outcome> {
  const out: Outcome = { intent, abandonedKeys: [], abandonedPaymentKeys: [] };
  const seen = { failures: 0 };
  const inProgressWait = opts.inProgressWaitMs ?? 10_000;
  // 409 "already being placed": another replica may still be working on the first attempt.
  let inProgressUntil = Date.now() + inProgressWait;
  let placed: Awaited<ReturnType<Client['json']>>;
  for (;;) {
    placed = await c.json('POST', '/api/orders', body(intent), { cookie: intent.customer, 'idempotency-key': intent.key }, seen);
    if (placed.status === 409 && detailOf(placed.body) === ORDER_MESSAGES.idempotencyInProgress) {
      out.retried = true;
      if (Date.now() > inProgressUntil) {
        if (out.abandonedKeys.length >= 2) {
          out.error = `place: still "${ORDER_MESSAGES.idempotencyInProgress}" after ${inProgressWait} ms, with ${out.abandonedKeys.length + 1} keys`;
          return out;
        }
        out.abandonedKeys.push(intent.key);
        intent.key = randomUUID();
        inProgressUntil = Date.now() + inProgressWait;
        continue;
      }
      await sleep(500);
      continue;
    }
    break;
  }
  if (seen.failures > 0) out.retried = true;
  if (placed.status === 409 && intent.scarce) {
    out.refused = true;
    return out;
  }
  if (placed.status !== 201) {
    out.error = `place: ${placed.status} ${JSON.stringify(placed.body)}`;
    return out;
  }
  const orderId = (placed.body as { order: { id: string } }).order.id;
  out.orderId = orderId;

  const confirmed = await c.json('POST', `/api/orders/${orderId}/transitions`, { to: 'FOR_PAYMENT' }, { cookie: staff.warehouse });
  if (confirmed.status !== 200) {
    // A retry after the first attempt went through (its answer lost with its replica) is 409.
    const now = await c.json('GET', `/api/orders/${orderId}`, undefined, { cookie: staff.warehouse });
    const status = (now.body as { order?: { status: string } } | undefined)?.order?.status;
    if (confirmed.status !== 409 || status === 'PENDING') {
      out.error = `confirm: ${confirmed.status} ${JSON.stringify(confirmed.body)}; order is ${status}`;
      return out;
    }
  }

  let paymentId = '';
  const payableBy = Date.now() + 60_000;
  for (let wait = 100; ; wait = Math.min(1000, wait * 1.5)) {
    const p = await c.json('GET', `/api/orders/${orderId}/payment`, undefined, { cookie: staff.accounting });
    const pay = (p.body as { payment?: { id: string; nextAction: string | null; status: string } } | undefined)?.payment;
    if (p.status === 200 && pay?.nextAction === 'MARK_AS_PAID') {
      paymentId = pay.id;
      break;
    }
    if (p.status === 200 && pay?.status === 'PAID') {
      paymentId = pay.id;
      break;
    }
    if (Date.now() > payableBy) {
      out.error = `payment not payable within 60 s: ${p.status} ${JSON.stringify(p.body)}`;
      return out;
    }
    await sleep(wait);
  }
  let payKey = randomUUID();
  const payBody = { invoiceNumber: `INV-${intent.key.slice(0, 8)}`, receiptNumber: `OR-${intent.key.slice(0, 8)}`, note: '' };
  let payInProgressUntil = Date.now() + inProgressWait;
  for (;;) {
    const paid = await c.json('POST', `/api/payments/${paymentId}/confirm`, payBody, { cookie: staff.accounting, 'idempotency-key': payKey });
    if (paid.status === 409 && detailOf(paid.body) === PAYMENT_MESSAGES.idempotencyInProgress && out.abandonedPaymentKeys.length < 2) {
      if (Date.now() > payInProgressUntil) {
        out.abandonedPaymentKeys.push(payKey);
        payKey = randomUUID();
        payInProgressUntil = Date.now() + inProgressWait;
        continue;
      }
      await sleep(500);
      continue;
    }
    if (paid.status !== 200) {
      out.error = `pay: ${paid.status} ${JSON.stringify(paid.body)}`;
      return out;
    }
    break;
  }
  out.paid = true;
  return out;
}

/** Runs `work` over `items` with at most `concurrency` at once; results in item order. */
export async function pool<T, R>(items: T[], concurrency: number, work: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(concurrency, items.length) }, async () => {
      while (next < items.length) {
        const i = next++;
        results[i] = await work(items[i]!, i);
      }
    }),
  );
  return results;
}
