import { Form, Input } from 'antd';
import { MESSAGES, PASSWORD_MIN } from '@dme/contracts';

/**
 * A new password typed twice (reset and My account): the same rules as registration (the server
 * checks them again), and the two must match (a typing check only: the server gets one password).
 */
export function NewPasswordFields({ autoFocus = false }: { autoFocus?: boolean }) {
  return (
    <>
      <Form.Item label="New password" name="password" rules={[{ required: true, message: MESSAGES.register.password }, { min: PASSWORD_MIN, message: MESSAGES.common.passwordMin }]}>
        <Input.Password autoComplete="new-password" autoFocus={autoFocus} />
      </Form.Item>
      <Form.Item
        label="New password again"
        name="confirm"
        dependencies={['password']}
        rules={[
          { required: true, message: MESSAGES.register.password },
          ({ getFieldValue }) => ({
            validator: (_r, value: string) => (!value || getFieldValue('password') === value ? Promise.resolve() : Promise.reject(new Error(MESSAGES.account.passwordsDiffer))),
          }),
        ]}
      >
        <Input.Password autoComplete="new-password" />
      </Form.Item>
    </>
  );
}
