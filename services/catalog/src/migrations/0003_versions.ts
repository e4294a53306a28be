import { Migration } from '@dme/platform';

/**
 * Aggregate versions (DESIGN §7): every change of a product that emits an event bumps its version
 * in the same transaction, and the event carries it, so read models can ignore older events.
 * Existing products start at 1.
 */
export class CatalogVersions extends Migration {
  override async up(): Promise<void> {
    const s = this.config.get('schema');
    this.addSql(`alter table "${s}"."products" add column "version" int not null default 1`);
  }
}
