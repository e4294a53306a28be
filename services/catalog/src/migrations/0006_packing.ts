import { Migration } from '@dme/platform';

/**
 * Packing (issue 9): a stock item remembers the order it was packed for (assigned by the
 * `assign-serials` command with its move to RENTED or SOLD), so that a retried command for the
 * same order answers the same, and an item can be traced to its order.
 */
export class CatalogPacking extends Migration {
  override async up(): Promise<void> {
    const s = this.config.get('schema');
    this.addSql(`alter table "${s}"."stock_items" add column "order_id" uuid null`);
    this.addSql(`create index "stock_items_order_idx" on "${s}"."stock_items" ("order_id") where "order_id" is not null`);
  }
}
