import { useMemo, useRef, useState } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import { DatePicker } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { REPORT_LABELS, REPORT_NAMES, REPORT_NOTES } from '@dme/contracts/browser';
import type { ReportExport, ReportName, ReportResponse } from '@dme/contracts';
import { errorMessage } from '@dme/api-client';
import { EmptyState, FilterTabs, LazyErrorState, LazyNotAvailable, PageHeader, ResponsiveTable, useCurrentUser } from '@dme/ui';
import { useReportQuery } from './api';
import { REPORT_COLUMNS, type ReportRow } from './columns';
import { ExportPanel } from './ExportPanel';
import { money, PAGE_SIZE, rangePresets, readView, viewSearch, type ReportsView } from './format';
import { ReportCharts } from './ReportCharts';
import { TotalsPanel } from './TotalsPanel';

export const EMPTY_REPORT = 'No rows in this period.';
const DAY = 'YYYY-MM-DD';
const VISUALLY_HIDDEN = { position: 'absolute', width: 1, height: 1, overflow: 'hidden', clip: 'rect(0 0 0 0)', whiteSpace: 'nowrap' } as const;

/** Sales and invoice reports (SPEC §2 Reports screen; the superadmin's). */
export default function ReportsPage() {
  const user = useCurrentUser();
  if (user.userType !== 'SUPERADMIN') return <LazyNotAvailable />;
  return <Reports />;
}

function Reports() {
  const location = useLocation();
  const navigate = useNavigate();
  const view = readView(location.search);
  const { report, from, to, page } = view;
  const go = (next: Partial<ReportsView>) => navigate({ search: viewSearch({ ...view, page: 1, ...next }) });

  const { data, currentData, isFetching, error, refetch } = useReportQuery({ report, from, to, limit: PAGE_SIZE, offset: (page - 1) * PAGE_SIZE }, { refetchOnMountOrArgChange: true });
  // The rows shown are this report's (another report's rows have other columns).
  const shown: ReportResponse | undefined = currentData && currentData.report === report && Array.isArray(currentData.rows) ? currentData : undefined;
  // The totals cover every report: those of the last answer for this range stay while a tab loads.
  const totals = data && data.from === from && data.to === to ? data.totals : undefined;

  // Excel exports started here, per report and range, so a tab shows its own job when it comes back.
  const [jobs, setJobs] = useState<Record<string, ReportExport>>({});
  const downloaded = useRef(new Set<string>()).current;
  const jobKey = `${report}|${from}|${to}`;

  const presets = useMemo(() => rangePresets().map((p) => ({ label: p.label, value: [dayjs(p.range.from, DAY), dayjs(p.range.to, DAY)] as [Dayjs, Dayjs] })), []);
  const rows: ReportRow[] = (shown?.rows ?? []).map((r, i) => ({ ...(r as Record<string, unknown>), key: (page - 1) * PAGE_SIZE + i }));
  const columns = REPORT_COLUMNS[report];

  const content = (
    <div>
      {REPORT_NOTES[report] ? (
        <p data-testid="report-note" style={{ margin: '0 0 12px', color: 'rgba(0,0,0,0.65)' }}>
          {REPORT_NOTES[report]}
        </p>
      ) : null}
      <ExportPanel key={jobKey} report={report} from={from} to={to} job={jobs[jobKey]} onStarted={(job) => setJobs((j) => ({ ...j, [jobKey]: job }))} downloaded={downloaded} />
      {error ? (
        <LazyErrorState title="The report could not be loaded" message={errorMessage(error)} onRetry={refetch} />
      ) : (
        <>
          {shown && shown.total > 0 && shown.chart ? <ReportCharts report={report} chart={shown.chart} /> : null}
          <ResponsiveTable<ReportRow>
            aria-label={REPORT_LABELS[report]}
            loading={isFetching}
            dataSource={rows}
            columns={columns}
            locale={{ emptyText: shown || !isFetching ? <EmptyState description={EMPTY_REPORT} /> : <span /> }}
            pagination={{ current: page, pageSize: PAGE_SIZE, total: shown?.total ?? 0, onChange: (p) => go({ page: p }), showSizeChanger: false, hideOnSinglePage: true }}
            scroll={{ x: true }}
            summary={
              shown ? (
                <>
                  <strong data-testid="report-sum">
                    {REPORT_LABELS[report]} for the period: {money(shown.sum)}
                  </strong>{' '}
                  <span style={{ color: 'rgba(0,0,0,0.65)' }}>({shown.total.toLocaleString('en-US')} {shown.total === 1 ? 'row' : 'rows'})</span>
                </>
              ) : null
            }
          />
        </>
      )}
    </div>
  );

  return (
    <section>
      <PageHeader
        title="Reports"
        extra={
          <div style={{ display: 'flex', alignItems: 'center', gap: 8 }}>
            <label htmlFor="report-period">Report period</label>
            <label htmlFor="report-period-end" style={VISUALLY_HIDDEN}>
              Report period end
            </label>
            <DatePicker.RangePicker
              id={{ start: 'report-period', end: 'report-period-end' }}
              format={DAY}
              allowClear={false}
              presets={presets}
              value={[dayjs(from, DAY), dayjs(to, DAY)]}
              placeholder={['Start date', 'End date']}
              onChange={(dates) => {
                const [start, end] = dates ?? [];
                if (start && end) go({ from: start.format(DAY), to: end.format(DAY) });
              }}
            />
          </div>
        }
      />
      <TotalsPanel totals={totals} loading={isFetching} />
      {/* One line of tabs that scrolls on a phone (antd's overflow "more" button sat inside the tablist: issue 27). */}
      <FilterTabs<ReportName> label="Reports" active={report} onChange={(k) => go({ report: k })} items={REPORT_NAMES.map((name) => ({ key: name, label: REPORT_LABELS[name] }))}>
        {content}
      </FilterTabs>
    </section>
  );
}
