import { Checkbox, Form, Input, Modal } from 'antd';
import type { CheckboxGroupProps } from 'antd/es/checkbox';
import { RENTAL_MESSAGES } from '@dme/contracts/browser';
import type { OrderLine, RequestType } from '@dme/contracts';
import { errorMessage, fieldErrors } from '@dme/api-client';
import { useFeedback } from '@dme/ui';
import { useCreateRequestMutation } from './api';

interface RequestValues {
  lineIDs: string[];
  note?: string;
}

export const REQUEST_TYPE_LABELS: Record<RequestType, string> = { FIX: 'Fix', REPLACE: 'Replace' };

/** A product of the order as the customer knows it: name with its variant and sub-variant. */
export const lineLabel = (name: string, variant: string | null, subVariant: string | null) =>
  [name, [variant, subVariant].filter(Boolean).join(' / ')].filter(Boolean).join(' — ');

/**
 * 'Request Fix' / 'Request Replace' (SPEC §2, §5): the order's products to tick (at least one,
 * 'Select at least 1 product!'), an optional note, Submit. On success 'Request Successfully
 * Submitted!', the dialog closes and the order (with its payment and requests) loads again.
 */
/**
 * The products to choose, as a labelled group of checkboxes. Form.Item marks its control
 * aria-required, which a group of checkboxes may not carry (the requirement is said by the
 * label's mark and the message); everything else Form.Item passes (value, onChange, id) stays.
 */
function ProductChecks({ 'aria-required': _required, ...props }: CheckboxGroupProps & { 'aria-required'?: unknown }) {
  return <Checkbox.Group {...props} role="group" aria-label="Products" style={{ display: 'flex', flexDirection: 'column', gap: 8 }} />;
}

export function RequestDialog({ orderId, type, lines, open, onClose }: { orderId: string; type: RequestType; lines: OrderLine[]; open: boolean; onClose: () => void }) {
  const [form] = Form.useForm<RequestValues>();
  const { notify } = useFeedback();
  const [create, creating] = useCreateRequestMutation();

  const submit = async (v: RequestValues) => {
    try {
      await create({ orderId, body: { type, lineIDs: v.lineIDs, note: v.note?.trim() ?? '' } }).unwrap();
      notify.success(RENTAL_MESSAGES.requestSubmitted);
      onClose();
    } catch (err) {
      // The server's field messages go under the field they belong to (lineIDs.0 → the product list).
      const fields = fieldErrors(err).flatMap((f) => {
        const name = f.name.split('.')[0];
        return name === 'lineIDs' || name === 'note' ? [{ name: name as keyof RequestValues, errors: f.errors }] : [];
      });
      if (fields.length) form.setFields(fields);
      notify.error('Submit Request Error', errorMessage(err));
    }
  };

  return (
    <Modal
      title={`Request ${REQUEST_TYPE_LABELS[type]}`}
      open={open}
      onCancel={onClose}
      okText="Submit"
      confirmLoading={creating.isLoading}
      onOk={() => void form.validateFields().then(submit).catch(() => undefined)}
      destroyOnHidden
    >
      <Form form={form} layout="vertical" name={`request-${type.toLowerCase()}`} initialValues={{ lineIDs: [], note: '' }}>
        <Form.Item
          label="Products"
          name="lineIDs"
          rules={[{ required: true, type: 'array', min: 1, message: RENTAL_MESSAGES.selectProduct }]}
        >
          <ProductChecks>
            {lines.map((l) => (
              <Checkbox key={l.id} value={l.id}>
                {lineLabel(l.productName, l.variant?.name ?? null, l.subVariant?.name ?? null)}
              </Checkbox>
            ))}
          </ProductChecks>
        </Form.Item>
        <Form.Item label="Note" name="note">
          <Input.TextArea rows={3} maxLength={500} placeholder="Optional: what is wrong" />
        </Form.Item>
      </Form>
    </Modal>
  );
}
