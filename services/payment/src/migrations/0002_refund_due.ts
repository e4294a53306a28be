import { Migration } from '@dme/platform';

/**
 * REFUND_DUE (issue 22): a payment taken for an order that was cancelled meanwhile keeps its
 * records and shows that what was paid is owed back (the amount is the payment's amount_paid).
 */
export class PaymentRefundDue extends Migration {
  override async up(): Promise<void> {
    const s = this.config.get('schema');
    this.addSql(`alter table "${s}"."payments" drop constraint "payments_status_check"`);
    this.addSql(`alter table "${s}"."payments" add constraint "payments_status_check"
      check ("status" in ('PENDING','INITIAL_PAYMENT','FOR_FULL_PAYMENT','PAID','CANCELLED','REFUND_DUE'))`);
  }
}
