import { Migration } from '@dme/platform';

/**
 * The daily reconciliation (issue 29): its runs (one DAILY run per Manila day, whichever replica
 * takes it; MANUAL runs asked for by accounting) and the mismatches each found.
 */
export class PaymentReconciliation extends Migration {
  override async up(): Promise<void> {
    const s = this.config.get('schema');
    this.addSql(`create table "${s}"."reconciliation_runs" (
      "id" uuid primary key,
      "day" date not null,
      "kind" varchar(10) not null check ("kind" in ('DAILY','MANUAL')),
      "status" varchar(10) not null check ("status" in ('RUNNING','DONE','FAILED')),
      "started_at" timestamptz not null default now(),
      "finished_at" timestamptz null,
      "checked" int not null default 0,
      "mismatches" int not null default 0,
      "started_by_name" varchar(200) null
    )`);
    // One daily run per day: a second replica's insert of the same day writes nothing.
    this.addSql(`create unique index "reconciliation_runs_daily_uq" on "${s}"."reconciliation_runs" ("day") where "kind" = 'DAILY'`);
    this.addSql(`create index "reconciliation_runs_started_idx" on "${s}"."reconciliation_runs" ("started_at" desc)`);
    this.addSql(`create table "${s}"."reconciliation_mismatches" (
      "run_id" uuid not null references "${s}"."reconciliation_runs" ("id") on delete cascade,
      "n" int not null,
      "payment_id" uuid not null,
      "order_number" varchar(30) not null,
      "check" varchar(30) not null,
      "expected" varchar(40) not null,
      "actual" varchar(40) not null,
      "detail" text not null,
      primary key ("run_id", "n")
    )`);
  }
}
