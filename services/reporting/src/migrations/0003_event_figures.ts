import { Migration } from '@dme/platform';

/**
 * Figures the events carry, stored instead of recomputed in SQL (issue 23): a full-payment
 * request's due date and balance on its status event, the balance on the order, a rental line's
 * first day (its part of the first payment, computed by the terms module at insert). Rows of older
 * events get the due date their time implies (the Manila day after, the rule of the day) and no
 * balance: the next refresh of each order computes it with the terms module.
 */
export class ReportingEventFigures extends Migration {
  override async up(): Promise<void> {
    const s = this.config.get('schema');
    this.addSql(`alter table "${s}"."order_status_events" add column "due_date" date null, add column "balance" numeric(12,2) null`);
    this.addSql(`alter table "${s}"."orders" add column "full_balance" numeric(12,2) null`);
    this.addSql(`alter table "${s}"."order_lines" add column "first_day" numeric(12,2) null`);
    this.addSql(`update "${s}"."order_lines" set "first_day" = "quantity" * "unit_price" where "no_of_rental_days" is not null`);
    this.addSql(`update "${s}"."order_status_events" set "due_date" = ("occurred_at" at time zone 'Asia/Manila')::date + 1 where "to_status" = 'FOR_FULL_PAYMENT'`);
    this.addSql(`update "${s}"."orders" set "full_balance" = "total_amount" - coalesce("partial_payment", 0) + coalesce("extra_charge", 0) where "full_asked_at" is not null`);
  }
}
