import { baseApi } from '@dme/api-client';
import type {
  AddStockRequest,
  AddStockResponse,
  Bin,
  BinListResponse,
  BinRequest,
  OngoingRentalListResponse,
  OngoingRentalTab,
  OrderListResponse,
  OrderRequest,
  OrderResponse,
  OrderStatus,
  OrderType,
  Product,
  ProductListResponse,
  ProductRequest,
  ReturnStatus,
  StockListResponse,
  TransitionRequest,
  UpdateRequestBody,
} from '@dme/contracts';

export interface StockArgs {
  productID?: string;
  productVariantID?: string;
  productSubVariantID?: string;
  warehouseBinID?: string;
  limit: number;
  offset: number;
}

export interface StaffOrdersArgs {
  type: OrderType;
  status: OrderStatus;
  search?: string;
}

export interface OngoingRentalsArgs {
  tab: OngoingRentalTab;
  search?: string;
  limit: number;
  offset: number;
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

/** The warehouse's endpoints, with list and item tags so lists refresh at once after a change. */
export const warehouseApi = baseApi.injectEndpoints({
  endpoints: (b) => ({
    bins: b.query<BinListResponse, { limit: number; offset: number; search?: string }>({
      query: (params) => ({ url: '/warehouse-bins', params }),
      providesTags: (r) => [{ type: 'Bin', id: 'LIST' }, ...(r?.items ?? []).map((x) => ({ type: 'Bin' as const, id: x.id }))],
    }),
    bin: b.query<{ bin: Bin }, string>({ query: (id) => `/warehouse-bins/${id}`, providesTags: (_r, _e, id) => [{ type: 'Bin', id }] }),
    createBin: b.mutation<{ bin: Bin }, BinRequest>({
      query: (body) => ({ url: '/warehouse-bins', method: 'POST', body }),
      invalidatesTags: [{ type: 'Bin', id: 'LIST' }],
    }),
    updateBin: b.mutation<{ bin: Bin }, { id: string; body: BinRequest }>({
      query: ({ id, body }) => ({ url: `/warehouse-bins/${id}`, method: 'PATCH', body }),
      invalidatesTags: (_r, _e, { id }) => [{ type: 'Bin', id }, { type: 'Bin', id: 'LIST' }],
    }),
    deleteBin: b.mutation<void, string>({
      query: (id) => ({ url: `/warehouse-bins/${id}`, method: 'DELETE' }),
      invalidatesTags: (_r, _e, id) => [{ type: 'Bin', id }, { type: 'Bin', id: 'LIST' }],
    }),
    binStocks: b.query<StockListResponse, { id: string; limit: number; offset: number }>({
      query: ({ id, limit, offset }) => ({ url: `/warehouse-bins/${id}/stocks`, params: { limit, offset } }),
      providesTags: [{ type: 'Stock', id: 'LIST' }],
    }),

    products: b.query<ProductListResponse, { limit: number; offset: number; search?: string; type?: string }>({
      query: (params) => ({ url: '/admin/products', params }),
      providesTags: (r) => [{ type: 'Product', id: 'LIST' }, ...(r?.items ?? []).map((x) => ({ type: 'Product' as const, id: x.id }))],
    }),
    product: b.query<{ product: Product }, string>({
      query: (id) => `/admin/products/${id}`,
      providesTags: (_r, _e, id) => [{ type: 'Product', id }],
    }),
    createProduct: b.mutation<{ product: Product }, ProductRequest>({
      query: (body) => ({ url: '/products', method: 'POST', body }),
      invalidatesTags: [{ type: 'Product', id: 'LIST' }],
    }),
    updateProduct: b.mutation<{ product: Product }, { id: string; body: ProductRequest }>({
      query: ({ id, body }) => ({ url: `/products/${id}`, method: 'PATCH', body }),
      invalidatesTags: (_r, _e, { id }) => [{ type: 'Product', id }, { type: 'Product', id: 'LIST' }],
    }),
    deleteProduct: b.mutation<{ result: 'deleted' | 'archived'; message: string }, string>({
      query: (id) => ({ url: `/products/${id}`, method: 'DELETE' }),
      invalidatesTags: (_r, _e, id) => [{ type: 'Product', id }, { type: 'Product', id: 'LIST' }],
    }),

    stocks: b.query<StockListResponse, StockArgs>({
      query: (params) => ({ url: '/stocks', params }),
      providesTags: [{ type: 'Stock', id: 'LIST' }],
    }),
    addStock: b.mutation<AddStockResponse, AddStockRequest>({
      query: (body) => ({ url: '/stocks', method: 'POST', body }),
      invalidatesTags: (_r, _e, arg) => [{ type: 'Stock', id: 'LIST' }, { type: 'Product', id: arg.productID }, { type: 'Product', id: 'LIST' }, { type: 'Bin', id: 'LIST' }],
    }),

    staffOrders: b.infiniteQuery<OrderListResponse, StaffOrdersArgs, number>({
      infiniteQueryOptions: {
        initialPageParam: 0,
        getNextPageParam: (last, _all, lastOffset) => {
          const next = lastOffset + last.items.length;
          return last.items.length > 0 && next < last.total ? next : undefined;
        },
      },
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
    /** Ongoing rentals by tab (SPEC §2 /admin/ongoing-rentals), a page at a time. */
    ongoingRentals: b.query<OngoingRentalListResponse, OngoingRentalsArgs>({
      query: ({ tab, search, limit, offset }) => ({ url: '/ongoing-rentals', params: { tab, ...(search ? { search } : {}), limit, offset } }),
      providesTags: (r) => [{ type: 'Order', id: 'LIST' }, ...(r?.items ?? []).map((o) => ({ type: 'Order' as const, id: o.id }))],
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
  }),
});

export const {
  useBinsQuery,
  useBinQuery,
  useCreateBinMutation,
  useUpdateBinMutation,
  useDeleteBinMutation,
  useBinStocksQuery,
  useProductsQuery,
  useProductQuery,
  useCreateProductMutation,
  useUpdateProductMutation,
  useDeleteProductMutation,
  useStocksQuery,
  useAddStockMutation,
  useStaffOrdersInfiniteQuery,
  useStaffOrderQuery,
  useTransitionOrderMutation,
  useOngoingRentalsQuery,
  useReturnSerialMutation,
  useUpdateRequestMutation,
} = warehouseApi;
