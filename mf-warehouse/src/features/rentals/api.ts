import { baseApi } from '@dme/api-client';
import type { OngoingRentalListResponse, OngoingRentalTab } from '@dme/contracts';

export interface OngoingRentalsArgs {
  tab: OngoingRentalTab;
  search?: string;
  limit: number;
  offset: number;
}

export const rentalsApi = baseApi.injectEndpoints({
  endpoints: (b) => ({
    /** Ongoing rentals by tab (SPEC §2 /admin/ongoing-rentals), a page at a time. */
    ongoingRentals: b.query<OngoingRentalListResponse, OngoingRentalsArgs>({
      query: ({ tab, search, limit, offset }) => ({ url: '/ongoing-rentals', params: { tab, ...(search ? { search } : {}), limit, offset } }),
      providesTags: (r) => [{ type: 'Order', id: 'LIST' }, ...(r?.items ?? []).map((o) => ({ type: 'Order' as const, id: o.id }))],
    }),
  }),
});

export const { useOngoingRentalsQuery } = rentalsApi;
