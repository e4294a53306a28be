/**
 * What must hold after a burst, read from the database and the NATS server themselves:
 *  - per order: one order per Idempotency-Key, one payment (PAID, one record), one confirmed
 *    reservation of the ordered quantity, one row in each read model that mirrors orders and
 *    payments (reporting's orders / lines / payments, the order service's order_payments);
 *  - stock: the ledger agrees with the reservations, and available − reserved = initial − what
 *    the orders took (never below zero, the scarce product never oversold);
 *  - events: every outbox row published, each exactly once on the stream (JetStream dedupe by
 *    message id), and every consumer's inbox holds exactly the events of its subjects; nothing
 *    pending, nothing dead-lettered.
 * Each function returns the problems found (empty when all holds), so a failure names them all.
 */
import pg from 'pg';
import { connect } from '@nats-io/transport-node';
import { jetstream, jetstreamManager } from '@nats-io/jetstream';
import type { Outcome } from './client';

const SCHEMAS = ['identity', 'catalog', 'ordering', 'payment', 'reporting'] as const;

/** Every durable consumer of the product: the schema of its inbox and the events it takes. */
export const CONSUMERS: Array<{ durable: string; schema: (typeof SCHEMAS)[number]; subjects: string }> = [
  { durable: 'catalog-orders', schema: 'catalog', subjects: 'dme.order.' },
  { durable: 'order-payment', schema: 'ordering', subjects: 'dme.payment.' },
  { durable: 'order-identity', schema: 'ordering', subjects: 'dme.identity.' },
  { durable: 'order-catalog', schema: 'ordering', subjects: 'dme.catalog.' },
  { durable: 'payment-orders', schema: 'payment', subjects: 'dme.order.' },
  { durable: 'reporting-catalog', schema: 'reporting', subjects: 'dme.catalog.' },
  { durable: 'reporting-orders', schema: 'reporting', subjects: 'dme.order.' },
  { durable: 'reporting-payments', schema: 'reporting', subjects: 'dme.payment.' },
  // Identity's messages to customers (issue 24): every order, payment, request and rental event, once.
  { durable: 'identity-mail-order', schema: 'identity', subjects: 'dme.order.' },
  { durable: 'identity-mail-payment', schema: 'identity', subjects: 'dme.payment.' },
  { durable: 'identity-mail-request', schema: 'identity', subjects: 'dme.request.' },
  { durable: 'identity-mail-rental', schema: 'identity', subjects: 'dme.rental.' },
  // A recall's customers (issue 26): every catalog event, once (only a recall sends a message).
  { durable: 'identity-mail-catalog', schema: 'identity', subjects: 'dme.catalog.' },
];

export interface Burst {
  outcomes: Outcome[];
  /** The test's products and the units each was stocked with. */
  products: Array<{ id: string; units: number; scarce: boolean }>;
  /** A process was killed: reservations it held for orders it never wrote may remain HELD (they lapse after the catalog's hold time). */
  killed: boolean;
}

