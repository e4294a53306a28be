import { useState } from 'react';
import { Link } from 'react-router-dom';
import { Alert, Button, Form, Input } from 'antd';
import { MESSAGES } from '@dme/contracts';
import { errorMessage } from '@dme/api-client';
import { useForgotPasswordMutation } from '../../api';
import { AuthCard, AuthFrame } from './AuthFrame';

/**
 * "Forgot password" (issue 24): the server answers the same whether the address has an account,
 * so the page says the same too.
 */
export default function ForgotPasswordPage() {
  const [ask, { isLoading }] = useForgotPasswordMutation();
  const [sent, setSent] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);

  const onFinish = async ({ email }: { email: string }) => {
    setError(null);
    try {
      setSent((await ask({ email }).unwrap()).message);
    } catch (err) {
      setError(errorMessage(err));
    }
  };

  return (
    <AuthFrame>
      <AuthCard title={MESSAGES.account.forgotTitle} maxWidth={440}>
        {sent ? (
          <Alert type="success" showIcon title={sent} />
        ) : (
          <Form layout="vertical" name="forgot-password" onFinish={onFinish} requiredMark={false}>
            <p style={{ marginTop: 0 }}>Enter the e-mail address of your account. We will send you a link to choose a new password.</p>
            <Form.Item
              label="Email"
              name="email"
              rules={[
                { required: true, whitespace: true, message: MESSAGES.account.emailRequired },
                { type: 'email', message: MESSAGES.common.emailInvalid },
              ]}
            >
              <Input type="email" autoComplete="email" autoFocus />
            </Form.Item>
            {error && <Alert type="error" showIcon title={error} style={{ marginBottom: 16 }} />}
            <Button type="primary" htmlType="submit" loading={isLoading} block>
              Send me a reset link
            </Button>
          </Form>
        )}
        <p style={{ margin: '16px 0 0' }}>
          <Link to="/login" style={{ textDecoration: 'underline' }}>Back to sign in</Link>
        </p>
      </AuthCard>
    </AuthFrame>
  );
}
