import { Migration } from '@dme/platform';

/**
 * The shop search's GIN indexes take new products straight in (issue 27, found by the search
 * bench): with GIN's default fast update, products added since the last vacuum wait in the
 * index's pending list, which the planner prices as a scan of every one of them; after a batch of
 * products (an import, a seed) it skipped both indexes and read the whole table for each search,
 * each word's typo check included (p99 91 ms with 10,000 products). Products are written rarely
 * and read on every search: an insert updating the index at once costs little. What waits in the
 * lists now is moved into the indexes.
 */
export class CatalogSearchIndexDirect extends Migration {
  override async up(): Promise<void> {
    const s = this.config.get('schema');
    for (const index of ['products_search_doc_idx', 'products_search_trgm_idx']) {
      this.addSql(`alter index "${s}"."${index}" set (fastupdate = off)`);
      this.addSql(`select gin_clean_pending_list('"${s}"."${index}"'::regclass)`);
    }
  }
}
