import { keptCountsSql, Migration } from '@dme/platform';
import { ORDER_COUNTS } from '../modules/orders/counts';

/**
 * Issue 30 (a year of a busy shop): the staff's order tabs count their orders from a table kept by
 * the orders table's own triggers (platform kept-counts: how they are kept and folded), not by
 * counting up to a million rows on every list request.
 */
export class OrderingOrderCounts extends Migration {
  override async up(): Promise<void> {
    for (const statement of keptCountsSql(`${this.config.get('schema')}`, ORDER_COUNTS)) this.addSql(statement);
  }
}
