import { keptCountsSql, Migration } from '@dme/platform';
import { ORDER_PAYMENT_COUNTS } from '../modules/orders/counts';

/**
 * Issue 30 (a year of a busy shop): the ongoing rentals' tabs counted every rental with its
 * customer and payment on each request (0.5 s at 100,000 rentals). The Picked up tab (rentals whose
 * payment is PAID) now counts from counts kept by the payment mirror's own triggers (platform
 * kept-counts), by the order's type kept beside each mirror.
 */
export class OrderingRentalPaymentCounts extends Migration {
  override async up(): Promise<void> {
    const s = `${this.config.get('schema')}`;
    this.addSql(`alter table "${s}"."order_payments" add column "order_type" varchar(4) null`);
    this.addSql(`update "${s}"."order_payments" p set "order_type" = o."type" from "${s}"."orders" o where o."id" = p."order_id"`);
    this.addSql(`alter table "${s}"."order_payments" alter column "order_type" set not null`);
    for (const statement of keptCountsSql(s, ORDER_PAYMENT_COUNTS)) this.addSql(statement);
  }
}
