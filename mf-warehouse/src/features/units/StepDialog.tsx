import { useState } from 'react';
import { Alert, Form, Input, InputNumber, Modal, Radio, Select, Space } from 'antd';
import type { UnitResponse, UnitStep, UnitStepRequest } from '@dme/contracts';
import { STOCK_STATUS_LABELS, UNIT_MESSAGES, UNIT_STEPS } from '@dme/contracts/browser';
import { errorMessage } from '@dme/api-client';
import { useFeedback } from '@dme/ui';
import { useBinsQuery } from '../../lib/api';
import { useUnitStepMutation } from './api';

type Unit = UnitResponse['unit'];

/** Ours (issue 26): what each step's dialog says and asks. */
export const STEP_TEXTS: Record<UnitStep, { title: (code: string) => string; ok: string; danger?: boolean }> = {
  CLEAN: { title: (c) => `Clean ${c}`, ok: 'Cleaned' },
  INSPECT: { title: (c) => `Inspect ${c}`, ok: 'Save inspection' },
  PUT_AWAY: { title: (c) => `Put ${c} away`, ok: 'Put away' },
  OPEN_REPAIR: { title: (c) => `Open a repair of ${c}`, ok: 'Open repair' },
  CLOSE_REPAIR: { title: (c) => `Close the repair of ${c}`, ok: 'Close repair' },
  HOLD: { title: (c) => `Put ${c} on hold`, ok: 'Put on hold', danger: true },
  RELEASE: { title: (c) => `Release ${c}`, ok: 'Release' },
  SCRAP: { title: (c) => `Scrap ${c}`, ok: 'Scrap', danger: true },
  FOUND: { title: (c) => `${c} is found`, ok: 'Found' },
  WRITE_OFF: { title: (c) => `Write ${c} off`, ok: 'Write off', danger: true },
  SERVICE: { title: (c) => `Service ${c}`, ok: 'Save service' },
};

/** The steps whose note is required (why a unit is held, scrapped or written off). */
const NOTE_REQUIRED: readonly UnitStep[] = ['HOLD', 'SCRAP', 'WRITE_OFF'];

interface Values {
  note?: string;
  warehouseBinID?: string;
  fault?: string;
  parts?: string;
  cost?: number;
  technician?: string;
  outcome?: 'REPAIRED' | 'SCRAPPED';
  checklist?: Record<string, 'PASS' | 'FAIL'>;
}

/** The request a step's form makes (only the fields the step takes). */
export function stepRequest(step: UnitStep, unit: Pick<Unit, 'checklist' | 'serviceChecklist'>, v: Values): UnitStepRequest {
  const note = v.note?.trim() ?? '';
  switch (step) {
    case 'INSPECT':
    case 'SERVICE':
      return { step, note, checklist: checklistOf(step, unit).map((point) => ({ point, ok: v.checklist?.[point] === 'PASS' })) };
    case 'PUT_AWAY':
    case 'FOUND':
      return { step, note, ...(v.warehouseBinID ? { warehouseBinID: v.warehouseBinID } : {}) };
    case 'OPEN_REPAIR':
      return { step, note, fault: v.fault?.trim() ?? '' };
    case 'CLOSE_REPAIR':
      return {
        step,
        note,
        ...(v.outcome ? { outcome: v.outcome } : {}),
        ...(v.parts?.trim() ? { parts: v.parts.trim() } : {}),
        ...(v.cost !== undefined && v.cost !== null ? { cost: v.cost.toFixed(2) } : {}),
        ...(v.technician?.trim() ? { technician: v.technician.trim() } : {}),
      };
    default:
      return { step, note };
  }
}

/** The checklist a step answers: the product's inspection checklist, or its maintenance plan's. */
const checklistOf = (step: UnitStep, unit: Pick<Unit, 'checklist' | 'serviceChecklist'>) => (step === 'SERVICE' ? (unit.serviceChecklist ?? []) : unit.checklist);

/**
 * One step of a unit between rentals (issue 26): the step's own questions (the product's
 * checklist, a bin, a fault, the repair's outcome, why), sent to the server, which decides; its
 * message as a toast on success, its reason in the dialog when it refuses (the dialog stays open).
 */
