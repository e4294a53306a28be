import { useState } from 'react';
import { Alert, Button, Card, Form, Input, Space, Switch, Tag, Typography } from 'antd';
import { MESSAGES, type MeResponse } from '@dme/contracts';
import { errorMessage } from '@dme/api-client';
import { PageHeader, ThemeProvider, useFeedback } from '@dme/ui';
import { useChangePasswordMutation, useMeQuery, useResendVerificationMutation, useSetPreferencesMutation, useUpdateMeMutation } from '../../api';
import { NewPasswordFields } from '../../components/NewPasswordFields';

/**
 * "My account" (issue 24), for every signed-in user: the e-mail address and whether it is
 * confirmed (a new one is confirmed by the link sent to it), reminders on or off (customers), and
 * a new password.
 */
export default function AccountPage() {
  return (
    <ThemeProvider>
      <Account />
    </ThemeProvider>
  );
}

function Account() {
  const { data, isLoading, error, refetch } = useMeQuery(undefined, { refetchOnMountOrArgChange: true });
  if (isLoading) return <Card loading title="My account" />;
  if (error || !data) {
    return <Alert type="error" showIcon title={errorMessage(error)} action={<Button onClick={() => void refetch()}>Try again</Button>} />;
  }
  return (
    <>
      <PageHeader title="My account" />
      <Space direction="vertical" size="large" style={{ width: '100%', maxWidth: 640 }}>
        <EmailCard me={data} />
        {data.user.userType === 'CUSTOMER' && <RemindersCard me={data} />}
        <PasswordCard />
      </Space>
    </>
  );
}

function EmailCard({ me }: { me: MeResponse }) {
  const [update, { isLoading }] = useUpdateMeMutation();
  const [resend, resending] = useResendVerificationMutation();
  const { notify } = useFeedback();
  const [form] = Form.useForm<{ email: string }>();
  const onFinish = async ({ email }: { email: string }) => {
    const { id: _id, idNumber: _n, username: _u, age: _a, status: _s, userType: _t, position: _p, createdAt: _c, updatedAt: _d, ...person } = me.user;
    try {
      await update({ ...person, email }).unwrap();
      notify.success(MESSAGES.account.emailChangedVerify);
    } catch (err) {
      notify.error('E-mail address', errorMessage(err));
    }
  };
  const sendAgain = async () => {
    try {
      notify.success((await resend().unwrap()).message);
    } catch (err) {
      notify.error('E-mail address', errorMessage(err));
    }
  };
  return (
    <Card title="E-mail address">
      <p>
        <Typography.Text strong>{me.user.email}</Typography.Text>{' '}
        {me.emailVerified === false ? <Tag color="orange">Not confirmed</Tag> : <Tag color="green">Confirmed</Tag>}
        {me.emailVerified === false && (
          <Button size="small" onClick={() => void sendAgain()} loading={resending.isLoading}>
            Send it again
          </Button>
        )}
      </p>
      <Form form={form} layout="vertical" name="change-email" onFinish={onFinish} requiredMark={false}>
        <Form.Item label="New e-mail address" name="email" rules={[{ required: true, whitespace: true, message: MESSAGES.account.emailRequired }, { type: 'email', message: MESSAGES.common.emailInvalid }]}>
          <Input type="email" autoComplete="email" />
        </Form.Item>
        <Button htmlType="submit" loading={isLoading}>
          Change my e-mail address
        </Button>
      </Form>
    </Card>
  );
}

function RemindersCard({ me }: { me: MeResponse }) {
  const [save, { isLoading }] = useSetPreferencesMutation();
  const { notify } = useFeedback();
  const on = me.preferences?.remindersEnabled ?? true;
  const toggle = async (remindersEnabled: boolean) => {
    try {
      await save({ remindersEnabled }).unwrap();
      notify.success(MESSAGES.account.preferencesSaved);
    } catch (err) {
      notify.error('E-mail preferences', errorMessage(err));
    }
  };
  return (
    <Card title="E-mail reminders">
      <Space align="start">
        <Switch id="reminders" checked={on} loading={isLoading} onChange={(v) => void toggle(v)} aria-describedby="reminders-help" />
        <label htmlFor="reminders">
          <strong>Remind me about my rentals</strong>
          <div id="reminders-help" style={{ color: 'rgba(0,0,0,.62)' }}>
            The day before a rental is due, on its due date, when it is overdue, and when a full payment is due. Order and payment e-mails come
            whatever you choose.
          </div>
        </label>
      </Space>
    </Card>
  );
}

type PasswordValues = { currentPassword: string; password: string; confirm: string };

function PasswordCard() {
  const [change, { isLoading }] = useChangePasswordMutation();
  const { notify } = useFeedback();
  const [form] = Form.useForm<PasswordValues>();
  const [error, setError] = useState<string | null>(null);
  const onFinish = async (v: PasswordValues) => {
    setError(null);
    try {
      notify.success((await change({ currentPassword: v.currentPassword, password: v.password }).unwrap()).message);
      form.resetFields();
    } catch (err) {
      setError(errorMessage(err));
    }
  };
  return (
    <Card title="Password">
      <Form form={form} layout="vertical" name="change-password" onFinish={onFinish} requiredMark={false}>
        <Form.Item label="Current password" name="currentPassword" rules={[{ required: true, message: MESSAGES.account.currentPassword }]}>
          <Input.Password autoComplete="current-password" />
        </Form.Item>
        <NewPasswordFields />
        {error && <Alert type="error" showIcon title={error} style={{ marginBottom: 16 }} />}
        <Button type="primary" htmlType="submit" loading={isLoading}>
          Change my password
        </Button>
      </Form>
    </Card>
  );
}
