import type { EntityManager } from '@mikro-orm/postgresql';
import {
  PACKING_MESSAGES,
  PACKING_TRIGGER,
  stockMoveTarget,
  type AssignSerialsReply,
  type AssignSerialsRequest,
  type CheckSerialReply,
  type CheckSerialRequest,
  type FieldError,
  type StockTrigger,
} from '@dme/contracts';
import { HttpProblem, qualified, sql } from '@dme/platform';
import type { z } from 'zod';
import { moveStockItems, stockMoveOf } from './stock-moves';
import { moveBookingsToScanned } from '../bookings/booking.service';

type Assign = z.output<typeof AssignSerialsRequest>;
type Check = z.output<typeof CheckSerialRequest>;

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
  /** The name of the item's bin (what the order's serial code entry shows). */
  warehouse_bin: string | null;
}

/** The item columns packing reads, with the bin's name (a scalar subquery: `for update` locks only the items). */
const ITEM_COLUMNS = (t: (name: string) => string) =>
  `i.id, i.serial_code, i.product_id, i.variant_id, i.sub_variant_id, i.status, i.inventory_type,
   (select b.name from ${t('warehouse_bins')} b where b.id = i.warehouse_bin_id) as warehouse_bin`;

/** The line a code is scanned for: its leaf, and its name as packing names it ("Wheelchair / Standard / 18 in"). */
interface PackLine {
  productID: string;
  variantId: string | null;
  subVariantId: string | null;
  productName: string;
}

/**
 * Why the item with this code cannot be packed for this line, or undefined when it can: the one
 * rule of a scan, used for each scan while packing (checkSerial) and again for every code when the
 * order is packed (assignSerials). Unknown code, another product, variant or sub-variant (naming
 * the line), or not where packing may take it from (AVAILABLE in the warehouse: the `from` of the
 * packing rows of the stock-item table, `triggers`).
 */
