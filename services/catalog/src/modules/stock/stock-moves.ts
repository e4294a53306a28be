import { CUSTODY_OF_TRIGGER, findStockMove, STOCK_STATUS_INVENTORY, stockMoveSources, stockMoveTarget, type InventoryType, type StockMove, type StockStatus, type StockTrigger } from '@dme/contracts';
import { HttpProblem, qualified, sql, type Db } from '@dme/platform';
import { appendCustody, type CustodyWrite } from '../custody/custody';
import { resolveRecalledUnits } from '../recalls/recall-units';

/** Texts of refused moves where the spec is silent. */
export const STOCK_MOVE_MESSAGES = {
  refused: (trigger: StockTrigger, to: StockStatus) => `A stock item changed meanwhile: it can no longer be moved to ${to} (${trigger}).`,
} as const;

/**
 * The move `trigger` makes from a unit's current status and place (packing and returns check
 * their units with it before they change anything): the table's row, or undefined when there is
 * none or the unit is not where a unit of its status belongs.
 */
export function stockMoveOf(unit: { status: string; inventory_type: string }, trigger: StockTrigger): StockMove | undefined {
  const move = findStockMove(unit.status, trigger);
  return move && unit.inventory_type === STOCK_STATUS_INVENTORY[move.from] ? move : undefined;
}

/**
 * The one place the catalog changes stock items' status (issue 23): moves the items `ids` as
 * `trigger` does in the stock-item table (packages/contracts/src/stock-status.ts), in one
 * statement that changes only items still in one of the trigger's `from` statuses and in the
 * warehouse place of that status. An item that is not (a concurrent change, a caller's bug) makes
 * it a 409 and the caller's transaction rolls back: a move that is not a row never happens. The
 * ledger (`stock_levels`) follows through its trigger, in the same statement, and every moved
 * item's chain of custody gets the move's entry (issue 26: CUSTODY_OF_TRIGGER, with `custody`'s
 * who, order, condition and note). `orderId` records the order the items were packed for. Answers
 * the status the items now have.
 */
export async function moveStockItems(
  db: Db,
  trigger: StockTrigger,
  ids: readonly string[],
  opts: { orderId?: string; custody?: Omit<CustodyWrite, 'kind' | 'status'> } = {},
): Promise<StockStatus> {
  const to = stockMoveTarget(trigger);
  const unique = [...new Set(ids)];
  if (unique.length === 0) return to;
  const sources = stockMoveSources(trigger);
  const inventory: InventoryType[] = sources.map((s) => STOCK_STATUS_INVENTORY[s]);
  const setOrder = opts.orderId === undefined ? '' : ', order_id = $6';
  const moved = await sql<{ id: string }>(
    db,
    `update ${qualified(db, 'stock_items')} i set status = $2, inventory_type = $3, updated_at = now(), status_since = now()${setOrder}
      from unnest($4::text[], $5::text[]) as f(status, inventory_type)
     where i.id = any($1::uuid[]) and i.status = f.status and i.inventory_type = f.inventory_type
     returning i.id`,
    [unique, to, STOCK_STATUS_INVENTORY[to], sources, inventory, ...(opts.orderId === undefined ? [] : [opts.orderId])],
  );
  if (moved.length !== unique.length) throw new HttpProblem(409, STOCK_MOVE_MESSAGES.refused(trigger, to));
  await appendCustody(db, unique, { ...opts.custody, kind: CUSTODY_OF_TRIGGER[trigger], status: to, orderId: opts.orderId ?? opts.custody?.orderId ?? null });
  // A unit under an open recall released, scrapped or written off is resolved for it (issue 26).
  await resolveRecalledUnits(db, trigger, unique, opts.custody?.by?.name ?? null);
  return to;
}
