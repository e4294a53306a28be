import type { EntityManager } from '@mikro-orm/postgresql';
import { centsToString, ORDER_MESSAGES, toCents, type ReserveLineReply, type ReserveRequest as ReserveSchema } from '@dme/contracts';
import { badRequest, conflict, qualified } from '@dme/platform';
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

function replyOf(r: LineRow): ReserveLineReply {
  const sub = r.sub_variant_id !== null;
  return {
    ref: r.ref,
    productName: r.name!,
    productImage: r.image!,
    productType: r.type!,
    variantName: r.variant_name,
    variantPrice: r.variant_price == null ? null : money(r.variant_price),
    subVariantName: sub ? r.sub_name : null,
    subVariantPrice: sub ? money(r.sub_price!) : null,
    unitPrice: money(sub ? r.sub_price! : (r.variant_price ?? r.price!)),
    damageCharges: money(sub ? r.sub_damage! : (r.variant_damage ?? r.damage_charges!)),
  };
}

/** What the one statement of reserve() answers besides the lines. */
interface Outcome {
  /** The order already holds reservations (a retry): nothing more was reserved. */
  retry: boolean;
  /** Leaves that have fewer units free than asked (only when every line is valid). */
  short: Array<{ leaf_id: string; quantity: number; free: number }> | null;
}

/**
 * Reserves stock for every line of an order, all or nothing (DESIGN §5), returning the price
 * snapshot of each line. Asking again for the same order returns the same and reserves nothing.
 *
 * One statement, one round trip, its own transaction: it resolves every line to its leaf
 * (product, variant or sub-variant: the same checks and 400 messages as the product tree gives)
 * with names and prices; locks the leaves' ledger rows in leaf-id order (release and expiry lock
 * them in the same order, so no deadlock) and reads what each has free (`available - reserved`,
 * the latest committed value once the lock is held); and only if every line is valid and every
 * leaf has enough, writes one HELD reservation row per leaf and adds each to its leaf's
 * `reserved`. No advisory lock, no counting of items. A leaf short of stock answers 409 naming
 * the line; nothing was written. A hot item's row is locked only for the rest of this statement.
 * The unique index on active (order, leaf) rows makes a retry of the same order, even a
 * concurrent one, reserve nothing more.
 */
export async function reserve(em: EntityManager, input: Reserve): Promise<{ lines: ReserveLineReply[] }> {
  const rows = await reserveStatement(em, input);
  const replies: ReserveLineReply[] = [];
  for (const r of rows) {
    if (r.error) {
      const message = LINE_ERRORS[r.error];
      throw badRequest(message, [{ field: `lines.${r.ref}`, message }]);
    }
    replies.push(replyOf(r));
  }
  const outcome = rows[0]!;
  if (outcome.retry) return { lines: replies };
  const short = [...(outcome.short ?? [])].sort((a, b) => a.leaf_id.localeCompare(b.leaf_id))[0];
  if (short) {
    const r = replyOf(rows.find((x) => x.leaf_id === short.leaf_id)!);
    const what = [r.productName, r.variantName, r.subVariantName].filter(Boolean).join(' / ');
    const detail = short.free <= 0 ? `${what} is sold out.` : `Only ${short.free} of ${what} left; you asked for ${short.quantity}.`;
    throw conflict(`${detail} ${ORDER_MESSAGES.maxStock}`);
  }
  return { lines: replies };
}

