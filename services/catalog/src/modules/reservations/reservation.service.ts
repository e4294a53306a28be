import { randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { centsToString, ORDER_MESSAGES, toCents, type ReserveLineReply, type ReserveRequest as ReserveSchema } from '@dme/contracts';
import { badRequest, conflict, qualified } from '@dme/platform';
import type { z } from 'zod';
import { loadTrees } from '../products/product.service';
import { ProductEntity } from '../products/product.entity';

type Reserve = z.output<typeof ReserveSchema>;

/** How long a reservation waits for its order to be committed before it lapses. */
export const HOLD_MINUTES = 15;

interface Leaf {
  ref: number;
  productId: string;
  variantId: string | null;
  subVariantId: string | null;
  leafId: string;
  quantity: number;
  reply: ReserveLineReply;
}

const money = (v: string) => centsToString(toCents(v));

/**
 * Reserves stock for every line of an order, all or nothing (DESIGN §5). Each leaf (product,
 * variant or sub-variant) is locked with a transaction-scoped advisory lock, always in the same
 * order, so two customers can never both take the last unit and concurrent carts cannot deadlock.
 * Returns the price snapshot of each line. Asking again for the same order returns the same.
 */
export async function reserve(em: EntityManager, input: Reserve): Promise<{ lines: ReserveLineReply[] }> {
  return em.transactional(async (tem) => {
    const table = qualified(tem, 'reservations');
    const productIds = [...new Set(input.lines.map((l) => l.productID))];
    const products = await tem.find(ProductEntity, { id: { $in: productIds }, archivedAt: null });
    const trees = new Map((await loadTrees(tem, products)).map((t) => [t.product.id, t]));

    const leaves: Leaf[] = input.lines.map((line) => {
      const tree = trees.get(line.productID);
      const fail = (message: string) => badRequest(message, [{ field: `lines.${line.ref}`, message }]);
      if (!tree) throw fail(ORDER_MESSAGES.unknownProduct);
      const p = tree.product;
      const wanted = input.orderType === 'RENT' ? 'FOR_RENT' : 'FOR_SALE';
      if (p.type !== wanted) throw fail(ORDER_MESSAGES.wrongType);
      let variant = null as (typeof tree.variants)[number] | null;
      let sub = null as (typeof tree.variants)[number]['subVariants'][number] | null;
      if (tree.variants.length > 0) {
        variant = tree.variants.find((v) => v.variant.id === line.productVariantID) ?? null;
        if (!variant) throw fail(ORDER_MESSAGES.chooseVariant);
        if (variant.subVariants.length > 0) {
          sub = variant.subVariants.find((s) => s.id === line.productSubVariantID) ?? null;
          if (!sub) throw fail(ORDER_MESSAGES.chooseSubVariant);
        } else if (line.productSubVariantID) throw fail(ORDER_MESSAGES.chooseVariant);
      } else if (line.productVariantID || line.productSubVariantID) throw fail(ORDER_MESSAGES.unknownProduct);
      const v = variant?.variant;
      const unitPrice = sub ? sub.price : (v?.price ?? p.price);
      const damage = sub ? sub.damageCharges : (v?.damageCharges ?? p.damageCharges);
      return {
        ref: line.ref,
        productId: p.id,
        variantId: v?.id ?? null,
        subVariantId: sub?.id ?? null,
        leafId: sub?.id ?? v?.id ?? p.id,
        quantity: line.quantity,
        reply: {
          ref: line.ref,
          productName: p.name,
          productImage: p.image,
          productType: p.type,
          variantName: v?.name ?? null,
          variantPrice: v?.price == null ? null : money(v.price),
          subVariantName: sub?.name ?? null,
          subVariantPrice: sub ? money(sub.price) : null,
          unitPrice: money(unitPrice),
          damageCharges: money(damage),
        },
      };
    });

    // The same order asked again (a retry): its reservations stand.
    const existing = await tem.execute<Array<{ n: number }>>(`select count(*)::int as n from ${table} where order_id = ? and status in ('HELD','CONFIRMED')`, [input.orderId]);
    if ((existing[0]?.n ?? 0) > 0) return { lines: leaves.map((l) => l.reply) };

    const perLeaf = new Map<string, { quantity: number; first: Leaf }>();
    for (const l of leaves) {
      const e = perLeaf.get(l.leafId);
      perLeaf.set(l.leafId, { quantity: (e?.quantity ?? 0) + l.quantity, first: e?.first ?? l });
    }
    const order = [...perLeaf.keys()].sort();
    for (const leafId of order) {
      await tem.execute(`select pg_advisory_xact_lock(hashtextextended(?, 0))`, [`leaf:${leafId}`]);
    }
    for (const leafId of order) {
      const { quantity, first } = perLeaf.get(leafId)!;
      const col = first.subVariantId ? 'sub_variant_id' : first.variantId ? 'variant_id' : 'product_id';
      const [row] = await tem.execute<Array<{ available: number; held: number }>>(
        `select
           (select count(*)::int from ${qualified(tem, 'stock_items')} where ${col} = ? and status = 'AVAILABLE'
              ${col === 'product_id' ? 'and variant_id is null' : col === 'variant_id' ? 'and sub_variant_id is null' : ''}) as available,
           (select coalesce(sum(quantity), 0)::int from ${table} where leaf_id = ? and status in ('HELD','CONFIRMED')) as held`,
        [leafId, leafId],
      );
      const free = (row?.available ?? 0) - (row?.held ?? 0);
      if (free < quantity) {
        const r = first.reply;
        const what = [r.productName, r.variantName, r.subVariantName].filter(Boolean).join(' / ');
        const detail = free <= 0 ? `${what} is sold out.` : `Only ${free} of ${what} left; you asked for ${quantity}.`;
        throw conflict(`${detail} ${ORDER_MESSAGES.maxStock}`);
      }
    }
    const expires = new Date(Date.now() + HOLD_MINUTES * 60_000);
    for (const l of leaves) {
      await tem.execute(
        `insert into ${table} (id, order_id, product_id, variant_id, sub_variant_id, leaf_id, quantity, status, expires_at)
         values (?, ?, ?, ?, ?, ?, ?, 'HELD', ?)`,
        [randomUUID(), input.orderId, l.productId, l.variantId, l.subVariantId, l.leafId, l.quantity, expires],
      );
    }
    return { lines: leaves.map((l) => l.reply) };
  });
}

/** The order was committed: its reservations no longer lapse. */
export async function confirm(em: EntityManager, orderId: string): Promise<number> {
  const res = await em.execute<{ affectedRows: number }>(
    `update ${qualified(em, 'reservations')} set status = 'CONFIRMED', expires_at = null, updated_at = now() where order_id = ? and status = 'HELD'`,
    [orderId],
    'run',
  );
  return res.affectedRows;
}

/** The order was cancelled (or never committed): its stock is free again. */
export async function release(em: EntityManager, orderId: string): Promise<number> {
  const res = await em.execute<{ affectedRows: number }>(
    `update ${qualified(em, 'reservations')} set status = 'RELEASED', updated_at = now() where order_id = ? and status in ('HELD','CONFIRMED')`,
    [orderId],
    'run',
  );
  return res.affectedRows;
}

/** Reservations whose order never arrived lapse after HOLD_MINUTES. */
export async function expireHeld(em: EntityManager): Promise<number> {
  const res = await em.execute<{ affectedRows: number }>(
    `update ${qualified(em, 'reservations')} set status = 'EXPIRED', updated_at = now() where status = 'HELD' and expires_at < now()`,
    [],
    'run',
  );
  return res.affectedRows;
}
