import { baseApi } from '@dme/api-client';
import type { BinListResponse, Product } from '@dme/contracts';

/** Endpoints more than one feature reads: the bins (bins, stock) and a product (products, stock). */
export const sharedApi = baseApi.injectEndpoints({
  endpoints: (b) => ({
    bins: b.query<BinListResponse, { limit: number; offset: number; search?: string }>({
      query: (params) => ({ url: '/warehouse-bins', params }),
      providesTags: (r) => [{ type: 'Bin', id: 'LIST' }, ...(r?.items ?? []).map((x) => ({ type: 'Bin' as const, id: x.id }))],
    }),
    product: b.query<{ product: Product }, string>({
      query: (id) => `/admin/products/${id}`,
      providesTags: (_r, _e, id) => [{ type: 'Product', id }],
    }),
  }),
});

export const { useBinsQuery, useProductQuery } = sharedApi;
