import { Migration } from '@dme/platform';

/**
 * The driver's day (issue 28): the day staff planned an order for (with its driver, `driver_id`),
 * and the driver's own order of their stops. Both are cleared when the order waits for a driver again.
 */
export class OrderingDriverDay extends Migration {
  override async up(): Promise<void> {
    const s = this.config.get('schema');
    this.addSql(`alter table "${s}"."orders" add column "driver_day" date null, add column "stop_position" int null`);
    this.addSql(`create index "orders_driver_work_idx" on "${s}"."orders" ("driver_id", "status") where "driver_id" is not null`);
    this.addSql(`create index "orders_waiting_idx" on "${s}"."orders" ("delivery_city") where "driver_id" is null and "status" in ('TO_SHIP', 'FOR_RETURN')`);
  }
}
