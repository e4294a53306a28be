import { Migration } from '@dme/platform';

/**
 * Rental money terms (issue 29): a rental product's deposit, late fee per day, grace days and
 * late-fee cap, as one JSON value in the wire form of contracts `RentalTermsSchema` (null: none).
 * The order line snapshots it at checkout, so later edits do not change placed orders.
 */
export class CatalogRentalTerms extends Migration {
  override async up(): Promise<void> {
    const s = this.config.get('schema');
    this.addSql(`alter table "${s}"."products" add column "rental_terms" jsonb null`);
  }
}
