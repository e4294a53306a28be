import { Alert, Descriptions, Form, Input, Modal } from 'antd';
import { PAYMENT_MESSAGES } from '@dme/contracts/browser';
import type { Payment, PaymentAction } from '@dme/contracts';
import { money, useFeedback } from '@dme/ui';
import { useConfirmPaymentMutation } from './api';
import { ACTION_LABELS, BUY_OUT_NOTE, cycleDueText, includesDepositText, nonZero, PAYMENT_RECORDED } from './labels';
import { useKeyedSubmit } from './useKeyedSubmit';

interface Values {
  invoiceNumber: string;
  receiptNumber: string;
  note?: string;
  balance?: string;
  extraCharge?: string;
}

const FIELDS = ['invoiceNumber', 'receiptNumber', 'note'];

/**
 * The payment form (SPEC §5): invoice and receipt numbers required, note optional; a full
 * payment also shows balance and extra charges read-only. The amount it says is taken is the
 * server's `dueNow` when it gives one (issue 29: a rental's first payment takes its deposit too,
 * and says so; a cycle payment, the rent due through the oldest cycle due, named by that cycle). Mount one per opened dialog: its submit (useKeyedSubmit) keeps one
 * Idempotency-Key for every attempt it makes, so a double click, or a retry after the answer was
 * lost, cannot take the payment twice.
 */
export function ConfirmPaymentDialog({ payment, action, open, onClose }: { payment: Payment; action: PaymentAction; open: boolean; onClose: () => void }) {
  const [form] = Form.useForm<Values>();
  const { notify } = useFeedback();
  const [confirm, state] = useConfirmPaymentMutation();
  const full = action === 'COMPLETE_PAYMENT';
  // What confirming takes: the server's figure (issue 29: a rental's first day plus its deposit),
  // else as the payment's amounts say.
  const dueNow = payment.dueNow ?? null;
  const depositIncluded = action === 'PAY_PARTIAL' && nonZero(payment.deposit);
  // Issue 29: the cycle a cycle payment takes is the oldest one due.
  const dueCycle = action === 'PAY_CYCLE' ? payment.cycles.find((c) => c.state === 'DUE') : undefined;

  const { submit, attempted, problem } = useKeyedSubmit(form, FIELDS, async (v, idempotencyKey) => {
    await confirm({
      id: payment.id,
      idempotencyKey,
      body: { invoiceNumber: v.invoiceNumber.trim(), receiptNumber: v.receiptNumber.trim(), note: (v.note ?? '').trim(), ...(action === 'BUY_OUT' ? { action: 'BUY_OUT' as const } : {}) },
    }).unwrap();
    notify.success(PAYMENT_RECORDED);
    onClose();
  });

  return (
    <Modal
      title={ACTION_LABELS[action]}
      open={open}
      okText="Confirm"
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
        {action === 'MARK_AS_PAID' && <Descriptions.Item label="Amount">{money(dueNow ?? payment.overallTotal ?? payment.totalOrderPayment)}</Descriptions.Item>}
        {action === 'PAY_PARTIAL' && (
          <Descriptions.Item label="Partial Payment">
            <span data-testid="due-now">{money(dueNow ?? payment.totalPartialPayment ?? payment.balance)}</span>
            {depositIncluded && <span style={{ marginLeft: 8, color: 'rgba(0,0,0,0.6)' }}>({includesDepositText(payment.deposit)})</span>}
          </Descriptions.Item>
        )}
        {action === 'PAY_CYCLE' && (
          <>
            <Descriptions.Item label="Amount Due">
              <span data-testid="due-now">{dueNow !== null ? money(dueNow) : '—'}</span>
            </Descriptions.Item>
            {dueCycle && (
              <Descriptions.Item label="Cycle">
                <span data-testid="due-cycle">{cycleDueText(dueCycle)}</span>
              </Descriptions.Item>
            )}
          </>
        )}
        {action === 'BUY_OUT' && (
          <Descriptions.Item label="Buy-out price">
            <span data-testid="due-now">{payment.buyOutNow !== null ? money(payment.buyOutNow) : '—'}</span>
            <span style={{ marginLeft: 8, color: 'rgba(0,0,0,0.6)' }}>({BUY_OUT_NOTE})</span>
          </Descriptions.Item>
        )}
        {full && payment.overallTotal && <Descriptions.Item label="Overall Total">{money(payment.overallTotal)}</Descriptions.Item>}
      </Descriptions>
      {problem && <Alert type="error" showIcon title={problem} style={{ marginBottom: 16 }} />}
      <Form
        form={form}
        layout="vertical"
        name="confirm-payment"
        validateTrigger={attempted ? 'onChange' : 'onSubmit'}
        initialValues={full ? { balance: money(dueNow ?? payment.balance), extraCharge: money(payment.extraCharge ?? '0.00') } : undefined}
      >
        {full && (
          <>
            <Form.Item label="Balance" name="balance" rules={[{ required: true, message: PAYMENT_MESSAGES.balance }]}>
              <Input readOnly />
            </Form.Item>
            <Form.Item label="Extra Charges" name="extraCharge" rules={[{ required: true, message: PAYMENT_MESSAGES.balance }]}>
              <Input readOnly />
            </Form.Item>
          </>
        )}
        <Form.Item label="Invoice Number" name="invoiceNumber" rules={[{ required: true, whitespace: true, message: PAYMENT_MESSAGES.invoiceNumber }]}>
          <Input maxLength={50} autoComplete="off" />
        </Form.Item>
        <Form.Item label="Receipt Number" name="receiptNumber" rules={[{ required: true, whitespace: true, message: PAYMENT_MESSAGES.receiptNumber }]}>
          <Input maxLength={50} autoComplete="off" />
        </Form.Item>
        <Form.Item label="Note" name="note">
          <Input.TextArea maxLength={500} rows={3} />
        </Form.Item>
      </Form>
    </Modal>
  );
}
