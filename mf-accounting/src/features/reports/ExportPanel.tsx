import { useEffect } from 'react';
import { Alert, Button, Progress } from 'antd';
import { skipToken } from '@reduxjs/toolkit/query/react';
import { REPORT_LABELS } from '@dme/contracts/browser';
import type { ReportExport, ReportName } from '@dme/contracts';
import { errorMessage } from '@dme/api-client';
import { exportFileUrl, reportsApi, useReportExportQuery, useStartReportExportMutation } from './api';
import { formatDay } from './format';

/** How often a running export is asked for its progress. */
export const EXPORT_POLL_MS = 500;

export const EXPORT_MESSAGES = {
  button: 'Export to Excel',
  failed: 'The Excel export failed.',
} as const;

/** Starts a download of a finished export (the browser saves the file; the page stays). */
function download(job: ReportExport) {
  const a = document.createElement('a');
  a.href = exportFileUrl(job.id);
  a.download = job.fileName;
  a.style.display = 'none';
  document.body.append(a);
  a.click();
  a.remove();
}

interface Props {
  report: ReportName;
  from: string;
  to: string;
  /** The export last started here for this report and range (kept by the page across tabs). */
  job: ReportExport | undefined;
  onStarted: (job: ReportExport) => void;
  /** Exports already downloaded once by themselves. */
  downloaded: Set<string>;
}

/**
 * Excel export of one report as a job: POST starts it, then its progress is read every
 * EXPORT_POLL_MS while it runs (polling ends with the job, or when the screen goes away); once done,
 * the file downloads once by itself and a link stays for another download.
 */
export function ExportPanel({ report, from, to, job: started, onStarted, downloaded }: Props) {
  const [start, { isLoading: starting, error: startError }] = useStartReportExportMutation();
  const arg = started?.status === 'RUNNING' ? started.id : skipToken;
  const latest = reportsApi.endpoints.reportExport.useQueryState(arg).currentData?.export;
  const job = latest && latest.id === started?.id ? latest : started;
  const stillRunning = job?.status === 'RUNNING';
  // Polling follows the newest status: it stops once the job is DONE or FAILED (or on unmount).
  const polled = useReportExportQuery(arg, { refetchOnMountOrArgChange: true, pollingInterval: stillRunning ? EXPORT_POLL_MS : 0 });

  useEffect(() => {
    if (job?.status === 'DONE' && !downloaded.has(job.id)) {
      downloaded.add(job.id);
      download(job);
    }
  }, [job, downloaded]);

  const run = async () => {
    try {
      const answer = await start({ report, from, to }).unwrap();
      onStarted(answer.export);
    } catch {
      // Shown below.
    }
  };

  const label = `${REPORT_LABELS[report]}, ${formatDay(from)} to ${formatDay(to)}`;
  return (
    <div aria-label={`Excel export of ${REPORT_LABELS[report]}`} role="region" style={{ display: 'flex', flexDirection: 'column', gap: 8, marginBottom: 16 }}>
      <div style={{ display: 'flex', alignItems: 'center', gap: 16, flexWrap: 'wrap' }}>
        <Button onClick={run} disabled={starting || stillRunning}>
          {EXPORT_MESSAGES.button}
        </Button>
        {job?.status === 'DONE' ? (
          <a href={exportFileUrl(job.id)} download={job.fileName}>
            Download {job.fileName}
          </a>
        ) : null}
      </div>
      {stillRunning && job ? (
        <div style={{ maxWidth: 480 }}>
          <Progress percent={job.progress} status="active" aria-label={`Exporting ${label}`} />
          <span aria-live="polite" style={{ fontSize: 12, color: 'rgba(0,0,0,0.65)' }}>
            {job.rowsWritten.toLocaleString('en-US')} of {job.rowsTotal.toLocaleString('en-US')} rows written
          </span>
        </div>
      ) : null}
      {startError ? <Alert type="error" showIcon title={errorMessage(startError)} action={<Button size="small" onClick={run}>Retry</Button>} /> : null}
      {job?.status === 'FAILED' ? (
        <Alert type="error" showIcon title={EXPORT_MESSAGES.failed} description="Please start it again." action={<Button size="small" onClick={run}>Retry</Button>} />
      ) : null}
      {polled.error && stillRunning ? (
        <Alert type="warning" showIcon title={errorMessage(polled.error)} action={<Button size="small" onClick={run}>Retry</Button>} />
      ) : null}
    </div>
  );
}
