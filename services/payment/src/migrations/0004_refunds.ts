import { Migration } from '@dme/platform';

/**
 * Refunds (issue 29): money owed back, each with its own number (RF-YYYYMMDD-NNNNNN), one per
 * payment and kind (the rest of a rental's deposit at its return; what was paid for an order
 * cancelled meanwhile), due until accounting records how it was paid back. A cancelled order's
 * payment is REFUNDED then.
 */
export class PaymentRefunds extends Migration {
  override async up(): Promise<void> {
    const s = this.config.get('schema');
    this.addSql(`alter table "${s}"."payments" drop constraint "payments_status_check"`);
    this.addSql(`alter table "${s}"."payments" add constraint "payments_status_check"
      check ("status" in ('PENDING','INITIAL_PAYMENT','FOR_FULL_PAYMENT','PAID','CANCELLED','REFUND_DUE','REFUNDED'))`);
    this.addSql(`create sequence "${s}"."refund_number_seq"`);
    this.addSql(`create table "${s}"."payment_refunds" (
      "id" uuid primary key,
      "number" varchar(30) not null unique,
      "payment_id" uuid not null references "${s}"."payments" ("id"),
      "kind" varchar(12) not null check ("kind" in ('DEPOSIT','CANCELLED')),
      "amount" numeric(12,2) not null check ("amount" > 0),
      "status" varchar(10) not null default 'DUE' check ("status" in ('DUE','REFUNDED')),
      "method" varchar(20) null check ("method" in ('CASH','BANK_TRANSFER','GCASH','CARD_REVERSAL','CHECK')),
      "reference" text not null default '',
      "note" text not null default '',
      "refunded_by" uuid null,
      "refunded_by_name" text null,
      "refunded_at" timestamptz null,
      "created_at" timestamptz not null default now(),
      unique ("payment_id", "kind"),
      check (("status" = 'REFUNDED') = ("refunded_at" is not null and "method" is not null))
    )`);
    // A payment owed back before refunds had numbers gets its refund now.
    this.addSql(`insert into "${s}"."payment_refunds" ("id", "number", "payment_id", "kind", "amount", "created_at")
      select gen_random_uuid(), 'RF-' || to_char(p."updated_at" at time zone 'Asia/Manila', 'YYYYMMDD') || '-' || lpad(nextval('"${s}"."refund_number_seq"')::text, 6, '0'),
             p."id", 'CANCELLED', p."amount_paid", p."updated_at"
        from "${s}"."payments" p where p."status" = 'REFUND_DUE' and p."amount_paid" > 0 order by p."updated_at"`);
  }
}
