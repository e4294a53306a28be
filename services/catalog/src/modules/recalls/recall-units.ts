import { RECALL_MESSAGES, RECALL_RESOLUTION_OF_TRIGGER, type StockTrigger } from '@dme/contracts';
import { qualified, sql, type Db } from '@dme/platform';

/**
 * A move of units under an open recall resolves them where the move settles the recall (released,
 * scrapped, written off: RECALL_RESOLUTION_OF_TRIGGER); called by moveStockItems, the one writer.
 */
export async function resolveRecalledUnits(db: Db, trigger: StockTrigger, ids: readonly string[], by: string | null): Promise<void> {
  const resolution = RECALL_RESOLUTION_OF_TRIGGER[trigger];
  if (!resolution || ids.length === 0) return;
  await sql(
    db,
    `update ${qualified(db, 'recall_units')} ru set resolution = $2, resolved_at = now(), resolved_by = $3
      from ${qualified(db, 'recalls')} r
     where r.id = ru.recall_id and r.status in ('OPEN') and ru.resolution is null and ru.stock_item_id = any($1::uuid[])`,
    [[...ids], resolution, by],
  );
}

/** Whether a unit is under an open recall and not resolved (a return of it goes on hold). */
export async function underOpenRecall(db: Db, stockItemId: string): Promise<string | null> {
  const [row] = await sql<{ number: string; title: string }>(
    db,
    `select r.number, r.title from ${qualified(db, 'recall_units')} ru join ${qualified(db, 'recalls')} r on r.id = ru.recall_id
      where ru.stock_item_id = $1 and ru.resolution is null and r.status in ('OPEN') order by r.opened_at limit 1`,
    [stockItemId],
  );
  return row ? RECALL_MESSAGES.holdNote(row.number, row.title) : null;
}

