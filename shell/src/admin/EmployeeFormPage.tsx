import { useNavigate, useParams } from 'react-router-dom';
import { Button, Col, Form, Input, Row, Select, Space } from 'antd';
import { EMPLOYEE_TYPES, MESSAGES, USER_TYPE_LABELS, type EmployeeType } from '@dme/contracts';
import { errorMessage, loaded } from '@dme/api-client';
import { ErrorState, Loading, PageHeader, useFeedback } from '@dme/ui';
import { useCreateEmployeeMutation, useEmployeeQuery, useUpdateEmployeeMutation } from '../api';
import { PersonFields, personBody, showSaveError, type PersonValues } from '../components/PersonFields';

type Values = PersonValues & { userType: EmployeeType; position: string; username?: string; password?: string };
const required = (message: string) => [{ required: true, whitespace: true, message }];

/** Add an employee, or edit one (without username and password). */
export function EmployeeFormPage({ mode }: { mode: 'add' | 'edit' }) {
  const { id = '' } = useParams();
  const navigate = useNavigate();
  const { notify } = useFeedback();
  const [form] = Form.useForm<Values>();
  const existing = useEmployeeQuery(id, { skip: mode !== 'edit' });
  const [create, createState] = useCreateEmployeeMutation();
  const [update, updateState] = useUpdateEmployeeMutation();

  if (mode === 'edit' && existing.isLoading) return <Loading />;
  if (mode === 'edit' && !loaded(existing)) {
    return <ErrorState title="This employee could not be loaded" message={errorMessage(existing.error)} onRetry={existing.refetch} />;
  }

  const onFinish = async (v: Values) => {
    const body = { ...personBody(v), userType: v.userType, position: v.position };
    try {
      if (mode === 'add') {
        await create({ ...body, username: v.username ?? '', password: v.password ?? '' }).unwrap();
        notify.success(MESSAGES.employee.created);
      } else {
        await update({ id, body }).unwrap();
        notify.success(MESSAGES.employee.updated);
      }
      setTimeout(() => navigate('/admin/employees'), 1000);
    } catch (err) {
      showSaveError(form, notify.error, mode === 'add' ? MESSAGES.employee.createErrorTitle : MESSAGES.employee.updateErrorTitle, err);
    }
  };

  const saving = createState.isLoading || updateState.isLoading;
  const done = createState.isSuccess || updateState.isSuccess;
  return (
    <section>
      <PageHeader title={mode === 'add' ? 'Add Employee' : 'Edit Employee'} />
      <Form
        form={form}
        layout="vertical"
        name="employee"
        onFinish={onFinish}
        scrollToFirstError
        initialValues={mode === 'edit' ? (existing.data?.user as Partial<Values> | undefined) : undefined}
      >
        <Row gutter={16}>
          <Col xs={24} md={12}>
            <Form.Item label="User Type" name="userType" rules={[{ required: true, message: MESSAGES.employee.userType }]}>
              <Select placeholder="Select" options={EMPLOYEE_TYPES.map((t) => ({ value: t, label: USER_TYPE_LABELS[t] }))} />
            </Form.Item>
          </Col>
          <Col xs={24} md={12}>
            <Form.Item label="Position" name="position" rules={required(MESSAGES.employee.position)}>
              <Input />
            </Form.Item>
          </Col>
        </Row>
        <PersonFields form={form} messages={MESSAGES.employee} />
        {mode === 'add' && (
          <Row gutter={16}>
            <Col xs={24} md={12}>
              <Form.Item label="Username" name="username" rules={required(MESSAGES.employee.username)}>
                <Input autoComplete="off" />
              </Form.Item>
            </Col>
            <Col xs={24} md={12}>
              <Form.Item label="Password" name="password" rules={[{ required: true, message: MESSAGES.employee.password }]}>
                <Input.Password autoComplete="new-password" />
              </Form.Item>
            </Col>
          </Row>
        )}
        <Space>
          <Button type="primary" htmlType="submit" loading={saving} disabled={done}>
            {mode === 'add' ? 'Create Employee' : 'Save Changes'}
          </Button>
          <Button onClick={() => navigate('/admin/employees')}>Cancel</Button>
        </Space>
      </Form>
    </section>
  );
}
