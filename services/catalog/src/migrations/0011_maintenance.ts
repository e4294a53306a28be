import { Migration } from '@dme/platform';

/**
 * Preventive maintenance (issue 26): a rental product's plan (every N rental days and/or every M
 * calendar days, with a checklist), each unit's last service day (Manila; its stocking day until
 * it is first serviced), and the custody entry of a service.
 */
export class CatalogMaintenance extends Migration {
  override async up(): Promise<void> {
    const s = this.config.get('schema');
    this.addSql('set constraints all immediate');
    this.addSql(`alter table "${s}"."products"
      add column "service_every_rental_days" int null check ("service_every_rental_days" between 1 and 3650),
      add column "service_every_days" int null check ("service_every_days" between 1 and 3650),
      add column "service_checklist" jsonb not null default '[]'::jsonb`);
    this.addSql(`alter table "${s}"."stock_items" add column "serviced_on" date not null default ((now() at time zone 'Asia/Manila')::date)`);
    this.addSql(`alter table "${s}"."custody_events" drop constraint "custody_events_kind_check"`);
    this.addSql(`alter table "${s}"."custody_events" add constraint "custody_events_kind_check" check ("kind" in (
      'STOCKED','MOVED','PACKED','OUT_FOR_DELIVERY','DELIVERED','PICKED_UP','RETURNED','CLEANED','INSPECTED',
      'PUT_AWAY','REPAIR_OPENED','REPAIRED','SCRAPPED','HELD','RELEASED','FOUND','WRITTEN_OFF','SERVICED'))`);
    // Data last: a unit there already counts from the day it was stocked.
    this.addSql(`update "${s}"."stock_items" set "serviced_on" = ("created_at" at time zone 'Asia/Manila')::date`);
    this.addSql('set constraints all deferred');
  }
}
