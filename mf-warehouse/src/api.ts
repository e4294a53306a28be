import { baseApi } from '@dme/api-client';
import type {
  AddStockRequest,
  AddStockResponse,
  Bin,
  BinListResponse,
  BinRequest,
  Product,
  ProductListResponse,
  ProductRequest,
  StockListResponse,
} from '@dme/contracts';

export interface StockArgs {
  productID?: string;
  productVariantID?: string;
  productSubVariantID?: string;
  warehouseBinID?: string;
  limit: number;
  offset: number;
}

/** The warehouse's endpoints, with list and item tags so lists refresh at once after a change. */
export const warehouseApi = baseApi.injectEndpoints({
  endpoints: (b) => ({
    bins: b.query<BinListResponse, { limit: number; offset: number; search?: string }>({
      query: (params) => ({ url: '/warehouse-bins', params }),
      providesTags: (r) => [{ type: 'Bin', id: 'LIST' }, ...(r?.items ?? []).map((x) => ({ type: 'Bin' as const, id: x.id }))],
    }),
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

    products: b.query<ProductListResponse, { limit: number; offset: number; search?: string; type?: string }>({
      query: (params) => ({ url: '/admin/products', params }),
      providesTags: (r) => [{ type: 'Product', id: 'LIST' }, ...(r?.items ?? []).map((x) => ({ type: 'Product' as const, id: x.id }))],
    }),
    product: b.query<{ product: Product }, string>({
      query: (id) => `/admin/products/${id}`,
      providesTags: (_r, _e, id) => [{ type: 'Product', id }],
    }),
    createProduct: b.mutation<{ product: Product }, ProductRequest>({
      query: (body) => ({ url: '/products', method: 'POST', body }),
      invalidatesTags: [{ type: 'Product', id: 'LIST' }],
    }),
    updateProduct: b.mutation<{ product: Product }, { id: string; body: ProductRequest }>({
      query: ({ id, body }) => ({ url: `/products/${id}`, method: 'PATCH', body }),
      invalidatesTags: (_r, _e, { id }) => [{ type: 'Product', id }, { type: 'Product', id: 'LIST' }],
    }),
    deleteProduct: b.mutation<{ result: 'deleted' | 'archived'; message: string }, string>({
      query: (id) => ({ url: `/products/${id}`, method: 'DELETE' }),
      invalidatesTags: (_r, _e, id) => [{ type: 'Product', id }, { type: 'Product', id: 'LIST' }],
    }),

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

export const {
  useBinsQuery,
  useBinQuery,
  useCreateBinMutation,
  useUpdateBinMutation,
  useDeleteBinMutation,
  useBinStocksQuery,
  useProductsQuery,
  useProductQuery,
  useCreateProductMutation,
  useUpdateProductMutation,
  useDeleteProductMutation,
  useStocksQuery,
  useAddStockMutation,
} = warehouseApi;
