import { Migration } from '@dme/platform';

/**
 * Reminders sent (issue 24): one row per rental and Manila day (with the kind sent). Its primary key is what
 * makes a reminder go out at most once a day whatever the number of replicas scheduling it: the
 * replica whose insert wins writes the reminder's event in the same transaction; the others
 * insert nothing and write nothing.
 */
export class OrderingReminders extends Migration {
  override async up(): Promise<void> {
    const s = this.config.get('schema');
    this.addSql(`create table "${s}"."reminders" (
      "order_id" uuid not null references "${s}"."orders" ("id") on delete cascade,
      "kind" varchar(20) not null,
      "day" date not null,
      "created_at" timestamptz not null default now(),
      primary key ("order_id", "day")
    )`);
    this.addSql(`create index "reminders_day_idx" on "${s}"."reminders" ("day")`);
  }
}
