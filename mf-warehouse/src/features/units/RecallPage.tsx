import { useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router-dom';
import { Alert, Button, Descriptions, Form, Input, Modal, Progress, Space, Tag } from 'antd';
import type { RecallUnit, UnitResponse, UnitStep } from '@dme/contracts';
import { formatManilaDateTime, RECALL_MESSAGES } from '@dme/contracts/browser';
import { errorMessage, loaded } from '@dme/api-client';
import { LazyErrorState, Loading, PageHeader, SectionTitle, StatusTag, useFeedback, ResponsiveTable } from '@dme/ui';
import { useCloseRecallMutation, useFileRequestMutation, useLazyUnitNowQuery, useRecallQuery, useSettleRecallUnitMutation } from './api';
import { StepDialog } from './StepDialog';

const STATE_TAG: Record<RecallUnit['state'], { color: string; label: string }> = {
  ON_HOLD: { color: 'volcano', label: 'On hold' },
  WITH_CUSTOMER: { color: 'magenta', label: 'With customer' },
  LOST: { color: 'red', label: 'Lost' },
  IN_WAREHOUSE: { color: 'orange', label: 'In the warehouse' },
  RESOLVED: { color: 'green', label: 'Resolved' },
};

/** Settling a unit staff cannot release or scrap themselves: how, in a note. */
function SettleDialog({ recallId, unit, onClose }: { recallId: string; unit: RecallUnit; onClose: () => void }) {
  const [form] = Form.useForm<{ note: string }>();
  const [settle, state] = useSettleRecallUnitMutation();
  const { notify } = useFeedback();
  const [error, setError] = useState<string>();
  const submit = async ({ note }: { note: string }) => {
    try {
      await settle({ id: recallId, serialCode: unit.serialCode, note: note.trim() }).unwrap();
      notify.success(`${unit.serialCode} is settled.`);
      onClose();
    } catch (err) {
      setError(errorMessage(err));
    }
  };
  return (
    <Modal title={`Settle ${unit.serialCode}`} open onCancel={onClose} okText="Settle" confirmLoading={state.isLoading} onOk={() => void form.validateFields().then(submit).catch(() => undefined)} destroyOnHidden>
      <Form form={form} layout="vertical" name="settle-recall-unit">
        <Form.Item label="How it was settled" name="note" rules={[{ required: true, whitespace: true, message: RECALL_MESSAGES.noteRequired }]}>
          <Input.TextArea maxLength={500} rows={2} placeholder="e.g. Replaced at the customer's home on Dec 2" />
        </Form.Item>
      </Form>
      {error && <Alert type="error" showIcon title={error} />}
    </Modal>
  );
}

/**
 * One recall (issue 26): its units, where each stands and with whom, worked to closure. A unit on
 * hold is released (cleaned and inspected again) or scrapped, as its page's steps do; one with a
 * customer gets a replace request on their rental (the pick-up and return follow; back, it is held)
 * or is settled with a note; the recall closes once every unit is resolved.
 */
export default function RecallPage() {
  const { id = '' } = useParams();
  const navigate = useNavigate();
  const q = useRecallQuery(id);
  const [lookUpNow] = useLazyUnitNowQuery();
  const [step, setStep] = useState<{ unit: UnitResponse['unit']; step: UnitStep }>();
  const [settling, setSettling] = useState<RecallUnit>();
  const [fileRequest] = useFileRequestMutation();
  const [close, closing] = useCloseRecallMutation();
  const { notify, confirm } = useFeedback();

  if (q.isLoading) return <Loading />;
  if (!loaded(q)) return <LazyErrorState title="This recall could not be loaded" message={errorMessage(q.error)} onRetry={() => void q.refetch()} />;
  const r = q.data.recall;
  const open = r.status === 'OPEN';
  const unresolved = r.counts.total - r.counts.resolved;

  const openStep = async (code: string, s: UnitStep) => {
    try {
      setStep({ unit: (await lookUpNow({ code, at: Date.now() }).unwrap()).unit, step: s });
    } catch (err) {
      notify.error('Unit Error', errorMessage(err));
    }
  };
  const replace = async (u: RecallUnit) => {
    try {
      await fileRequest({ orderId: u.orderID!, body: { type: 'REPLACE', serialCodes: [u.serialCode], note: RECALL_MESSAGES.holdNote(r.number, r.title) } }).unwrap();
      notify.success(`Replace request filed on ${u.orderNumber}.`);
    } catch (err) {
      notify.error('Request Error', errorMessage(err));
    }
  };
  const onClose = async () => {
    if (!(await confirm({ title: `Close recall ${r.number}?`, content: 'Every unit of it is resolved; it is kept, closed, with its history.', okText: 'Close recall' }))) return;
    try {
      await close(r.id).unwrap();
      notify.success(`Recall ${r.number} is closed.`);
    } catch (err) {
      notify.error('Recall Error', errorMessage(err));
    }
  };

  return (
    <article>
      <PageHeader
        title={`Recall ${r.number}`}
        extra={
          <Space wrap>
            {open && (
              <Button type="primary" onClick={() => void onClose()} disabled={unresolved > 0} loading={closing.isLoading}>
                Close recall
              </Button>
            )}
            <Button onClick={() => navigate('/admin/recalls')}>Back</Button>
          </Space>
        }
      />
      <Descriptions size="small" column={{ xs: 1, sm: 2, md: 3 }} style={{ marginBottom: 16 }}>
        <Descriptions.Item label="Title">{r.title}</Descriptions.Item>
        <Descriptions.Item label="Product">{r.productName}</Descriptions.Item>
        <Descriptions.Item label="Status">
          <Tag color={open ? 'volcano' : 'green'}>{r.status}</Tag>
        </Descriptions.Item>
        <Descriptions.Item label="Opened">
          {formatManilaDateTime(r.openedAt)}
          {r.openedBy ? ` by ${r.openedBy}` : ''}
        </Descriptions.Item>
        {r.closedAt && <Descriptions.Item label="Closed">{formatManilaDateTime(r.closedAt)}</Descriptions.Item>}
        {r.reason && <Descriptions.Item label="Reason">{r.reason}</Descriptions.Item>}
      </Descriptions>
      <div style={{ maxWidth: 480, marginBottom: 8 }} data-testid="recall-progress">
        <Progress
          aria-label={`Recall ${r.number}: ${r.counts.resolved} of ${r.counts.total} units resolved`}
          percent={r.counts.total ? Math.round((100 * r.counts.resolved) / r.counts.total) : 100}
          format={() => `${r.counts.resolved} of ${r.counts.total} resolved`}
        />
      </div>
      <p>
        {r.counts.onHold} on hold · {r.counts.withCustomer} with customers · {r.counts.other} lost or elsewhere
      </p>
      {open && unresolved > 0 && <Alert type="info" showIcon style={{ marginBottom: 16 }} title={RECALL_MESSAGES.notAllResolved(unresolved)} />}
      <section aria-label="Recalled units">
        <SectionTitle>Units</SectionTitle>
        <ResponsiveTable<RecallUnit>
          rowKey="serialCode"
          size="middle"
          pagination={false}
          scroll={{ x: true }}
          dataSource={r.units}
          columns={[
            { title: 'Serial Code', dataIndex: 'serialCode', render: (c: string) => <Link to={`/admin/units/${encodeURIComponent(c)}`}>{c}</Link> },
            { title: 'Status', dataIndex: 'status', render: (s: string) => <StatusTag kind="stock" status={s} /> },
            { title: 'State', dataIndex: 'state', render: (s: RecallUnit['state']) => <Tag color={STATE_TAG[s].color}>{STATE_TAG[s].label}</Tag> },
            {
              title: 'Order',
              key: 'order',
              render: (_: unknown, u: RecallUnit) =>
                u.orderID ? <Link to={`/admin/orders/${u.orderType === 'BUY' ? 'purchased' : 'rentals'}/${u.orderID}`}>{u.orderNumber}</Link> : '—',
            },
            { title: 'Customer', dataIndex: 'customerName', render: (c: string | null) => c ?? '—' },
            { title: 'Resolution', key: 'resolution', render: (_: unknown, u: RecallUnit) => (u.resolution ? `${u.resolution.replace('_', ' ').toLowerCase()}${u.note ? `: ${u.note}` : ''}` : '—') },
            {
              title: 'Actions',
              key: 'actions',
              render: (_: unknown, u: RecallUnit) =>
                !open || u.state === 'RESOLVED' ? null : (
                  <Space wrap>
                    {u.state === 'ON_HOLD' && (
                      <>
                        <Button size="small" onClick={() => void openStep(u.serialCode, 'RELEASE')}>
                          Release
                        </Button>
                        <Button size="small" danger onClick={() => void openStep(u.serialCode, 'SCRAP')}>
                          Scrap
                        </Button>
                      </>
                    )}
                    {u.state === 'WITH_CUSTOMER' && u.orderType === 'RENT' && (
                      <Button size="small" onClick={() => void replace(u)}>
                        Replace request
                      </Button>
                    )}
                    {(u.state === 'WITH_CUSTOMER' || u.state === 'LOST' || u.state === 'IN_WAREHOUSE') && (
                      <Button size="small" onClick={() => setSettling(u)}>
                        Settle
                      </Button>
                    )}
                  </Space>
                ),
            },
          ]}
        />
      </section>
      {step && <StepDialog unit={step.unit} step={step.step} onClose={() => setStep(undefined)} />}
      {settling && <SettleDialog recallId={r.id} unit={settling} onClose={() => setSettling(undefined)} />}
    </article>
  );
}
