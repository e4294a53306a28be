import { blobPartsTableSql, Migration } from '@dme/platform';

/**
 * Finished exports stored in parts of 1 MiB (issue 30): a year's export (tens of MB) is never
 * held whole in the process, neither when it is stored nor when it is downloaded. Files stored
 * whole before keep downloading as one part.
 */
export class ReportingExportParts extends Migration {
  override async up(): Promise<void> {
    this.addSql(blobPartsTableSql(String(this.config.get('schema'))));
  }
}
