import { createExtensionSql, Migration } from '@dme/platform';

/**
 * Issue 30 (a year of a busy shop): the users screen's search — a username, first or last name or
 * ID number containing the words — reads trigram indexes on each, not all 200,000 customers of a
 * year (docs/benchmarks.md: 0.5 s for the page and 0.6 s for its count before).
 */
export class IdentityUserSearch extends Migration {
  override async up(): Promise<void> {
    const s = this.config.get('schema') ?? 'identity';
    for (const statement of createExtensionSql('pg_trgm')) this.addSql(statement);
    for (const column of ['username', 'first_name', 'last_name', 'id_number']) {
      this.addSql(`create index "users_${column}_trgm_idx" on "${s}"."users" using gin ("${column}" public.gin_trgm_ops)`);
    }
  }
}
