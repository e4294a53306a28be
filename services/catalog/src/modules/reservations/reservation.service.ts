import type { EntityManager } from '@mikro-orm/postgresql';
import { centsToString, levelDamageCharges, levelPrice, ORDER_MESSAGES, toCents, type ReserveLineReply, type ReserveRequest as ReserveSchema } from '@dme/contracts';
import { badRequest, conflict, MicroBatcher, qualified, sql, type Db, type HttpProblem } from '@dme/platform';
import type { z } from 'zod';

type Reserve = z.output<typeof ReserveSchema>;

/** How long a reservation waits for its order to be committed before it lapses. */
export const HOLD_MINUTES = 15;

const money = (v: string) => centsToString(toCents(String(v)));

/** Why a line cannot be ordered, as the SQL below names it. */
const LINE_ERRORS = {
  unknownProduct: ORDER_MESSAGES.unknownProduct,
  wrongType: ORDER_MESSAGES.wrongType,
  chooseVariant: ORDER_MESSAGES.chooseVariant,
  chooseSubVariant: ORDER_MESSAGES.chooseSubVariant,
} as const;

/** One line of the order resolved to its leaf, with its names and prices (or why it cannot be). */
interface LineRow {
  ref: number;
  quantity: number;
  error: keyof typeof LINE_ERRORS | null;
  product_id: string | null;
  variant_id: string | null;
  sub_variant_id: string | null;
  leaf_id: string | null;
  name: string | null;
  image: string | null;
  type: 'FOR_RENT' | 'FOR_SALE' | null;
  price: string | null;
  damage_charges: string | null;
  variant_name: string | null;
  variant_price: string | null;
  variant_damage: string | null;
  sub_name: string | null;
  sub_price: string | null;
  sub_damage: string | null;
}

/** The levels a line resolved to (its variant and sub-variant, when it has them), with their own prices. */
function levelsOf(r: LineRow) {
  return {
    product: { price: r.price!, damageCharges: r.damage_charges! },
    variant: r.variant_id === null ? null : { price: r.variant_price, damageCharges: r.variant_damage },
    sub: r.sub_variant_id === null ? null : { price: r.sub_price, damageCharges: r.sub_damage },
  };
}

function replyOf(r: LineRow): ReserveLineReply {
  const sub = r.sub_variant_id !== null;
  const { product, variant, sub: subLevel } = levelsOf(r);
  return {
    ref: r.ref,
    productName: r.name!,
    productImage: r.image!,
    productType: r.type!,
    variantName: r.variant_name,
    variantPrice: r.variant_price == null ? null : money(r.variant_price),
    subVariantName: sub ? r.sub_name : null,
    subVariantPrice: sub ? money(r.sub_price!) : null,
    // The chosen level's price and fee: the one rule (levelPrice), over the columns read as they are.
    unitPrice: money(levelPrice(product, variant, subLevel)),
    damageCharges: money(levelDamageCharges(product, variant, subLevel)),
  };
}

/** A line as the statement of reserveOrders() answers it: the resolved line, and the outcome of its order. */
interface BatchRow extends LineRow {
  req: number;
  ord: number;
  outcome: 'error' | 'retry' | 'held' | 'short';
  /** The leaf an order was short of (the first in leaf-id order), what it asked and what was free. */
  short: { leaf_id: string; quantity: number; free: number } | null;
}

