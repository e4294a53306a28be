import { z } from 'zod';
import { STOCK_STATUSES } from './enums';
import { Pagination } from './identity';
import { CUSTODY_KIND_NAMES, MAX_CHECKLIST_POINTS, RECALL_MESSAGES, RECALL_RESOLUTIONS, RECALL_UNIT_STATES, UNIT_BOARD_COLUMNS, UNIT_MESSAGES, UNIT_STEP_NAMES } from './stock-status';
import { isIsoDate } from './time';
import { optionalText, searchParam, text } from './text';
import { moneyField, StockItem } from './catalog';

/**
 * A unit between rentals (issue 26): its steps (clean, inspect against its product's checklist,
 * put away, repair, hold...), the warehouse's board of units on their way back to the shelf, and
 * every serial's chain of custody.
 */

/** A serial code in a path (typed or scanned: the label's code, or the label's QR payload is read by the screen). */
export const UnitParams = z.object({ serialCode: z.string().min(1).max(40).regex(/^[A-Za-z0-9-]+$/, { error: 'Not found.' }) });

export const UnitStepRequest = z.object({
  step: z.enum(UNIT_STEP_NAMES, { error: 'Choose a step.' }),
  note: optionalText(500),
  /** PUT_AWAY: the bin the unit goes to. */
  warehouseBinID: z.string().uuid({ error: 'Choose a bin.' }).optional(),
  /** INSPECT: an answer for every point of the product's checklist. */
  checklist: z.array(z.object({ point: text({ max: 120 }), ok: z.boolean() })).max(MAX_CHECKLIST_POINTS).optional(),
  /** OPEN_REPAIR: the fault; CLOSE_REPAIR: what was done and how it ended. */
  fault: text({ max: 500 }).optional(),
  parts: text({ max: 500 }).optional(),
  /** CLOSE_REPAIR: what the repair cost (parts and work), in cents once parsed. */
  cost: moneyField(UNIT_MESSAGES.costInvalid).optional(),
  technician: text({ max: 120 }).optional(),
  outcome: z.enum(['REPAIRED', 'SCRAPPED'], { error: UNIT_MESSAGES.outcomeRequired }).optional(),
});
export type UnitStepRequest = z.input<typeof UnitStepRequest>;

/** A repair work order of a damaged unit. */
export const RepairOrder = z.object({
  id: z.string().uuid(),
  fault: z.string(),
  parts: z.string(),
  cost: z.string().nullable(),
  technician: z.string(),
  outcome: z.enum(['REPAIRED', 'SCRAPPED']).nullable(),
  openedAt: z.string(),
  openedBy: z.string().nullable(),
  closedAt: z.string().nullable(),
  closedBy: z.string().nullable(),
});
export type RepairOrder = z.infer<typeof RepairOrder>;

/** A unit as the board and its page show it. */
export const UnitSummary = StockItem.pick({ id: true, serialCode: true, status: true, inventoryType: true, productID: true, productName: true }).extend({
  level: z.string().nullable(),
  warehouseBin: z.object({ id: z.string().uuid(), name: z.string() }),
  /** When it came to this status. */
  since: z.string(),
  /** What staff can do to it now (the table's rows from its status), and what a scan on the board does. */
  steps: z.array(z.enum(UNIT_STEP_NAMES)),
  nextStep: z.enum(UNIT_STEP_NAMES).nullable(),
  /**
   * Its preventive maintenance (its product's plan; null without one): last serviced on, due on
   * (a calendar plan), rental days left (a rental-days plan), and whether it is due now.
   */
  service: z
    .object({ servicedOn: z.string(), dueOn: z.string().nullable(), rentalDaysLeft: z.number().int().nullable(), due: z.boolean() })
    .nullable()
    .default(null),
});
export type UnitSummary = z.infer<typeof UnitSummary>;

