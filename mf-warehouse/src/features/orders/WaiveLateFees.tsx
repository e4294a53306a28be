import { useState } from 'react';
import { Alert, Button, Descriptions, Form, Input, InputNumber, Modal } from 'antd';
import { centsToString, formatManilaDateTime, isMoneyString, LATE_FEE_MESSAGES, toCents, type Cents } from '@dme/contracts/browser';
import type { Order } from '@dme/contracts';
import { errorMessage, fieldErrors } from '@dme/api-client';
import { Money, ResponsiveTable, SectionTitle, useFeedback } from '@dme/ui';
import { useWaiveLateFeesMutation } from './api';

/** Ours (issue 29): the texts of 'Waive late fees'; the messages of the form are the contracts' (LATE_FEE_MESSAGES). */
export const WAIVE_TEXTS = {
  button: 'Waive late fees',
  title: 'Waive Late Fees',
  charged: 'Charged so far',
  waived: 'Already waived',
  left: 'Left to waive',
  amount: 'Amount to waive',
  reason: 'Reason',
  ok: 'Waive',
  cancel: 'Cancel',
  list: 'Late fee waivers',
} as const;

/** The largest amount the form takes (the wire's: 999,999.99). */
const MAX_CENTS = 99_999_999;
/** The longest reason the server keeps. */
const MAX_REASON = 300;

/** The cents of an entered amount, or null when it is not one (a money string or a number with at most two decimals). */
function centsOf(v: unknown): Cents | null {
  if (typeof v !== 'number' && typeof v !== 'string') return null;
  const text = typeof v === 'number' ? String(v) : v.trim();
  if (!isMoneyString(text)) return null;
  const cents = toCents(text);
  return cents >= 0 && cents <= MAX_CENTS ? cents : null;
}

type LateFees = NonNullable<Order['lateFees']>;

/** What is charged so far, waived already and left to waive (older servers send the net amount only). */
function figures(late: LateFees): { charged: string; waived: string; left: string } {
  return { charged: late.charged ?? late.amount, waived: late.waived ?? '0.00', left: late.amount };
}

/**
 * 'Waive late fees' (issue 29): staff waive all or part of a rental's late fees with a reason,
 * while the order shows late fees so far (out, for return, being picked up) and some are not
 * waived yet. The dialog shows what is charged, waived and left, asks for the amount (what is
 * left at first) and the reason; on success the contracts' message, the order from the answer;
 * the server's field messages under their fields, any other refusal in the dialog.
 */
export function WaiveLateFeesButton({ order }: { order: Order }) {
  const [open, setOpen] = useState(false);
  const late = order.lateFees ?? null;
  if (late === null || centsOf(late.amount) === 0) return null;
  return (
    <>
      <Button size="small" onClick={() => setOpen(true)} data-testid="waive-late-fees">
        {WAIVE_TEXTS.button}
      </Button>
      {open && <WaiveLateFeesDialog orderId={order.id} late={late} onClose={() => setOpen(false)} />}
    </>
  );
}

interface WaiverValues {
  amount: number | string | null;
  reason: string;
}

function WaiveLateFeesDialog({ orderId, late, onClose }: { orderId: string; late: LateFees; onClose: () => void }) {
  const [form] = Form.useForm<WaiverValues>();
  const [waive, state] = useWaiveLateFeesMutation();
  const { notify } = useFeedback();
  const [error, setError] = useState<string>();
  const f = figures(late);
  const leftCents = centsOf(f.left) ?? 0;

  const submit = async () => {
    let values: WaiverValues;
    try {
      values = await form.validateFields();
    } catch {
      return;
    }
    setError(undefined);
    try {
      await waive({ orderId, body: { amount: centsToString(centsOf(values.amount) ?? 0), reason: values.reason.trim() } }).unwrap();
      notify.success(LATE_FEE_MESSAGES.waived);
      onClose();
    } catch (err) {
      const fields = fieldErrors(err).filter((x) => x.name === 'amount' || x.name === 'reason');
      if (fields.length) form.setFields(fields as never);
      else setError(errorMessage(err));
    }
  };

  return (
    <Modal
      title={WAIVE_TEXTS.title}
      open
      onCancel={onClose}
      okText={WAIVE_TEXTS.ok}
      cancelText={WAIVE_TEXTS.cancel}
      // Disabled while sending, not antd's loading icon (see RentalChangeModal).
      okButtonProps={{ disabled: state.isLoading }}
      onOk={() => void submit()}
      destroyOnHidden
    >
      <Descriptions column={1} size="small" bordered style={{ marginBottom: 16 }}>
        <Descriptions.Item label={WAIVE_TEXTS.charged}>
          <span data-testid="waiver-charged">
            <Money value={f.charged} />
          </span>
        </Descriptions.Item>
        <Descriptions.Item label={WAIVE_TEXTS.waived}>
          <span data-testid="waiver-waived">
            <Money value={f.waived} />
          </span>
        </Descriptions.Item>
        <Descriptions.Item label={WAIVE_TEXTS.left}>
          <strong data-testid="waiver-left">
            <Money value={f.left} />
          </strong>
        </Descriptions.Item>
      </Descriptions>
      <Form form={form} layout="vertical" name="waive-late-fees" initialValues={{ amount: f.left, reason: '' }} onValuesChange={() => setError(undefined)}>
        <Form.Item
          label={WAIVE_TEXTS.amount}
          name="amount"
          required
          rules={[
            {
              validator: async (_, v: unknown) => {
                const cents = centsOf(v);
                if (cents === null || cents <= 0) throw new Error(LATE_FEE_MESSAGES.amount);
                if (cents > leftCents) throw new Error(LATE_FEE_MESSAGES.tooMuch);
              },
            },
          ]}
        >
          <InputNumber min={0} max={MAX_CENTS / 100} precision={2} step={1} prefix="$" style={{ width: '100%' }} />
        </Form.Item>
        <Form.Item label={WAIVE_TEXTS.reason} name="reason" rules={[{ required: true, whitespace: true, message: LATE_FEE_MESSAGES.reason }]}>
          <Input.TextArea rows={3} maxLength={MAX_REASON} showCount />
        </Form.Item>
      </Form>
      {error && <Alert type="error" showIcon data-testid="waive-late-fees-error" title={error} />}
    </Modal>
  );
}

type Waiver = Order['lateFeeWaivers'][number];

/** The late fees waived so far (issue 29), oldest first: how much, why, by whom and when. */
export function LateFeeWaivers({ order }: { order: Order }) {
  // Older servers leave the list out.
  const waivers = order.lateFeeWaivers ?? [];
  if (waivers.length === 0) return null;
  return (
    <section aria-label={WAIVE_TEXTS.list} style={{ marginTop: 24 }}>
      <SectionTitle>{WAIVE_TEXTS.list}</SectionTitle>
      <ResponsiveTable
        rowKey={(w: Waiver) => `${w.createdAt}-${w.amount}-${w.byName}`}
        size="small"
        pagination={false}
        dataSource={waivers}
        scroll={{ x: true }}
        columns={[
          { title: 'Amount', dataIndex: 'amount', align: 'right' as const, render: (a: string) => <Money value={a} /> },
          { title: 'Reason', dataIndex: 'reason' },
          { title: 'By', dataIndex: 'byName' },
          { title: 'Date', dataIndex: 'createdAt', render: (d: string) => formatManilaDateTime(d) },
        ]}
      />
    </section>
  );
}
