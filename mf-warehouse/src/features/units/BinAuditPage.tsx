import { useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router-dom';
import { Alert, Button, Input, Space, Tag } from 'antd';
import type { BinAudit, BinAuditUnit } from '@dme/contracts';
import { formatManilaDateTime, serialCodeFromScan } from '@dme/contracts/browser';
import { errorMessage, listBusy, loaded } from '@dme/api-client';
import { EmptyState, LazyErrorState, Loading, PageHeader, SectionTitle, StatusTag, useFeedback, ResponsiveTable } from '@dme/ui';
import { useBinAuditsQuery, useBinQuery, useMoveUnitMutation, useRecordBinAuditMutation } from './api';

/** Ours (issue 26): the audit's texts. */
export const AUDIT_TEXTS = {
  scan: 'Scan a label',
  help: 'Scan every label in the bin (or type its serial code), then finish: the audit compares them with what the bin should hold.',
  finish: 'Finish audit',
  bad: 'Scan a unit label or type its serial code.',
  again: (code: string) => `${code} is scanned already.`,
} as const;

function UnitTable({ title, units, extra }: { title: string; units: BinAuditUnit[]; extra?: (u: BinAuditUnit) => React.ReactNode }) {
  return (
    <section aria-label={title} style={{ marginBottom: 16 }}>
      <SectionTitle>{`${title} (${units.length})`}</SectionTitle>
      <ResponsiveTable<BinAuditUnit>
        rowKey="serialCode"
        size="small"
        pagination={false}
        scroll={{ x: true }}
        dataSource={units}
        locale={{ emptyText: <EmptyState description="None." /> }}
        columns={[
          { title: 'Serial Code', dataIndex: 'serialCode', render: (c: string) => <Link to={`/admin/units/${encodeURIComponent(c)}`}>{c}</Link> },
          { title: 'Product', dataIndex: 'productName' },
          { title: 'Status', dataIndex: 'status', render: (s: string) => <StatusTag kind="stock" status={s} /> },
          { title: 'Recorded bin', dataIndex: 'binName' },
          ...(extra ? [{ title: 'Action', key: 'action', render: (_: unknown, u: BinAuditUnit) => extra(u) }] : []),
        ]}
      />
    </section>
  );
}

/**
 * A physical audit of a bin (issue 26): staff scan every label in it; finishing compares the
 * scans with what the bin should hold: found, in the wrong bin (moved here with one click),
 * missing, unknown codes. Each audit is kept with who and when.
 */
export default function BinAuditPage() {
  const { id = '' } = useParams();
  const navigate = useNavigate();
  const bin = useBinQuery(id);
  const audits = useBinAuditsQuery(id);
  const [record, recording] = useRecordBinAuditMutation();
  const [move] = useMoveUnitMutation();
  const { notify } = useFeedback();
  const [typed, setTyped] = useState('');
  const [codes, setCodes] = useState<string[]>([]);
  const [note, setNote] = useState<string>();
  const [result, setResult] = useState<BinAudit>();
  const [moved, setMoved] = useState<ReadonlySet<string>>(new Set());

  if (bin.isLoading) return <Loading />;
  if (!loaded(bin)) return <LazyErrorState title="This bin could not be loaded" message={errorMessage(bin.error)} onRetry={() => void bin.refetch()} />;

  const onScan = () => {
    const code = serialCodeFromScan(typed);
    setTyped('');
    if (!code) return setNote(AUDIT_TEXTS.bad);
    if (codes.includes(code)) return setNote(AUDIT_TEXTS.again(code));
    setNote(undefined);
    setCodes((c) => [code, ...c]);
  };
  const finish = async () => {
    try {
      setResult(await record({ binId: id, serialCodes: codes }).unwrap());
      setCodes([]);
    } catch (err) {
      notify.error('Audit Error', errorMessage(err));
    }
  };
  const moveHere = async (u: BinAuditUnit) => {
    try {
      await move({ code: u.serialCode, warehouseBinID: id }).unwrap();
      // One message per result (issue 27): the row says "Moved here" where the button was; no toast as well.
      setMoved((m) => new Set(m).add(u.serialCode));
    } catch (err) {
      notify.error('Move Error', errorMessage(err));
    }
  };

  return (
    <article>
      <PageHeader title={`Audit of ${bin.data.bin.name}`} extra={<Button onClick={() => navigate(`/admin/warehouse-bins/${id}/stocks`)}>Back</Button>} />
      {!result && (
        <>
          <form
            role="search"
            aria-label={AUDIT_TEXTS.scan}
            style={{ display: 'flex', gap: 8, flexWrap: 'wrap', marginBottom: 8 }}
            onSubmit={(e) => {
              e.preventDefault();
              onScan();
            }}
          >
            <Input aria-label={AUDIT_TEXTS.scan} aria-describedby="audit-help" value={typed} onChange={(e) => setTyped(e.target.value)} style={{ maxWidth: 360 }} autoComplete="off" autoFocus />
            <Button htmlType="submit">Add</Button>
            <Button type="primary" onClick={() => void finish()} loading={recording.isLoading}>
              {AUDIT_TEXTS.finish}
            </Button>
          </form>
          <p id="audit-help" style={{ color: 'rgba(0,0,0,0.62)' }}>
            {AUDIT_TEXTS.help}
          </p>
          {note && <Alert type="warning" showIcon role="alert" style={{ marginBottom: 12 }} title={note} />}
          <p data-testid="scanned-count">{`${codes.length} scanned`}</p>
          <Space wrap style={{ marginBottom: 16 }}>
            {codes.map((c) => (
              <Tag key={c} closable onClose={() => setCodes((all) => all.filter((x) => x !== c))}>
                {c}
              </Tag>
            ))}
          </Space>
        </>
      )}
      {result && (
        <div data-testid="audit-result">
          <Alert
            type={result.missing.length || result.wrongBin.length || result.unknown.length ? 'warning' : 'success'}
            showIcon
            style={{ marginBottom: 16 }}
            title={`${result.found.length} of ${result.expected} expected found · ${result.wrongBin.length} from other bins · ${result.missing.length} missing · ${result.unknown.length} unknown`}
          />
          <UnitTable title="Missing" units={result.missing} />
          <UnitTable
            title="In the wrong bin"
            units={result.wrongBin}
            extra={(u) =>
              moved.has(u.serialCode) ? (
                <Tag color="green" role="status">Moved here</Tag>
              ) : (
                <Button size="small" onClick={() => void moveHere(u)} aria-label={`Move ${u.serialCode} here`}>
                  Move here
                </Button>
              )
            }
          />
          <UnitTable title="Found" units={result.found} />
          {result.unknown.length > 0 && (
            <p>
              Unknown codes: <strong>{result.unknown.join(', ')}</strong>
            </p>
          )}
          <Button onClick={() => setResult(undefined)}>New audit</Button>
        </div>
      )}
      <section aria-label="Past audits" style={{ marginTop: 24 }}>
        <SectionTitle>Past audits</SectionTitle>
        <ResponsiveTable<BinAudit>
          rowKey="id"
          size="small"
          loading={listBusy(audits)}
          pagination={false}
          scroll={{ x: true }}
          dataSource={audits.data?.items ?? []}
          locale={{ emptyText: <EmptyState description="No audit of this bin yet." /> }}
          columns={[
            { title: 'When', dataIndex: 'at', render: (d: string) => formatManilaDateTime(d) },
            { title: 'By', dataIndex: 'by', render: (b: string | null) => b ?? '—' },
            { title: 'Expected', dataIndex: 'expected' },
            { title: 'Found', key: 'found', render: (_: unknown, a: BinAudit) => a.found.length },
            { title: 'Wrong bin', key: 'wrong', render: (_: unknown, a: BinAudit) => a.wrongBin.length },
            { title: 'Missing', key: 'missing', render: (_: unknown, a: BinAudit) => a.missing.length },
          ]}
        />
      </section>
    </article>
  );
}
