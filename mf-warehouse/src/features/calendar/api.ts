import { baseApi } from '@dme/api-client';
import type { AtRiskResponse, CalendarResponse, DowntimeCreateRequest, ProductListResponse } from '@dme/contracts';

/** The staff calendar (issue 25): a rental product's units over days, downtime, and the bookings at risk. */
export const calendarApi = baseApi.injectEndpoints({
  endpoints: (b) => ({
    /** Rental products to choose from (the first 100 by name; the search narrows). */
    rentalProducts: b.query<ProductListResponse, string>({
      query: (search) => ({ url: '/admin/products', params: { type: 'FOR_RENT', limit: 100, offset: 0, ...(search ? { search } : {}) } }),
      providesTags: [{ type: 'Product', id: 'LIST' }],
    }),
    productCalendar: b.query<CalendarResponse, { id: string; from: string; to: string }>({
      query: ({ id, from, to }) => ({ url: `/products/${id}/calendar`, params: { from, to } }),
      providesTags: (_r, _e, a) => [{ type: 'Product', id: a.id }, { type: 'Order', id: 'LIST' }],
    }),
    /**
     * Bookings whose unit is still out past its due date into their days, with another free unit to
     * pack instead: loaded again when orders, stock or products (downtime) change.
     */
    bookingsAtRisk: b.query<AtRiskResponse, void>({
      query: () => '/bookings/at-risk',
      providesTags: [{ type: 'Order', id: 'LIST' }, { type: 'Stock', id: 'LIST' }, { type: 'Product', id: 'LIST' }],
    }),
    createDowntime: b.mutation<{ message: string }, DowntimeCreateRequest>({
      query: (body) => ({ url: '/downtime', method: 'POST', body }),
      invalidatesTags: (_r, _e, a) => [{ type: 'Product', id: a.productID ?? 'LIST' }, { type: 'Product', id: 'LIST' }],
    }),
    removeDowntime: b.mutation<void, { id: string; productID: string }>({
      query: ({ id }) => ({ url: `/downtime/${id}`, method: 'DELETE' }),
      invalidatesTags: (_r, _e, a) => [{ type: 'Product', id: a.productID }],
    }),
  }),
});

export const { useRentalProductsQuery, useProductCalendarQuery, useBookingsAtRiskQuery, useCreateDowntimeMutation, useRemoveDowntimeMutation } = calendarApi;