async function withDb<T>(url: string, work: (c: pg.Client) => Promise<T>): Promise<T> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    return await work(c);
  } finally {
    await c.end();
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Orders of the burst still moving (events in flight), or events not yet consumed. */
async function unsettled(databaseUrl: string, nats: NatsTarget, orderIds: string[]): Promise<string[]> {
  const left = await withDb(databaseUrl, async (c) => {
    const out: string[] = [];
    const q = async (label: string, text: string, params: unknown[] = [orderIds]) => {
      const n = Number((await c.query<{ n: string }>(text, params)).rows[0]!.n);
      if (n > 0) out.push(`${n} ${label}`);
    };
    await q('orders not PREPARING', `select count(*) as n from ordering.orders where id = any($1) and status <> 'PREPARING'`);
    await q('orders missing from reporting', `select count(*) as n from unnest($1::uuid[]) i(id) where not exists (select 1 from reporting.orders r where r.id = i.id and r.status = 'PREPARING' and r.payment_status = 'PAID')`);
    await q('payments not mirrored', `select count(*) as n from unnest($1::uuid[]) i(id) where not exists (select 1 from ordering.order_payments p where p.order_id = i.id and p.status = 'PAID')`);
    for (const s of SCHEMAS) await q(`unpublished ${s} events`, `select count(*) as n from ${s}.outbox where published_at is null`, []);
    return out;
  });
  const state = await consumerState(nats);
  for (const c of state) if (c.pending + c.ackPending > 0) left.push(`${c.durable}: ${c.pending} pending, ${c.ackPending} unacknowledged`);
  return left;
}

export interface NatsTarget {
  url: string;
  prefix: string;
}

async function withNats<T>(t: NatsTarget, work: (nc: Awaited<ReturnType<typeof connect>>) => Promise<T>): Promise<T> {
  const nc = await connect({ servers: t.url, name: 'replicas-test' });
  try {
    return await work(nc);
  } finally {
    await nc.close();
  }
}

async function consumerState(t: NatsTarget): Promise<Array<{ durable: string; pending: number; ackPending: number }>> {
  return withNats(t, async (nc) => {
    const jsm = await jetstreamManager(nc);
    const out: Array<{ durable: string; pending: number; ackPending: number }> = [];
    for (const c of CONSUMERS) {
      try {
        const info = await jsm.consumers.info(`${t.prefix}_DME_EVENTS`, `${t.prefix}_${c.durable}`);
        out.push({ durable: c.durable, pending: info.num_pending, ackPending: info.num_ack_pending });
      } catch (err) {
        out.push({ durable: `${c.durable} (${(err as Error).message})`, pending: 1, ackPending: 0 });
      }
    }
    return out;
  });
}

/**
 * Waits until the burst's effects have all arrived (or the time is up). Returns what was still
 * missing at the end, and what was when the wait began.
 */
export async function settle(databaseUrl: string, nats: NatsTarget, orderIds: string[], timeoutMs: number): Promise<{ left: string[]; atFirst: string[] }> {
  const until = Date.now() + timeoutMs;
  let atFirst: string[] | undefined;
  for (;;) {
    const left = await unsettled(databaseUrl, nats, orderIds);
    atFirst ??= left;
    if (left.length === 0 || Date.now() > until) return { left, atFirst };
    await sleep(1000);
  }
}

/** Orders, payments, reservations, read models and stock of one burst. */
export async function checkBurst(databaseUrl: string, burst: Burst): Promise<string[]> {
  const problems: string[] = [];
  const placed = burst.outcomes.filter((o) => o.orderId);
  const orderIds = placed.map((o) => o.orderId!);
  const productIds = burst.products.map((p) => p.id);
  const keys = burst.outcomes.flatMap((o) => [o.intent.key, ...o.abandonedKeys]);
  if (new Set(orderIds).size !== orderIds.length) problems.push(`the client was given the same order for two keys`);

  await withDb(databaseUrl, async (c) => {
    const rows = async <R extends pg.QueryResultRow>(text: string, params: unknown[] = []) => (await c.query<R>(text, params)).rows;

    // One order per key: the orders holding the burst's products are exactly those the client got.
    const inDb = await rows<{ id: string; status: string }>(
      `select o.id, o.status from ordering.orders o where exists (select 1 from ordering.order_lines l where l.order_id = o.id and l.product_id = any($1))`,
      [productIds],
    );
    const known = new Set(orderIds);
    const extra = inDb.filter((o) => !known.has(o.id));
    if (extra.length) problems.push(`${extra.length} orders in the database the client was never answered with (a retry made a second order?): ${extra.slice(0, 5).map((o) => o.id).join(', ')}`);
    const present = new Set(inDb.map((o) => o.id));
    const missing = orderIds.filter((id) => !present.has(id));
    if (missing.length) problems.push(`${missing.length} orders answered 201 are not in the database: ${missing.slice(0, 5).join(', ')}`);
    const notPreparing = inDb.filter((o) => o.status !== 'PREPARING');
    if (notPreparing.length) problems.push(`${notPreparing.length} orders not PREPARING after payment: ${notPreparing.slice(0, 5).map((o) => `${o.id} ${o.status}`).join(', ')}`);

    const keyRows = await rows<{ key: string; state: string; status: number | null; order_id: string | null }>(
      `select key, state, response_status as status, response_body->'order'->>'id' as order_id from ordering.idempotency_keys where key = any($1)`,
      [keys],
    );
    const byKey = new Map(keyRows.map((k) => [k.key, k]));
    for (const o of placed) {
      const k = byKey.get(o.intent.key);
      if (!k || k.state !== 'DONE' || k.status !== 201 || k.order_id !== o.orderId) {
        problems.push(`key ${o.intent.key}: stored ${k ? `${k.state} ${k.status} ${k.order_id}` : 'nothing'}, the client got order ${o.orderId}`);
      }
    }
    // Keys given up on (their first attempt died with its replica) hold no order.
    const abandoned = burst.outcomes.flatMap((o) => o.abandonedKeys);
    if (abandoned.length) {
      const held = await rows<{ key: string; state: string; order_id: string | null }>(
        `select key, state, response_body->'order'->>'id' as order_id from ordering.idempotency_keys where key = any($1)`,
        [abandoned],
      );
      for (const k of held) if (k.state !== 'IN_PROGRESS' || k.order_id) problems.push(`abandoned key ${k.key}: ${k.state} ${k.order_id ?? ''} (the client was answered "being placed")`);
    }
    const abandonedPay = burst.outcomes.flatMap((o) => o.abandonedPaymentKeys);
    if (abandonedPay.length) {
      const held = await rows<{ key: string; state: string }>(`select key, state from payment.idempotency_keys where key = any($1)`, [abandonedPay]);
      for (const k of held) if (k.state !== 'IN_PROGRESS') problems.push(`abandoned payment key ${k.key}: ${k.state} (the client was answered "being confirmed")`);
    }
    const ordersOfKeys = keyRows.filter((k) => k.order_id).map((k) => k.order_id!);
    if (new Set(ordersOfKeys).size !== ordersOfKeys.length) problems.push('two keys stored the same order');

    // One payment per order, paid once; its mirror in the order service.
    const payments = await rows<{ order_id: string; n: string; status: string; records: string }>(
      `select p.order_id, count(*) over (partition by p.order_id) as n, p.status, (select count(*) from payment.payment_records r where r.payment_id = p.id) as records
         from payment.payments p where p.order_id = any($1)`,
      [orderIds],
    );
    const payOf = new Map(payments.map((p) => [p.order_id, p]));
    const mirrored = new Map((await rows<{ order_id: string; status: string; records: string }>(
      `select p.order_id, p.status, (select count(*) from ordering.order_payment_records r where r.order_id = p.order_id) as records from ordering.order_payments p where p.order_id = any($1)`,
      [orderIds],
    )).map((p) => [p.order_id, p]));
    // Reporting's read model: the order, its line, its payment.
    const reported = new Map((await rows<{ id: string; status: string; payment_status: string; lines: string; payments: string }>(
      `select o.id, o.status, o.payment_status, (select count(*) from reporting.order_lines l where l.order_id = o.id) as lines,
              (select count(*) from reporting.payments p where p.order_id = o.id) as payments
         from reporting.orders o where o.id = any($1)`,
      [orderIds],
    )).map((r) => [r.id, r]));
    // Reservations of the burst's products, by order.
    const reservations = await rows<{ order_id: string; product_id: string; quantity: number; status: string }>(
      `select order_id, product_id, quantity, status from catalog.reservations where product_id = any($1)`,
      [productIds],
    );
    const resOf = new Map<string, typeof reservations>();
    for (const r of reservations) resOf.set(r.order_id, [...(resOf.get(r.order_id) ?? []), r]);

    const bad = { payment: [] as string[], mirror: [] as string[], report: [] as string[], reservation: [] as string[] };
    for (const o of placed) {
      const id = o.orderId!;
      const p = payOf.get(id);
      if (!p || p.n !== '1' || p.status !== 'PAID' || p.records !== '1') bad.payment.push(`${id}: ${p ? `${p.n} payments, ${p.status}, ${p.records} records` : 'no payment'}`);
      const m = mirrored.get(id);
      if (!m || m.status !== 'PAID' || m.records !== '1') bad.mirror.push(`${id}: ${m ? `${m.status}, ${m.records} records` : 'none'}`);
      const r = reported.get(id);
      if (!r || r.status !== 'PREPARING' || r.payment_status !== 'PAID' || r.lines !== '1' || r.payments !== '1') {
        bad.report.push(`${id}: ${r ? `${r.status}/${r.payment_status}, ${r.lines} lines, ${r.payments} payments` : 'no row'}`);
      }
      const res = resOf.get(id) ?? [];
      const active = res.filter((x) => x.status === 'CONFIRMED' || x.status === 'HELD');
      if (active.length !== 1 || active[0]!.status !== 'CONFIRMED' || active[0]!.quantity !== o.intent.quantity || active[0]!.product_id !== o.intent.productId) {
        bad.reservation.push(`${id}: ${res.map((x) => `${x.status} ${x.quantity}`).join(', ') || 'none'} (ordered ${o.intent.quantity})`);
      }
    }
    const report = (what: string, list: string[]) => {
      if (list.length) problems.push(`${list.length} orders without exactly one ${what}: ${list.slice(0, 5).join('; ')}`);
    };
    report('paid payment with one record (payment service)', bad.payment);
    report('paid payment in the order service', bad.mirror);
    report('row in reporting (PREPARING / PAID, one line, one payment)', bad.report);
    report('confirmed reservation of the ordered quantity', bad.reservation);

    // Reservations for orders that do not exist: given back, or (only after a kill) still held.
    const orphans = reservations.filter((r) => !known.has(r.order_id) && (r.status === 'CONFIRMED' || r.status === 'HELD'));
    const badOrphans = orphans.filter((r) => r.status === 'CONFIRMED' || !burst.killed);
    if (badOrphans.length) problems.push(`${badOrphans.length} active reservations for orders that do not exist: ${badOrphans.slice(0, 5).map((r) => `${r.order_id} ${r.status}`).join(', ')}`);

    // Stock: the ledger, and what the orders took.
    for (const p of burst.products) {
      const [level] = await rows<{ quantity: number; available: number; reserved: number }>(
        `select quantity, available, reserved from catalog.stock_levels where leaf_id = $1`,
        [p.id],
      );
      const took = placed.filter((o) => o.intent.productId === p.id).reduce((a, o) => a + o.intent.quantity, 0);
      const held = orphans.filter((r) => r.product_id === p.id).reduce((a, r) => a + r.quantity, 0);
      const active = reservations.filter((r) => r.product_id === p.id && (r.status === 'CONFIRMED' || r.status === 'HELD')).reduce((a, r) => a + r.quantity, 0);
      if (!level) {
        problems.push(`product ${p.id}: no stock level row`);
        continue;
      }
      if (level.quantity !== p.units || level.available !== p.units) problems.push(`product ${p.id}: ${level.quantity} items / ${level.available} available, stocked ${p.units} (nothing was packed)`);
      if (level.reserved !== active) problems.push(`product ${p.id}: ledger says ${level.reserved} reserved, active reservations hold ${active}`);
      if (level.reserved !== took + held) problems.push(`product ${p.id}: ${level.reserved} reserved, orders took ${took} (+ ${held} held for orders never written)`);
      if (level.available - level.reserved < 0) problems.push(`product ${p.id}: oversold, ${level.available - level.reserved} left`);
      const refused = burst.outcomes.filter((o) => o.refused && o.intent.productId === p.id).length;
      if (refused > 0 && level.available - level.reserved !== 0) problems.push(`product ${p.id}: ${refused} orders refused for want of stock while ${level.available - level.reserved} units were left`);
      if (!p.scarce && refused > 0) problems.push(`product ${p.id}: ${refused} orders refused though it had stock for all`);
    }
  });
  return problems;
}

/**
 * The events of the whole run: every outbox row published, each once on the stream, each
 * consumer's inbox exactly the events of its subjects, nothing pending or dead-lettered.
 */
export async function checkEvents(databaseUrl: string, nats: NatsTarget): Promise<{ problems: string[]; events: number }> {
  const problems: string[] = [];
  const outbox = await withDb(databaseUrl, async (c) => {
    const all: Array<{ id: string; subject: string; published: boolean }> = [];
    for (const s of SCHEMAS) {
      all.push(...(await c.query<{ id: string; subject: string; published: boolean }>(`select id, subject, published_at is not null as published from ${s}.outbox`)).rows);
    }
    const inbox = (await c.query<{ consumer: string; ids: string[] }>(
      SCHEMAS.map((s) => `select consumer, array_agg(event_id::text) as ids from ${s}.inbox group by consumer`).join(' union all '),
    )).rows;
    return { all, inbox };
  });
  const unpublished = outbox.all.filter((r) => !r.published);
  if (unpublished.length) problems.push(`${unpublished.length} outbox rows never published: ${unpublished.slice(0, 5).map((r) => `${r.subject} ${r.id}`).join(', ')}`);
  const outboxIds = new Set(outbox.all.map((r) => r.id));
  if (outboxIds.size !== outbox.all.length) problems.push('an event id appears in two outboxes');

  // The stream: read every message back (an ordered consumer) and compare message ids.
  const onStream = await withNats(nats, async (nc) => {
    const jsm = await jetstreamManager(nc);
    const stream = `${nats.prefix}_DME_EVENTS`;
    const info = await jsm.streams.info(stream);
    const ids: string[] = [];
    if (info.state.messages > 0) {
      const consumer = await jetstream(nc).consumers.get(stream);
      const messages = await consumer.consume();
      for await (const m of messages) {
        ids.push(m.headers?.get('Nats-Msg-Id') ?? `(no id: seq ${m.seq})`);
        if (m.seq >= info.state.last_seq) break;
      }
    }
    let deadLetters = 0;
    try {
      deadLetters = (await jsm.streams.info(`${nats.prefix}_DME_DEAD_LETTERS`)).state.messages;
    } catch {
      /* no dead-letter stream: nothing was dead-lettered */
    }
    return { ids, messages: info.state.messages, deadLetters };
  });
  if (onStream.deadLetters > 0) problems.push(`${onStream.deadLetters} events dead-lettered`);
  const streamIds = new Set(onStream.ids);
  if (streamIds.size !== onStream.ids.length) problems.push(`${onStream.ids.length - streamIds.size} events stored twice on the stream (dedupe by message id failed)`);
  const notOnStream = [...outboxIds].filter((id) => !streamIds.has(id));
  if (notOnStream.length) problems.push(`${notOnStream.length} published events are not on the stream`);
  const strangers = [...streamIds].filter((id) => !outboxIds.has(id));
  if (strangers.length) problems.push(`${strangers.length} messages on the stream are in no outbox`);

  // Every consumer handled exactly its subjects' events, each once (the inbox key is consumer + event).
  const inboxOf = new Map(outbox.inbox.map((r) => [r.consumer, r.ids]));
  for (const name of inboxOf.keys()) if (!CONSUMERS.some((c) => c.durable === name)) problems.push(`an inbox holds events of a consumer this test does not know: ${name}`);
  for (const c of CONSUMERS) {
    const want = new Set(outbox.all.filter((r) => r.subject.startsWith(c.subjects)).map((r) => r.id));
    const got = inboxOf.get(c.durable) ?? [];
    const gotSet = new Set(got);
    const lost = [...want].filter((id) => !gotSet.has(id));
    const foreign = got.filter((id) => !want.has(id));
    if (lost.length) problems.push(`${c.durable}: ${lost.length} of ${want.size} events of ${c.subjects}> never handled`);
    if (foreign.length) problems.push(`${c.durable}: handled ${foreign.length} events that are not of ${c.subjects}>`);
  }
  for (const c of await consumerState(nats)) if (c.pending + c.ackPending > 0) problems.push(`${c.durable}: ${c.pending} pending, ${c.ackPending} unacknowledged`);
  return { problems, events: outbox.all.length };
}
