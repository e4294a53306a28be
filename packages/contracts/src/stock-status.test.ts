import { describe, expect, it } from 'vitest';
import { ORDER_TYPES, RETURN_INVENTORY_TYPE, RETURN_STATUSES, STOCK_STATUSES } from './enums';
import {
  findStockMove,
  isStockMove,
  OWNERSHIP_TRIGGER,
  PACKING_TRIGGER,
  RETURN_TRIGGER,
  STOCK_ITEM_MOVES,
  STOCK_ITEM_START,
  STOCK_STATUS_INVENTORY,
  STOCK_TRIGGERS,
  stockMoveSources,
  stockMoveTarget,
  canTakeStep,
  CUSTODY_KINDS,
  CUSTODY_OF_TRIGGER,
  IN_SERVICE_STATUSES,
  nextUnitStep,
  UNIT_BOARD,
  UNIT_STEP_NAMES,
  UNIT_STEPS,
  unitStepsOf,
  serialCodeFromScan,
  type StockTrigger,
} from './stock-status';

const triggers = Object.keys(STOCK_TRIGGERS) as StockTrigger[];

describe('the stock-item status table', () => {
  it('knows every status, LOST included, and where a unit of each is', () => {
    expect(STOCK_STATUSES).toContain('LOST');
    for (const s of STOCK_STATUSES) expect(['IN', 'OUT']).toContain(STOCK_STATUS_INVENTORY[s]);
    expect(STOCK_STATUSES).toContain(STOCK_ITEM_START.status);
    expect(STOCK_STATUS_INVENTORY[STOCK_ITEM_START.status]).toBe('IN');
  });

  it('every row has a known trigger with a description, moves between known statuses, and is not a no-op', () => {
    for (const m of STOCK_ITEM_MOVES) {
      expect(STOCK_STATUSES).toContain(m.from);
      expect(STOCK_STATUSES).toContain(m.to);
      expect(m.from).not.toBe(m.to);
      expect(STOCK_TRIGGERS[m.trigger]?.length ?? 0).toBeGreaterThan(0);
    }
  });

  it('a trigger moves a unit from a given status in one way only, always to the same target', () => {
    const keys = STOCK_ITEM_MOVES.map((m) => `${m.from}:${m.trigger}`);
    expect(new Set(keys).size).toBe(keys.length);
    for (const t of triggers) {
      const rows = STOCK_ITEM_MOVES.filter((m) => m.trigger === t);
      expect(rows.length, t).toBeGreaterThan(0);
      expect(new Set(rows.map((m) => m.to)).size, t).toBe(1);
      expect(stockMoveTarget(t)).toBe(rows[0]!.to);
      expect(stockMoveSources(t)).toEqual(rows.map((m) => m.from));
    }
  });

  it('finds exactly the rows of the table, for every status and trigger', () => {
    for (const from of STOCK_STATUSES) {
      for (const t of triggers) {
        const row = STOCK_ITEM_MOVES.find((m) => m.from === from && m.trigger === t);
        expect(findStockMove(from, t)).toEqual(row);
        if (row) expect(isStockMove(from, row.to)).toBe(true);
      }
      for (const to of STOCK_STATUSES) expect(isStockMove(from, to)).toBe(STOCK_ITEM_MOVES.some((m) => m.from === from && m.to === to));
    }
    expect(findStockMove('NOT_A_STATUS', 'returnedOk')).toBeUndefined();
  });

  it('packing takes an AVAILABLE unit out: a rental RENTED, a purchase SOLD', () => {
    for (const type of ORDER_TYPES) expect(stockMoveSources(PACKING_TRIGGER[type])).toEqual(['AVAILABLE']);
    expect(stockMoveTarget(PACKING_TRIGGER.RENT)).toBe('RENTED');
    expect(stockMoveTarget(PACKING_TRIGGER.BUY)).toBe('SOLD');
  });

  it('return inspection moves a RENTED unit to where the order says it is (RETURN_INVENTORY_TYPE)', () => {
    for (const mark of RETURN_STATUSES) {
      expect(stockMoveSources(RETURN_TRIGGER[mark])).toEqual(['RENTED']);
      expect(STOCK_STATUS_INVENTORY[stockMoveTarget(RETURN_TRIGGER[mark])]).toBe(RETURN_INVENTORY_TYPE[mark]);
    }
    // Issue 26: an OK return is back, dirty: it is cleaned and inspected before it can be packed again.
    expect(stockMoveTarget(RETURN_TRIGGER.OK)).toBe('RETURNED');
    expect(stockMoveTarget(RETURN_TRIGGER.DAMAGED)).toBe('DAMAGED');
    expect(stockMoveTarget(RETURN_TRIGGER.LOST)).toBe('LOST');
  });

  it('every trigger is used by packing, returns, a unit step or rent-to-own, and every status can be reached from the start', () => {
    const stepTriggers = UNIT_STEP_NAMES.flatMap((s) => UNIT_STEPS[s].triggers);
    expect(new Set([...Object.values(PACKING_TRIGGER), ...Object.values(RETURN_TRIGGER), ...stepTriggers, OWNERSHIP_TRIGGER])).toEqual(new Set(triggers));
    const reached = new Set<string>([STOCK_ITEM_START.status]);
    for (let grew = true; grew; ) {
      grew = false;
      for (const m of STOCK_ITEM_MOVES) {
        if (reached.has(m.from) && !reached.has(m.to)) {
          reached.add(m.to);
          grew = true;
        }
      }
    }
    expect([...reached].sort()).toEqual([...STOCK_STATUSES].sort());
  });
});

