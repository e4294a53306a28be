import { Migration, rateLimitTableSql } from '@dme/platform';

/**
 * Issue 30: the limit per address of anonymous uploads (UPLOAD_ANON_MAX_PER_IP), counted here for
 * every catalog replica (platform rate-limit.ts, rate-limiter-flexible's PostgreSQL store) instead
 * of in each gateway's memory. The table is made here, so the store runs no DDL at request time.
 */
export class CatalogRateLimits extends Migration {
  override async up(): Promise<void> {
    const s = this.config.get('schema') ?? 'catalog';
    for (const statement of rateLimitTableSql(s)) this.addSql(statement);
  }
}
