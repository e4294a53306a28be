import { baseApi } from '@dme/api-client';
import type { AddStockRequest, AddStockResponse, StockListResponse } from '@dme/contracts';

export interface StockArgs {
  productID?: string;
  productVariantID?: string;
  productSubVariantID?: string;
  warehouseBinID?: string;
  limit: number;
  offset: number;
}

/** The stock of a product (or variant, sub-variant) and adding stock: counts and lists refresh at once. */
export const stockApi = baseApi.injectEndpoints({
  endpoints: (b) => ({
    stocks: b.query<StockListResponse, StockArgs>({
      query: (params) => ({ url: '/stocks', params }),
      providesTags: [{ type: 'Stock', id: 'LIST' }],
    }),
    addStock: b.mutation<AddStockResponse, AddStockRequest>({
      query: (body) => ({ url: '/stocks', method: 'POST', body }),
      invalidatesTags: (_r, _e, arg) => [{ type: 'Stock', id: 'LIST' }, { type: 'Product', id: arg.productID }, { type: 'Product', id: 'LIST' }, { type: 'Bin', id: 'LIST' }],
    }),
  }),
});

export const { useStocksQuery, useAddStockMutation } = stockApi;
