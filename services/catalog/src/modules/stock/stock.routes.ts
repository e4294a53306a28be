import type { HandlersOf } from '@dme/platform';
import { notFound } from '@dme/platform';
import { em } from '../bins/bin.routes';
import { addStock, getStockItem, getStockItemBySerial, listStock } from './stock.service';
import { labelSheetPdf, qrPng } from './labels';

type StockHandlers = Pick<HandlersOf<'catalog'>, 'stocksList' | 'stocksCreate' | 'stocksGet' | 'stocksBySerial' | 'stocksQr' | 'stockBatchLabels'>;

/** `changed` runs after stock was added (clears the list caches, kicks the outbox relay). */
export function stockHandlers(changed: () => void): StockHandlers {
  return {
    stocksList: (ctx, { query }) => listStock(em(ctx), query),
    async stocksCreate(ctx, { body, principal }) {
      const result = await addStock(em(ctx), body, { userId: principal.userId, name: principal.username });
      changed();
      return result;
    },
    // Packing checks each scan against its line before the order is sent (the catalog decides again then).
    stocksGet: async (ctx, { params }) => ({ item: await getStockItem(em(ctx), params.id) }),
    stocksBySerial: async (ctx, { params }) => ({ item: await getStockItemBySerial(em(ctx), params.serialCode) }),
    async stocksQr(ctx, { params, query }) {
      const item = await getStockItem(em(ctx), params.id);
      ctx.type = 'image/png';
      ctx.set('Content-Disposition', 'attachment; filename="QR_Code.png"');
      ctx.set('Cache-Control', 'private, max-age=3600');
      ctx.body = await qrPng(item, query.payload);
    },
    async stockBatchLabels(ctx, { params }) {
      const { items } = await listStock(em(ctx), { batchID: params.id, limit: 500, offset: 0 });
      if (items.length === 0) throw notFound('Stock batch not found.');
      items.sort((a, b) => a.serialCode.localeCompare(b.serialCode));
      ctx.type = 'application/pdf';
      ctx.set('Content-Disposition', `attachment; filename="labels-${items[0]!.serialCode}.pdf"`);
      ctx.set('Cache-Control', 'private, max-age=3600');
      ctx.body = await labelSheetPdf(items);
    },
  };
}
