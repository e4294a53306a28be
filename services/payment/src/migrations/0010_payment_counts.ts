import { createExtensionSql, keptCountsSql, Migration } from '@dme/platform';
import { PAYMENT_COUNTS } from '../modules/payments/counts';

/**
 * Issue 30 (a year of a busy shop): accounting's payment tabs count their payments from a table
 * kept by the payments table's own triggers (platform kept-counts), not by counting up to a million
 * rows on every list request; a search by order number or customer name reads trigram indexes,
 * not every payment; the refunds still due are found on an index of their own.
 */
export class PaymentCounts extends Migration {
  override async up(): Promise<void> {
    const s = `${this.config.get('schema')}`;
    for (const statement of keptCountsSql(s, PAYMENT_COUNTS)) this.addSql(statement);
    for (const statement of createExtensionSql('pg_trgm')) this.addSql(statement);
    this.addSql(`create index "payments_number_trgm_idx" on "${s}"."payments" using gin ("order_number" public.gin_trgm_ops)`);
    this.addSql(`create index "payments_customer_trgm_idx" on "${s}"."payments" using gin ("customer_name" public.gin_trgm_ops)`);
    this.addSql(`create index "payment_refunds_due_idx" on "${s}"."payment_refunds" ("payment_id") where "status" = 'DUE'`);
  }
}
