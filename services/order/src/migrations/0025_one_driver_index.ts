import { Migration } from '@dme/platform';

/**
 * Issue 30: `orders_driver_work_idx` (0013, the driver's day) was the same index as
 * `orders_driver_idx` (0004): (driver_id, status) where driver_id is not null. Every write that
 * sets or moves an order's driver kept both. One stays; the planner used either.
 */
export class OrderingOneDriverIndex extends Migration {
  override async up(): Promise<void> {
    const s = this.config.get('schema');
    this.addSql(`drop index if exists "${s}"."orders_driver_work_idx"`);
  }
}
