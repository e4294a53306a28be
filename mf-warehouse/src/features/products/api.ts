import { baseApi } from '@dme/api-client';
import type { Product, ProductListResponse, ProductRequest } from '@dme/contracts';

/** The products list and a product's changes; lists refresh at once after a change (tags). */
export const productsApi = baseApi.injectEndpoints({
  endpoints: (b) => ({
    products: b.query<ProductListResponse, { limit: number; offset: number; search?: string; type?: string }>({
      query: (params) => ({ url: '/admin/products', params }),
      providesTags: (r) => [{ type: 'Product', id: 'LIST' }, ...(r?.items ?? []).map((x) => ({ type: 'Product' as const, id: x.id }))],
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
  }),
});

export const { useProductsQuery, useCreateProductMutation, useUpdateProductMutation, useDeleteProductMutation } = productsApi;
