import type { EntityManager } from '@mikro-orm/postgresql';
import { productTypeFor, type ReserveLineReply } from '@dme/contracts';
import { MicroBatcher, NEW_ID_SQL, qualified, sql, type Db } from '@dme/platform';
import { bookRentalOrders } from '../bookings/book-rentals';
import { batchKeys, batchLeavesSql, HOLD_MINUTES, outcomeOf, requestsSql, resolvedLinesSql, type BatchRow, type Reserve, type ReserveOutcome } from './lines';

export { HOLD_MINUTES, type ReserveOutcome };


/**
 * Reserves stock for several orders, each all or nothing (DESIGN §5), in the order given, and
 * returns each order's price snapshot per line or its problem. An order asked again (a retry)
 * gets the same lines and nothing more reserved.
 *
 * One statement, one round trip, one transaction for all of them: every line resolved to its leaf (product, variant or sub-variant: the same checks and
 * 400 messages as the product tree gives) with names and prices; the leaves' ledger rows locked
 * at once in leaf-id order (release and expiry lock them in the same order, so no deadlock) and
 * what each has free read (`available - reserved`, the latest committed value once the lock is
 * held); the orders then taken one after another against what is still free, one HELD row per
 * order and leaf written, and `reserved` raised by what was written. No advisory lock, no
 * counting of items. An order short of a leaf answers 409 naming the line; it holds nothing. The
 * unique index on active (order, leaf) rows keeps a concurrent retry from reserving twice.
 */
export async function reserveOrders(db: EntityManager, inputs: Reserve[]): Promise<ReserveOutcome[]> {
  // Rentals book units for their dates (issue 25); purchases take from the counts, below.
  const rentals = inputs.map((input, i) => ({ input, i })).filter((x) => x.input.orderType === 'RENT');
  if (rentals.length > 0) {
    const purchases = inputs.map((input, i) => ({ input, i })).filter((x) => x.input.orderType !== 'RENT');
    const out: ReserveOutcome[] = new Array(inputs.length);
    const booked = await bookRentalOrders(db, rentals.map((r) => r.input));
    rentals.forEach((r, k) => (out[r.i] = booked[k]!));
    if (purchases.length > 0) {
      const taken = await reservePurchases(db, purchases.map((p) => p.input));
      purchases.forEach((p, k) => (out[p.i] = taken[k]!));
    }
    return out;
  }
  return reservePurchases(db, inputs);
}

/** reserveOrders for purchases: one statement (see reserveOrdersSql). */
async function reservePurchases(db: Db, inputs: Reserve[]): Promise<ReserveOutcome[]> {
  const rows = await sql<BatchRow>(db, ...reservePurchasesStatement(db, inputs));
  const byReq = new Map<number, BatchRow[]>();
  for (const r of rows) {
    const list = byReq.get(r.req);
    if (list) list.push(r);
    else byReq.set(r.req, [r]);
  }
  return inputs.map((_, req) => outcomeOf(byReq.get(req) ?? []));
}

/** The statement that reserves a batch of purchases, with its parameters (its plan is tested: plans.test.ts). */
export function reservePurchasesStatement(db: Db, inputs: Reserve[]): [string, unknown[]] {
  const requests = inputs.map((input, req) => ({
    req,
    order_id: input.orderId,
    wanted: productTypeFor(input.orderType),
    lines: input.lines.map((l, ord) => ({
      ord,
      ref: l.ref,
      product_id: l.productID,
      variant_id: l.productVariantID ?? null,
      sub_variant_id: l.productSubVariantID ?? null,
      quantity: l.quantity,
    })),
  }));
  const expires = new Date(Date.now() + HOLD_MINUTES * 60_000);
  return [reserveOrdersSql(db), [JSON.stringify(requests), expires, ...batchKeys(inputs)]];
}

