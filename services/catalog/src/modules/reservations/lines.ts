import { centsToString, type RentalTermsWire, levelDamageCharges, levelPrice, ORDER_MESSAGES, toCents, type ReserveLineReply, type ReserveRequest as ReserveSchema } from '@dme/contracts';
import { badRequest, conflict, type HttpProblem } from '@dme/platform';
import type { z } from 'zod';

/**
 * The lines of a reservation resolved against the product tree, and what an order is answered:
 * shared by purchases (reservation.service, counts) and rentals (bookings/book-rentals, units).
 */

export type Reserve = z.output<typeof ReserveSchema>;

/** How long a reservation waits for its order to be committed before it lapses. */
export const HOLD_MINUTES = 15;

const money = (v: string) => centsToString(toCents(String(v)));

/** Why a line cannot be ordered, as the SQL below names it. */
export const LINE_ERRORS = {
  unknownProduct: ORDER_MESSAGES.unknownProduct,
  wrongType: ORDER_MESSAGES.wrongType,
  chooseVariant: ORDER_MESSAGES.chooseVariant,
  chooseSubVariant: ORDER_MESSAGES.chooseSubVariant,
} as const;

/** One line of the order resolved to its leaf, with its names and prices (or why it cannot be). */
export interface LineRow {
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
  /** The product's rental money terms (issue 29), wire form; null: none. */
  rental_terms: RentalTermsWire | null;
  variant_name: string | null;
  variant_price: string | null;
  variant_damage: string | null;
  sub_name: string | null;
  sub_price: string | null;
  sub_damage: string | null;
}

/** The name of a line as refusals name it ("Wheelchair / Standard / 18 in"). */
export function nameOf(r: LineRow): string {
  return [r.name, r.variant_name, r.sub_variant_id !== null ? r.sub_name : null].filter(Boolean).join(' / ');
}

/** The levels a line resolved to (its variant and sub-variant, when it has them), with their own prices. */
export function levelsOf(r: LineRow) {
  return {
    product: { price: r.price!, damageCharges: r.damage_charges! },
    variant: r.variant_id === null ? null : { price: r.variant_price, damageCharges: r.variant_damage },
    sub: r.sub_variant_id === null ? null : { price: r.sub_price, damageCharges: r.sub_damage },
  };
}

export function replyOf(r: LineRow): ReserveLineReply {
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
    rentalTerms: r.type === 'FOR_RENT' ? (r.rental_terms ?? null) : null,
  };
}

/** A line as the statement of reserveOrders() answers it: the resolved line, and the outcome of its order. */
export interface BatchRow extends LineRow {
  req: number;
  ord: number;
  outcome: 'error' | 'retry' | 'held' | 'short';
  /** The leaf an order was short of (the first in leaf-id order), what it asked and what was free. */
  short: { leaf_id: string; quantity: number; free: number } | null;
}

/** What one order gets: its lines with their prices, or the problem to answer. */
export type ReserveOutcome = { lines: ReserveLineReply[] } | { problem: HttpProblem };

/**
 * The keys a batch names, each kind as an array: products, variants, sub-variants, orders. They
 * go beside the batch's JSON as parameters ($k..$k+3, `keys` in resolvedLinesSql and requestsSql)
 * so the tables are read by key: PostgreSQL guesses every `jsonb_to_recordset` at 100 rows (the
 * lines of the orders at 100 × 100), and for that many it hashed every product, variant, sub-variant
 * and stock level of the catalogue on each call, a cost that grew with the catalogue (24 ms a call
 * at 3,000 products, 29 ms at 10,000). An array's length is known, or guessed small.
 */
export function batchKeys(inputs: Reserve[]): [string[], string[], string[], string[]] {
  const uniq = (xs: Array<string | null | undefined>) => [...new Set(xs.filter((x): x is string => !!x))];
  const lines = inputs.flatMap((i) => i.lines);
  return [uniq(lines.map((l) => l.productID)), uniq(lines.map((l) => l.productVariantID)), uniq(lines.map((l) => l.productSubVariantID)), uniq(inputs.map((i) => i.orderId))];
}

