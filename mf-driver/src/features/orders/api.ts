import { baseApi } from '@dme/api-client';
import { nextOffset } from '@dme/ui';
import type { DriverScanPurpose, DriverScanRequest, DriverScanResponse, HandoverRequest, HandoverResponse, OrderListResponse, OrderResponse } from '@dme/contracts';

/** A driver's list is loaded 100 at a time (the API's maximum); the page offers "Load more" past that. */
export const DRIVER_ORDERS_PAGE = 100;

/**
 * The driver's endpoints (SPEC §2 DRIVER, §4): the lists and details carry the Order tags, so a
 * scan (and a live update) refreshes them at once.
 */
export const driverApi = baseApi.injectEndpoints({
  endpoints: (b) => ({
    driverOrders: b.infiniteQuery<OrderListResponse, DriverScanPurpose, number>({
      infiniteQueryOptions: { initialPageParam: 0, getNextPageParam: nextOffset },
      query: ({ queryArg, pageParam }) => ({ url: '/driver/orders', params: { purpose: queryArg, limit: DRIVER_ORDERS_PAGE, offset: pageParam } }),
      providesTags: (r) => [{ type: 'Order', id: 'LIST' }, ...(r?.pages ?? []).flatMap((p) => p.items.map((o) => ({ type: 'Order' as const, id: o.id })))],
    }),
    driverOrder: b.query<OrderResponse, string>({
      query: (id) => `/driver/orders/${encodeURIComponent(id)}`,
      providesTags: (_r, _e, id) => [{ type: 'Order', id }],
    }),
    /** Takes an order out for delivery, delivers it, or takes a rental for pick-up: the server decides by its status. */
    driverScan: b.mutation<DriverScanResponse, DriverScanRequest>({
      query: (body) => ({ url: '/driver/scan', method: 'POST', body }),
      invalidatesTags: (r) => [{ type: 'Order', id: 'LIST' }, ...(r ? [{ type: 'Order' as const, id: r.order.id }] : [])],
    }),
    /**
     * Records a hand-over at the door (issue 28): handed over (delivered, picked up) or a failed
     * attempt. `body.key` makes a retry safe: the same key answers the first result.
     */
    driverHandover: b.mutation<HandoverResponse, { id: string; body: HandoverRequest }>({
      query: ({ id, body }) => ({ url: `/driver/orders/${encodeURIComponent(id)}/handover`, method: 'POST', body }),
      invalidatesTags: (r) => [{ type: 'Order', id: 'LIST' }, ...(r ? [{ type: 'Order' as const, id: r.order.id }] : [])],
    }),
  }),
});

export const { useDriverOrdersInfiniteQuery, useDriverOrderQuery, useDriverScanMutation, useDriverHandoverMutation } = driverApi;