function codeProblem(code: string, item: ItemRow | undefined, line: PackLine, triggers: readonly StockTrigger[]): string | undefined {
  if (!item) return PACKING_MESSAGES.unknownCode(code);
  if (item.product_id !== line.productID || item.variant_id !== line.variantId || item.sub_variant_id !== line.subVariantId) {
    return PACKING_MESSAGES.wrongProduct(line.productName);
  }
  if (!triggers.some((t) => stockMoveOf(item, t))) return PACKING_MESSAGES.notAvailable(code, item.status);
  return undefined;
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
 * 5. The items move to RENTED (rental) or SOLD (purchase), inventory OUT, as the packing rows of
 *    the stock-item table say (moveStockItems), and remember the order;
 *    the order's active reservation at those leaves becomes CONSUMED and each leaf's `reserved`
 *    goes down by what it held, so the units are counted once (as rented or sold) and
 *    `available - reserved` stays right. Units beyond what the order held must be free.
 */
export async function assignSerials(em: EntityManager, input: Assign): Promise<AssignSerialsReply> {
  const trigger = PACKING_TRIGGER[input.orderType];
  const status = stockMoveTarget(trigger);
  const lines = packLines(input);
  checkScans(lines);
  const codes = lines.flatMap((l) => l.codes);
  const leaves = [...new Set(lines.map((l) => l.leaf))].sort();

  return em.transactional(async (tem) => {
    const t = (name: string) => qualified(tem, name);
    const levels = await sql<LevelRow>(
      tem,
      `select leaf_id, available, reserved from ${t('stock_levels')} where leaf_id = any($1::uuid[]) order by leaf_id for update`,
      [leaves],
    );

    const mine = await sql<ItemRow>(tem, `select ${ITEM_COLUMNS(t)} from ${t('stock_items')} i where i.order_id = $1`, [input.orderId]);
    if (mine.length > 0) {
      const assigned = new Map(mine.map((m) => [m.serial_code, m]));
      if (assigned.size !== codes.length || codes.some((c) => !assigned.has(c))) throw new HttpProblem(409, PACKING_CATALOG_MESSAGES.packedOtherwise);
      return packedReply(lines, assigned);
    }

    const items = await sql<ItemRow>(
      tem,
      `select ${ITEM_COLUMNS(t)} from ${t('stock_items')} i where i.serial_code = any($1::text[]) order by i.id for update`,
      [codes],
    );
    const byCode = new Map(items.map((i) => [i.serial_code, i]));
    const problems: FieldError[] = [];
    for (const [i, l] of lines.entries()) {
      for (const [j, code] of l.codes.entries()) {
        const message = codeProblem(code, byCode.get(code), l, [trigger]);
        if (message) problems.push({ field: `lines.${i}.serialCodes.${j}`, message });
      }
    }
    if (problems.length > 0) throw refused(problems);

    await checkHeldOrFree(tem, input.orderId, lines, levels);
    if (input.orderType === 'RENT') {
      // A rental's bookings move to the units scanned (issue 25); a unit booked otherwise is refused.
      const scans = leaves.map((leaf) => ({
        leafId: leaf,
        units: lines.flatMap((l, i) => (l.leaf === leaf ? l.codes.map((c, j) => ({ ...byCode.get(c)!, field: `lines.${i}.serialCodes.${j}` })) : [])),
      }));
      const clashes = await moveBookingsToScanned(tem, input.orderId, scans);
      if (clashes.length > 0) throw refused(clashes);
    }
    await moveStockItems(tem, trigger, items.map((i) => i.id), { orderId: input.orderId, custody: { by: input.by ? { userId: input.by.userId, name: input.by.username } : null } });
    await consumeReservations(tem, input.orderId, leaves);
    return packedReply(lines, byCode, status);
  });
}

/** The lines of a packing with their leaf and their codes normalized. */
function packLines(input: Assign) {
  return input.lines.map((l) => ({
    ...l,
    variantId: l.productVariantID ?? null,
    subVariantId: l.productSubVariantID ?? null,
    leaf: l.productSubVariantID ?? l.productVariantID ?? l.productID,
    codes: l.serialCodes.map(normalize),
  }));
}
type Line = ReturnType<typeof packLines>[number];
type LevelRow = { leaf_id: string; available: number; reserved: number };

/** Step 1 of packing: no code twice, no line with more codes than its quantity or fewer. */
function checkScans(lines: Line[]): void {
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
}

/** What the order keeps of each unit: its code, status, id and bin name, line by line. */
function packedReply(lines: Line[], byCode: Map<string, ItemRow>, status?: string): AssignSerialsReply {
  return {
    lines: lines.map((l) => ({
      lineId: l.lineId,
      serialCodes: l.codes.map((c) => {
        const item = byCode.get(c)!;
        return { serialCode: c, status: status ?? item.status, stockItemId: item.id, warehouseBin: item.warehouse_bin };
      }),
    })),
  };
}

/**
 * The units of each leaf beyond what the order's active reservation holds there (locked) must be
 * free in the ledger (`levels`, locked by the caller); else a 409 naming the line.
 */
async function checkHeldOrFree(tem: EntityManager, orderId: string, lines: Line[], levels: LevelRow[]): Promise<void> {
  const leaves = [...new Set(lines.map((l) => l.leaf))].sort();
  const held = await sql<{ leaf_id: string; quantity: number }>(
    tem,
    `select leaf_id, quantity from ${qualified(tem, 'reservations')}
      where order_id = $1 and status in ('HELD','CONFIRMED') and leaf_id = any($2::uuid[]) order by id for update`,
    [orderId, leaves],
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
}

/** The order's active reservation at these leaves becomes CONSUMED; each leaf's `reserved` goes down by what it held. */
async function consumeReservations(tem: EntityManager, orderId: string, leaves: string[]): Promise<void> {
  await sql(
    tem,
    `with consumed as (
       update ${qualified(tem, 'reservations')} set status = 'CONSUMED', expires_at = null, updated_at = now()
        where order_id = $1 and status in ('HELD','CONFIRMED') and leaf_id = any($2::uuid[])
       returning leaf_id, quantity, dated
     ), per_leaf as (
       select leaf_id, sum(quantity)::int as quantity from consumed where not dated group by leaf_id
     )
     update ${qualified(tem, 'stock_levels')} l set reserved = l.reserved - p.quantity from per_leaf p where l.leaf_id = p.leaf_id`,
    [orderId, leaves],
  );
}

/**
 * One scan while packing (over NATS request/reply from the order service, which keeps the scan):
 * the item with this code must be a unit of the line and AVAILABLE in the warehouse (codeProblem,
 * the rule assignSerials applies again to every code when the order is packed). Nothing changes
 * here: the unit is taken only by assignSerials. Answers the item's id and bin name; a refusal is
 * a 409 naming the code (`serialCode`).
 */
export async function checkSerial(em: EntityManager, input: Check): Promise<CheckSerialReply> {
  const code = normalize(input.serialCode);
  const [item] = await sql<ItemRow>(em, `select ${ITEM_COLUMNS((n) => qualified(em, n))} from ${qualified(em, 'stock_items')} i where i.serial_code = $1`, [code]);
  const line: PackLine = {
    productID: input.productID,
    variantId: input.productVariantID ?? null,
    subVariantId: input.productSubVariantID ?? null,
    productName: input.productName,
  };
  const message = codeProblem(code, item, line, Object.values(PACKING_TRIGGER));
  if (message || !item) throw refused([{ field: 'serialCode', message: message ?? PACKING_MESSAGES.unknownCode(code) }]);
  return { stockItemId: item.id, serialCode: item.serial_code, warehouseBin: item.warehouse_bin };
}
