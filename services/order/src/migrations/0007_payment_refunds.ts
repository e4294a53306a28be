import { Migration } from '@dme/platform';

/**
 * The payment read model learns two more things (issue 22): the payment record's own id, so the
 * customer's order can offer each record's invoice (null for records whose event did not carry it),
 * and a refund due (`dme.payment.refund_due`: a payment taken for an order cancelled meanwhile).
 */
export class OrderingPaymentRefunds extends Migration {
  override async up(): Promise<void> {
    const s = this.config.get('schema');
    this.addSql(`alter table "${s}"."order_payment_records" add column "payment_record_id" uuid null`);
    this.addSql(`alter table "${s}"."order_payments" add column "refund_due" numeric(12,2) null check ("refund_due" >= 0)`);
  }
}
