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

/** The shop's endpoints; lists refresh at once after a change (tags). */
export const shopApi = baseApi.injectEndpoints({
  endpoints: (b) => ({
    productCards: b.query<ProductCardListResponse, { type: 'FOR_RENT' | 'FOR_SALE'; search?: string }>({
      query: ({ type, search }) => ({ url: '/products', params: { type, limit: 100, ...(search ? { search } : {}) } }),
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
    myOrders: b.query<OrderListResponse, { type: 'BUY' | 'RENT'; status?: OrderStatus }>({
      query: ({ type, status }) => ({ url: '/my/orders', params: { type, limit: 100, ...(status ? { status } : {}) } }),
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
    myNotices: b.query<NoticeListResponse, void>({ query: () => '/my/notices', providesTags: [{ type: 'Order', id: 'NOTICES' }] }),
  }),
});

export const {
  useProductCardsQuery,
  useProductQuery,
  useCartQuery,
  useAddToCartMutation,
  useRemoveFromCartMutation,
  usePlaceOrderMutation,
  useMyOrdersQuery,
  useMyOrderQuery,
  useCancelOrderMutation,
  useCreateRequestMutation,
  useMyNoticesQuery,
} = shopApi;
