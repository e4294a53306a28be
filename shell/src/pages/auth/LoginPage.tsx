import { useEffect } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { Button, Form, Input } from 'antd';
import { useFeedback } from '@dme/ui';
import { homeOf, MESSAGES, type LoginRequest } from '@dme/contracts';
import { errorMessage } from '@dme/api-client';
import { useLoginMutation } from '../../api';
import { useSession } from '../../session/session';
import { AuthCard, AuthFrame } from './AuthFrame';

export default function LoginPage() {
  const [login, { isLoading }] = useLoginMutation();
  const { user, signedIn } = useSession();
  const navigate = useNavigate();
  const { notify } = useFeedback();

  useEffect(() => {
    if (user) navigate(homeOf(user.userType) ?? '/home', { replace: true });
  }, [user, navigate]);

  const onFinish = async (values: LoginRequest) => {
    try {
      const res = await login(values).unwrap();
      signedIn(res.user);
      navigate(homeOf(res.user.userType) ?? '/home', { replace: true });
    } catch (err) {
      notify.error(MESSAGES.login.errorTitle, errorMessage(err));
    }
  };

  return (
    <AuthFrame>
      <AuthCard title="Sign in" maxWidth={400}>
        <Form layout="vertical" name="login" onFinish={onFinish} requiredMark={false}>
          <Form.Item label="Username" name="username" rules={[{ required: true, whitespace: true, message: MESSAGES.login.username }]}>
            <Input autoComplete="username" autoFocus />
          </Form.Item>
          <Form.Item label="Password" name="password" rules={[{ required: true, message: MESSAGES.login.password }]}>
            <Input.Password autoComplete="current-password" />
          </Form.Item>
          <Button type="primary" htmlType="submit" block loading={isLoading}>
            Log in
          </Button>
        </Form>
        <p style={{ margin: '16px 0 0' }}>
          No account yet? <Link to="/register">Register now</Link>
        </p>
      </AuthCard>
    </AuthFrame>
  );
}
