import type { InventoryType, OrderType, ReturnStatus, StockStatus } from './enums';

/**
 * The stock-item process as data (issue 23, DESIGN §13): every status a unit can have, where it
 * is (in the warehouse or out), and every move between statuses with its trigger. The catalog
 * changes a unit's status only through this table (a move that is not a row is refused with a
 * 409); the screens read it to say what can happen to a unit.
 *
 * Issue 26: a unit's life between rentals. A return marked OK lands RETURNED (dirty), is cleaned,
 * inspected against its product's checklist and put away on a shelf before it can be packed
 * again; a damaged one goes to repair (back in service, or scrapped); a lost one is found or
 * written off; any unit in the warehouse can be held (recall, quarantine), and is released to be
 * cleaned and inspected again, or scrapped.
 */

/** Where a unit of each status is: in the warehouse (IN) or with a customer / gone (OUT). */
export const STOCK_STATUS_INVENTORY: Record<StockStatus, InventoryType> = {
  AVAILABLE: 'IN',
  RENTED: 'OUT',
  SOLD: 'OUT',
  DAMAGED: 'IN',
  LOST: 'OUT',
  RETURNED: 'IN',
  CLEANED: 'IN',
  INSPECTED: 'IN',
  IN_REPAIR: 'IN',
  FOUND: 'IN',
  ON_HOLD: 'IN',
  SCRAPPED: 'OUT',
  WRITTEN_OFF: 'OUT',
};

/** What each status means to the warehouse, in words (tags, the board, a unit's page). */
export const STOCK_STATUS_LABELS: Record<StockStatus, string> = {
  AVAILABLE: 'Available',
  RENTED: 'Rented',
  SOLD: 'Sold',
  DAMAGED: 'Damaged',
  LOST: 'Lost',
  RETURNED: 'Returned (to clean)',
  CLEANED: 'Cleaned (to inspect)',
  INSPECTED: 'Inspected (to put away)',
  IN_REPAIR: 'In repair',
  FOUND: 'Found (to clean)',
  ON_HOLD: 'On hold',
  SCRAPPED: 'Scrapped',
  WRITTEN_OFF: 'Written off',
};