describe('rent-to-own (issue 29)', () => {
  it('a unit out on a rental becomes the customer\'s where it is: RENTED → SOLD, written as BOUGHT_OUT; no staff step makes it', () => {
    expect(OWNERSHIP_TRIGGER).toBe('boughtOut');
    expect(STOCK_ITEM_MOVES.filter((m) => m.trigger === OWNERSHIP_TRIGGER)).toEqual([{ from: 'RENTED', to: 'SOLD', trigger: 'boughtOut' }]);
    expect(stockMoveSources(OWNERSHIP_TRIGGER)).toEqual(['RENTED']);
    expect(STOCK_STATUS_INVENTORY[stockMoveTarget(OWNERSHIP_TRIGGER)]).toBe(STOCK_STATUS_INVENTORY.RENTED);
    for (const s of STOCK_STATUSES.filter((x) => x !== 'RENTED')) expect(findStockMove(s, OWNERSHIP_TRIGGER), s).toBeUndefined();
    expect(CUSTODY_OF_TRIGGER[OWNERSHIP_TRIGGER]).toBe('BOUGHT_OUT');
    expect(CUSTODY_KINDS.BOUGHT_OUT).toBe('Bought by the customer (rent-to-own)');
    expect(UNIT_STEP_NAMES.filter((s) => (UNIT_STEPS[s].triggers as readonly StockTrigger[]).includes(OWNERSHIP_TRIGGER))).toEqual([]);
    expect(unitStepsOf('RENTED')).toEqual([]);
    // SOLD stays an end for a unit: no row leaves it.
    expect(STOCK_ITEM_MOVES.filter((m) => m.from === 'SOLD')).toEqual([]);
  });
});

