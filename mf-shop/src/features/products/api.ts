import { baseApi } from '@dme/api-client';
import type { CartAddRequest, CartItem, NoticeListResponse } from '@dme/contracts';
import { MY_NOTICES_URL } from '@dme/contracts/browser';

/** The dashboard's due notices and a product page's Add to Cart. */
export const productsApi = baseApi.injectEndpoints({
  endpoints: (b) => ({
    addToCart: b.mutation<{ item: CartItem }, CartAddRequest>({
      query: (body) => ({ url: '/cart', method: 'POST', body }),
      invalidatesTags: (_r, _e, arg) => [{ type: 'Cart', id: arg.type }],
    }),
    /** My rentals' due notices (past due, or due today); an order change (live updates included) reloads them. */
    myNotices: b.query<NoticeListResponse, void>({ query: () => MY_NOTICES_URL.slice('/api'.length), providesTags: [{ type: 'Order', id: 'NOTICES' }] }),
    /** My bookings at risk (issue 25): the unit booked for me is overdue from the rental before. */
    myBookingNotices: b.query<NoticeListResponse, void>({ query: () => '/my/booking-notices', providesTags: [{ type: 'Order', id: 'NOTICES' }] }),
  }),
});

export const { useAddToCartMutation, useMyNoticesQuery, useMyBookingNoticesQuery } = productsApi;
