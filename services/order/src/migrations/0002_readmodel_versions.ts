import { Migration } from '@dme/platform';

/**
 * Read models remember the version of what they hold and apply only newer events (DESIGN §7).
 * Existing rows were built from events that all said version 1, so they start at 1.
 *
 * - customers.version: the version of the snapshot (names, contact...) held;
 *   customers.status_version: the version that last set status / deleted (a status change can
 *   arrive before the registration it follows when a delivery is retried).
 * - products.version: the version of the snapshot held, or of the deletion; products.deleted: a
 *   tombstone, so a redelivered older update cannot bring a deleted product back.
 */
export class OrderingReadModelVersions extends Migration {
  override async up(): Promise<void> {
    const s = this.config.get('schema');
    this.addSql(`alter table "${s}"."customers" add column "version" int not null default 1, add column "status_version" int not null default 1`);
    this.addSql(`alter table "${s}"."products" add column "version" int not null default 1, add column "deleted" boolean not null default false`);
  }
}