/** What moves a unit: a staff action, a scan or a command from another service. */
export const STOCK_TRIGGERS = {
  packedForRental: 'Packed for a rental (order PREPARING → TO_SHIP, assign-serials)',
  packedForSale: 'Packed for a purchase (order PREPARING → TO_SHIP, assign-serials)',
  returnedOk: 'Marked OK at return inspection (return-serial): back, to be cleaned',
  returnedDamaged: 'Marked DAMAGED at return inspection (return-serial)',
  returnedLost: 'Marked LOST at return inspection (return-serial)',
  cleaned: 'Cleaned (a scan on the board)',
  inspectedOk: "Inspected: every point of the product's checklist passed",
  inspectedFailed: "Inspected: a point of the product's checklist failed (to repair)",
  putAway: 'Put away on a shelf (a bin chosen): ready to be packed',
  repairOpened: 'A repair work order opened',
  repaired: 'The repair work order closed as repaired: back in service',
  scrapped: 'Scrapped (a repair that cannot be done, or a hold ended so)',
  found: 'A lost unit found and back in the warehouse: to be cleaned',
  writtenOff: 'A lost unit written off',
  held: 'Put on hold (recall, quarantine): not packable',
  released: 'Released from hold: to be cleaned and inspected again',
  serviceFailed: "Serviced: a point of the product's maintenance checklist failed (to repair)",
  boughtOut: "Became the customer's on rent-to-own (bought out, or its billing cycles paid: the order DELIVERED / FOR_RETURN → COMPLETED)",
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

/** The statuses a unit can be serviced in (preventive maintenance, issue 26): in service, in the warehouse. */
export const SERVICEABLE: readonly StockStatus[] = ['AVAILABLE', 'RETURNED', 'CLEANED', 'INSPECTED'];

/** The statuses a unit in the warehouse can be held from (not out, not gone, not held already). */
const HOLDABLE: readonly StockStatus[] = ['AVAILABLE', 'RETURNED', 'CLEANED', 'INSPECTED', 'DAMAGED', 'IN_REPAIR', 'FOUND'];

/** Every move a stock item may make. */
export const STOCK_ITEM_MOVES: readonly StockMove[] = [
  { from: 'AVAILABLE', to: 'RENTED', trigger: 'packedForRental' },
  { from: 'AVAILABLE', to: 'SOLD', trigger: 'packedForSale' },
  { from: 'RENTED', to: 'RETURNED', trigger: 'returnedOk' },
  { from: 'RENTED', to: 'DAMAGED', trigger: 'returnedDamaged' },
  { from: 'RENTED', to: 'LOST', trigger: 'returnedLost' },
  { from: 'RETURNED', to: 'CLEANED', trigger: 'cleaned' },
  { from: 'FOUND', to: 'CLEANED', trigger: 'cleaned' },
  { from: 'CLEANED', to: 'INSPECTED', trigger: 'inspectedOk' },
  { from: 'CLEANED', to: 'DAMAGED', trigger: 'inspectedFailed' },
  { from: 'INSPECTED', to: 'AVAILABLE', trigger: 'putAway' },
  { from: 'DAMAGED', to: 'IN_REPAIR', trigger: 'repairOpened' },
  { from: 'IN_REPAIR', to: 'AVAILABLE', trigger: 'repaired' },
  { from: 'DAMAGED', to: 'SCRAPPED', trigger: 'scrapped' },
  { from: 'IN_REPAIR', to: 'SCRAPPED', trigger: 'scrapped' },
  { from: 'ON_HOLD', to: 'SCRAPPED', trigger: 'scrapped' },
  { from: 'LOST', to: 'FOUND', trigger: 'found' },
  { from: 'LOST', to: 'WRITTEN_OFF', trigger: 'writtenOff' },
  ...HOLDABLE.map((from) => ({ from, to: 'ON_HOLD' as const, trigger: 'held' as const })),
  { from: 'ON_HOLD', to: 'RETURNED', trigger: 'released' },
  // Preventive maintenance of a unit in the warehouse; one that passes keeps its status (no move).
  ...SERVICEABLE.map((from) => ({ from, to: 'DAMAGED' as const, trigger: 'serviceFailed' as const })),
  // Rent-to-own (issue 29): a unit out on a rental becomes the customer's where it is; it does not come back.
  { from: 'RENTED', to: 'SOLD', trigger: 'boughtOut' },
];

/** The trigger of packing a unit for an order of this type. */
export const PACKING_TRIGGER: Record<OrderType, StockTrigger> = { RENT: 'packedForRental', BUY: 'packedForSale' };

/** The trigger of a rental's units that became the customer's (rent-to-own, issue 29: contracts `completedByOwnership`). */
export const OWNERSHIP_TRIGGER: StockTrigger = 'boughtOut';

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

// ---- Steps staff take on a unit (issue 26) ------------------------------------------------------

/** Texts of units where the spec is silent. */
export const UNIT_MESSAGES = {
  notFound: 'No unit has this serial code.',
  cannot: (code: string, status: string, step: string) => `${code} is ${status}: it cannot be ${step.toLowerCase()} now.`,
  binRequired: 'Choose the bin the unit is put in.',
  binUnknown: 'That bin does not exist.',
  checklistRequired: "Answer every point of the product's checklist.",
  checklistUnknown: (item: string) => `"${item}" is not a point of this product's checklist.`,
  noteRequired: 'Say why in the note.',
  faultRequired: 'Describe the fault.',
  outcomeRequired: 'Choose the outcome: repaired or scrapped.',
  costInvalid: 'Enter the cost as an amount, e.g. 120.50.',
  done: (code: string, status: string) => `${code} is now ${status}.`,
  serviced: (code: string) => `${code} is serviced: its next service counts from today.`,
  noPlan: "This product has no maintenance plan: set one on the product to service its units.",
  notInWarehouse: (code: string) => `${code} is not in the warehouse: only a unit in the warehouse can be moved to a bin.`,
  moved: (code: string, bin: string) => `${code} is now in ${bin}.`,
} as const;

/** The most points a product's inspection checklist may have. */
export const MAX_CHECKLIST_POINTS = 20;

/** The longest interval of a maintenance plan, in days (ten years). */
export const MAX_SERVICE_INTERVAL_DAYS = 3650;


/**
 * What staff do to a unit between rentals, each a scan (or a typed serial code) on the board or
 * the unit's page. A step names the trigger(s) it can make; INSPECT makes inspectedOk or
 * inspectedFailed by the checklist's answers, the repair steps are the work order's (closing it
 * as scrapped makes `scrapped`, as SCRAP does).
 */
export const UNIT_STEPS = {
  CLEAN: { label: 'Cleaned', triggers: ['cleaned'] },
  INSPECT: { label: 'Inspect', triggers: ['inspectedOk', 'inspectedFailed'] },
  PUT_AWAY: { label: 'Put away', triggers: ['putAway'] },
  OPEN_REPAIR: { label: 'Open repair', triggers: ['repairOpened'] },
  CLOSE_REPAIR: { label: 'Close repair', triggers: ['repaired'] },
  HOLD: { label: 'Put on hold', triggers: ['held'] },
  RELEASE: { label: 'Release', triggers: ['released'] },
  SCRAP: { label: 'Scrap', triggers: ['scrapped'] },
  FOUND: { label: 'Found', triggers: ['found'] },
  WRITE_OFF: { label: 'Write off', triggers: ['writtenOff'] },
  /** Preventive maintenance: the plan's checklist answered; a failed point sends the unit to repair. */
  SERVICE: { label: 'Service', triggers: ['serviceFailed'] },
} as const satisfies Record<string, { label: string; triggers: readonly StockTrigger[] }>;
export type UnitStep = keyof typeof UNIT_STEPS;
export const UNIT_STEP_NAMES = Object.keys(UNIT_STEPS) as UnitStep[];

/** Whether a unit in `status` can take `step` now (one of the step's triggers has a row from it). */
export function canTakeStep(status: string, step: UnitStep): boolean {
  return UNIT_STEPS[step].triggers.some((t) => findStockMove(status, t) !== undefined);
}

/** The steps a unit in `status` can take now, in the order the table lists them. */
export function unitStepsOf(status: string): UnitStep[] {
  return UNIT_STEP_NAMES.filter((s) => canTakeStep(status, s));
}

/**
 * The step a scan on the board takes a unit of `status` to: its service when its preventive
 * maintenance is due (`serviceDue`) and it can be serviced now; else its way back to the shelf
 * (clean, inspect, put away), a damaged one to repair, one in repair to its close; null where a
 * scan alone decides nothing (available, out, on hold, lost: the unit's page offers its steps).
 */
export function nextUnitStep(status: string, serviceDue = false): UnitStep | null {
  if (serviceDue && canTakeStep(status, 'SERVICE')) return 'SERVICE';
  const next: Partial<Record<StockStatus, UnitStep>> = {
    RETURNED: 'CLEAN',
    FOUND: 'CLEAN',
    CLEANED: 'INSPECT',
    INSPECTED: 'PUT_AWAY',
    DAMAGED: 'OPEN_REPAIR',
    IN_REPAIR: 'CLOSE_REPAIR',
  };
  return next[status as StockStatus] ?? null;
}

/** The columns of the warehouse's units board: a unit's status puts it in one (or none: on the shelf, out, gone). */
export const UNIT_BOARD = [
  { key: 'TO_CLEAN', title: 'To clean', statuses: ['RETURNED', 'FOUND'] },
  { key: 'TO_INSPECT', title: 'To inspect', statuses: ['CLEANED'] },
  { key: 'TO_PUT_AWAY', title: 'To put away', statuses: ['INSPECTED'] },
  { key: 'DAMAGED', title: 'Damaged', statuses: ['DAMAGED'] },
  { key: 'IN_REPAIR', title: 'In repair', statuses: ['IN_REPAIR'] },
  { key: 'ON_HOLD', title: 'On hold', statuses: ['ON_HOLD'] },
  /** Not a status: units whose preventive maintenance is due (their product's plan, issue 26). */
  { key: 'SERVICE_DUE', title: 'Service due', statuses: [] },
] as const satisfies ReadonlyArray<{ key: string; title: string; statuses: readonly StockStatus[] }>;
export type UnitBoardColumn = (typeof UNIT_BOARD)[number]['key'];
export const UNIT_BOARD_COLUMNS = UNIT_BOARD.map((c) => c.key) as UnitBoardColumn[];

/** Units that can serve a rental on a later day (on the shelf, out and coming back, or on their way back to the shelf). */
export const IN_SERVICE_STATUSES: readonly StockStatus[] = ['AVAILABLE', 'RENTED', 'RETURNED', 'CLEANED', 'INSPECTED'];

// ---- A unit's chain of custody (issue 26) -------------------------------------------------------

/** Every kind of entry of a serial's custody history, in words. */
export const CUSTODY_KINDS = {
  STOCKED: 'Stocked',
  MOVED: 'Moved to another bin',
  RESERVED: 'Reserved for an order',
  PACKED: 'Packed for an order',
  OUT_FOR_DELIVERY: 'Out for delivery',
  DELIVERED: 'Delivered',
  PICKED_UP: 'Picked up',
  RETURNED: 'Returned',
  CLEANED: 'Cleaned',
  INSPECTED: 'Inspected',
  PUT_AWAY: 'Put away',
  REPAIR_OPENED: 'Repair opened',
  REPAIRED: 'Repaired',
  SCRAPPED: 'Scrapped',
  HELD: 'Put on hold',
  RELEASED: 'Released from hold',
  FOUND: 'Found',
  WRITTEN_OFF: 'Written off',
  SERVICED: 'Serviced',
  RECALLED: 'Recalled (with a customer)',
  BOUGHT_OUT: 'Bought by the customer (rent-to-own)',
} as const;
export type CustodyKind = keyof typeof CUSTODY_KINDS;
export const CUSTODY_KIND_NAMES = Object.keys(CUSTODY_KINDS) as CustodyKind[];

/** The custody entry a status move writes (moves by staff steps, packing and returns). */
export const CUSTODY_OF_TRIGGER: Record<StockTrigger, CustodyKind> = {
  packedForRental: 'PACKED',
  packedForSale: 'PACKED',
  returnedOk: 'RETURNED',
  returnedDamaged: 'RETURNED',
  returnedLost: 'RETURNED',
  cleaned: 'CLEANED',
  inspectedOk: 'INSPECTED',
  inspectedFailed: 'INSPECTED',
  putAway: 'PUT_AWAY',
  repairOpened: 'REPAIR_OPENED',
  repaired: 'REPAIRED',
  scrapped: 'SCRAPPED',
  found: 'FOUND',
  writtenOff: 'WRITTEN_OFF',
  held: 'HELD',
  released: 'RELEASED',
  serviceFailed: 'SERVICED',
  boughtOut: 'BOUGHT_OUT',
};

/**
 * The serial code in what a scanner or a person typed (issue 26): a unit's label QR holds
 * {"productID","serialCode"} (SPEC §3), a bare code is the code itself. Upper case; null when it
 * is neither.
 */
export function serialCodeFromScan(text: string): string | null {
  const raw = text.trim();
  if (raw.startsWith('{')) {
    try {
      const code = (JSON.parse(raw) as { serialCode?: unknown }).serialCode;
      return typeof code === 'string' ? serialCodeFromScan(code) : null;
    } catch {
      return null;
    }
  }
  return /^[A-Za-z0-9-]{1,40}$/.test(raw) ? raw.toUpperCase() : null;
}

// ---- Recalls (issue 26) -------------------------------------------------------------------------

/** Where a unit of a recall stands: held in the warehouse, with a customer, lost, or resolved. */
export const RECALL_UNIT_STATES = ['ON_HOLD', 'WITH_CUSTOMER', 'LOST', 'IN_WAREHOUSE', 'RESOLVED'] as const;
export type RecallUnitState = (typeof RECALL_UNIT_STATES)[number];

/** How a unit of a recall was resolved: released (fixed, cleared), scrapped, written off, or settled by staff (a customer's unit replaced or collected). */
export const RECALL_RESOLUTIONS = ['RELEASED', 'SCRAPPED', 'WRITTEN_OFF', 'SETTLED'] as const;
export type RecallResolution = (typeof RECALL_RESOLUTIONS)[number];

/** The resolution a move makes of a unit under an open recall (other moves leave it open). */
export const RECALL_RESOLUTION_OF_TRIGGER: Partial<Record<StockTrigger, RecallResolution>> = { released: 'RELEASED', scrapped: 'SCRAPPED', writtenOff: 'WRITTEN_OFF' };

/** Where a recalled unit stands, from its resolution and its status now. */
export function recallUnitState(resolution: string | null, status: string): RecallUnitState {
  if (resolution) return 'RESOLVED';
  if (status === 'ON_HOLD') return 'ON_HOLD';
  if (status === 'RENTED' || status === 'SOLD') return 'WITH_CUSTOMER';
  if (status === 'LOST') return 'LOST';
  return 'IN_WAREHOUSE';
}

/** Texts of recalls where the spec is silent. */
export const RECALL_MESSAGES = {
  noUnits: 'No unit matches this recall: check the product, the serial codes and the dates.',
  notFound: 'Recall not found.',
  closed: 'This recall is closed.',
  notAllResolved: (n: number) => `${n} ${n === 1 ? 'unit is' : 'units are'} not resolved yet: resolve every unit before closing the recall.`,
  unitNotInRecall: 'This unit is not part of this recall.',
  alreadyResolved: 'This unit is already resolved.',
  noteRequired: 'Say how it was settled.',
  opened: (number: string, held: number, out: number) => `Recall ${number} opened: ${held} ${held === 1 ? 'unit' : 'units'} on hold, ${out} with customers.`,
  customerNotice: (productName: string, orderNumber: string) =>
    `A safety recall concerns the ${productName} of your order ${orderNumber}. We will contact you to replace or collect it.`,
  holdNote: (number: string, title: string) => `Recall ${number}: ${title}`,
} as const;
