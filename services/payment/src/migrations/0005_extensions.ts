import { Migration } from '@dme/platform';

/**
 * A rental's changes of days (issue 29, part 4): each extension or early end the order service
 * priced (its number on the order, days, what it did to the total, by whom), kept on the payment
 * once per number so the invoice of the payment that pays it shows it.
 */
export class PaymentExtensions extends Migration {
  override async up(): Promise<void> {
    const s = this.config.get('schema');
    this.addSql(`alter table "${s}"."payments" add column "extensions" jsonb not null default '[]'::jsonb`);
  }
}
