import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { z } from 'zod';
import { portSchema, serviceEnv } from '@dme/platform';

export const ReportingEnv = z.object({
  ...serviceEnv,
  PORT: portSchema.default(4105),
  /** Where an Excel export is written while it runs (the finished file is kept in the database, 24 h). */
  EXPORT_DIR: z.string().min(1).default(join(tmpdir(), 'dme-report-exports')),
});
export type ReportingConfig = z.output<typeof ReportingEnv>;
