import { Migration } from '@dme/platform';

/**
 * Dated rentals (issue 25): a rental line (in the cart and on the order) carries its first day, a
 * Manila date. Orders placed before keep null: they started on their order day.
 */
export class OrderingRentalStart extends Migration {
  override async up(): Promise<void> {
    const s = this.config.get('schema');
    this.addSql(`alter table "${s}"."cart_items" add column "start_date" date null`);
    this.addSql(`alter table "${s}"."order_lines" add column "start_date" date null`);
  }
}
