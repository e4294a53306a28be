import { Link, useNavigate } from 'react-router-dom';
import { Button, Col, Form, Input, Row } from 'antd';
import { useFeedback } from '@dme/ui';
import { MESSAGES } from '@dme/contracts';
import { useRegisterMutation } from '../../api';
import { PersonFields, personBody, showSaveError, type PersonValues } from '../../components/PersonFields';
import { AuthCard, AuthFrame } from './AuthFrame';

type Values = PersonValues & { username: string; password: string };

export default function RegisterPage() {
  const [form] = Form.useForm<Values>();
  const [register, { isLoading, isSuccess }] = useRegisterMutation();
  const navigate = useNavigate();
  const { notify } = useFeedback();

  const onFinish = async (v: Values) => {
    try {
      await register({ username: v.username, password: v.password, ...personBody(v) }).unwrap();
      notify.success(MESSAGES.register.success);
      setTimeout(() => navigate('/login'), 1000);
    } catch (err) {
      showSaveError(form, notify.error, MESSAGES.register.errorTitle, err);
    }
  };

  return (
    <AuthFrame>
      <AuthCard title="Create your account" maxWidth={860}>
        <Form form={form} layout="vertical" name="register" onFinish={onFinish} scrollToFirstError>
          <Row gutter={16}>
            <Col xs={24} md={12}>
              <Form.Item label="Username" name="username" rules={[{ required: true, whitespace: true, message: MESSAGES.register.username }]}>
                <Input autoComplete="username" />
              </Form.Item>
            </Col>
            <Col xs={24} md={12}>
              <Form.Item label="Password" name="password" rules={[{ required: true, message: MESSAGES.register.password }]}>
                <Input.Password autoComplete="new-password" />
              </Form.Item>
            </Col>
          </Row>
          <PersonFields form={form} messages={MESSAGES.register} />
          <Button type="primary" htmlType="submit" loading={isLoading} disabled={isSuccess}>
            Register
          </Button>
        </Form>
        <p style={{ margin: '16px 0 0' }}>
          Already have an account? <Link to="/login" style={{ textDecoration: 'underline' }}>Sign in</Link>
        </p>
      </AuthCard>
    </AuthFrame>
  );
}
