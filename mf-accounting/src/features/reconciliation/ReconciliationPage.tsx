import { Link, useLocation, useNavigate } from 'react-router-dom';
import { Alert, Button } from 'antd';
import { formatBusinessDate, formatManilaDateTime, hasPermission, RECONCILIATION_CHECK_LABELS } from '@dme/contracts/browser';
import type { ReconciliationMismatch, ReconciliationRun } from '@dme/contracts';
import { errorMessage, listBusy } from '@dme/api-client';
import { EmptyState, LazyErrorState, LazyNotAvailable, PageHeader, ResponsiveTable, SectionTitle, useCurrentUser, useFeedback } from '@dme/ui';
import { useReconciliationRunQuery, useReconciliationRunsQuery, useStartReconciliationMutation } from './api';

/** The screen's words (issue 29: the daily reconciliation). */
export const RECONCILIATION_TEXTS = {
  title: 'Reconciliation',
  intro:
    'Every day each payment is checked against its terms: charged once, for the amounts its terms say, its deposit held and settled in full, and every refund owed opened once. What differs is listed here.',
  runNow: 'Run now',
  none: 'No reconciliation has run yet. The first runs today; or run it now.',
  clean: 'No mismatches: every payment is as its terms say.',
  done: (n: number) => (n === 0 ? 'Reconciliation done: no mismatches.' : `Reconciliation done: ${n} ${n === 1 ? 'mismatch' : 'mismatches'} found.`),
  runs: 'Runs',
  mismatches: 'Mismatches',
} as const;

const KIND_LABELS: Record<ReconciliationRun['kind'], string> = { DAILY: 'Daily', MANUAL: 'Run now' };

/** The runs of the daily reconciliation and the mismatches of one (the newest, or the one chosen: ?run=). */
export default function ReconciliationPage() {
  const user = useCurrentUser();
  // Who may read payments may read their reconciliation (the server's rule for GET /api/reconciliation/runs).
  if (!hasPermission(user.userType, 'payment:read')) return <LazyNotAvailable />;
  return <Reconciliation />;
}

function Reconciliation() {
  const location = useLocation();
  const navigate = useNavigate();
  const { notify } = useFeedback();
  const runs = useReconciliationRunsQuery();
  const [start, started] = useStartReconciliationMutation();
  const chosen = new URLSearchParams(location.search).get('run');
  const items = runs.data?.items ?? [];
  const runId = chosen ?? items[0]?.id;
  const run = useReconciliationRunQuery(runId ?? '', { skip: !runId });

  const runNow = async () => {
    const res = await start();
    if ('data' in res && res.data) {
      notify.success(RECONCILIATION_TEXTS.done(res.data.run.mismatches));
      navigate({ search: `?run=${res.data.run.id}` });
    }
  };

  return (
    <section>
      <PageHeader
        title={RECONCILIATION_TEXTS.title}
        extra={
          <Button type="primary" onClick={runNow} loading={started.isLoading}>
            {RECONCILIATION_TEXTS.runNow}
          </Button>
        }
      />
      <p style={{ marginTop: 0, color: 'rgba(0,0,0,0.65)' }}>{RECONCILIATION_TEXTS.intro}</p>
      {started.error ? <Alert type="error" showIcon message={errorMessage(started.error)} style={{ marginBottom: 16 }} /> : null}
      {runs.error ? (
        <LazyErrorState title="The reconciliation runs could not be loaded" message={errorMessage(runs.error)} onRetry={runs.refetch} />
      ) : (
        <>
          <section aria-label={RECONCILIATION_TEXTS.mismatches} style={{ marginBottom: 24 }}>
            <SectionTitle>{RECONCILIATION_TEXTS.mismatches}</SectionTitle>
            {run.data ? (
              <p data-testid="run-summary">
                {formatBusinessDate(run.data.run.day)} · {KIND_LABELS[run.data.run.kind]} · {run.data.run.checked.toLocaleString('en-US')} payments checked ·{' '}
                <strong style={{ color: run.data.run.mismatches > 0 ? '#cf1322' : '#237804' }}>
                  {run.data.run.mismatches} {run.data.run.mismatches === 1 ? 'mismatch' : 'mismatches'}
                </strong>
              </p>
            ) : null}
            {run.error ? <LazyErrorState title="This run could not be loaded" message={errorMessage(run.error)} onRetry={run.refetch} /> : null}
            <ResponsiveTable<ReconciliationMismatch & { key: number }>
              rowKey="key"
              size="small"
              loading={runs.isLoading || listBusy(run)}
              dataSource={(run.data?.mismatches ?? []).map((m, key) => ({ ...m, key }))}
              pagination={{ pageSize: 20, hideOnSinglePage: true, showSizeChanger: false }}
              locale={{ emptyText: <EmptyState description={runId ? RECONCILIATION_TEXTS.clean : RECONCILIATION_TEXTS.none} /> }}
              scroll={{ x: true }}
              columns={[
                { title: 'Order Number', dataIndex: 'orderNumber', render: (n: string, m) => <Link to={`/admin/payments/${m.paymentId}`}>{n}</Link> },
                { title: 'Check', dataIndex: 'check', render: (c: ReconciliationMismatch['check']) => RECONCILIATION_CHECK_LABELS[c] },
                { title: 'Expected', dataIndex: 'expected', align: 'right' },
                { title: 'Recorded', dataIndex: 'actual', align: 'right' },
                { title: 'Detail', dataIndex: 'detail' },
              ]}
            />
          </section>
          <section aria-label={RECONCILIATION_TEXTS.runs}>
            <SectionTitle>{RECONCILIATION_TEXTS.runs}</SectionTitle>
            <ResponsiveTable<ReconciliationRun>
              rowKey="id"
              size="small"
              loading={listBusy(runs)}
              dataSource={items}
              pagination={false}
              locale={{ emptyText: <EmptyState description={RECONCILIATION_TEXTS.none} /> }}
              scroll={{ x: true }}
              columns={[
                { title: 'Day', dataIndex: 'day', render: (d: string) => formatBusinessDate(d) },
                { title: 'Kind', dataIndex: 'kind', render: (k: ReconciliationRun['kind']) => KIND_LABELS[k] },
                { title: 'Status', dataIndex: 'status' },
                { title: 'Checked', dataIndex: 'checked', align: 'right' },
                { title: 'Mismatches', dataIndex: 'mismatches', align: 'right' },
                { title: 'Finished', dataIndex: 'finishedAt', render: (t: string | null) => (t ? formatManilaDateTime(t) : '—') },
                { title: 'By', dataIndex: 'startedByName', render: (n: string | null) => n ?? 'Scheduled' },
                {
                  title: 'Action',
                  key: 'view',
                  render: (_: unknown, r: ReconciliationRun) =>
                    r.id === runId ? (
                      <span>Shown</span>
                    ) : (
                      <Link to={`?run=${r.id}`} aria-label={`Show the run of ${formatBusinessDate(r.day)}, ${formatManilaDateTime(r.startedAt)}`}>
                        Show
                      </Link>
                    ),
                },
              ]}
            />
          </section>
        </>
      )}
    </section>
  );
}
