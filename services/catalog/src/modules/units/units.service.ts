import type { EntityManager } from '@mikro-orm/postgresql';
import {
  canTakeStep,
  centsToString,
  manilaDate,
  nextUnitStep,
  SERVICEABLE,
  STOCK_STATUS_LABELS,
  UNIT_BOARD,
  UNIT_MESSAGES,
  UNIT_STEPS,
  unitStepsOf,
  type CustodyEntry,
  type RepairOrder,
  type StockStatus,
  type StockTrigger,
  type UnitBoardResponse,
  type UnitResponse,
  type UnitStep,
  type UnitSummary,
} from '@dme/contracts';
import { HttpProblem, notFound, qualified, sql, type Db, type Principal, newId } from '@dme/platform';
import type { z } from 'zod';
import type { UnitStepRequest as UnitStepSchema, UnitBoardQuery as BoardSchema } from '@dme/contracts';
import { moveStockItems } from '../stock/stock-moves';
import { unitBaseOf } from '../stock/stock.service';
import { rentalDaysLeftSql } from '../bookings/busy';
import { appendCustody, type Actor } from '../custody/custody';

type StepInput = z.output<typeof UnitStepSchema>;
type BoardInput = z.output<typeof BoardSchema>;

/** A unit as read for the board and its page. */
interface UnitRow {
  id: string;
  serial_code: string;
  status: StockStatus;
  inventory_type: 'IN' | 'OUT';
  product_id: string;
  product_name: string;
  level: string | null;
  bin_id: string;
  bin_name: string;
  since: string;
  leaf_id: string;
  order_id: string | null;
  order_number: string | null;
  checklist: string[];
  service_checklist: string[];
  serviced_on: string;
  service_due_on: string | null;
  rental_days_left: number | null;
  has_plan: boolean;
  service_due: boolean;
}

/**
 * Whether unit `i` (of product `p`) is due for its preventive maintenance on `today` (issue 26): its
 * calendar plan has come round, or it has no rental days left (busy.ts rule 5). The board's column
 * and each unit's `service.due` read this one expression.
 */
const serviceDueSql = (t: (n: string) => string, i: string, p: string, today: string) =>
  `((${p}.service_every_days is not null and ${i}.serviced_on + ${p}.service_every_days <= ${today}) or coalesce(${rentalDaysLeftSql(t, i)} <= 0, false))`;

const UNIT_COLUMNS = (t: (n: string) => string, today: string) => `i.id, i.serial_code, i.status, i.inventory_type, i.product_id, p.name as product_name,
       nullif(concat_ws(' / ', v.name, sv.name), '') as level, i.warehouse_bin_id as bin_id, b.name as bin_name,
       i.status_since as since, coalesce(i.sub_variant_id, i.variant_id, i.product_id) as leaf_id, i.order_id,
       (select co.order_number from ${t('custody_orders')} co where co.order_id = i.order_id) as order_number, p.inspection_checklist as checklist,
       p.service_checklist, to_char(i.serviced_on, 'YYYY-MM-DD') as serviced_on, to_char(i.serviced_on + p.service_every_days, 'YYYY-MM-DD') as service_due_on,
       ${rentalDaysLeftSql(t, 'i')} as rental_days_left, (p.service_every_days is not null or p.service_every_rental_days is not null) as has_plan,
       ${serviceDueSql(t, 'i', 'p', today)} as service_due`;

const UNIT_FROM = (t: (n: string) => string) => `${t('stock_items')} i
       join ${t('products')} p on p.id = i.product_id
       left join ${t('variants')} v on v.id = i.variant_id
       left join ${t('sub_variants')} sv on sv.id = i.sub_variant_id
       left join ${t('warehouse_bins')} b on b.id = i.warehouse_bin_id`;

function summaryOf(r: UnitRow): UnitSummary {
  return {
    ...unitBaseOf(r),
    level: r.level,
    warehouseBin: { id: r.bin_id, name: r.bin_name },
    since: new Date(r.since).toISOString(),
    // Service only where its product has a maintenance plan.
    steps: unitStepsOf(r.status).filter((step) => step !== 'SERVICE' || r.has_plan),
    nextStep: nextUnitStep(r.status, r.service_due),
    service: r.has_plan ? { servicedOn: r.serviced_on, dueOn: r.service_due_on, rentalDaysLeft: r.rental_days_left, due: r.service_due } : null,
  };
}

/** Serial codes are matched whatever the case they were typed in (codes are upper case). */
const normalize = (code: string) => code.trim().toUpperCase();

