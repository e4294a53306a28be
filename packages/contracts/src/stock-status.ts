import type { InventoryType, OrderType, ReturnStatus, StockStatus } from './enums';

/**
 * The stock-item process as data (issue 23, DESIGN §13): every status a unit can have, where it
 * is (in the warehouse or out), and every move between statuses with its trigger. The catalog
 * changes a unit's status only through this table (a move that is not a row is refused with a
 * 409); the screens may read it to say what can happen to a unit. Only the moves the code makes
 * today are rows; a new step (repair, hold, recall...) is a new status and new rows here.
 */

/** Where a unit of each status is: in the warehouse (IN) or with a customer / gone (OUT). */
export const STOCK_STATUS_INVENTORY: Record<StockStatus, InventoryType> = {
  AVAILABLE: 'IN',
  RENTED: 'OUT',
  SOLD: 'OUT',
  DAMAGED: 'IN',
  LOST: 'OUT',
};

/** What moves a unit: a staff action, a scan or a command from another service. */
export const STOCK_TRIGGERS = {
  packedForRental: 'Packed for a rental (order PREPARING → TO_SHIP, assign-serials)',
  packedForSale: 'Packed for a purchase (order PREPARING → TO_SHIP, assign-serials)',
  returnedOk: 'Marked OK at return inspection (return-serial)',
  returnedDamaged: 'Marked DAMAGED at return inspection (return-serial)',
  returnedLost: 'Marked LOST at return inspection (return-serial)',
} as const;
export type StockTrigger = keyof typeof STOCK_TRIGGERS;

/** One allowed move of a stock item. */
export interface StockMove {
  from: StockStatus;
  to: StockStatus;
  trigger: StockTrigger;
}

/** How a unit starts: Add Stock creates it AVAILABLE, in the warehouse (DESIGN §5). */
export const STOCK_ITEM_START = { status: 'AVAILABLE', trigger: 'Add Stock' } as const satisfies { status: StockStatus; trigger: string };

/** Every move a stock item may make (DESIGN §5: packing AVAILABLE → RENTED or SOLD; return inspection). */
export const STOCK_ITEM_MOVES: readonly StockMove[] = [
  { from: 'AVAILABLE', to: 'RENTED', trigger: 'packedForRental' },
  { from: 'AVAILABLE', to: 'SOLD', trigger: 'packedForSale' },
  { from: 'RENTED', to: 'AVAILABLE', trigger: 'returnedOk' },
  { from: 'RENTED', to: 'DAMAGED', trigger: 'returnedDamaged' },
  { from: 'RENTED', to: 'LOST', trigger: 'returnedLost' },
];

/** The trigger of packing a unit for an order of this type. */
export const PACKING_TRIGGER: Record<OrderType, StockTrigger> = { RENT: 'packedForRental', BUY: 'packedForSale' };

/** The trigger of a unit marked this way at return inspection. */
export const RETURN_TRIGGER: Record<ReturnStatus, StockTrigger> = { OK: 'returnedOk', DAMAGED: 'returnedDamaged', LOST: 'returnedLost' };

/** The move a unit in status `from` makes on `trigger`, or undefined when the table has no such row. */
export function findStockMove(from: string, trigger: StockTrigger): StockMove | undefined {
  return STOCK_ITEM_MOVES.find((m) => m.from === from && m.trigger === trigger);
}

/** The statuses a unit may be in for `trigger` to move it (the `from` of its rows). */
export function stockMoveSources(trigger: StockTrigger): StockStatus[] {
  return STOCK_ITEM_MOVES.filter((m) => m.trigger === trigger).map((m) => m.from);
}

/** The status `trigger` moves a unit to (every row of a trigger has the same target). */
export function stockMoveTarget(trigger: StockTrigger): StockStatus {
  const row = STOCK_ITEM_MOVES.find((m) => m.trigger === trigger);
  if (!row) throw new Error(`stock-status: no move for trigger ${trigger}`);
  return row.to;
}

/** Whether `from → to` is a row of the table. */
export function isStockMove(from: string, to: string): boolean {
  return STOCK_ITEM_MOVES.some((m) => m.from === from && m.to === to);
}
