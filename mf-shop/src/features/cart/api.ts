import { baseApi } from '@dme/api-client';
import type { CartItemResponse, CartResponse, CartType } from '@dme/contracts';

/** The cart of a type (rent or buy); a removal refreshes it at once. */
export const cartApi = baseApi.injectEndpoints({
  endpoints: (b) => ({
    cart: b.query<CartResponse, CartType>({
      query: (type) => ({ url: '/cart', params: { type } }),
      providesTags: (_r, _e, type) => [{ type: 'Cart', id: type }],
    }),
    /** A cart line's quantity and rental start (issue 25: the server checks the new days like adding). */
    updateCartItem: b.mutation<CartItemResponse, { id: string; type: CartType; quantity: number; startDate?: string }>({
      query: ({ id, quantity, startDate }) => ({ url: `/cart/${id}`, method: 'PATCH', body: { quantity, ...(startDate ? { startDate } : {}) } }),
      invalidatesTags: (_r, _e, arg) => [{ type: 'Cart', id: arg.type }],
    }),
    removeFromCart: b.mutation<void, { id: string; type: CartType }>({
      query: ({ id }) => ({ url: `/cart/${id}`, method: 'DELETE' }),
      invalidatesTags: (_r, _e, arg) => [{ type: 'Cart', id: arg.type }],
    }),
  }),
});

export const { useCartQuery, useRemoveFromCartMutation, useUpdateCartItemMutation } = cartApi;