/** One entry of a serial's chain of custody. */
export const CustodyEntry = z.object({
  id: z.string(),
  kind: z.enum(CUSTODY_KIND_NAMES),
  at: z.string(),
  /** Who did it (their username), or null when an event of another service did not say. */
  by: z.string().nullable(),
  /** The unit's status after it (null where the status did not change: out for delivery, delivered, picked up, moved). */
  status: z.enum(STOCK_STATUSES).nullable(),
  bin: z.string().nullable(),
  orderNumber: z.string().nullable(),
  /** Whose hands: the customer it was delivered to or picked up from, the driver. */
  party: z.string().nullable(),
  /** A return's mark (OK, DAMAGED, LOST) or an inspection's result (PASSED, FAILED). */
  condition: z.string().nullable(),
  note: z.string(),
  /** An inspection's answers. */
  checklist: z.array(z.object({ point: z.string(), ok: z.boolean() })).nullable(),
});
export type CustodyEntry = z.infer<typeof CustodyEntry>;

export const UnitResponse = z.object({
  unit: UnitSummary.extend({
    /** The product's inspection checklist (answered at INSPECT). */
    checklist: z.array(z.string()),
    /** The product's maintenance checklist (answered at SERVICE). */
    serviceChecklist: z.array(z.string()).default([]),
    /** The order it is out on (or was packed for last), if any. */
    orderNumber: z.string().nullable(),
    /** The open repair work order, if any. */
    repair: RepairOrder.nullable(),
    repairs: z.array(RepairOrder),
  }),
  history: z.array(CustodyEntry),
  message: z.string().optional(),
});
export type UnitResponse = z.infer<typeof UnitResponse>;

export const UnitBoardQuery = Pagination.extend({
  column: z.enum(UNIT_BOARD_COLUMNS, { error: 'Choose a column of the board.' }).optional(),
  search: searchParam(),
});
export type UnitBoardQuery = z.input<typeof UnitBoardQuery>;

export const UnitBoardResponse = z.object({
  counts: z.record(z.enum(UNIT_BOARD_COLUMNS), z.number().int()),
  items: z.array(UnitSummary),
  total: z.number().int(),
});
export type UnitBoardResponse = z.infer<typeof UnitBoardResponse>;

/** A custody export: one serial's or one order's history, as CSV or GS1 EPCIS 2.0 JSON-LD. */
export const CustodyExportQuery = z.object({ format: z.enum(['csv', 'epcis'], { error: 'Choose csv or epcis.' }).default('csv') });
export const OrderCustodyParams = z.object({ orderId: z.string().uuid({ error: 'Not found.' }) });

// ---- Recalls (issue 26) ------------------------------------------------------------------------

const day = (error: string) => z.string({ error }).refine((d) => isIsoDate(d) && d >= '2000-01-01' && d <= '2999-12-31', { error });

/**
 * A recall opened by the superadmin: the units of a product (or a variant or sub-variant of it),
 * narrowed to a list of serial codes and/or to those received (stocked) between two days.
 */
export const RecallCreateRequest = z
  .object({
    title: text({ max: 120 }).refine((s) => s.length > 0, { error: 'Give the recall a title.' }),
    reason: optionalText(500),
    productID: z.string({ error: 'Choose the product recalled.' }).uuid({ error: 'Choose the product recalled.' }),
    variantID: z.string().uuid().nullish(),
    subVariantID: z.string().uuid().nullish(),
    serialCodes: z.array(z.string().trim().min(1).max(40).regex(/^[A-Za-z0-9-]+$/, { error: 'Not a serial code.' })).max(500).optional(),
    receivedFrom: day('Enter "received from" as YYYY-MM-DD.').optional(),
    receivedTo: day('Enter "received to" as YYYY-MM-DD.').optional(),
  })
  .refine((r) => !r.receivedFrom || !r.receivedTo || r.receivedFrom <= r.receivedTo, { error: 'The last day must be on or after the first day.', path: ['receivedTo'] });
export type RecallCreateRequest = z.input<typeof RecallCreateRequest>;

