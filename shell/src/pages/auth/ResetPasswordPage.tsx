import { useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router-dom';
import { Alert, Button, Form } from 'antd';
import { MESSAGES } from '@dme/contracts';
import { errorMessage } from '@dme/api-client';
import { useFeedback } from '@dme/ui';
import { useResetPasswordMutation } from '../../api';
import { AuthCard, AuthFrame } from './AuthFrame';
import { NewPasswordFields } from '../../components/NewPasswordFields';

type Values = { password: string; confirm: string };

/** The page a reset e-mail links to (/reset-password?token=...): a new password, typed twice. */
export default function ResetPasswordPage() {
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const [reset, { isLoading }] = useResetPasswordMutation();
  const [error, setError] = useState<string | null>(token ? null : MESSAGES.account.resetLinkInvalid);
  const navigate = useNavigate();
  const { notify } = useFeedback();

  const onFinish = async (v: Values) => {
    setError(null);
    try {
      const { message } = await reset({ token, password: v.password }).unwrap();
      notify.success(message);
      navigate('/login', { replace: true });
    } catch (err) {
      setError(errorMessage(err));
    }
  };

  return (
    <AuthFrame>
      <AuthCard title={MESSAGES.account.resetTitle} maxWidth={440}>
        <Form<Values> layout="vertical" name="reset-password" onFinish={onFinish} requiredMark={false}>
          <NewPasswordFields autoFocus />
          {error && (
            <Alert
              type="error"
              showIcon
              title={error}
              style={{ marginBottom: 16 }}
              action={<Link to="/forgot-password">Ask for a new link</Link>}
            />
          )}
          <Button type="primary" htmlType="submit" loading={isLoading} disabled={!token} block>
            Save my new password
          </Button>
        </Form>
      </AuthCard>
    </AuthFrame>
  );
}
