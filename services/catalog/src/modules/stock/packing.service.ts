import type { EntityManager } from '@mikro-orm/postgresql';
import { PACKING_MESSAGES, type AssignSerialsReply, type AssignSerialsRequest, type FieldError } from '@dme/contracts';
import { HttpProblem, qualified, sql } from '@dme/platform';
import type { z } from 'zod';

type Assign = z.output<typeof AssignSerialsRequest>;

/** Texts of packing where the spec is silent (the rest are PACKING_MESSAGES, verbatim). */
export const PACKING_CATALOG_MESSAGES = {
  packedOtherwise: 'This order was already packed with other serial codes.',
  notEnough: (what: string) => `Not enough of ${what} is free to pack this order: the units are held for other orders.`,
} as const;

interface ItemRow {
  id: string;
  serial_code: string;
  product_id: string;
  variant_id: string | null;
  sub_variant_id: string | null;
  status: string;
  inventory_type: string;
}

/** Serial codes are matched whatever the case they were typed in (codes are upper case). */
const normalize = (code: string) => code.trim().toUpperCase();

const refused = (errors: FieldError[]) => new HttpProblem(409, errors[0]!.message, errors);

/**
 * Packing (PREPARING → TO_SHIP, over NATS request/reply from the order service): assigns the
 * scanned serial codes of every line of an order and consumes the order's reservation, in one
 * transaction.
 *
 * 1. The request itself: no code twice (PACKING_MESSAGES.alreadyScanned), no line with more codes
 *    than its quantity (tooMany) or fewer (scanEveryLine).
 * 2. The ledger rows (`stock_levels`) of every leaf involved are locked FIRST, in leaf-id order:
 *    reserve, release and expiry lock leaves in that order, and changing an item's status moves
 *    the ledger through a trigger that locks the same rows, so taking the leaves first, in order,
 *    is what keeps packing from deadlocking with reservations. Two packings of the same leaf go
 *    one after the other; the second sees what the first assigned.
 * 3. A retry (the order's items are assigned already): the same codes answer the same; other
 *    codes are refused.
 * 4. The items by serial code, locked (for update): each must exist (unknownCode), be of the
 *    line's product, variant and sub-variant (wrongProduct, naming the line) and be AVAILABLE and
 *    in the warehouse (notAvailable). Any refusal is a 409 naming every bad code; nothing changes.
 * 5. The items move to RENTED (rental) or SOLD (purchase), inventory OUT, and remember the order;
 *    the order's active reservation at those leaves becomes CONSUMED and each leaf's `reserved`
 *    goes down by what it held, so the units are counted once (as rented or sold) and
 *    `available - reserved` stays right. Units beyond what the order held must be free.
 */
