import { useState } from 'react';
import { useNavigate, useParams } from 'react-router-dom';
import { Button, Descriptions, Space, Tag, Timeline } from 'antd';
import type { CustodyEntry, RepairOrder, UnitStep } from '@dme/contracts';
import { CUSTODY_KINDS, formatBusinessDate, formatManilaDateTime, STOCK_STATUS_LABELS } from '@dme/contracts/browser';
import { errorMessage, loaded } from '@dme/api-client';
import { LazyErrorState, Loading, money, PageHeader, SectionTitle, StatusTag, useBackTo, ResponsiveTable, RefreshFailed } from '@dme/ui';
import { useUnitQuery } from './api';
import { StepDialog, stepLabel } from './StepDialog';
import { ScheduleServiceButton } from './ScheduleService';

/** One entry of the history: what, when, who, where, whose hands, how. */
function EntryText({ e }: { e: CustodyEntry }) {
  const parts = [
    e.by && `by ${e.by}`,
    e.party && (e.kind === 'DELIVERED' || e.kind === 'RETURNED' ? `customer ${e.party}` : e.party !== e.by ? e.party : null),
    e.bin && `bin ${e.bin}`,
    e.orderNumber && `order ${e.orderNumber}`,
  ].filter(Boolean);
  return (
    <div data-testid="custody-entry">
      <strong>{CUSTODY_KINDS[e.kind]}</strong>
      {e.condition && <Tag style={{ marginLeft: 8 }}>{e.condition}</Tag>}
      {e.status && (
        <span style={{ marginLeft: 8 }}>
          → <StatusTag kind="stock" status={e.status} />
        </span>
      )}
      <div style={{ color: 'rgba(0,0,0,0.62)' }}>
        {formatManilaDateTime(e.at)}
        {parts.length > 0 && ` · ${parts.join(' · ')}`}
      </div>
      {e.note && <div>{e.note}</div>}
      {e.checklist && e.checklist.length > 0 && (
        <ul style={{ margin: '4px 0 0', paddingLeft: 20 }}>
          {e.checklist.map((c) => (
            <li key={c.point}>
              {c.point}: {c.ok ? 'pass' : <strong>fail</strong>}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

/**
 * A unit's page (issue 26): what it is and where, the steps it can take now (the stock-item table
 * decides), its repair work orders, and its whole chain of custody, newest first, with exports
 * (CSV, GS1 EPCIS 2.0). Scanning a label in the top bar's "Find unit" opens it.
 */
export default function UnitPage() {
  const { serialCode = '' } = useParams();
  const navigate = useNavigate();
  const back = useBackTo('/admin/units');
  const q = useUnitQuery(serialCode);
  const [step, setStep] = useState<UnitStep>();

  if (q.isLoading) return <Loading />;
  if (!loaded(q)) return <LazyErrorState title={`Unit ${serialCode.toUpperCase()} could not be loaded`} message={errorMessage(q.error)} onRetry={() => void q.refetch()} />;
  const { unit, history } = q.data;
  const custodyUrl = (format: 'csv' | 'epcis') => `/api/units/${encodeURIComponent(unit.serialCode)}/custody?format=${format}`;

  return (
    <article>
      <RefreshFailed error={q.error} onRetry={() => void q.refetch()} />
      <PageHeader
        title={`Unit ${unit.serialCode}`}
        extra={
          <Space wrap>
            {unit.steps.map((s) => (
              <Button key={s} type={s === unit.nextStep ? 'primary' : 'default'} danger={s === 'SCRAP' || s === 'WRITE_OFF'} onClick={() => setStep(s)}>
                {stepLabel(s)}
              </Button>
            ))}
            {unit.service && unit.inventoryType === 'IN' && <ScheduleServiceButton unit={unit} />}
            <Button onClick={() => navigate(back)}>Back</Button>
          </Space>
        }
      />
      <Descriptions size="small" column={{ xs: 1, sm: 2, md: 3 }} style={{ marginBottom: 24 }}>
        <Descriptions.Item label="Product">{`${unit.productName}${unit.level ? ` · ${unit.level}` : ''}`}</Descriptions.Item>
        <Descriptions.Item label="Status">
          <StatusTag kind="stock" status={unit.status} /> {STOCK_STATUS_LABELS[unit.status]}
        </Descriptions.Item>
        <Descriptions.Item label="Since">{formatManilaDateTime(unit.since)}</Descriptions.Item>
        <Descriptions.Item label="Bin">{unit.warehouseBin.name}</Descriptions.Item>
        <Descriptions.Item label="Where">{unit.inventoryType === 'IN' ? 'In the warehouse' : 'Out'}</Descriptions.Item>
        {unit.orderNumber && <Descriptions.Item label="Last order">{unit.orderNumber}</Descriptions.Item>}
        {unit.service && (
          <Descriptions.Item label="Maintenance">
            <span data-testid="service">
              Serviced {formatBusinessDate(unit.service.servicedOn)}
              {unit.service.dueOn && ` · due ${formatBusinessDate(unit.service.dueOn)}`}
              {unit.service.rentalDaysLeft !== null && ` · ${unit.service.rentalDaysLeft} rental days left`}
              {unit.service.due && (
                <Tag color="volcano" style={{ marginLeft: 8 }}>
                  Service due
                </Tag>
              )}
            </span>
          </Descriptions.Item>
        )}
      </Descriptions>

      {unit.repairs.length > 0 && (
        <section aria-label="Repairs" style={{ marginBottom: 24 }}>
          <SectionTitle>Repairs</SectionTitle>
          <ResponsiveTable<RepairOrder>
            rowKey="id"
            size="small"
            pagination={false}
            scroll={{ x: true }}
            dataSource={unit.repairs}
            columns={[
              { title: 'Opened', dataIndex: 'openedAt', render: (d: string) => formatManilaDateTime(d) },
              { title: 'Fault', dataIndex: 'fault' },
              { title: 'Parts', dataIndex: 'parts', render: (p: string) => p || '—' },
              { title: 'Cost', dataIndex: 'cost', align: 'right' as const, render: (c: string | null) => (c ? money(c) : '—') },
              { title: 'Technician', dataIndex: 'technician', render: (t: string) => t || '—' },
              { title: 'Outcome', dataIndex: 'outcome', render: (o: string | null) => (o ? <Tag>{o}</Tag> : <Tag color="purple">OPEN</Tag>) },
            ]}
          />
        </section>
      )}

      <section aria-label="History">
        <SectionTitle>History</SectionTitle>
        <Space wrap style={{ marginBottom: 16 }}>
          <a href={custodyUrl('csv')} download>
            Download CSV
          </a>
          <a href={custodyUrl('epcis')} download>
            Download EPCIS 2.0 (JSON-LD)
          </a>
        </Space>
        <Timeline items={[...history].reverse().map((e) => ({ key: e.id, content: <EntryText e={e} /> }))} />
      </section>
      {step && <StepDialog unit={unit} step={step} onClose={() => setStep(undefined)} />}
    </article>
  );
}