/** What one order gets: its lines with their prices, or the problem to answer. */
export type ReserveOutcome = { lines: ReserveLineReply[] } | { problem: HttpProblem };

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
export async function reserveOrders(db: Db, inputs: Reserve[]): Promise<ReserveOutcome[]> {
  const requests = inputs.map((input, req) => ({
    req,
    order_id: input.orderId,
    wanted: input.orderType === 'RENT' ? 'FOR_RENT' : 'FOR_SALE',
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
  const rows = await sql<BatchRow>(db, reserveOrdersSql(db), [JSON.stringify(requests), expires]);
  const byReq = new Map<number, BatchRow[]>();
  for (const r of rows) {
    const list = byReq.get(r.req);
    if (list) list.push(r);
    else byReq.set(r.req, [r]);
  }
  return inputs.map((_, req) => outcomeOf(byReq.get(req) ?? []));
}

/**
 * The lines asked ($1) resolved to their leaf against the product tree: names, the prices of each
 * level (as stored; replyOf picks the level's price by levelPrice), and why a line cannot be.
 */
function resolvedLinesSql(t: (name: string) => string): string {
  return `asked as materialized (
       select r.req, r.wanted, l.ord, l.ref, l.product_id, l.variant_id, l.sub_variant_id, l.quantity
         from jsonb_to_recordset($1::jsonb) as r(req int, order_id uuid, wanted text, lines jsonb),
              jsonb_to_recordset(r.lines) as l(ord int, ref int, product_id uuid, variant_id uuid, sub_variant_id uuid, quantity int)
     ), resolved as materialized (
       select i.req, i.ord, i.ref, i.quantity,
              p.id as product_id, v.id as variant_id, s.id as sub_variant_id, coalesce(s.id, v.id, p.id) as leaf_id,
              p.name, p.image, p.type, p.price, p.damage_charges,
              v.name as variant_name, v.price as variant_price, v.damage_charges as variant_damage,
              s.name as sub_name, s.price as sub_price, s.damage_charges as sub_damage,
              case
                when p.id is null then 'unknownProduct'
                when p.type <> i.wanted then 'wrongType'
                when exists (select 1 from ${t('variants')} pv where pv.product_id = p.id) then
                  case
                    when v.id is null then 'chooseVariant'
                    when exists (select 1 from ${t('sub_variants')} vs where vs.variant_id = v.id) then
                      case when s.id is null then 'chooseSubVariant' end
                    when i.sub_variant_id is not null then 'chooseVariant'
                  end
                when i.variant_id is not null or i.sub_variant_id is not null then 'unknownProduct'
              end as error
         from asked i
         left join ${t('products')} p on p.id = i.product_id and p.archived_at is null
         left join ${t('variants')} v on v.id = i.variant_id and v.product_id = p.id
         left join ${t('sub_variants')} s on s.id = i.sub_variant_id and s.variant_id = v.id`;
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
 * each with its order id, the product type it may hold and its lines; $2: when held units lapse.
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
  return `with recursive ${resolvedLinesSql(t)}
     ), requests as materialized (
       select r.req, r.order_id,
              exists (select 1 from resolved x where x.req = r.req and x.error is not null) as bad,
              exists (select 1 from ${t('reservations')} h where h.order_id = r.order_id and h.status in ('HELD','CONFIRMED')) as retry
         from jsonb_to_recordset($1::jsonb) as r(req int, order_id uuid)
     ), needs as materialized (
       select x.req, x.leaf_id, x.product_id, x.variant_id, x.sub_variant_id, sum(x.quantity)::int as q
         from resolved x join requests r on r.req = x.req and not r.bad
        group by x.req, x.leaf_id, x.product_id, x.variant_id, x.sub_variant_id
     ), locked as materialized (
       select l.leaf_id, l.available - l.reserved as free
         from ${t('stock_levels')} l
        where l.leaf_id in (select n.leaf_id from needs n join requests r on r.req = n.req and not r.retry)
        order by l.leaf_id for update
     ), ${allocSql(freeOf)}
     ), decided as (
       select a.req, r.order_id, a.outcome, a.short from alloc a join requests r on r.req = a.req
     ), written as (
       insert into ${t('reservations')} (id, order_id, product_id, variant_id, sub_variant_id, leaf_id, quantity, status, expires_at)
       select gen_random_uuid(), d.order_id, n.product_id, n.variant_id, n.sub_variant_id, n.leaf_id, n.q, 'HELD', $2::timestamptz
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
            x.name, x.image, x.type, x.price, x.damage_charges, x.variant_name, x.variant_price, x.variant_damage,
            x.sub_name, x.sub_price, x.sub_damage, d.outcome, d.short
       from resolved x join decided d on d.req = x.req
      order by x.req, x.ord`;
}

function outcomeOf(rows: BatchRow[]): ReserveOutcome {
  const bad = rows.find((r) => r.error);
  if (bad) {
    const message = LINE_ERRORS[bad.error!];
    return { problem: badRequest(message, [{ field: `lines.${bad.ref}`, message }]) };
  }
  const outcome = rows[0]?.outcome;
  if (outcome === 'short') {
    const short = rows[0]!.short!;
    const r = replyOf(rows.find((x) => x.leaf_id === short.leaf_id)!);
    const what = [r.productName, r.variantName, r.subVariantName].filter(Boolean).join(' / ');
    const detail = short.free <= 0 ? `${what} is sold out.` : `Only ${short.free} of ${what} left; you asked for ${short.quantity}.`;
    return { problem: conflict(`${detail} ${ORDER_MESSAGES.maxStock}`) };
  }
  if (outcome !== 'held' && outcome !== 'retry') throw new Error(`reserveOrders: no outcome for an order (${String(outcome)})`);
  return { lines: rows.map(replyOf) };
}

/** Reserves stock for one order (see reserveOrders); its problem is thrown. */
export async function reserve(db: Db, input: Reserve): Promise<{ lines: ReserveLineReply[] }> {
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
       returning r.leaf_id, r.quantity
     ), per_leaf as (
       select leaf_id, sum(quantity)::int as quantity from changed group by leaf_id
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
