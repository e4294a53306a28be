import { Migration } from '@dme/platform';
import { rentalDueOnSql } from '../modules/rentals/due';

/**
 * Issue 30 (a year of a busy shop): the ongoing rentals' tabs computed each rental's due date from
 * its lines for every rental of a tab before sorting (193-428 ms at 100,000 rentals). A rental's
 * due date is now kept on the order by the tables' triggers (modules/rentals/due.ts), with an index
 * the tabs walk in their order (earliest due first) and the Due Date tab counts by (due by today).
 */
export class OrderingRentalDueOn extends Migration {
  override async up(): Promise<void> {
    const s = this.config.get('schema');
    for (const statement of rentalDueOnSql(`${s}`)) this.addSql(statement);
    this.addSql(`create index "orders_rentals_due_idx" on "${s}"."orders" ("status", "due_on", "created_at" desc, "id") where "type" = 'RENT'`);
  }
}
