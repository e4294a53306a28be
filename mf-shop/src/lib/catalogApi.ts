import { baseApi } from '@dme/api-client';
import type { AvailabilityBatchResponse, AvailabilityResponse, ProductCardListResponse, Product } from '@dme/contracts';
import { PRODUCT_CARD_PAGE } from '@dme/contracts/browser';
import { nextOffset } from '@dme/ui';

/**
 * One section's list query (issue 27: search and filters, as ProductListQuery takes them; empty
 * values left out, so an unfiltered grid asks exactly productCardsUrl).
 */
export interface CardQuery {
  type: 'FOR_RENT' | 'FOR_SALE';
  search?: string;
  /** Amounts as the API takes them ("25", "25.50"). */
  minPrice?: string;
  maxPrice?: string;
  available?: 'true';
}

/**
 * The catalog as the customer sees it: the dashboard's grids and a product, used by the products
 * and the bulk-order screens. A paged list refetched on an invalidation (live updates too) loads
 * again from offset 0 as many pages as were shown.
 */
export const catalogApi = baseApi.injectEndpoints({
  endpoints: (b) => ({
    /**
     * The dashboard's grids: 100 cards at a time, "Load more" past that (a type can hold more than
     * 100 products). The first page's URL is the one the gateway preloads (productCardsUrl).
     */
    productCardPages: b.infiniteQuery<ProductCardListResponse, CardQuery, number>({
      infiniteQueryOptions: { initialPageParam: 0, getNextPageParam: nextOffset },
      query: ({ queryArg: { type, ...filters }, pageParam }) => ({ url: '/products', params: { type, limit: PRODUCT_CARD_PAGE, offset: pageParam, ...filters } }),
      providesTags: [{ type: 'Product', id: 'LIST' }],
    }),
    product: b.query<{ product: Product }, string>({ query: (id) => `/products/${id}`, providesTags: (_r, _e, id) => [{ type: 'Product', id }] }),
    /**
     * A rental level's days (issue 25): units free per day and the days a rental of `quantity`
     * for `days` days may start; reloaded with the product (an order, a live update).
     */
    availability: b.query<AvailabilityResponse, { id: string; variantID?: string | undefined; subVariantID?: string | undefined; from: string; to: string; quantity: number; days: number }>({
      query: ({ id, ...params }) => ({ url: `/products/${id}/availability`, params: Object.fromEntries(Object.entries(params).filter(([, v]) => v !== undefined)) }),
      providesTags: (_r, _e, arg) => [{ type: 'Product', id: arg.id }, { type: 'Product', id: 'LIST' }],
    }),
    /** The rental grid's cards for a day (issue 25): which can start a rental then; ids in pages of AVAILABILITY_BATCH_MAX. */
    availabilityBatch: b.query<AvailabilityBatchResponse, { productIDs: string[]; from: string; to: string }>({
      query: ({ productIDs, from, to }) => ({ url: '/availability', params: { productIDs: productIDs.join(','), from, to } }),
      providesTags: [{ type: 'Product', id: 'LIST' }],
    }),
  }),
});

export const { useProductCardPagesInfiniteQuery, useProductQuery, useAvailabilityQuery, useAvailabilityBatchQuery } = catalogApi;
