import { useEffect, useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router-dom';
import { Alert, Button, Input } from 'antd';
import type { UnitBoardColumn, UnitResponse, UnitStep, UnitSummary } from '@dme/contracts';
import { formatManilaDateTime, serialCodeFromScan, UNIT_BOARD } from '@dme/contracts/browser';
import { errorMessage, listBusy } from '@dme/api-client';
import { EmptyState, FilterTabs, LazyErrorState, PageHeader, StatusTag, useListAddress, ResponsiveTable } from '@dme/ui';
import { useLazyUnitNowQuery, useUnitBoardQuery } from './api';
import { StepDialog, stepLabel } from './StepDialog';

/** Ours (issue 26): the board's texts. */
export const BOARD_TEXTS = {
  title: 'Units',
  scan: 'Scan a unit',
  scanHelp: 'Scan a label (or type a serial code): the unit’s next step opens.',
  scanBad: 'Scan a unit label or type its serial code.',
  empty: (title: string) => `No unit is ${title.toLowerCase()}.`,
} as const;

const PAGE = 50;
const BOARD_COLUMNS = UNIT_BOARD.map((c) => c.key);

/**
 * The units board (issue 26): units on their way back to the shelf (to clean, to inspect, to put
 * away), damaged, in repair and on hold, a tab each with its count, oldest in their status first.
 * Each row is one click from its next step; a scan (a label, or a typed code) opens the scanned
 * unit's next step at once, or its page when a scan decides nothing.
 */
export default function UnitsBoardPage() {
  const navigate = useNavigate();
  const [params] = useSearchParams();
  // The column and page are in the address (?column=IN_REPAIR&page=2): Back from a unit keeps them (issue 27).
  const address = useListAddress(BOARD_COLUMNS, 'column');
  const { tab: column, page } = address;
  const board = useUnitBoardQuery({ column, limit: PAGE, offset: (page - 1) * PAGE });
  const [open, setOpen] = useState<{ unit: UnitResponse['unit']; step: UnitStep }>();
  const [scanned, setScanned] = useState('');
  const [scanError, setScanError] = useState<string>();
  const [lookUpNow] = useLazyUnitNowQuery();
  /** A scan being looked up (not a list's refresh: a scan right after a step must not be swallowed). */
  const [opening, setOpening] = useState(false);
  const lookUp = async (code: string) => {
    setOpening(true);
    try {
      return await lookUpNow({ code, at: Date.now() }).unwrap();
    } finally {
      setOpening(false);
    }
  };

  // The top bar's "Find unit" without the app (a plain form): ?code= opens the unit's page.
  const asked = params.get('code');
  useEffect(() => {
    const code = asked ? serialCodeFromScan(asked) : null;
    if (code) navigate(`/admin/units/${encodeURIComponent(code)}`, { replace: true });
  }, [asked, navigate]);

  const onScan = async () => {
    setScanError(undefined);
    const code = serialCodeFromScan(scanned);
    if (!code) return setScanError(BOARD_TEXTS.scanBad);
    try {
      const { unit } = await lookUp(code);
      setScanned('');
      if (unit.nextStep) setOpen({ unit, step: unit.nextStep });
      else navigate(`/admin/units/${encodeURIComponent(code)}`);
    } catch (err) {
      setScanError(errorMessage(err));
    }
  };

  const openStep = async (row: UnitSummary, step: UnitStep) => {
    try {
      setOpen({ unit: (await lookUp(row.serialCode)).unit, step });
    } catch (err) {
      setScanError(errorMessage(err));
    }
  };

  const counts = board.data?.counts;
  const title = UNIT_BOARD.find((c) => c.key === column)!.title;
  return (
    <div>
      <PageHeader title={BOARD_TEXTS.title} />
      <form
        role="search"
        aria-label={BOARD_TEXTS.scan}
        style={{ display: 'flex', gap: 8, flexWrap: 'wrap', marginBottom: 8 }}
        onSubmit={(e) => {
          e.preventDefault();
          void onScan();
        }}
      >
        <Input
          aria-label={BOARD_TEXTS.scan}
          aria-describedby="unit-scan-help"
          placeholder={BOARD_TEXTS.scan}
          value={scanned}
          onChange={(e) => setScanned(e.target.value)}
          style={{ maxWidth: 360 }}
          autoComplete="off"
          autoFocus
        />
        <Button type="primary" htmlType="submit" loading={opening}>
          Open
        </Button>
      </form>
      <p id="unit-scan-help" style={{ color: 'rgba(0,0,0,0.62)', marginTop: 0 }}>
        {BOARD_TEXTS.scanHelp}
      </p>
      {scanError && <Alert type="error" showIcon role="alert" style={{ marginBottom: 12 }} title={scanError} />}
      <FilterTabs<UnitBoardColumn>
        label="Board columns"
        active={column}
        onChange={(k) => address.go({ tab: k })}
        items={UNIT_BOARD.map((c) => ({ key: c.key, label: c.title, count: counts?.[c.key] }))}
      >
        {board.error ? (
          <LazyErrorState title="The board could not be loaded" message={errorMessage(board.error)} onRetry={() => void board.refetch()} />
        ) : (
          <ResponsiveTable<UnitSummary>
            rowKey="id"
            size="middle"
            loading={listBusy(board)}
            dataSource={board.data?.items ?? []}
            scroll={{ x: true }}
            locale={{ emptyText: <EmptyState description={BOARD_TEXTS.empty(title)} /> }}
            pagination={{ current: page, pageSize: PAGE, total: board.data?.total ?? 0, onChange: (p) => address.go({ page: p }), showSizeChanger: false }}
            columns={[
              { title: 'Serial Code', dataIndex: 'serialCode', render: (s: string) => <Link to={`/admin/units/${encodeURIComponent(s)}`} state={address.backState}>{s}</Link> },
              { title: 'Product', key: 'product', render: (_: unknown, u: UnitSummary) => `${u.productName}${u.level ? ` · ${u.level}` : ''}` },
              { title: 'Status', dataIndex: 'status', render: (s: string) => <StatusTag kind="stock" status={s} /> },
              { title: 'Bin', key: 'bin', render: (_: unknown, u: UnitSummary) => u.warehouseBin.name },
              { title: 'Since', dataIndex: 'since', render: (d: string) => formatManilaDateTime(d) },
              {
                title: 'Next step',
                key: 'next',
                render: (_: unknown, u: UnitSummary) =>
                  u.nextStep ? (
                    <Button size="small" onClick={() => void openStep(u, u.nextStep!)} aria-label={`${stepLabel(u.nextStep)} ${u.serialCode}`}>
                      {stepLabel(u.nextStep)}
                    </Button>
                  ) : (
                    <Link to={`/admin/units/${encodeURIComponent(u.serialCode)}`}>Open</Link>
                  ),
              },
            ]}
          />
        )}
      </FilterTabs>
      {open && <StepDialog unit={open.unit} step={open.step} onClose={() => setOpen(undefined)} />}
    </div>
  );
}
