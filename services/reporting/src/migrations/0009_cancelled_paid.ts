import { Migration } from '@dme/platform';

/**
 * An order cancelled after a payment was taken (the race issue 22 allows) kept the payment status
 * its payments implied (INITIAL_PAYMENT, or PAID for a purchase), so the partial invoices' overall
 * balance counted a cancelled rental's balance as owed. Its status is now what the payment
 * service's is (contracts `paymentStatusOf`): REFUND_DUE, REFUNDED once its refund is paid back.
 * The orders already held that way are set as the refresh now derives them (once; the report days
 * their update marks are folded again).
 */
export class ReportingCancelledPaid extends Migration {
  override async up(): Promise<void> {
    const s = String(this.config.get('schema'));
    this.addSql(`update "${s}"."orders" o
       set payment_status = case when exists (select 1 from "${s}"."refunds" rf where rf."order_id" = o."id" and rf."kind" = 'CANCELLED') then 'REFUNDED' else 'REFUND_DUE' end
     where o."status" = 'CANCELLED' and o."first_paid_at" is not null and o."payment_status" not in ('REFUND_DUE', 'REFUNDED')`);
  }
}
