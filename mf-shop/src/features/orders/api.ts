import { baseApi } from '@dme/api-client';
import type { CreateRequestBody, ExtendRentalResponse, OrderListResponse, OrderRequest, OrderResponse, OrderStatus } from '@dme/contracts';
import { nextOffset } from '@dme/ui';

/** Lists are loaded 100 at a time (the API's maximum); past that the page offers "Load more". */
export const LIST_PAGE = 100;

/**
 * My orders, one order, cancelling it, filing a fix or replace request and extending a rental;
 * lists refresh at once after a change (tags). A paged list refetched on an invalidation (live
 * updates too) loads again from offset 0 as many pages as were shown.
 */
export const ordersApi = baseApi.injectEndpoints({
  endpoints: (b) => ({
    /** My orders of a type and status, 100 at a time (the tables are not paginated: "Load more"). */
    myOrders: b.infiniteQuery<OrderListResponse, { type: 'BUY' | 'RENT'; status?: OrderStatus }, number>({
      infiniteQueryOptions: { initialPageParam: 0, getNextPageParam: nextOffset },
      query: ({ queryArg: { type, status }, pageParam }) => ({ url: '/my/orders', params: { type, limit: LIST_PAGE, offset: pageParam, ...(status ? { status } : {}) } }),
      providesTags: [{ type: 'Order', id: 'LIST' }],
    }),
    myOrder: b.query<OrderResponse, string>({ query: (id) => `/my/orders/${id}`, providesTags: (_r, _e, id) => [{ type: 'Order', id }] }),
    cancelOrder: b.mutation<OrderResponse, string>({
      query: (id) => ({ url: `/orders/${id}/transitions`, method: 'POST', body: { to: 'CANCELLED' } }),
      invalidatesTags: (_r, _e, id) => [{ type: 'Order', id }, { type: 'Order', id: 'LIST' }, { type: 'Product', id: 'LIST' }],
    }),
    /** A fix or replace request on my ongoing rental: the order, its payment and its requests load again. */
    createRequest: b.mutation<{ request: OrderRequest }, { orderId: string; body: CreateRequestBody }>({
      query: ({ orderId, body }) => ({ url: `/my/orders/${orderId}/requests`, method: 'POST', body }),
      invalidatesTags: ['Order', 'Payment'],
    }),
    /**
     * More days for my ongoing rental (issue 25): `days` more on every rental line. The server
     * checks the units are free, re-prices and moves the due date; the order (its total and
     * payment) loads again.
     */
    extendRental: b.mutation<ExtendRentalResponse, { orderId: string; days: number }>({
      query: ({ orderId, days }) => ({ url: `/my/orders/${orderId}/extend`, method: 'POST', body: { days } }),
      invalidatesTags: (_r, _e, { orderId }) => [{ type: 'Order', id: orderId }, { type: 'Order', id: 'LIST' }, 'Payment'],
    }),
  }),
});

export const { useMyOrdersInfiniteQuery, useMyOrderQuery, useCancelOrderMutation, useCreateRequestMutation, useExtendRentalMutation } = ordersApi;
