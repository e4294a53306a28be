import { runService } from '@dme/platform';
import { ReportingEnv } from './config';
import { createApp, entities, ExportRunner, failInterruptedExports, migrations, startReportingConsumers } from './app';
import { purgeReportingHousekeeping } from './housekeeping';
import { startReportDayFold } from './modules/reports/days';

await runService({
  name: 'reporting',
  schema: 'reporting',
  env: ReportingEnv,
  entities,
  migrations,
  // The reports' days a change touched, recomputed every few seconds (one replica at a time).
  workers: ({ orm, logger }) => [startReportDayFold({ em: orm.em, logger })],
  createApp: ({ orm, config, logger }) => createApp({ orm, config, logger, exports: new ExportRunner(orm.em, logger, config.EXPORT_DIR) }),
  // Built from events only: catalog products, orders and their status changes, payments. Before
  // that, export jobs a previous process left RUNNING are marked FAILED (it will not finish them).
  consumers: async ({ nc, orm, logger, background }) => {
    const failed = await failInterruptedExports(orm.em.fork());
    if (failed) logger.warn({ failed }, 'reporting: exports interrupted by a restart marked FAILED');
    return startReportingConsumers({ nc, em: orm.em, logger, connections: background });
  },
  housekeeping: {
    everyMs: 10 * 60_000,
    run: async ({ orm, logger }) => {
      const purged = await purgeReportingHousekeeping(orm.em.fork());
      if (purged.exports || purged.stale) logger.info({ purged }, 'housekeeping: reporting exports purged');
    },
  },
});