async function unitRow(db: Db, code: string, lock = false): Promise<UnitRow> {
  const t = (n: string) => qualified(db, n);
  const [row] = await sql<UnitRow>(db, `select ${UNIT_COLUMNS(t, '$2::date')} from ${UNIT_FROM(t)} where i.serial_code = $1${lock ? ' for update of i' : ''}`, [normalize(code), manilaDate()]);
  if (!row) throw notFound(UNIT_MESSAGES.notFound);
  return row;
}

interface RepairRow {
  id: string;
  fault: string;
  parts: string;
  cost: string | null;
  technician: string;
  outcome: 'REPAIRED' | 'SCRAPPED' | null;
  opened_at: string;
  opened_by: string | null;
  closed_at: string | null;
  closed_by: string | null;
}

const repairOf = (r: RepairRow): RepairOrder => ({
  id: r.id,
  fault: r.fault,
  parts: r.parts,
  cost: r.cost,
  technician: r.technician,
  outcome: r.outcome,
  openedAt: new Date(r.opened_at).toISOString(),
  openedBy: r.opened_by,
  closedAt: r.closed_at === null ? null : new Date(r.closed_at).toISOString(),
  closedBy: r.closed_by,
});

/** A custody row as the API shows it. */
export interface CustodyRow {
  id: string;
  serial_code: string;
  kind: CustodyEntry['kind'];
  at: string;
  by_name: string | null;
  status: StockStatus | null;
  bin_id: string | null;
  bin_name: string | null;
  order_number: string | null;
  party: string | null;
  condition: string | null;
  note: string;
  checklist: Array<{ point: string; ok: boolean }> | null;
}

export const custodyEntryOf = (r: CustodyRow): CustodyEntry => ({
  id: r.id,
  kind: r.kind,
  at: new Date(r.at).toISOString(),
  by: r.by_name,
  status: r.status,
  bin: r.bin_name,
  orderNumber: r.order_number,
  party: r.party,
  condition: r.condition,
  note: r.note,
  checklist: r.checklist,
});

/** The chain of custody of some units (by id) or of the units of one order, oldest first. */
export async function custodyRows(db: Db, where: { stockItemId: string } | { orderId: string }): Promise<CustodyRow[]> {
  const t = (n: string) => qualified(db, n);
  const filter =
    'stockItemId' in where
      ? { sql: 'c.stock_item_id = $1', param: where.stockItemId }
      : { sql: `c.stock_item_id in (select stock_item_id from ${t('custody_events')} where order_id = $1)`, param: where.orderId };
  return sql<CustodyRow>(
    db,
    `select c.id, c.serial_code, c.kind, c.at, c.by_name, c.status, c.bin_id, c.bin_name, c.order_number, c.party, c.condition, c.note, c.checklist
       from ${t('custody_events')} c where ${filter.sql} order by c.serial_code, c.at, c.seq`,
    [filter.param],
  );
}

/** One unit: its status and steps, its product's checklist, its repairs and its chain of custody. */
export async function getUnit(em: EntityManager, code: string): Promise<UnitResponse> {
  const row = await unitRow(em, code);
  const t = (n: string) => qualified(em, n);
  const repairs = await sql<RepairRow>(em, `select * from ${t('repair_orders')} where stock_item_id = $1 order by opened_at desc`, [row.id]);
  const history = await custodyRows(em, { stockItemId: row.id });
  const open = repairs.find((r) => r.closed_at === null);
  return {
    unit: {
      ...summaryOf(row),
      checklist: row.checklist ?? [],
      serviceChecklist: row.service_checklist ?? [],
      orderNumber: row.order_number,
      repair: open ? repairOf(open) : null,
      repairs: repairs.map(repairOf),
    },
    history: history.map(custodyEntryOf),
  };
}

