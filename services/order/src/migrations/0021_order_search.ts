import { createExtensionSql, Migration } from '@dme/platform';

/**
 * Issue 30 (a year of a busy shop): the staff's order search (part of an order number, or a
 * customer's name) finds its matches through trigram indexes instead of reading every order.
 * pg_trgm lives in `public`, as the catalog's product search has it (a database-wide extension;
 * created under the lock every service's migration takes for that, as they migrate side by side).
 */
export class OrderingOrderSearch extends Migration {
  override async up(): Promise<void> {
    const s = `"${this.config.get('schema')}"`;
    for (const statement of createExtensionSql('pg_trgm')) this.addSql(statement);
    this.addSql(`create index "orders_number_trgm_idx" on ${s}."orders" using gin ("order_number" public.gin_trgm_ops)`);
    this.addSql(`create index "customers_name_trgm_idx" on ${s}."customers" using gin (("first_name" || ' ' || "last_name") public.gin_trgm_ops)`);
    this.addSql(`create index "customers_full_name_trgm_idx" on ${s}."customers" using gin (("first_name" || ' ' || "middle_name" || ' ' || "last_name") public.gin_trgm_ops)`);
  }
}
