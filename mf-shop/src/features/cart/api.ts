import { baseApi } from '@dme/api-client';
import type { CartResponse, CartType } from '@dme/contracts';

/** The cart of a type (rent or buy); a removal refreshes it at once. */
export const cartApi = baseApi.injectEndpoints({
  endpoints: (b) => ({
    cart: b.query<CartResponse, CartType>({
      query: (type) => ({ url: '/cart', params: { type } }),
      providesTags: (_r, _e, type) => [{ type: 'Cart', id: type }],
    }),
    removeFromCart: b.mutation<void, { id: string; type: CartType }>({
      query: ({ id }) => ({ url: `/cart/${id}`, method: 'DELETE' }),
      invalidatesTags: (_r, _e, arg) => [{ type: 'Cart', id: arg.type }],
    }),
  }),
});

export const { useCartQuery, useRemoveFromCartMutation } = cartApi;
