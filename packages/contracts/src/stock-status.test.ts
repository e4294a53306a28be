import { describe, expect, it } from 'vitest';
import { ORDER_TYPES, RETURN_INVENTORY_TYPE, RETURN_STATUSES, STOCK_STATUSES } from './enums';
import {
  findStockMove,
  isStockMove,
  PACKING_TRIGGER,
  RETURN_TRIGGER,
  STOCK_ITEM_MOVES,
  STOCK_ITEM_START,
  STOCK_STATUS_INVENTORY,
  STOCK_TRIGGERS,
  stockMoveSources,
  stockMoveTarget,
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
    expect(stockMoveTarget(RETURN_TRIGGER.OK)).toBe('AVAILABLE');
    expect(stockMoveTarget(RETURN_TRIGGER.DAMAGED)).toBe('DAMAGED');
    expect(stockMoveTarget(RETURN_TRIGGER.LOST)).toBe('LOST');
  });

  it('every trigger is used by packing or returns, and every status can be reached from the start', () => {
    expect(new Set([...Object.values(PACKING_TRIGGER), ...Object.values(RETURN_TRIGGER)])).toEqual(new Set(triggers));
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