describe('a unit between rentals (issue 26)', () => {
  it('an OK return goes RETURNED → CLEANED → INSPECTED → AVAILABLE, one step at a time, and is packable only at the end', () => {
    const path: Array<[string, StockTrigger, string]> = [
      ['RETURNED', 'cleaned', 'CLEANED'],
      ['CLEANED', 'inspectedOk', 'INSPECTED'],
      ['INSPECTED', 'putAway', 'AVAILABLE'],
    ];
    for (const [from, trigger, to] of path) expect(findStockMove(from, trigger)?.to).toBe(to);
    for (const s of ['RETURNED', 'CLEANED', 'INSPECTED', 'DAMAGED', 'IN_REPAIR', 'ON_HOLD', 'FOUND']) {
      expect(findStockMove(s, 'packedForRental'), s).toBeUndefined();
      expect(findStockMove(s, 'packedForSale'), s).toBeUndefined();
    }
    // Skipping a step is not a row.
    expect(findStockMove('RETURNED', 'inspectedOk')).toBeUndefined();
    expect(findStockMove('RETURNED', 'putAway')).toBeUndefined();
    expect(findStockMove('CLEANED', 'putAway')).toBeUndefined();
  });

  it('damaged goes to repair, back in service or scrapped; lost is found (to clean) or written off; a hold ends cleaned again or scrapped', () => {
    expect(findStockMove('CLEANED', 'inspectedFailed')?.to).toBe('DAMAGED');
    expect(findStockMove('DAMAGED', 'repairOpened')?.to).toBe('IN_REPAIR');
    expect(findStockMove('IN_REPAIR', 'repaired')?.to).toBe('AVAILABLE');
    expect(findStockMove('IN_REPAIR', 'scrapped')?.to).toBe('SCRAPPED');
    expect(findStockMove('LOST', 'found')?.to).toBe('FOUND');
    expect(findStockMove('FOUND', 'cleaned')?.to).toBe('CLEANED');
    expect(findStockMove('LOST', 'writtenOff')?.to).toBe('WRITTEN_OFF');
    for (const s of ['AVAILABLE', 'RETURNED', 'CLEANED', 'INSPECTED', 'DAMAGED', 'IN_REPAIR', 'FOUND']) expect(findStockMove(s, 'held')?.to, s).toBe('ON_HOLD');
    for (const s of ['RENTED', 'SOLD', 'LOST', 'SCRAPPED', 'WRITTEN_OFF', 'ON_HOLD']) expect(findStockMove(s, 'held'), s).toBeUndefined();
    expect(findStockMove('ON_HOLD', 'released')?.to).toBe('RETURNED');
    // Scrapped and written off are ends: no row leaves them.
    expect(STOCK_ITEM_MOVES.filter((m) => m.from === 'SCRAPPED' || m.from === 'WRITTEN_OFF')).toEqual([]);
  });

  it('the steps a unit can take are the rows from its status; a scan on the board takes the next step on its way to the shelf', () => {
    for (const s of STOCK_STATUSES) {
      for (const step of UNIT_STEP_NAMES) expect(canTakeStep(s, step), `${s} ${step}`).toBe(UNIT_STEPS[step].triggers.some((t) => findStockMove(s, t)));
      const next = nextUnitStep(s);
      if (next) expect(unitStepsOf(s), s).toContain(next);
    }
    expect(nextUnitStep('RETURNED')).toBe('CLEAN');
    expect(nextUnitStep('CLEANED')).toBe('INSPECT');
    expect(nextUnitStep('INSPECTED')).toBe('PUT_AWAY');
    expect(nextUnitStep('DAMAGED')).toBe('OPEN_REPAIR');
    expect(nextUnitStep('IN_REPAIR')).toBe('CLOSE_REPAIR');
    expect(nextUnitStep('AVAILABLE')).toBeNull();
    expect(unitStepsOf('AVAILABLE')).toEqual(['HOLD', 'SERVICE']);
    // A unit whose service is due: a scan services it, where it can be serviced.
    expect(nextUnitStep('AVAILABLE', true)).toBe('SERVICE');
    expect(nextUnitStep('RETURNED', true)).toBe('SERVICE');
    expect(nextUnitStep('DAMAGED', true)).toBe('OPEN_REPAIR');
    expect(unitStepsOf('RENTED')).toEqual([]);
  });

  it('the board has a column for every status on its way back, each status in one column; every move writes a custody entry', () => {
    const boarded = UNIT_BOARD.flatMap((c) => [...c.statuses]);
    expect(new Set(boarded).size).toBe(boarded.length);
    for (const s of STOCK_STATUSES) if (nextUnitStep(s)) expect(boarded, s).toContain(s);
    expect(boarded).toContain('ON_HOLD');
    for (const t of triggers) expect(Object.keys(CUSTODY_KINDS)).toContain(CUSTODY_OF_TRIGGER[t]);
    expect(IN_SERVICE_STATUSES).not.toContain('DAMAGED');
    expect(IN_SERVICE_STATUSES).not.toContain('ON_HOLD');
  });
});

describe('serialCodeFromScan (issue 26)', () => {
  it.each([
    ['a typed code, any case', ' oxy-0000042 ', 'OXY-0000042'],
    ["a label's QR (SPEC §3)", '{"productID":"6f1c3a9e-2b7d-4c1e-9a55-0d3f7b2e8c41","serialCode":"WHE-0000001"}', 'WHE-0000001'],
    ['a QR without a code', '{"stockID":"6f1c3a9e-2b7d-4c1e-9a55-0d3f7b2e8c41"}', null],
    ['broken JSON', '{"serialCode":', null],
    ['not a code', 'DROP TABLE;', null],
    ['empty', '   ', null],
  ])('%s', (_name, text, expected) => {
    expect(serialCodeFromScan(text)).toBe(expected);
  });
});