export const RecallUnit = z.object({
  serialCode: z.string(),
  status: z.enum(STOCK_STATUSES),
  state: z.enum(RECALL_UNIT_STATES),
  resolution: z.enum(RECALL_RESOLUTIONS).nullable(),
  note: z.string(),
  resolvedAt: z.string().nullable(),
  resolvedBy: z.string().nullable(),
  /** The order it is out on (with a customer), if any. */
  orderID: z.string().uuid().nullable(),
  orderNumber: z.string().nullable(),
  orderType: z.enum(['BUY', 'RENT']).nullable(),
  customerName: z.string().nullable(),
});
export type RecallUnit = z.infer<typeof RecallUnit>;

export const RecallSummary = z.object({
  id: z.string().uuid(),
  number: z.string(),
  title: z.string(),
  reason: z.string(),
  productID: z.string().uuid(),
  productName: z.string(),
  status: z.enum(['OPEN', 'CLOSED']),
  openedAt: z.string(),
  openedBy: z.string().nullable(),
  closedAt: z.string().nullable(),
  /** Units in each state, and in all. */
  counts: z.object({ total: z.number().int(), onHold: z.number().int(), withCustomer: z.number().int(), other: z.number().int(), resolved: z.number().int() }),
});
export type RecallSummary = z.infer<typeof RecallSummary>;

export const RecallResponse = z.object({ recall: RecallSummary.extend({ units: z.array(RecallUnit) }), message: z.string().optional() });
export type RecallResponse = z.infer<typeof RecallResponse>;
export const RecallListResponse = z.object({ items: z.array(RecallSummary), total: z.number().int() });
export type RecallListResponse = z.infer<typeof RecallListResponse>;
export const RecallListQuery = Pagination.extend({ status: z.enum(['OPEN', 'CLOSED'], { error: 'Choose OPEN or CLOSED.' }).optional() });
export const RecallParams = z.object({ id: z.string().uuid({ error: 'Not found.' }) });
export const RecallUnitParams = RecallParams.extend({ serialCode: z.string().min(1).max(40).regex(/^[A-Za-z0-9-]+$/, { error: 'Not found.' }) });
export const RecallSettleRequest = z.object({ note: text({ max: 500 }).refine((s) => s.length > 0, { error: RECALL_MESSAGES.noteRequired }) });
export type RecallSettleRequest = z.input<typeof RecallSettleRequest>;

// ---- Physical audits of a bin (issue 26) ----------------------------------------------------------

/** Every label scanned in a bin. */
export const BinAuditRequest = z.object({
  serialCodes: z.array(z.string().trim().min(1).max(40).regex(/^[A-Za-z0-9-]+$/, { error: 'Not a serial code.' })).max(2000, { error: 'Audit at most 2,000 labels at a time.' }),
});
export type BinAuditRequest = z.input<typeof BinAuditRequest>;

export const BinAuditUnit = z.object({ serialCode: z.string(), productName: z.string(), status: z.enum(STOCK_STATUSES), binName: z.string() });
export type BinAuditUnit = z.infer<typeof BinAuditUnit>;

/** An audit: what the bin should hold, what was found, found in the wrong bin, missing, unknown. */
export const BinAudit = z.object({
  id: z.string().uuid(),
  binID: z.string().uuid(),
  binName: z.string(),
  by: z.string().nullable(),
  at: z.string(),
  expected: z.number().int(),
  scanned: z.number().int(),
  found: z.array(BinAuditUnit),
  wrongBin: z.array(BinAuditUnit),
  missing: z.array(BinAuditUnit),
  unknown: z.array(z.string()),
});
export type BinAudit = z.infer<typeof BinAudit>;
export const BinAuditResponse = z.object({ audit: BinAudit });
export const BinAuditListResponse = z.object({ items: z.array(BinAudit), total: z.number().int() });
export type BinAuditListResponse = z.infer<typeof BinAuditListResponse>;

/** A unit moved to another bin (one found in the wrong bin by an audit). */
export const UnitMoveRequest = z.object({ warehouseBinID: z.string({ error: UNIT_MESSAGES.binRequired }).uuid({ error: UNIT_MESSAGES.binRequired }) });
