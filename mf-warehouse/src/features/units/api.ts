import { baseApi } from '@dme/api-client';
import type { DowntimeCreateRequest, UnitBoardColumn, UnitBoardResponse, UnitResponse, UnitStepRequest } from '@dme/contracts';

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
  }),
});

export const { useUnitBoardQuery, useUnitQuery, useLazyUnitQuery, useUnitStepMutation, useScheduleServiceMutation } = unitsApi;
