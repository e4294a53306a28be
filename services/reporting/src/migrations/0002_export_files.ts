import { blobTableSql, Migration } from '@dme/platform';

/**
 * Finished Excel exports in the database (issue 14): the replica that ran the job and the one a
 * download reaches need not be the same, and nothing may live on one replica's disk only. An
 * export is kept 24 h (housekeeping deletes the job and its file together).
 */
export class ReportingExportFiles extends Migration {
  override async up(): Promise<void> {
    this.addSql(blobTableSql(String(this.config.get('schema'))));
  }
}
