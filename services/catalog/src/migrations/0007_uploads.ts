import { blobTableSql, Migration } from '@dme/platform';

/**
 * Uploads in the database (issue 14): every catalog replica serves what another stored; files of
 * an older installation's upload folder are copied in at start (media.service importUploadDir).
 */
export class CatalogUploads extends Migration {
  override async up(): Promise<void> {
    const s = this.config.get('schema');
    this.addSql(blobTableSql(String(s)));
  }
}
