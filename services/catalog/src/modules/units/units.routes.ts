import type { HandlersOf } from '@dme/platform';
import { em } from '../bins/bin.routes';
import { custodyCsv, custodyEpcis, unitCustody, orderCustody } from './custody-export';
import { getUnit, takeStep, unitBoard } from './units.service';
import { auditBin, binAudits, moveUnit } from './audits.service';

type UnitHandlers = Pick<HandlersOf<'catalog'>, 'unitsBoard' | 'unitsGet' | 'unitsStep' | 'unitsCustody' | 'orderCustody' | 'unitsMove' | 'binsAuditsCreate' | 'binsAuditsList'>;

/** A unit between rentals and its chain of custody (issue 26). `changed` runs after a step (counts and availability change). */
export function unitHandlers(changed: () => void): UnitHandlers {
  return {
    unitsBoard: (ctx, { query }) => unitBoard(em(ctx), query),
    unitsGet: (ctx, { params }) => getUnit(em(ctx), params.serialCode),
    async unitsStep(ctx, { params, body, principal }) {
      const answer = await takeStep(em(ctx), params.serialCode, body, principal);
      changed();
      return answer;
    },
    async unitsMove(ctx, { params, body, principal }) {
      await moveUnit(em(ctx), params.serialCode, body.warehouseBinID, principal);
      changed();
      return getUnit(em(ctx), params.serialCode);
    },
    binsAuditsCreate: async (ctx, { params, body, principal }) => ({ audit: await auditBin(em(ctx), params.id, body.serialCodes, principal) }),
    binsAuditsList: (ctx, { params, query }) => binAudits(em(ctx), params.id, query.limit, query.offset),
    async unitsCustody(ctx, { params, query }) {
      const { name, rows } = await unitCustody(em(ctx), params.serialCode);
      send(ctx, name, query.format, rows);
    },
    async orderCustody(ctx, { params, query }) {
      const { name, rows } = await orderCustody(em(ctx), params.orderId);
      send(ctx, name, query.format, rows);
    },
  };
}

/** A custody export as a download: CSV, or EPCIS 2.0 JSON-LD. */
function send(ctx: Parameters<UnitHandlers['unitsCustody']>[0], name: string, format: 'csv' | 'epcis', rows: Parameters<typeof custodyCsv>[0]): void {
  ctx.set('Cache-Control', 'no-store');
  if (format === 'csv') {
    ctx.type = 'text/csv; charset=utf-8';
    ctx.set('Content-Disposition', `attachment; filename="custody-${name}.csv"`);
    ctx.body = custodyCsv(rows);
  } else {
    ctx.type = 'application/ld+json; charset=utf-8';
    ctx.set('Content-Disposition', `attachment; filename="custody-${name}.jsonld"`);
    ctx.body = JSON.stringify(custodyEpcis(rows, new Date()), null, 2);
  }
}
