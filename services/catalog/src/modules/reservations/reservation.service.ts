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
  /** How many (order, leaf) reservation rows this call wrote (the same on every row). */
  inserted: number;
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

/** A retry of an order that already holds part of what it asks: nothing more is reserved. */
class AlreadyReserved extends Error {}

/**
 * Reserves stock for every line of an order, all or nothing (DESIGN §5), returning the price
 * snapshot of each line. Asking again for the same order returns the same and reserves nothing.
 *
 * Round trips (inside BEGIN … COMMIT): one statement resolves every line to its leaf (product,
 * variant or sub-variant: the same checks and 400 messages as the product tree gives) with names
 * and prices, and writes one HELD reservation row per leaf, all only if every line is valid; the
 * unique index on active (order, leaf) rows makes a retry of the same order insert nothing (a
 * concurrent retry waits for the first and then inserts nothing). Then one conditional update per
 * leaf, in leaf-id order (the order release and expiry lock leaves in too, so no deadlock):
 * `reserved + q` only where `available - reserved >= q`. A leaf that does not match answers 409
 * (one more select reads what is left, for the message) and the transaction rolls back. The
 * leaf rows are locked last, for the shortest time: a hot item is held only for its update and
 * the commit.
 */
export async function reserve(em: EntityManager, input: Reserve): Promise<{ lines: ReserveLineReply[] }> {
  let replies: ReserveLineReply[] = [];
  try {
    return await em.transactional(async (tem) => {
      const rows = await resolveAndHold(tem, input);
      replies = [];
      for (const r of rows) {
        if (r.error) {
          const message = LINE_ERRORS[r.error];
          throw badRequest(message, [{ field: `lines.${r.ref}`, message }]);
        }
        replies.push(replyOf(r));
      }

      const perLeaf = new Map<string, { quantity: number; first: LineRow }>();
      for (const r of rows) {
        const e = perLeaf.get(r.leaf_id!);
        perLeaf.set(r.leaf_id!, { quantity: (e?.quantity ?? 0) + r.quantity, first: e?.first ?? r });
      }
      const inserted = rows[0]?.inserted ?? 0;
      // The same order asked again (a retry): its reservations stand.
      if (inserted === 0) return { lines: replies };
      if (inserted !== perLeaf.size) throw new AlreadyReserved();

      const levels = qualified(tem, 'stock_levels');
      for (const leafId of [...perLeaf.keys()].sort()) {
        const { quantity, first } = perLeaf.get(leafId)!;
        const taken = await tem.execute<Array<{ leaf_id: string }>>(
          `update ${levels} set reserved = reserved + ? where leaf_id = ? and available - reserved >= ? returning leaf_id`,
          [quantity, leafId, quantity],
        );
        if (taken.length === 0) {
          const [row] = await tem.execute<Array<{ free: number }>>(`select available - reserved as free from ${levels} where leaf_id = ?`, [leafId]);
          const free = row?.free ?? 0;
          const r = replyOf(first);
          const what = [r.productName, r.variantName, r.subVariantName].filter(Boolean).join(' / ');
          const detail = free <= 0 ? `${what} is sold out.` : `Only ${free} of ${what} left; you asked for ${quantity}.`;
          throw conflict(`${detail} ${ORDER_MESSAGES.maxStock}`);
        }
      }
      return { lines: replies };
    });
  } catch (err) {
    if (err instanceof AlreadyReserved) return { lines: replies };
    throw err;
  }
}

/**
 * The first statement of reserve(): every line resolved to its leaf with names and prices, in
 * the order of the request, and the HELD rows written (one per leaf) if no line is in error.
 */
function resolveAndHold(em: EntityManager, input: Reserve): Promise<LineRow[]> {
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
  return em.execute<LineRow[]>(
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
     ), held as (
       insert into ${t('reservations')} (id, order_id, product_id, variant_id, sub_variant_id, leaf_id, quantity, status, expires_at)
       select gen_random_uuid(), ?, r.product_id, r.variant_id, r.sub_variant_id, r.leaf_id, sum(r.quantity)::int, 'HELD', ?
         from resolved r
        where not exists (select 1 from resolved e where e.error is not null)
        group by r.product_id, r.variant_id, r.sub_variant_id, r.leaf_id
        order by r.leaf_id
       on conflict (order_id, leaf_id) where status in ('HELD','CONFIRMED') do nothing
       returning 1
     )
     select r.*, (select count(*) from held)::int as inserted from resolved r order by r.ord`,
    [JSON.stringify(lines), wanted, input.orderId, expires],
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