/** The recursive step of reserveOrdersSql: the requests taken one after another (see there). */
function allocSql(freeOf: (free: string, leaf: string) => string): string {
  return `alloc (req, free, held, outcome, short) as (
       select -1, coalesce((select jsonb_object_agg(leaf_id, free) from locked), '{}'::jsonb), '{}'::uuid[], null::text, null::jsonb
       union all
       select r.req,
              case when o.outcome = 'held' then c.after else a.free end,
              case when o.outcome = 'held' then a.held || r.order_id else a.held end,
              o.outcome,
              case when o.outcome = 'short' then c.gap end
         from alloc a
         join requests r on r.req = a.req + 1
         cross join lateral (
           select coalesce(bool_and(${freeOf('a.free', 'n.leaf_id')} >= n.q), false) as fits,
                  a.free || coalesce(jsonb_object_agg(n.leaf_id, ${freeOf('a.free', 'n.leaf_id')} - n.q), '{}'::jsonb) as after,
                  (select jsonb_build_object('leaf_id', g.leaf_id, 'quantity', g.q, 'free', ${freeOf('a.free', 'g.leaf_id')})
                     from needs g where g.req = r.req and ${freeOf('a.free', 'g.leaf_id')} < g.q order by g.leaf_id limit 1) as gap
             from needs n where n.req = r.req
         ) c
         cross join lateral (
           select case
                    when r.bad then 'error'
                    when r.retry or r.order_id = any(a.held) then 'retry'
                    when c.fits then 'held'
                    else 'short'
                  end as outcome
         ) o`;
}

/**
 * The statement of reserveOrders(). $1: the requests, numbered 0, 1, ... in the order they came,
 * each with its order id, the product type it may hold and its lines; $2: when held units lapse;
 * $3-$6: the keys the batch names (batchKeys), so its rows are read by key.
 *
 * `alloc` walks the requests in that order (a recursive step per request), carrying what each
 * locked leaf still has free and which orders already hold: a request with a bad line is an
 * 'error', one whose order holds reservations already is a 'retry', one whose leaves all have
 * enough is 'held' (and takes its units off), else 'short' (naming its first leaf, in leaf-id
 * order, that has too few).
 */
function reserveOrdersSql(db: Db): string {
  const t = (name: string) => qualified(db, name);
  const freeOf = (free: string, leaf: string) => `coalesce((${free} ->> ${leaf}::text)::int, 0)`;
  return `with recursive ${resolvedLinesSql(t, 3)}
     ), ${requestsSql(t, 3)}
     ), needs as materialized (
       select x.req, x.leaf_id, x.product_id, x.variant_id, x.sub_variant_id, sum(x.quantity)::int as q
         from resolved x join requests r on r.req = x.req and not r.bad
        group by x.req, x.leaf_id, x.product_id, x.variant_id, x.sub_variant_id
     ), locked as materialized (
       select l.leaf_id, l.available - l.reserved as free
         from ${t('stock_levels')} l
        where l.leaf_id in (select n.leaf_id from needs n join requests r on r.req = n.req and not r.retry) and l.leaf_id = any(${batchLeavesSql(3)})
        order by l.leaf_id for update
     ), ${allocSql(freeOf)}
     ), decided as (
       select a.req, r.order_id, a.outcome, a.short from alloc a join requests r on r.req = a.req
     ), written as (
       insert into ${t('reservations')} (id, order_id, product_id, variant_id, sub_variant_id, leaf_id, quantity, status, expires_at)
       select ${NEW_ID_SQL}, d.order_id, n.product_id, n.variant_id, n.sub_variant_id, n.leaf_id, n.q, 'HELD', $2::timestamptz
         from needs n join decided d on d.req = n.req and d.outcome = 'held'
        order by n.leaf_id
       on conflict (order_id, leaf_id) where status in ('HELD','CONFIRMED') do nothing
       returning leaf_id, quantity
     ), taken as (
       -- Runs although nothing reads it (PostgreSQL runs every data-modifying CTE), after written.
       update ${t('stock_levels')} l set reserved = l.reserved + w.q
         from (select leaf_id, sum(quantity)::int as q from written group by leaf_id) w
        where l.leaf_id = w.leaf_id
     )
     select x.req, x.ord, x.ref, x.quantity, x.error, x.product_id, x.variant_id, x.sub_variant_id, x.leaf_id,
            x.name, x.image, x.type, x.price, x.damage_charges, x.rental_terms, x.variant_name, x.variant_price, x.variant_damage,
            x.sub_name, x.sub_price, x.sub_damage, d.outcome, d.short
       from resolved x join decided d on d.req = x.req
      order by x.req, x.ord`;
}

/** Reserves stock for one order (see reserveOrders); its problem is thrown. */
export async function reserve(db: EntityManager, input: Reserve): Promise<{ lines: ReserveLineReply[] }> {
  const [outcome] = await reserveOrders(db, [input]);
  if ('problem' in outcome!) throw outcome.problem;
  return outcome!;
}

