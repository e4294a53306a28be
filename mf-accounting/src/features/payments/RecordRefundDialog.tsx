import { Alert, Descriptions, Form, Input, Modal, Select } from 'antd';
import { PAYMENT_MESSAGES, REFUND_KIND_LABELS, REFUND_METHOD_LABELS, REFUND_METHODS, type RefundMethod } from '@dme/contracts/browser';
import type { Payment, PaymentRefund } from '@dme/contracts';
import { money, useFeedback } from '@dme/ui';
import { useRecordRefundMutation } from './api';
import { RECORD_REFUND } from './labels';
import { useKeyedSubmit } from './useKeyedSubmit';

interface Values {
  method?: RefundMethod;
  reference?: string;
  note?: string;
}

const FIELDS = ['method', 'reference', 'note'];
const METHOD_OPTIONS = REFUND_METHODS.map((m) => ({ value: m, label: REFUND_METHOD_LABELS[m] }));

/**
 * Recording how a refund was paid back (issue 29): the refund's number, reason and amount
 * read-only; the method required, a reference (a transfer number) and a note optional. Like the
 * payment form, mount one per opened dialog: its submit (useKeyedSubmit) keeps one
 * Idempotency-Key for every attempt it makes, so a double click, or a retry after the answer was
 * lost, cannot record it twice.
 */
export function RecordRefundDialog({ payment, refund, open, onClose }: { payment: Payment; refund: PaymentRefund; open: boolean; onClose: () => void }) {
  const [form] = Form.useForm<Values>();
  const { notify } = useFeedback();
  const [record, state] = useRecordRefundMutation();
  const { submit, attempted, problem } = useKeyedSubmit(form, FIELDS, async (v, idempotencyKey) => {
    if (!v.method) return;
    await record({
      id: payment.id,
      refundId: refund.id,
      idempotencyKey,
      body: { method: v.method, reference: (v.reference ?? '').trim(), note: (v.note ?? '').trim() },
    }).unwrap();
    notify.success(PAYMENT_MESSAGES.refundRecorded);
    onClose();
  });

  return (
    <Modal
      title={RECORD_REFUND}
      open={open}
      okText={RECORD_REFUND}
      cancelText="Cancel"
      onOk={() => void submit()}
      confirmLoading={state.isLoading}
      onCancel={onClose}
      mask={{ closable: false }}
      destroyOnHidden
    >
      <Descriptions column={1} size="small" style={{ marginBottom: 16 }}>
        <Descriptions.Item label="Order">{payment.orderNumber}</Descriptions.Item>
        <Descriptions.Item label="Customer">{payment.customer?.name || payment.customerName || '—'}</Descriptions.Item>
        <Descriptions.Item label="Refund No.">{refund.number}</Descriptions.Item>
        <Descriptions.Item label="Reason">{REFUND_KIND_LABELS[refund.kind]}</Descriptions.Item>
        <Descriptions.Item label="Amount">
          <span data-testid="refund-amount">{money(refund.amount)}</span>
        </Descriptions.Item>
      </Descriptions>
      {problem && <Alert type="error" showIcon title={problem} style={{ marginBottom: 16 }} />}
      <Form form={form} layout="vertical" name="record-refund" validateTrigger={attempted ? 'onChange' : 'onSubmit'}>
        <Form.Item label="Method" name="method" rules={[{ required: true, message: PAYMENT_MESSAGES.refundMethod }]}>
          <Select options={METHOD_OPTIONS} placeholder="How the money was paid back" />
        </Form.Item>
        <Form.Item label="Reference" name="reference" extra="Optional, e.g. the transfer or check number.">
          <Input maxLength={80} autoComplete="off" />
        </Form.Item>
        <Form.Item label="Note" name="note">
          <Input.TextArea maxLength={500} rows={3} />
        </Form.Item>
      </Form>
    </Modal>
  );
}
