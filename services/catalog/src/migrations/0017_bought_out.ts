import { Migration } from '@dme/platform';

/**
 * Rent-to-own (issue 29): a unit out on a rental that becomes the customer's (bought out, or its
 * billing cycles paid) moves RENTED → SOLD with the custody entry BOUGHT_OUT, which the kinds'
 * check now takes (the kinds of 0013 and BOUGHT_OUT: contracts CUSTODY_KINDS).
 */
export class CatalogBoughtOut extends Migration {
  override async up(): Promise<void> {
    const s = this.config.get('schema');
    this.addSql('set constraints all immediate');
    this.addSql(`alter table "${s}"."custody_events" drop constraint "custody_events_kind_check"`);
    this.addSql(`alter table "${s}"."custody_events" add constraint "custody_events_kind_check" check ("kind" in (
      'STOCKED','MOVED','RESERVED','PACKED','OUT_FOR_DELIVERY','DELIVERED','PICKED_UP','RETURNED','CLEANED','INSPECTED',
      'PUT_AWAY','REPAIR_OPENED','REPAIRED','SCRAPPED','HELD','RELEASED','FOUND','WRITTEN_OFF','SERVICED','RECALLED','BOUGHT_OUT'))`);
    this.addSql('set constraints all deferred');
  }
}