export function StepDialog({ unit, step, onClose }: { unit: Unit; step: UnitStep; onClose: () => void }) {
  const [form] = Form.useForm<Values>();
  const [send, state] = useUnitStepMutation();
  const { notify } = useFeedback();
  const [error, setError] = useState<string>();
  const texts = STEP_TEXTS[step];
  const [binSearch, setBinSearch] = useState('');
  const bins = useBinsQuery({ limit: 100, offset: 0, ...(binSearch.trim() ? { search: binSearch.trim() } : {}) }, { skip: step !== 'PUT_AWAY' && step !== 'FOUND' });

  const submit = async (v: Values) => {
    setError(undefined);
    try {
      const res = await send({ code: unit.serialCode, body: stepRequest(step, unit, v) }).unwrap();
      notify.success(res.message ?? UNIT_MESSAGES.done(unit.serialCode, STOCK_STATUS_LABELS[res.unit.status].toLowerCase()));
      onClose();
    } catch (err) {
      setError(errorMessage(err));
    }
  };

  return (
    <Modal
      title={texts.title(unit.serialCode)}
      open
      onCancel={onClose}
      okText={texts.ok}
      okButtonProps={texts.danger ? { danger: true } : undefined}
      confirmLoading={state.isLoading}
      onOk={() => void form.validateFields().then(submit).catch(() => undefined)}
      destroyOnHidden
    >
      <p style={{ marginTop: 0 }}>
        {unit.productName}
        {unit.level ? ` · ${unit.level}` : ''} · {STOCK_STATUS_LABELS[unit.status]} · {unit.warehouseBin.name}
      </p>
      <Form form={form} layout="vertical" name={`unit-step-${step.toLowerCase()}`} onValuesChange={() => setError(undefined)}>
        {(step === 'INSPECT' || step === 'SERVICE') &&
          (checklistOf(step, unit).length === 0 ? (
            <p>This product has no checklist for it: it is recorded as passed.</p>
          ) : (
            <fieldset style={{ border: 0, padding: 0, margin: 0 }}>
              <legend style={{ fontWeight: 500, marginBottom: 8 }}>Checklist</legend>
              {checklistOf(step, unit).map((point) => (
                <Form.Item key={point} label={point} name={['checklist', point]} rules={[{ required: true, message: UNIT_MESSAGES.checklistRequired }]}>
                  <Radio.Group
                    aria-label={point}
                    optionType="button"
                    options={[
                      { value: 'PASS', label: 'Pass' },
                      { value: 'FAIL', label: 'Fail' },
                    ]}
                  />
                </Form.Item>
              ))}
            </fieldset>
          ))}
        {(step === 'PUT_AWAY' || step === 'FOUND') && (
          <Form.Item label="Bin" name="warehouseBinID" rules={step === 'PUT_AWAY' ? [{ required: true, message: UNIT_MESSAGES.binRequired }] : []}>
            <Select
              showSearch
              filterOption={false}
              onSearch={setBinSearch}
              loading={bins.isFetching}
              placeholder="Choose a bin (type to search)"
              options={(bins.data?.items ?? []).map((b) => ({ value: b.id, label: b.name }))}
              notFoundContent={bins.isFetching ? 'Loading...' : 'No bin matches.'}
            />
          </Form.Item>
        )}
        {step === 'OPEN_REPAIR' && (
          <Form.Item label="Fault" name="fault" rules={[{ required: true, whitespace: true, message: UNIT_MESSAGES.faultRequired }]}>
            <Input.TextArea maxLength={500} rows={2} />
          </Form.Item>
        )}
        {step === 'CLOSE_REPAIR' && (
          <>
            <Form.Item label="Outcome" name="outcome" rules={[{ required: true, message: UNIT_MESSAGES.outcomeRequired }]}>
              <Radio.Group
                options={[
                  { value: 'REPAIRED', label: 'Repaired: back in service' },
                  { value: 'SCRAPPED', label: 'Cannot be repaired: scrap it' },
                ]}
              />
            </Form.Item>
            <Space wrap style={{ width: '100%' }}>
              <Form.Item label="Parts" name="parts">
                <Input maxLength={500} />
              </Form.Item>
              <Form.Item label="Cost" name="cost">
                <InputNumber min={0} max={999999.99} precision={2} step={1} prefix="$" />
              </Form.Item>
              <Form.Item label="Technician" name="technician">
                <Input maxLength={120} />
              </Form.Item>
            </Space>
          </>
        )}
        <Form.Item label="Note" name="note" rules={NOTE_REQUIRED.includes(step) ? [{ required: true, whitespace: true, message: UNIT_MESSAGES.noteRequired }] : []}>
          <Input.TextArea maxLength={500} rows={2} placeholder={NOTE_REQUIRED.includes(step) ? 'Why' : 'Optional'} />
        </Form.Item>
      </Form>
      {error && <Alert type="error" showIcon data-testid="step-error" title={error} />}
    </Modal>
  );
}

/** The label of a step's button ("Cleaned", "Inspect"...). */
export const stepLabel = (step: UnitStep) => UNIT_STEPS[step].label;
