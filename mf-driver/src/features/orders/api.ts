import { baseApi } from '@dme/api-client';
import { nextOffset } from '@dme/ui';
import type { DriverDayResponse, DriverScanPurpose, DriverScanRequest, DriverScanResponse, DriverStop, HandoverRequest, HandoverResponse, OrderListResponse, OrderResponse } from '@dme/contracts';

/** A driver's list is loaded 100 at a time (the API's maximum); the page offers "Load more" past that. */
export const DRIVER_ORDERS_PAGE = 100;

/** The body of PUT /api/driver/today/stops: each of the driver's stops once, in the new order. */
export interface StopOrder {
  orderIds: string[];
}

/** The stops in the order of `ids` (a stop the list does not name keeps its place after them). */
export function inOrder(stops: DriverStop[], ids: readonly string[]): DriverStop[] {
  const at = new Map(ids.map((id, i) => [id, i]));
  return [...stops].sort((a, b) => (at.get(a.id) ?? ids.length) - (at.get(b.id) ?? ids.length));
}

/** The newest reorder sent (an older one's answer does not overwrite a newer order), and how many are under way. */
let latestReorder = 0;
let reordering = 0;

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
    driverScan: b.mutation<DriverScanResponse, DriverScanRequest & { key?: string }>({
      // The key (issue 28): a scan sent again after a lost answer, or from the outbox, applies once.
      query: ({ key, ...body }) => ({ url: '/driver/scan', method: 'POST', body, ...(key ? { headers: { 'idempotency-key': key } } : {}) }),
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
    /** The driver's day (issue 28): the Order tags make a scan, a hand-over or a live update refresh it. */
    driverDay: b.query<DriverDayResponse, void>({
      query: () => '/driver/today',
      providesTags: (r) => [{ type: 'Order', id: 'LIST' }, ...(r?.stops ?? []).map((s) => ({ type: 'Order' as const, id: s.id }))],
    }),
    /**
     * Reorders the driver's stops: shown at once (optimistic), then the server's answer (the day)
     * replaces it; refused, the order shown before comes back.
     */
    driverStopOrder: b.mutation<DriverDayResponse, StopOrder>({
      query: (body) => ({ url: '/driver/today/stops', method: 'PUT', body }),
      async onQueryStarted({ orderIds }, { dispatch, queryFulfilled }) {
        const mine = ++latestReorder;
        const overlapped = reordering > 0;
        reordering += 1;
        const shown = dispatch(
          driverApi.util.updateQueryData('driverDay', undefined, (day) => {
            day.stops = inOrder(day.stops, orderIds);
          }),
        );
        try {
          const { data } = await queryFulfilled;
          if (mine === latestReorder) dispatch(driverApi.util.updateQueryData('driverDay', undefined, () => data));
        } catch {
          shown.undo();
          // Another reorder overlapped this one: what is shown may mix them, the server knows.
          if (overlapped || mine !== latestReorder) void dispatch(driverApi.endpoints.driverDay.initiate(undefined, { forceRefetch: true, subscribe: false }));
        } finally {
          reordering -= 1;
        }
      },
    }),
  }),
});

export const { useDriverOrdersInfiniteQuery, useDriverOrderQuery, useDriverScanMutation, useDriverHandoverMutation, useDriverDayQuery, useDriverStopOrderMutation } = driverApi;
