import { Migration } from '@dme/platform';

/**
 * Physical audits of a bin (issue 26): the labels scanned, what was found against what the bin
 * should hold, who and when; and custody's RESERVED entry (a unit booked for a rental).
 */
export class CatalogBinAudits extends Migration {
  override async up(): Promise<void> {
    const s = this.config.get('schema');
    this.addSql('set constraints all immediate');
    this.addSql(`alter table "${s}"."custody_events" drop constraint "custody_events_kind_check"`);
    this.addSql(`alter table "${s}"."custody_events" add constraint "custody_events_kind_check" check ("kind" in (
      'STOCKED','MOVED','RESERVED','PACKED','OUT_FOR_DELIVERY','DELIVERED','PICKED_UP','RETURNED','CLEANED','INSPECTED',
      'PUT_AWAY','REPAIR_OPENED','REPAIRED','SCRAPPED','HELD','RELEASED','FOUND','WRITTEN_OFF','SERVICED','RECALLED'))`);
    this.addSql(`create table "${s}"."bin_audits" (
      "id" uuid primary key,
      "bin_id" uuid not null references "${s}"."warehouse_bins" ("id") deferrable initially deferred,
      "by_user_id" uuid null,
      "by_name" varchar(100) null,
      "at" timestamptz not null default now(),
      "scanned" jsonb not null,
      "result" jsonb not null
    )`);
    this.addSql(`create index "bin_audits_bin_idx" on "${s}"."bin_audits" ("bin_id", "at" desc)`);
    this.addSql('set constraints all deferred');
  }
}
