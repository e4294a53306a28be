import { baseApi } from '@dme/api-client';
import type { CartResponse, CartType, OrderQuoteRequest, OrderQuoteResponse, OrderResponse, PlaceOrderRequest } from '@dme/contracts';

/** Placing an order, from the cart or a bulk order: the cart, my orders and the stock shown refresh. */
export const checkoutApi = baseApi.injectEndpoints({
  endpoints: (b) => ({
    /** The cart a checkout is about to place, with the server's line totals and total (the Review Address summary). */
    checkoutCart: b.query<CartResponse, CartType>({
      query: (type) => ({ url: '/cart', params: { type } }),
      providesTags: (_r, _e, type) => [{ type: 'Cart', id: type }],
    }),
    /** A bulk order's lines as the server prices them (the Review Address summary); reserves nothing. */
    orderQuote: b.query<OrderQuoteResponse, OrderQuoteRequest>({
      query: (body) => ({ url: '/orders/quote', method: 'POST', body }),
      providesTags: [{ type: 'Product', id: 'LIST' }],
    }),
    placeOrder: b.mutation<OrderResponse, { body: PlaceOrderRequest; idempotencyKey: string }>({
      query: ({ body, idempotencyKey }) => ({ url: '/orders', method: 'POST', body, headers: { 'Idempotency-Key': idempotencyKey } }),
      invalidatesTags: (_r, _e, arg) => [{ type: 'Cart', id: arg.body.type === 'RENT' ? 'RENT' : 'BUY' }, { type: 'Order', id: 'LIST' }, { type: 'Product', id: 'LIST' }],
    }),
  }),
});

export const { useCheckoutCartQuery, useOrderQuoteQuery, usePlaceOrderMutation } = checkoutApi;
