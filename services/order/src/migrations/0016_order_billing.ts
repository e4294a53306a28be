import { Migration } from '@dme/platform';

/**
 * Billing cycles (issue 29): how an order's rent is billed, decided once when it is placed
 * (rental-money `orderBilling`) — an extension later does not change it, as the payment keeps it too.
 */
export class OrderingBilling extends Migration {
  override async up(): Promise<void> {
    const s = this.config.get('schema');
    this.addSql(`alter table "${s}"."orders" add column "billing" varchar(7) not null default 'UPFRONT' check ("billing" in ('UPFRONT','CYCLES'))`);
  }
}
