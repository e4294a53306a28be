import type { Context } from 'koa';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { HandlersOf } from '@dme/platform';
import { createBin, deleteBin, getBin, listBins, updateBin } from './bin.service';
import { listStock } from '../stock/stock.service';

export const em = (ctx: Context) => ctx.state.em as EntityManager;

type BinHandlers = Pick<HandlersOf<'catalog'>, 'binsList' | 'binsCreate' | 'binsGet' | 'binsUpdate' | 'binsDelete' | 'binsStocks'>;

export function binHandlers(): BinHandlers {
  return {
    binsList: (ctx, { query }) => listBins(em(ctx), { ...(query.search ? { search: query.search } : {}), limit: query.limit, offset: query.offset }),
    binsCreate: async (ctx, { body }) => ({ bin: await createBin(em(ctx), body) }),
    binsGet: async (ctx, { params }) => ({ bin: await getBin(em(ctx), params.id) }),
    binsUpdate: async (ctx, { params, body }) => ({ bin: await updateBin(em(ctx), params.id, body) }),
    binsDelete: async (ctx, { params }) => {
      await deleteBin(em(ctx), params.id);
      return undefined;
    },
    binsStocks: async (ctx, { params, query }) => {
      await getBin(em(ctx), params.id);
      const { productID, productVariantID, productSubVariantID, status, limit, offset } = query;
      return listStock(em(ctx), { productID, productVariantID, productSubVariantID, status, warehouseBinID: params.id, limit, offset });
    },
  };
}