/** The stock levels a batch may lock: its leaves are among its products, variants and sub-variants (batchKeys from $k). */
export function batchLeavesSql(keys: number): string {
  return `($${keys}::uuid[] || $${keys + 1}::uuid[] || $${keys + 2}::uuid[])`;
}

/**
 * The lines asked ($1) resolved to their leaf against the product tree: names, the prices of each
 * level (as stored; replyOf picks the level's price by levelPrice), and why a line cannot be.
 * `keys`: the number of the first of batchKeys' parameters.
 */
export function resolvedLinesSql(t: (name: string) => string, keys: number): string {
  return `asked as materialized (
       select r.req, r.wanted, l.ord, l.ref, l.product_id, l.variant_id, l.sub_variant_id, l.quantity
         from jsonb_to_recordset($1::jsonb) as r(req int, order_id uuid, wanted text, lines jsonb),
              jsonb_to_recordset(r.lines) as l(ord int, ref int, product_id uuid, variant_id uuid, sub_variant_id uuid, quantity int)
     ), resolved as materialized (
       select i.req, i.ord, i.ref, i.quantity,
              p.id as product_id, v.id as variant_id, s.id as sub_variant_id, coalesce(s.id, v.id, p.id) as leaf_id,
              p.name, p.image, p.type, p.price, p.damage_charges, p.rental_terms, p.turnaround_days,
              v.name as variant_name, v.price as variant_price, v.damage_charges as variant_damage,
              s.name as sub_name, s.price as sub_price, s.damage_charges as sub_damage,
              case
                when p.id is null then 'unknownProduct'
                when p.type <> i.wanted then 'wrongType'
                when exists (select 1 from ${t('variants')} pv where pv.product_id = p.id and pv.product_id = any($${keys}::uuid[])) then
                  case
                    when v.id is null then 'chooseVariant'
                    when exists (select 1 from ${t('sub_variants')} vs where vs.variant_id = v.id and vs.variant_id = any($${keys + 1}::uuid[])) then
                      case when s.id is null then 'chooseSubVariant' end
                    when i.sub_variant_id is not null then 'chooseVariant'
                  end
                when i.variant_id is not null or i.sub_variant_id is not null then 'unknownProduct'
              end as error
         from asked i
         left join ${t('products')} p on p.id = i.product_id and p.archived_at is null and p.id = any($${keys}::uuid[])
         left join ${t('variants')} v on v.id = i.variant_id and v.product_id = p.id and v.id = any($${keys + 1}::uuid[])
         left join ${t('sub_variants')} s on s.id = i.sub_variant_id and s.variant_id = v.id and s.id = any($${keys + 2}::uuid[])`;
}

/**
 * The orders asked ($1, each `req` with its `order_id`), after resolvedLinesSql: `bad` when a line
 * cannot be ordered, `retry` when the order holds reservations already (it is answered the same).
 */
export function requestsSql(t: (name: string) => string, keys: number): string {
  return `requests as materialized (
       select r.req, r.order_id,
              exists (select 1 from resolved x where x.req = r.req and x.error is not null) as bad,
              exists (select 1 from ${t('reservations')} h where h.order_id = r.order_id and h.order_id = any($${keys + 3}::uuid[]) and h.status in ('HELD','CONFIRMED')) as retry
         from jsonb_to_recordset($1::jsonb) as r(req int, order_id uuid)`;
}

export function outcomeOf(rows: BatchRow[]): ReserveOutcome {
  const bad = rows.find((r) => r.error);
  if (bad) {
    const message = LINE_ERRORS[bad.error!];
    return { problem: badRequest(message, [{ field: `lines.${bad.ref}`, message }]) };
  }
  const outcome = rows[0]?.outcome;
  if (outcome === 'short') {
    const short = rows[0]!.short!;
    const what = nameOf(rows.find((x) => x.leaf_id === short.leaf_id)!);
    const detail = short.free <= 0 ? `${what} is sold out.` : `Only ${short.free} of ${what} left; you asked for ${short.quantity}.`;
    return { problem: conflict(`${detail} ${ORDER_MESSAGES.maxStock}`) };
  }
  if (outcome !== 'held' && outcome !== 'retry') throw new Error(`reserveOrders: no outcome for an order (${String(outcome)})`);
  return { lines: rows.map(replyOf) };
}