/**
 * The checkouts waiting for a reservation, taken together (MicroBatcher): while one batch is in
 * the database, the requests that arrive wait and go as the next batch, so under load a hot item's
 * ledger row is locked and committed once per batch instead of once per order, and the database
 * does one statement for many orders. Orders keep the order they arrived in; a batch that fails as
 * a whole is tried again order by order.
 */
export function reservationBatcher(em: EntityManager, maxBatch = 64): (input: Reserve) => Promise<{ lines: ReserveLineReply[] }> {
  const batcher = new MicroBatcher<Reserve, { lines: ReserveLineReply[] }>(
    async (inputs) => (await reserveOrders(em.fork(), inputs)).map((o) => ('problem' in o ? { ok: false, error: o.problem } : { ok: true, value: o })),
    { maxBatch },
  );
  return (input) => batcher.add(input);
}

/**
 * Gives back what the reservation rows picked by `where` hold, moving them to `status`, in one
 * statement: the rows are locked in id order and only rows still active are changed (so a second
 * release gives back nothing), and each leaf's `reserved` goes down by exactly what was changed,
 * with the leaves locked in id order as reserve() takes them. One statement however many orders
 * it covers, so the leaves of all of them are locked in one sweep, in order (two statements in
 * one transaction could each hold a leaf the other's reserve waits for).
 */
async function giveBack(em: Db, status: 'RELEASED' | 'EXPIRED', where: string, params: unknown[]): Promise<number> {
  const reservations = qualified(em, 'reservations');
  const levels = qualified(em, 'stock_levels');
  const [row] = await sql<{ n: number }>(
    em,
    `with picked as materialized (
       select id from ${reservations} where ${where} order by id for update
     ), changed as (
       update ${reservations} r set status = '${status}', updated_at = now() from picked where r.id = picked.id
       returning r.leaf_id, r.quantity, r.dated, r.order_id
     ), per_leaf as (
       -- A rental's (dated) rows hold units by their bookings, not by the count.
       select leaf_id, sum(quantity)::int as quantity from changed where not dated group by leaf_id
     ), unbooked as (
       update ${qualified(em, 'bookings')} b set status = 'CANCELLED', updated_at = now()
        where b.order_id in (select order_id from changed where dated) and b.status in ('ACTIVE') and b.kind = 'RENTAL'
          and b.leaf_id in (select leaf_id from changed where dated)
     ), locked as materialized (
       select leaf_id from ${levels} where leaf_id in (select leaf_id from per_leaf) order by leaf_id for update
     ), returned as (
       update ${levels} l set reserved = l.reserved - pl.quantity from per_leaf pl, locked k
        where l.leaf_id = pl.leaf_id and k.leaf_id = pl.leaf_id
     )
     select count(*)::int as n from changed`,
    params,
  );
  return row?.n ?? 0;
}

/** The orders were committed: their reservations no longer lapse. Returns how many rows changed. */
export async function confirmOrders(em: Db, orderIds: string[]): Promise<number> {
  if (orderIds.length === 0) return 0;
  const reservations = qualified(em, 'reservations');
  const [row] = await sql<{ n: number }>(
    em,
    `with picked as materialized (
       select id from ${reservations} where order_id = any($1::uuid[]) and status = 'HELD' order by id for update
     ), changed as (
       update ${reservations} r set status = 'CONFIRMED', expires_at = null, updated_at = now() from picked where r.id = picked.id returning 1
     )
     select count(*)::int as n from changed`,
    [orderIds],
  );
  return row?.n ?? 0;
}

/** The order was committed: its reservations no longer lapse. */
export function confirm(em: EntityManager, orderId: string): Promise<number> {
  return confirmOrders(em, [orderId]);
}

/** The orders were cancelled (or never committed): their stock is free again. Safe to repeat. */
export function releaseOrders(em: Db, orderIds: string[]): Promise<number> {
  if (orderIds.length === 0) return Promise.resolve(0);
  return giveBack(em, 'RELEASED', `order_id = any($1::uuid[]) and status in ('HELD','CONFIRMED')`, [orderIds]);
}

/** The order was cancelled (or never committed): its stock is free again. Safe to repeat. */
export function release(em: EntityManager, orderId: string): Promise<number> {
  return releaseOrders(em, [orderId]);
}

/** Reservations whose order never arrived lapse after HOLD_MINUTES. */
export function expireHeld(em: EntityManager): Promise<number> {
  return giveBack(em, 'EXPIRED', `status = 'HELD' and expires_at < now()`, []);
}
