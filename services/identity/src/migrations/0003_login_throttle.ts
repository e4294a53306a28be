import { Migration } from '@dme/platform';

/**
 * Sign-in throttling counters (modules/auth/throttle.ts), shared by every identity replica.
 * One row per key: a failure count in a fixed window that ends at `window_ends_at` (database
 * clock). Keys are hashes (`pair:`, `ip:`, `acct:` + SHA-256), so the table keeps no list of the
 * usernames and addresses that were tried. Housekeeping deletes rows whose window has ended.
 */
export class IdentityLoginThrottle extends Migration {
  override async up(): Promise<void> {
    const s = this.config.get('schema');
    this.addSql(`create table "${s}"."login_throttle" (
      "key" varchar(80) primary key,
      "failures" integer not null default 0,
      "window_ends_at" timestamptz not null
    )`);
    this.addSql(`create index "login_throttle_window_idx" on "${s}"."login_throttle" ("window_ends_at")`);
  }
}
