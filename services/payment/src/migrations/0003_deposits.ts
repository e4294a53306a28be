import { Migration } from '@dme/platform';

/**
 * Deposits and late fees (issue 29): a rental's deposit (asked with its first payment, held once
 * that is taken), and at its full payment the late fees within the extra charge, the deposit
 * taken for the charges and what is refunded of it. Each payment record says how much of it was
 * deposit.
 */
export class PaymentDeposits extends Migration {
  override async up(): Promise<void> {
    const s = this.config.get('schema');
    this.addSql(`alter table "${s}"."payments"
      add column "deposit" numeric(12,2) not null default 0 check ("deposit" >= 0),
      add column "deposit_held" numeric(12,2) not null default 0 check ("deposit_held" >= 0),
      add column "late_fees" numeric(12,2) null check ("late_fees" >= 0),
      add column "deposit_applied" numeric(12,2) null check ("deposit_applied" >= 0),
      add column "deposit_refund" numeric(12,2) null check ("deposit_refund" >= 0)`);
    this.addSql(`alter table "${s}"."payment_records" add column "deposit" numeric(12,2) not null default 0 check ("deposit" >= 0)`);
  }
}
