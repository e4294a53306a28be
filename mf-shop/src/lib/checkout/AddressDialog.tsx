import { Form, Input, Modal } from 'antd';
import { ADDRESS_MAX, ORDER_MESSAGES, ZIPCODE_MIN } from '@dme/contracts/browser';
import { useCurrentUser } from '@dme/ui';

export interface AddressValues {
  deliveryAddress: string;
  deliveryCity: string;
  deliveryState: string;
  deliveryZipcode: string;
  note?: string;
}

const M = ORDER_MESSAGES;

/** 'Review Address' (SPEC §2, §5): prefilled from the profile, every rule and message of the spec. */
export function AddressDialog({
  open,
  onCancel,
  onConfirm,
  loading,
}: {
  open: boolean;
  onCancel: () => void;
  onConfirm: (v: AddressValues) => void;
  loading: boolean;
}) {
  const user = useCurrentUser();
  const [form] = Form.useForm<AddressValues>();
  return (
    <Modal
      title="Review Address"
      open={open}
      onCancel={onCancel}
      okText="Confirm Order"
      confirmLoading={loading}
      onOk={() => void form.validateFields().then(onConfirm).catch(() => undefined)}
      destroyOnHidden
    >
      <Form
        form={form}
        layout="vertical"
        name="address"
        initialValues={{ deliveryAddress: user.address, deliveryCity: user.city, deliveryState: user.state, deliveryZipcode: user.zipcode, note: '' }}
      >
        <Form.Item label="Address" name="deliveryAddress" rules={[{ required: true, whitespace: true, message: M.address }, { max: ADDRESS_MAX, message: M.addressMax }]}>
          <Input autoComplete="street-address" />
        </Form.Item>
        <Form.Item label="City" name="deliveryCity" rules={[{ required: true, whitespace: true, message: M.city }]}>
          <Input autoComplete="address-level2" />
        </Form.Item>
        <Form.Item label="State" name="deliveryState" rules={[{ required: true, whitespace: true, message: M.state }]}>
          <Input autoComplete="address-level1" />
        </Form.Item>
        <Form.Item label="Zipcode" name="deliveryZipcode" rules={[{ required: true, whitespace: true, message: M.zipcode }, { min: ZIPCODE_MIN, message: M.zipcodeMin }]}>
          <Input autoComplete="postal-code" />
        </Form.Item>
        <Form.Item label="Note" name="note">
          <Input.TextArea rows={2} maxLength={500} placeholder="Optional: landmarks, delivery time" />
        </Form.Item>
      </Form>
    </Modal>
  );
}
