import { baseApi } from '@dme/api-client';
import type { Bin, BinRequest, StockListResponse } from '@dme/contracts';

/** A warehouse bin, its changes and its stock; lists refresh at once after a change (tags). */
export const binsApi = baseApi.injectEndpoints({
  endpoints: (b) => ({
    bin: b.query<{ bin: Bin }, string>({ query: (id) => `/warehouse-bins/${id}`, providesTags: (_r, _e, id) => [{ type: 'Bin', id }] }),
    createBin: b.mutation<{ bin: Bin }, BinRequest>({
      query: (body) => ({ url: '/warehouse-bins', method: 'POST', body }),
      invalidatesTags: [{ type: 'Bin', id: 'LIST' }],
    }),
    updateBin: b.mutation<{ bin: Bin }, { id: string; body: BinRequest }>({
      query: ({ id, body }) => ({ url: `/warehouse-bins/${id}`, method: 'PATCH', body }),
      invalidatesTags: (_r, _e, { id }) => [{ type: 'Bin', id }, { type: 'Bin', id: 'LIST' }],
    }),
    deleteBin: b.mutation<void, string>({
      query: (id) => ({ url: `/warehouse-bins/${id}`, method: 'DELETE' }),
      invalidatesTags: (_r, _e, id) => [{ type: 'Bin', id }, { type: 'Bin', id: 'LIST' }],
    }),
    binStocks: b.query<StockListResponse, { id: string; limit: number; offset: number }>({
      query: ({ id, limit, offset }) => ({ url: `/warehouse-bins/${id}/stocks`, params: { limit, offset } }),
      providesTags: [{ type: 'Stock', id: 'LIST' }],
    }),
  }),
});

export const { useBinQuery, useCreateBinMutation, useUpdateBinMutation, useDeleteBinMutation, useBinStocksQuery } = binsApi;
