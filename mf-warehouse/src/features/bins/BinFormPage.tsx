import { useNavigate, useParams } from 'react-router-dom';
import { Button, Form, Input, Space } from 'antd';
import { CATALOG_MESSAGES } from '@dme/contracts/browser';
import type { BinRequest } from '@dme/contracts';
import { errorMessage, fieldErrors, loaded } from '@dme/api-client';
import { LazyErrorState, Loading, PageHeader, useFeedback } from '@dme/ui';
import { useBinQuery, useCreateBinMutation, useUpdateBinMutation } from './api';

const M = CATALOG_MESSAGES.bin;

/** Add or edit a warehouse bin; errors use the spec's 'Create Warehouse Bin Error' on both. */
export default function BinFormPage({ mode }: { mode: 'add' | 'edit' }) {
  const { id = '' } = useParams();
  const navigate = useNavigate();
  const { notify } = useFeedback();
  const [form] = Form.useForm<BinRequest>();
  const existing = useBinQuery(id, { skip: mode !== 'edit' });
  const [create, createState] = useCreateBinMutation();
  const [update, updateState] = useUpdateBinMutation();

  if (mode === 'edit' && existing.isLoading) return <Loading />;
  if (mode === 'edit' && !loaded(existing)) {
    return <LazyErrorState title="This bin could not be loaded" message={errorMessage(existing.error)} onRetry={existing.refetch} />;
  }

  const onFinish = async (values: BinRequest) => {
    try {
      if (mode === 'add') await create(values).unwrap();
      else await update({ id, body: values }).unwrap();
      notify.success(mode === 'add' ? M.created : M.updated);
      setTimeout(() => navigate('/admin/warehouse-bins'), 1000);
    } catch (err) {
      const fields = fieldErrors(err);
      if (fields.length) form.setFields(fields as never);
      notify.error(M.errorTitle, errorMessage(err));
    }
  };

  const done = createState.isSuccess || updateState.isSuccess;
  return (
    <section style={{ maxWidth: 560 }}>
      <PageHeader title={mode === 'add' ? 'Add Warehouse Bin' : 'Edit Warehouse Bin'} />
      <Form form={form} layout="vertical" name="bin" onFinish={onFinish} initialValues={existing.data?.bin}>
        <Form.Item label="Bin Name" name="name" rules={[{ required: true, whitespace: true, message: M.name }]}>
          <Input maxLength={100} />
        </Form.Item>
        <Form.Item label="Description" name="description" rules={[{ required: true, whitespace: true, message: M.description }]}>
          <Input.TextArea rows={3} maxLength={500} />
        </Form.Item>
        <Space>
          <Button type="primary" htmlType="submit" loading={createState.isLoading || updateState.isLoading} disabled={done}>
            {mode === 'add' ? 'Create Warehouse Bin' : 'Save Changes'}
          </Button>
          <Button onClick={() => navigate('/admin/warehouse-bins')}>Cancel</Button>
        </Space>
      </Form>
    </section>
  );
}