export async function assignSerials(em: EntityManager, input: Assign): Promise<AssignSerialsReply> {
  const status = input.orderType === 'RENT' ? 'RENTED' : 'SOLD';
  const lines = input.lines.map((l) => ({
    ...l,
    variantId: l.productVariantID ?? null,
    subVariantId: l.productSubVariantID ?? null,
    leaf: l.productSubVariantID ?? l.productVariantID ?? l.productID,
    codes: l.serialCodes.map(normalize),
  }));

  const seen = new Set<string>();
  const repeats: FieldError[] = [];
  for (const [i, l] of lines.entries()) {
    for (const [j, code] of l.codes.entries()) {
      if (seen.has(code)) repeats.push({ field: `lines.${i}.serialCodes.${j}`, message: PACKING_MESSAGES.alreadyScanned });
      seen.add(code);
    }
  }
  if (repeats.length > 0) throw refused(repeats);
  for (const [i, l] of lines.entries()) {
    if (l.codes.length > l.quantity) throw refused([{ field: `lines.${i}.serialCodes`, message: PACKING_MESSAGES.tooMany(l.productName) }]);
  }
  for (const [i, l] of lines.entries()) {
    if (l.codes.length < l.quantity) throw refused([{ field: `lines.${i}.serialCodes`, message: PACKING_MESSAGES.scanEveryLine }]);
  }
  const codes = lines.flatMap((l) => l.codes);
  const leaves = [...new Set(lines.map((l) => l.leaf))].sort();

  return em.transactional(async (tem) => {
    const t = (name: string) => qualified(tem, name);
    const levels = await sql<{ leaf_id: string; available: number; reserved: number }>(
      tem,
      `select leaf_id, available, reserved from ${t('stock_levels')} where leaf_id = any($1::uuid[]) order by leaf_id for update`,
      [leaves],
    );

    const mine = await sql<{ serial_code: string; status: string }>(tem, `select serial_code, status from ${t('stock_items')} where order_id = $1`, [input.orderId]);
    if (mine.length > 0) {
      const assigned = new Map(mine.map((m) => [m.serial_code, m.status]));
      if (assigned.size !== codes.length || codes.some((c) => !assigned.has(c))) throw new HttpProblem(409, PACKING_CATALOG_MESSAGES.packedOtherwise);
      return { lines: lines.map((l) => ({ lineId: l.lineId, serialCodes: l.codes.map((c) => ({ serialCode: c, status: assigned.get(c)! })) })) };
    }

    const items = await sql<ItemRow>(
      tem,
      `select id, serial_code, product_id, variant_id, sub_variant_id, status, inventory_type
         from ${t('stock_items')} where serial_code = any($1::text[]) order by id for update`,
      [codes],
    );
    const byCode = new Map(items.map((i) => [i.serial_code, i]));
    const problems: FieldError[] = [];
    for (const [i, l] of lines.entries()) {
      for (const [j, code] of l.codes.entries()) {
        const field = `lines.${i}.serialCodes.${j}`;
        const item = byCode.get(code);
        if (!item) problems.push({ field, message: PACKING_MESSAGES.unknownCode(code) });
        else if (item.product_id !== l.productID || item.variant_id !== l.variantId || item.sub_variant_id !== l.subVariantId) {
          problems.push({ field, message: PACKING_MESSAGES.wrongProduct(l.productName) });
        } else if (item.status !== 'AVAILABLE' || item.inventory_type !== 'IN') problems.push({ field, message: PACKING_MESSAGES.notAvailable(code) });
      }
    }
    if (problems.length > 0) throw refused(problems);

    const held = await sql<{ leaf_id: string; quantity: number }>(
      tem,
      `select leaf_id, quantity from ${t('reservations')}
        where order_id = $1 and status in ('HELD','CONFIRMED') and leaf_id = any($2::uuid[]) order by id for update`,
      [input.orderId, leaves],
    );
    const heldAt = new Map<string, number>();
    for (const h of held) heldAt.set(h.leaf_id, (heldAt.get(h.leaf_id) ?? 0) + h.quantity);
    const level = new Map(levels.map((l) => [l.leaf_id, l]));
    for (const leaf of leaves) {
      const units = lines.filter((l) => l.leaf === leaf).reduce((n, l) => n + l.quantity, 0);
      const beyond = units - (heldAt.get(leaf) ?? 0);
      const row = level.get(leaf);
      if (beyond > 0 && (!row || row.available - row.reserved < beyond)) {
        throw new HttpProblem(409, PACKING_CATALOG_MESSAGES.notEnough(lines.find((l) => l.leaf === leaf)!.productName));
      }
    }

    await sql(
      tem,
      `update ${t('stock_items')} set status = $2, inventory_type = 'OUT', order_id = $1, updated_at = now() where id = any($3::uuid[])`,
      [input.orderId, status, items.map((i) => i.id)],
    );
    await sql(
      tem,
      `with consumed as (
         update ${t('reservations')} set status = 'CONSUMED', expires_at = null, updated_at = now()
          where order_id = $1 and status in ('HELD','CONFIRMED') and leaf_id = any($2::uuid[])
         returning leaf_id, quantity
       ), per_leaf as (
         select leaf_id, sum(quantity)::int as quantity from consumed group by leaf_id
       )
       update ${t('stock_levels')} l set reserved = l.reserved - p.quantity from per_leaf p where l.leaf_id = p.leaf_id`,
      [input.orderId, leaves],
    );
    return { lines: lines.map((l) => ({ lineId: l.lineId, serialCodes: l.codes.map((c) => ({ serialCode: c, status })) })) };
  });
}
