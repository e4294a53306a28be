import { baseApi } from '@dme/api-client';
import { nextOffset } from '@dme/ui';
import type {
  AssignableDriversResponse,
  ExtendRentalResponse,
  LateFeeWaiverRequest,
  OrderListResponse,
  OrderRequest,
  OrderResponse,
  OrderStatus,
  OrderType,
  ReturnStatus,
  TransitionRequest,
  UpdateRequestBody,
} from '@dme/contracts';

export interface StaffOrdersArgs {
  type: OrderType;
  status: OrderStatus;
  search?: string;
}

/** What a change to an order's lines (returns) touches besides the order: lists, payments and stock. */
const ORDER_CHANGE_TAGS = (id: string) => [
  { type: 'Order' as const, id },
  { type: 'Order' as const, id: 'LIST' },
  { type: 'Payment' as const, id: 'LIST' },
  { type: 'Stock' as const, id: 'LIST' },
  { type: 'Product' as const, id: 'LIST' },
];

/** Orders are loaded 100 at a time (the API's maximum); the list offers "Load more" past that. */
export const ORDERS_PAGE = 100;

/** Staff orders, their steps, returns, requests and extensions, with list and item tags. */
export const ordersApi = baseApi.injectEndpoints({
  endpoints: (b) => ({
    staffOrders: b.infiniteQuery<OrderListResponse, StaffOrdersArgs, number>({
      infiniteQueryOptions: { initialPageParam: 0, getNextPageParam: nextOffset },
      query: ({ queryArg, pageParam }) => ({
        url: '/orders',
        params: { type: queryArg.type, status: queryArg.status, ...(queryArg.search ? { search: queryArg.search } : {}), limit: ORDERS_PAGE, offset: pageParam },
      }),
      providesTags: (r) => [{ type: 'Order', id: 'LIST' }, ...(r?.pages ?? []).flatMap((p) => p.items.map((o) => ({ type: 'Order' as const, id: o.id })))],
    }),
    staffOrder: b.query<OrderResponse, string>({ query: (id) => `/orders/${id}`, providesTags: (_r, _e, id) => [{ type: 'Order', id }] }),
    /** A step of the order process (confirm, cancel, pack). Packing also changes stock and counts. */
    transitionOrder: b.mutation<OrderResponse, { id: string; body: TransitionRequest }>({
      query: ({ id, body }) => ({ url: `/orders/${id}/transitions`, method: 'POST', body }),
      invalidatesTags: (_r, _e, { id }) => ORDER_CHANGE_TAGS(id),
    }),
    /** Returns inspection (FOR_PICK_UP): a serial code comes back OK, LOST or DAMAGED; the catalog follows. */
    returnSerial: b.mutation<OrderResponse, { id: string; serialCode: string; status: ReturnStatus }>({
      query: ({ id, serialCode, status }) => ({ url: `/orders/${id}/serials/${encodeURIComponent(serialCode)}/return`, method: 'POST', body: { status } }),
      invalidatesTags: (_r, _e, { id }) => ORDER_CHANGE_TAGS(id),
    }),
    /** A fix or replace request moves PENDING → ON_PROGRESS → DONE. */
    updateRequest: b.mutation<{ request: OrderRequest }, { id: string; requestId: string; body: UpdateRequestBody }>({
      query: ({ id, requestId, body }) => ({ url: `/orders/${id}/requests/${requestId}`, method: 'PATCH', body }),
      invalidatesTags: (_r, _e, { id }) => [{ type: 'Order', id }],
    }),
    /**
     * More days for a rental (issue 25): `days` more on every rental line. The server checks the
     * units are free, re-prices and moves the due date; the order, payments and the calendar's
     * bookings load again.
     */
    extendRental: b.mutation<ExtendRentalResponse, { orderId: string; days: number }>({
      query: ({ orderId, days }) => ({ url: `/orders/${orderId}/extend`, method: 'POST', body: { days } }),
      invalidatesTags: (_r, _e, { orderId }) => ORDER_CHANGE_TAGS(orderId),
    }),
    /** The active drivers an order can be assigned to (issue 28), loaded when the dialog opens. */
    assignableDrivers: b.query<AssignableDriversResponse, void>({ query: () => '/assignable-drivers' }),
    /**
     * Assign an order waiting for a driver (TO_SHIP, FOR_RETURN) to a driver and a day, or back to
     * any driver (driverId null; issue 28). Only the order changes: it loads again.
     */
    assignOrder: b.mutation<OrderResponse & { message?: string }, { id: string; driverId: string | null; day: string | null }>({
      query: ({ id, driverId, day }) => ({ url: `/orders/${id}/assignment`, method: 'PUT', body: { driverId, day } }),
      invalidatesTags: (_r, _e, { id }) => [{ type: 'Order', id }],
    }),
    endRentalEarly: b.mutation<ExtendRentalResponse, { orderId: string; returnOn: string }>({
      query: ({ orderId, returnOn }) => ({ url: `/orders/${orderId}/end-early`, method: 'POST', body: { returnOn } }),
      invalidatesTags: (_r, _e, { orderId }) => ORDER_CHANGE_TAGS(orderId),
    }),
    /**
     * Staff waive all or part of a rental's late fees, with a reason (issue 29). The answer is the
     * order as it is now: shown at once; the lists and payments load again. A refusal because the
     * rental moved on (409) loads the order again.
     */
    waiveLateFees: b.mutation<OrderResponse, { orderId: string; body: LateFeeWaiverRequest }>({
      query: ({ orderId, body }) => ({ url: `/orders/${orderId}/late-fee-waivers`, method: 'POST', body }),
      async onQueryStarted({ orderId }, { dispatch, queryFulfilled }) {
        try {
          const { data } = await queryFulfilled;
          dispatch(ordersApi.util.upsertQueryData('staffOrder', orderId, data));
        } catch {
          // Shown by the dialog.
        }
      },
      invalidatesTags: (r, e, { orderId }) =>
        r
          ? [
              { type: 'Order', id: 'LIST' },
              { type: 'Payment', id: 'LIST' },
            ]
          : e && e.status === 409
            ? [{ type: 'Order', id: orderId }]
            : [],
    }),
  }),
});

export const { useStaffOrdersInfiniteQuery, useStaffOrderQuery, useTransitionOrderMutation, useReturnSerialMutation, useUpdateRequestMutation, useExtendRentalMutation, useEndRentalEarlyMutation, useAssignableDriversQuery, useAssignOrderMutation, useWaiveLateFeesMutation } = ordersApi;
