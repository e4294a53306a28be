import { baseApi } from '@dme/api-client';
import type { ReconciliationRunResponse, ReconciliationRunsResponse } from '@dme/contracts';

/**
 * The daily reconciliation's runs (issue 29). Injected when the lazy screen loads. A run started
 * here reloads the list of runs.
 */
const RUNS = { type: 'Payment' as const, id: 'RECONCILIATION' };

export const reconciliationApi = baseApi.injectEndpoints({
  endpoints: (b) => ({
    reconciliationRuns: b.query<ReconciliationRunsResponse, void>({
      query: () => '/reconciliation/runs',
      providesTags: [RUNS],
    }),
    reconciliationRun: b.query<ReconciliationRunResponse, string>({
      query: (id) => `/reconciliation/runs/${encodeURIComponent(id)}`,
    }),
    startReconciliation: b.mutation<ReconciliationRunResponse, void>({
      query: () => ({ url: '/reconciliation/runs', method: 'POST' }),
      invalidatesTags: (r) => (r ? [RUNS] : []),
    }),
  }),
});

export const { useReconciliationRunsQuery, useReconciliationRunQuery, useStartReconciliationMutation } = reconciliationApi;
