import type { Context } from 'koa';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { HandlersOf } from '@dme/platform';
import { exportFile, getExport, XLSX_TYPE, type ExportRunner } from '../exports/export.service';
import { getReport } from './report.service';

const em = (ctx: Context) => ctx.state.em as EntityManager;

/** The reporting routes (contract: reportsGet, reportsExportStart/Get/File; SUPERADMIN via 'report:read'). */
export function reportingHandlers(runner: ExportRunner): HandlersOf<'reporting'> {
  return {
    reportsGet: (ctx, { params, query }) => getReport(em(ctx), params.report, query),
    reportsExportStart: async (_ctx, { params, body, principal }) => ({ export: await runner.start(params.report, body, principal.userId) }),
    reportsExportGet: async (ctx, { params, principal }) => ({ export: await getExport(em(ctx), params.id, principal.userId) }),
    async reportsExportFile(ctx, { params, principal }) {
      const { file, fileName } = await exportFile(em(ctx), params.id, principal.userId);
      ctx.type = XLSX_TYPE;
      ctx.set('Content-Disposition', `attachment; filename="${fileName}"`);
      ctx.set('Cache-Control', 'private, no-store');
      ctx.body = file.body;
      ctx.length = file.size;
      return undefined;
    },
  };
}
