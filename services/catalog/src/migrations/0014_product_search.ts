import { createExtensionSql, Migration } from '@dme/platform';

/**
 * The shop's search (issue 27): full-text over name (weight A), brand (B) and description (C) in
 * a stored generated column with a GIN index, and a trigram GIN index over "name brand" for typos
 * ("weelchair") and substrings ("chair" in "Wheelchair"), used by `<%` and `ilike`.
 *
 * pg_trgm is put in `public` (a database-wide extension; the catalog's queries name it as
 * `public.…`, so they do not depend on the connection's search_path). It is a trusted extension:
 * a database owner may create it; PostgreSQL 15 (contrib) and the embedded PostgreSQL 18 ship it.
 */
export class CatalogProductSearch extends Migration {
  override async up(): Promise<void> {
    const s = this.config.get('schema');
    for (const statement of createExtensionSql('pg_trgm')) this.addSql(statement);
    this.addSql(`alter table "${s}"."products" add column "search_doc" tsvector generated always as (
      setweight(to_tsvector('english'::regconfig, "name"), 'A') ||
      setweight(to_tsvector('english'::regconfig, "brand"), 'B') ||
      setweight(to_tsvector('english'::regconfig, "description"), 'C')
    ) stored`);
    this.addSql(`create index "products_search_doc_idx" on "${s}"."products" using gin ("search_doc") where "archived_at" is null`);
    this.addSql(`create index "products_search_trgm_idx" on "${s}"."products" using gin (("name" || ' ' || "brand") public.gin_trgm_ops) where "archived_at" is null`);
  }
}
