import { baseApi } from '@dme/api-client';
import type { ReportExport, ReportName, ReportRange, ReportResponse } from '@dme/contracts';

export interface ReportArgs extends ReportRange {
  report: ReportName;
  limit: number;
  offset: number;
}

export interface ReportExportAnswer {
  export: ReportExport;
}

/**
 * The reports (SPEC §2 Reports screen) and their Excel export jobs. Injected when the lazy reports
 * screen loads, so no other screen carries them.
 */
export const reportsApi = baseApi.injectEndpoints({
  endpoints: (b) => ({
    report: b.query<ReportResponse, ReportArgs>({
      query: ({ report, from, to, limit, offset }) => ({ url: `/reports/${encodeURIComponent(report)}`, params: { from, to, limit, offset } }),
      providesTags: (_r, _e, a) => [{ type: 'Report', id: a.report }],
    }),
    startReportExport: b.mutation<ReportExportAnswer, ReportRange & { report: ReportName }>({
      query: ({ report, from, to }) => ({ url: `/reports/${encodeURIComponent(report)}/exports`, method: 'POST', body: { from, to } }),
    }),
    reportExport: b.query<ReportExportAnswer, string>({
      query: (id) => `/report-exports/${encodeURIComponent(id)}`,
      keepUnusedDataFor: 0,
    }),
  }),
});

export const { useReportQuery, useStartReportExportMutation, useReportExportQuery } = reportsApi;

/** Where a finished export is downloaded from. */
export const exportFileUrl = (id: string) => `/api/report-exports/${encodeURIComponent(id)}/file`;