/** The units board: units in a column (or in any), oldest in their status first, and how many each column has. */
export async function unitBoard(em: EntityManager, query: BoardInput): Promise<UnitBoardResponse> {
  const t = (n: string) => qualified(em, n);
  const boarded = UNIT_BOARD.flatMap((c) => [...c.statuses]);
  const today = manilaDate();
  // The service column is not a status: units that can be serviced and are due (issue 26).
  const serviceDue = query.column === 'SERVICE_DUE';
  const statuses = serviceDue ? [...SERVICEABLE] : query.column ? [...UNIT_BOARD.find((c) => c.key === query.column)!.statuses] : boarded;
  const search = query.search ? `%${query.search.replace(/[\\%_]/g, (m) => `\\${m}`)}%` : null;
  const rows = await sql<UnitRow & { total: number }>(
    em,
    `select ${UNIT_COLUMNS(t, '$6::date')}, count(*) over ()::int as total from ${UNIT_FROM(t)}
      where i.status in (select unnest($1::text[])) and ($2::text is null or i.serial_code ilike $2 or p.name ilike $2)
        and (not $5::boolean or ${serviceDueSql(t, 'i', 'p', '$6::date')})
      order by ${serviceDue ? 'i.serviced_on' : 'i.status_since'}, i.serial_code limit $3 offset $4`,
    [statuses, search, query.limit, query.offset, serviceDue, today],
  );
  const byStatus = await sql<{ status: StockStatus; n: number }>(em, `select status, count(*)::int as n from ${t('stock_items')} where status in (select unnest($1::text[])) group by status`, [boarded]);
  const [due] = await sql<{ n: number }>(
    em,
    `select count(*)::int as n from ${t('stock_items')} i join ${t('products')} p on p.id = i.product_id
      where i.status in (select unnest($1::text[])) and (p.service_every_days is not null or p.service_every_rental_days is not null) and ${serviceDueSql(t, 'i', 'p', '$2::date')}`,
    [[...SERVICEABLE], today],
  );
  const counts = Object.fromEntries(
    UNIT_BOARD.map((c) => [c.key, c.key === 'SERVICE_DUE' ? (due?.n ?? 0) : byStatus.filter((s) => (c.statuses as readonly string[]).includes(s.status)).reduce((n, s) => n + s.n, 0)]),
  );
  return { counts: counts as UnitBoardResponse['counts'], items: rows.map(summaryOf), total: rows[0]?.total ?? 0 };
}

const bad = (field: string, message: string) => new HttpProblem(400, message, [{ field, message }]);

/** The answers of an inspection, checked against the product's checklist: every point once, no other. */
function checkAnswers(points: string[], answers: StepInput['checklist']): Array<{ point: string; ok: boolean }> {
  const given = answers ?? [];
  const known = new Map(points.map((p) => [p.toLowerCase(), p]));
  for (const a of given) if (!known.has(a.point.toLowerCase())) throw bad('checklist', UNIT_MESSAGES.checklistUnknown(a.point));
  const byPoint = new Map(given.map((a) => [a.point.toLowerCase(), a.ok]));
  if (byPoint.size !== given.length || points.some((p) => !byPoint.has(p.toLowerCase()))) throw bad('checklist', UNIT_MESSAGES.checklistRequired);
  return points.map((p) => ({ point: p, ok: byPoint.get(p.toLowerCase())! }));
}

/** What a step needs besides the unit's status: the trigger it makes (none: the unit keeps its status), and its custody entry's details. */
interface Plan {
  trigger: StockTrigger | null;
  condition?: string;
  checklist?: Array<{ point: string; ok: boolean }>;
  note: string;
  before?: (db: Db, unit: UnitRow, by: Actor) => Promise<void>;
}

function requireNote(body: StepInput): string {
  if (!body.note) throw bad('note', UNIT_MESSAGES.noteRequired);
  return body.note;
}

