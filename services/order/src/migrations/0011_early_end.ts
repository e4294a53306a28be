import { Migration } from '@dme/platform';

/**
 * Ending a rental early (issue 25): a change of a rental's days is an extension (more days) or an
 * early end (days taken off, down to the return day): the same numbered row per order, with its
 * kind, negative days and amount for an early end, and the return day it was ended on.
 */
export class OrderingEarlyEnd extends Migration {
  override async up(): Promise<void> {
    const s = this.config.get('schema');
    this.addSql(`alter table "${s}"."order_extensions"
      add column "kind" varchar(10) not null default 'EXTEND' check ("kind" in ('EXTEND','END_EARLY')),
      add column "return_on" date null,
      drop constraint "order_extensions_days_check",
      drop constraint "order_extensions_amount_check",
      add constraint "order_extensions_kind_days" check (("kind" = 'EXTEND' and "days" >= 1 and "amount" >= 0 and "return_on" is null)
                                                    or ("kind" = 'END_EARLY' and "days" <= -1 and "amount" <= 0 and "return_on" is not null))`);
  }
}