/** The statement of reserve(): the lines in request order, each with the outcome. */
function reserveStatement(em: EntityManager, input: Reserve): Promise<Array<LineRow & Outcome>> {
  const lines = input.lines.map((l, i) => ({
    ord: i,
    ref: l.ref,
    product_id: l.productID,
    variant_id: l.productVariantID ?? null,
    sub_variant_id: l.productSubVariantID ?? null,
    quantity: l.quantity,
  }));
  const wanted = input.orderType === 'RENT' ? 'FOR_RENT' : 'FOR_SALE';
  const expires = new Date(Date.now() + HOLD_MINUTES * 60_000);
  const t = (name: string) => qualified(em, name);
  return em.execute<Array<LineRow & Outcome>>(
    `with asked as (
       select * from jsonb_to_recordset(?::jsonb) as x(ord int, ref int, product_id uuid, variant_id uuid, sub_variant_id uuid, quantity int)
     ), resolved as (
       select i.ord, i.ref, i.quantity,
              p.id as product_id, v.id as variant_id, s.id as sub_variant_id, coalesce(s.id, v.id, p.id) as leaf_id,
              p.name, p.image, p.type, p.price, p.damage_charges,
              v.name as variant_name, v.price as variant_price, v.damage_charges as variant_damage,
              s.name as sub_name, s.price as sub_price, s.damage_charges as sub_damage,
              case
                when p.id is null then 'unknownProduct'
                when p.type <> ? then 'wrongType'
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
         left join ${t('sub_variants')} s on s.id = i.sub_variant_id and s.variant_id = v.id
     ), go as (
       select not exists (select 1 from resolved where error is not null)
          and not exists (select 1 from ${t('reservations')} where order_id = ? and status in ('HELD','CONFIRMED')) as ok
     ), per_leaf as (
       select leaf_id, product_id, variant_id, sub_variant_id, sum(quantity)::int as quantity
         from resolved where (select ok from go) group by leaf_id, product_id, variant_id, sub_variant_id
     ), locked as materialized (
       select l.leaf_id, l.available - l.reserved as free
         from ${t('stock_levels')} l where l.leaf_id in (select leaf_id from per_leaf)
        order by l.leaf_id for update
     ), short as (
       select pl.leaf_id, pl.quantity, coalesce(k.free, 0)::int as free
         from per_leaf pl left join locked k on k.leaf_id = pl.leaf_id
        where coalesce(k.free, 0) < pl.quantity
     ), held as (
       insert into ${t('reservations')} (id, order_id, product_id, variant_id, sub_variant_id, leaf_id, quantity, status, expires_at)
       select gen_random_uuid(), ?, pl.product_id, pl.variant_id, pl.sub_variant_id, pl.leaf_id, pl.quantity, 'HELD', ?
         from per_leaf pl
        where not exists (select 1 from short)
        order by pl.leaf_id
       on conflict (order_id, leaf_id) where status in ('HELD','CONFIRMED') do nothing
       returning leaf_id, quantity
     ), taken as (
       -- Runs although nothing reads it (PostgreSQL runs every data-modifying CTE), after held.
       update ${t('stock_levels')} l set reserved = l.reserved + h.quantity from held h where l.leaf_id = h.leaf_id
       returning l.leaf_id
     )
     select r.*,
            not (select ok from go) or (not exists (select 1 from short) and (select count(*) from held) = 0) as retry,
            (select json_agg(json_build_object('leaf_id', leaf_id, 'quantity', quantity, 'free', free)) from short) as short
       from resolved r order by r.ord`,
    [JSON.stringify(lines), wanted, input.orderId, input.orderId, expires],
  );
}

/**
 * Gives back what the reservation rows picked by `where` hold, moving them to `status`, in one
 * statement: the rows are locked in id order and only rows still active are changed (so a second
 * release gives back nothing), and each leaf's `reserved` goes down by exactly what was changed,
 * with the leaves locked in id order as reserve() takes them.
 */
async function giveBack(em: EntityManager, status: 'RELEASED' | 'EXPIRED', where: string, params: unknown[]): Promise<number> {
  const reservations = qualified(em, 'reservations');
  const levels = qualified(em, 'stock_levels');
  const [row] = await em.execute<Array<{ n: number }>>(
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

/** The order was committed: its reservations no longer lapse. */
export async function confirm(em: EntityManager, orderId: string): Promise<number> {
  const reservations = qualified(em, 'reservations');
  const [row] = await em.execute<Array<{ n: number }>>(
    `with picked as materialized (
       select id from ${reservations} where order_id = ? and status = 'HELD' order by id for update
     ), changed as (
       update ${reservations} r set status = 'CONFIRMED', expires_at = null, updated_at = now() from picked where r.id = picked.id returning 1
     )
     select count(*)::int as n from changed`,
    [orderId],
  );
  return row?.n ?? 0;
}

/** The order was cancelled (or never committed): its stock is free again. Safe to repeat. */
export function release(em: EntityManager, orderId: string): Promise<number> {
  return giveBack(em, 'RELEASED', `order_id = ? and status in ('HELD','CONFIRMED')`, [orderId]);
}

/** Reservations whose order never arrived lapse after HOLD_MINUTES. */
export function expireHeld(em: EntityManager): Promise<number> {
  return giveBack(em, 'EXPIRED', `status = 'HELD' and expires_at < now()`, []);
}
