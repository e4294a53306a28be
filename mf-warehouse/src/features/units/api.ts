import { baseApi } from '@dme/api-client';
import type {
  BinAudit,
  BinAuditListResponse,
  BinResponse,
  DowntimeCreateRequest,
  OrderRequestResponse,
  ProductListResponse,
  RecallCreateRequest,
  RecallListResponse,
  RecallResponse,
  StaffRequestBody,
  UnitBoardColumn,
  UnitBoardResponse,
  UnitResponse,
  UnitStepRequest,
} from '@dme/contracts';

/** Units between rentals (issue 26): the board, one unit with its history, and a step. */
export const unitsApi = baseApi.injectEndpoints({
  endpoints: (b) => ({
    unitBoard: b.query<UnitBoardResponse, { column: UnitBoardColumn; search?: string; limit: number; offset: number }>({
      query: ({ search, ...params }) => ({ url: '/units', params: { ...params, ...(search ? { search } : {}) } }),
      // Returns (order screens) and Add Stock change what is on the board.
      providesTags: [{ type: 'Stock', id: 'LIST' }, { type: 'Stock', id: 'UNITS' }],
    }),
    unit: b.query<UnitResponse, string>({
      query: (code) => `/units/${encodeURIComponent(code)}`,
      providesTags: (_r, _e, code) => [{ type: 'Stock', id: `unit:${code.toUpperCase()}` }, { type: 'Stock', id: 'LIST' }],
    }),
    /**
     * A unit as the server has it now, for a scan: each call asks the server (`at` makes it a new
     * request), never answering with a copy cached before or one a step's refresh is still
     * fetching (RTK Query would answer that one at once with its old data).
     */
    unitNow: b.query<UnitResponse, { code: string; at: number }>({
      query: ({ code }) => `/units/${encodeURIComponent(code)}`,
      keepUnusedDataFor: 0,
    }),
    unitStep: b.mutation<UnitResponse, { code: string; body: UnitStepRequest }>({
      query: ({ code, body }) => ({ url: `/units/${encodeURIComponent(code)}/steps`, method: 'POST', body }),
      invalidatesTags: (_r, _e, a) => [
        { type: 'Stock', id: `unit:${a.code.toUpperCase()}` },
        { type: 'Stock', id: 'UNITS' },
        { type: 'Stock', id: 'LIST' },
        { type: 'Product', id: 'LIST' },
      ],
    }),
    /** A unit's service put on the calendar (issue 26): a maintenance downtime for the day. */
    scheduleService: b.mutation<{ message: string }, DowntimeCreateRequest & { code: string }>({
      query: ({ code: _code, ...body }) => ({ url: '/downtime', method: 'POST', body }),
      invalidatesTags: (_r, _e, a) => [{ type: 'Product', id: a.productID ?? 'LIST' }, { type: 'Product', id: 'LIST' }, { type: 'Stock', id: `unit:${a.code.toUpperCase()}` }],
    }),
    // ---- recalls (the superadmin)
    recalls: b.query<RecallListResponse, { limit: number; offset: number }>({
      query: (params) => ({ url: '/recalls', params }),
      providesTags: [{ type: 'Stock', id: 'RECALLS' }],
    }),
    recall: b.query<RecallResponse, string>({
      query: (id) => `/recalls/${id}`,
      // A unit's step (release, scrap) or a return resolves its units.
      providesTags: (_r, _e, id) => [{ type: 'Stock', id: `recall:${id}` }, { type: 'Stock', id: 'UNITS' }, { type: 'Stock', id: 'LIST' }],
    }),
    openRecall: b.mutation<RecallResponse, RecallCreateRequest>({
      query: (body) => ({ url: '/recalls', method: 'POST', body }),
      invalidatesTags: [{ type: 'Stock', id: 'RECALLS' }, { type: 'Stock', id: 'UNITS' }, { type: 'Stock', id: 'LIST' }, { type: 'Product', id: 'LIST' }],
    }),
    settleRecallUnit: b.mutation<RecallResponse, { id: string; serialCode: string; note: string }>({
      query: ({ id, serialCode, note }) => ({ url: `/recalls/${id}/units/${encodeURIComponent(serialCode)}/settle`, method: 'POST', body: { note } }),
      invalidatesTags: (_r, _e, a) => [{ type: 'Stock', id: `recall:${a.id}` }, { type: 'Stock', id: 'RECALLS' }],
    }),
    closeRecall: b.mutation<RecallResponse, string>({
      query: (id) => ({ url: `/recalls/${id}/close`, method: 'POST' }),
      invalidatesTags: (_r, _e, id) => [{ type: 'Stock', id: `recall:${id}` }, { type: 'Stock', id: 'RECALLS' }],
    }),
    /** A replace request filed on the customer's behalf for a recalled unit out on a rental. */
    fileRequest: b.mutation<OrderRequestResponse, { orderId: string; body: StaffRequestBody }>({
      query: ({ orderId, body }) => ({ url: `/orders/${orderId}/requests`, method: 'POST', body }),
      invalidatesTags: (_r, _e, a) => [{ type: 'Order', id: a.orderId }],
    }),
    // ---- physical audits of a bin
    bin: b.query<BinResponse, string>({
      query: (id) => `/warehouse-bins/${id}`,
      providesTags: (_r, _e, id) => [{ type: 'Bin', id }],
    }),
    binAudits: b.query<BinAuditListResponse, string>({
      query: (id) => ({ url: `/warehouse-bins/${id}/audits`, params: { limit: 20, offset: 0 } }),
      providesTags: (_r, _e, id) => [{ type: 'Bin', id: `audits:${id}` }],
    }),
    recordBinAudit: b.mutation<BinAudit, { binId: string; serialCodes: string[] }>({
      query: ({ binId, serialCodes }) => ({ url: `/warehouse-bins/${binId}/audits`, method: 'POST', body: { serialCodes } }),
      transformResponse: (r: { audit: BinAudit }) => r.audit,
      invalidatesTags: (_r, _e, a) => [{ type: 'Bin', id: `audits:${a.binId}` }],
    }),
    moveUnit: b.mutation<UnitResponse, { code: string; warehouseBinID: string }>({
      query: ({ code, warehouseBinID }) => ({ url: `/units/${encodeURIComponent(code)}/move`, method: 'POST', body: { warehouseBinID } }),
      invalidatesTags: (_r, _e, a) => [{ type: 'Stock', id: `unit:${a.code.toUpperCase()}` }, { type: 'Stock', id: 'LIST' }, { type: 'Bin', id: 'LIST' }],
    }),
    /** Products to recall: searched by name or brand, 100 at a time. */
    recallProducts: b.query<ProductListResponse, string>({
      query: (search) => ({ url: '/admin/products', params: { limit: 100, offset: 0, ...(search ? { search } : {}) } }),
      providesTags: [{ type: 'Product', id: 'LIST' }],
    }),
  }),
});

export const {
  useUnitBoardQuery,
  useUnitQuery,
  useLazyUnitQuery,
  useLazyUnitNowQuery,
  useUnitStepMutation,
  useScheduleServiceMutation,
  useRecallsQuery,
  useRecallQuery,
  useOpenRecallMutation,
  useSettleRecallUnitMutation,
  useCloseRecallMutation,
  useFileRequestMutation,
  useRecallProductsQuery,
  useBinQuery,
  useBinAuditsQuery,
  useRecordBinAuditMutation,
  useMoveUnitMutation,
} = unitsApi;
