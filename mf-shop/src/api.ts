import { baseApi } from '@dme/api-client';
import type {
  CartAddRequest,
  CartItem,
  CartResponse,
  CartType,
  CreateRequestBody,
  NoticeListResponse,
  OrderListResponse,
  OrderRequest,
  OrderResponse,
  OrderStatus,
  PlaceOrderRequest,
  Product,
  ProductCardListResponse,
} from '@dme/contracts';
import { MY_NOTICES_URL, PRODUCT_CARD_PAGE } from '@dme/contracts/browser';
import { nextOffset } from './lib/pages';

/** Lists are loaded 100 at a time (the API's maximum); past that the page offers "Load more". */
export const LIST_PAGE = 100;


/**
 * The shop's endpoints; lists refresh at once after a change (tags). A paged list refetched on
 * an invalidation (live updates too) loads again from offset 0 as many pages as were shown.
 */
export const shopApi = baseApi.injectEndpoints({
  endpoints: (b) => ({
    /**
     * The dashboard's grids: 100 cards at a time, "Load more" past that (a type can hold more than
     * 100 products). The first page's URL is the one the gateway preloads (productCardsUrl).
     */
    productCardPages: b.infiniteQuery<ProductCardListResponse, { type: 'FOR_RENT' | 'FOR_SALE'; search?: string }, number>({
      infiniteQueryOptions: { initialPageParam: 0, getNextPageParam: nextOffset },
      query: ({ queryArg: { type, search }, pageParam }) => ({ url: '/products', params: { type, limit: PRODUCT_CARD_PAGE, offset: pageParam, ...(search ? { search } : {}) } }),
      providesTags: [{ type: 'Product', id: 'LIST' }],
    }),
    product: b.query<{ product: Product }, string>({ query: (id) => `/products/${id}`, providesTags: (_r, _e, id) => [{ type: 'Product', id }] }),
    cart: b.query<CartResponse, CartType>({
      query: (type) => ({ url: '/cart', params: { type } }),
      providesTags: (_r, _e, type) => [{ type: 'Cart', id: type }],
    }),
    addToCart: b.mutation<{ item: CartItem }, CartAddRequest>({
      query: (body) => ({ url: '/cart', method: 'POST', body }),
      invalidatesTags: (_r, _e, arg) => [{ type: 'Cart', id: arg.type }],
    }),
    removeFromCart: b.mutation<void, { id: string; type: CartType }>({
      query: ({ id }) => ({ url: `/cart/${id}`, method: 'DELETE' }),
      invalidatesTags: (_r, _e, arg) => [{ type: 'Cart', id: arg.type }],
    }),
    placeOrder: b.mutation<OrderResponse, { body: PlaceOrderRequest; idempotencyKey: string }>({
      query: ({ body, idempotencyKey }) => ({ url: '/orders', method: 'POST', body, headers: { 'Idempotency-Key': idempotencyKey } }),
      invalidatesTags: (_r, _e, arg) => [{ type: 'Cart', id: arg.body.type === 'RENT' ? 'RENT' : 'BUY' }, { type: 'Order', id: 'LIST' }, { type: 'Product', id: 'LIST' }],
    }),
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
    /** My rentals' due notices (past due, or due today); an order change (live updates included) reloads them. */
    myNotices: b.query<NoticeListResponse, void>({ query: () => MY_NOTICES_URL.slice('/api'.length), providesTags: [{ type: 'Order', id: 'NOTICES' }] }),
  }),
});

export const {
  useProductCardPagesInfiniteQuery,
  useProductQuery,
  useCartQuery,
  useAddToCartMutation,
  useRemoveFromCartMutation,
  usePlaceOrderMutation,
  useMyOrdersInfiniteQuery,
  useMyOrderQuery,
  useCancelOrderMutation,
  useCreateRequestMutation,
  useMyNoticesQuery,
} = shopApi;