async function planOf(db: Db, step: UnitStep, unit: UnitRow, body: StepInput): Promise<Plan> {
  const t = (n: string) => qualified(db, n);
  switch (step) {
    case 'CLEAN':
      return { trigger: 'cleaned', note: body.note };
    case 'INSPECT': {
      const answers = checkAnswers(unit.checklist ?? [], body.checklist);
      const passed = answers.every((a) => a.ok);
      return { trigger: passed ? 'inspectedOk' : 'inspectedFailed', condition: passed ? 'PASSED' : 'FAILED', checklist: answers, note: body.note };
    }
    case 'PUT_AWAY':
    case 'FOUND': {
      if (step === 'PUT_AWAY' && !body.warehouseBinID) throw bad('warehouseBinID', UNIT_MESSAGES.binRequired);
      const binId = body.warehouseBinID;
      if (binId) {
        const [bin] = await sql<{ id: string }>(db, `select id from ${t('warehouse_bins')} where id = $1`, [binId]);
        if (!bin) throw bad('warehouseBinID', UNIT_MESSAGES.binUnknown);
      }
      return {
        trigger: step === 'PUT_AWAY' ? 'putAway' : 'found',
        note: body.note,
        // The bin is where the unit is put (its chain of custody's entry names it).
        before: async (tx, u) => {
          if (binId && binId !== u.bin_id) await sql(tx, `update ${t('stock_items')} set warehouse_bin_id = $2, updated_at = now() where id = $1`, [u.id, binId]);
        },
      };
    }
    case 'OPEN_REPAIR': {
      if (!body.fault) throw bad('fault', UNIT_MESSAGES.faultRequired);
      const fault = body.fault;
      return {
        trigger: 'repairOpened',
        note: fault,
        before: async (tx, u, by) => {
          await sql(tx, `insert into ${t('repair_orders')} (id, stock_item_id, fault, opened_by) values ($1, $2, $3, $4)`, [newId(), u.id, fault, by.name]);
        },
      };
    }
    case 'CLOSE_REPAIR':
    case 'SCRAP': {
      if (step === 'CLOSE_REPAIR' && !body.outcome) throw bad('outcome', UNIT_MESSAGES.outcomeRequired);
      const outcome = step === 'SCRAP' ? 'SCRAPPED' : body.outcome!;
      const note = step === 'SCRAP' ? requireNote(body) : body.note;
      return {
        trigger: outcome === 'REPAIRED' ? 'repaired' : 'scrapped',
        condition: outcome,
        note,
        // The unit's open work order closes with it (a scrapped unit in repair too).
        before: async (tx, u, by) => {
          await sql(
            tx,
            `update ${t('repair_orders')} set outcome = $2, closed_at = now(), closed_by = $3,
                    parts = coalesce($4, parts), cost = coalesce($5::numeric, cost), technician = coalesce($6, technician)
              where stock_item_id = $1 and closed_at is null`,
            [u.id, outcome, by.name, body.parts ?? null, body.cost === undefined ? null : centsToString(body.cost), body.technician ?? null],
          );
        },
      };
    }
    case 'HOLD':
      return { trigger: 'held', note: requireNote(body) };
    case 'RELEASE':
      return { trigger: 'released', note: body.note };
    case 'WRITE_OFF':
      return { trigger: 'writtenOff', note: requireNote(body) };
    case 'SERVICE': {
      if (!unit.has_plan) throw new HttpProblem(409, UNIT_MESSAGES.noPlan);
      // Preventive maintenance: every point of the plan's checklist passed, the unit keeps its
      // status and its next service counts from today; a failed point sends it to repair.
      const answers = checkAnswers(unit.service_checklist ?? [], body.checklist);
      const passed = answers.every((a) => a.ok);
      return {
        trigger: passed ? null : 'serviceFailed',
        condition: passed ? 'PASSED' : 'FAILED',
        checklist: answers,
        note: body.note,
        before: async (tx, u) => {
          if (passed) await sql(tx, `update ${t('stock_items')} set serviced_on = $2::date, updated_at = now() where id = $1`, [u.id, manilaDate()]);
        },
      };
    }
  }
}

/**
 * A step of a unit between rentals (issue 26), by a permitted role: the unit is locked (its leaf's
 * ledger row first, as packing and returns lock them), the step must be one the stock-item table
 * allows from its status (else 409 naming its status), the step's own input is checked (400, and
 * nothing changes), then its work (a work order, a bin) and the move itself (moveStockItems, which
 * writes the unit's chain of custody with who, the note, a condition and the checklist's answers).
 */
export async function takeStep(em: EntityManager, code: string, body: StepInput, who: Principal): Promise<UnitResponse> {
  const by: Actor = { userId: who.userId, name: who.username };
  let done = '';
  await em.transactional(async (tem) => {
    const t = (n: string) => qualified(tem, n);
    const peek = await unitRow(tem, code);
    await sql(tem, `select leaf_id from ${t('stock_levels')} where leaf_id = $1 for update`, [peek.leaf_id]);
    const unit = await unitRow(tem, code, true);
    if (!canTakeStep(unit.status, body.step)) {
      throw new HttpProblem(409, UNIT_MESSAGES.cannot(unit.serial_code, STOCK_STATUS_LABELS[unit.status].toLowerCase(), UNIT_STEPS[body.step].label));
    }
    const plan = await planOf(tem, body.step, unit, body);
    await plan.before?.(tem, unit, by);
    const custody = { by, note: plan.note, condition: plan.condition ?? null, checklist: plan.checklist ?? null };
    if (plan.trigger === null) {
      // A service that passed: no move, its entry in the unit's history all the same.
      await appendCustody(tem, [unit.id], { ...custody, kind: 'SERVICED', status: null });
      done = UNIT_MESSAGES.serviced(unit.serial_code);
      return;
    }
    const to = await moveStockItems(tem, plan.trigger, [unit.id], { custody });
    done = UNIT_MESSAGES.done(unit.serial_code, STOCK_STATUS_LABELS[to].toLowerCase());
  });
  return { ...(await getUnit(em, code)), message: done };
}
