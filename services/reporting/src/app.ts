import type { MikroORM } from '@mikro-orm/postgresql';
import { createHttpApp, mountRoutes, type Logger } from '@dme/platform';
import type { ReportingConfig } from './config';
import { ExportRunner } from './modules/exports/export.service';
import { reportingHandlers } from './modules/reports/report.routes';

export interface ReportingDeps {
  orm: MikroORM;
  config: ReportingConfig;
  logger: Logger;
  /** Runs Excel export jobs (default: one on the ORM, writing under EXPORT_DIR). */
  exports?: ExportRunner;
}

/** The reporting service's HTTP app (no listen: tests use it directly). */
export function createApp(deps: ReportingDeps) {
  const app = createHttpApp({ name: 'reporting', logger: deps.logger });
  const runner = deps.exports ?? new ExportRunner(deps.orm.em, deps.logger, deps.config.EXPORT_DIR);
  app.use(async (ctx, next) => {
    ctx.state.em = deps.orm.em.fork();
    await next();
  });
  const api = mountRoutes('reporting', reportingHandlers(runner), deps.config.INTERNAL_TOKEN);
  app.use(api.routes()).use(api.allowedMethods());
  return app;
}

/** Tables are reached with SQL; the platform adds its outbox and inbox entities. */
export const entities = [];
export { migrations } from './migrations/0001_reporting';
export { ReportingEnv } from './config';
export { ExportRunner, failInterruptedExports, purgeExports } from './modules/exports/export.service';
export { startReportingConsumers, REPORTING_CONSUMERS } from './consumers/events';
export { applyReportingEvents, REPORTING_SUBJECTS } from './modules/readmodel/apply';
export { getReport, reportTotals } from './modules/reports/report.service';
export { rebuild } from './modules/rebuild/rebuild';
