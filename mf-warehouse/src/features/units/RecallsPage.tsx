import { useState } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { Alert, Button, DatePicker, Form, Input, Modal, Progress, Select, Tag } from 'antd';
import dayjs from 'dayjs';
import type { RecallCreateRequest, RecallSummary } from '@dme/contracts';
import { formatManilaDateTime, serialCodeFromScan } from '@dme/contracts/browser';
import { errorMessage, listBusy } from '@dme/api-client';
import { EmptyState, LazyErrorState, PageHeader, useFeedback, ResponsiveTable } from '@dme/ui';
import { useProductQuery } from '../../lib/api';
import { useOpenRecallMutation, useRecallProductsQuery, useRecallsQuery } from './api';

const DAY = 'YYYY-MM-DD';
const PAGE = 50;

interface OpenValues {
  title: string;
  reason?: string;
  productID: string;
  variantID?: string;
  subVariantID?: string;
  serialCodes?: string;
  receivedFrom?: dayjs.Dayjs;
  receivedTo?: dayjs.Dayjs;
}

/** The request a recall's form makes: serial codes one per line (or separated by commas; a scanned label's too). */
export function recallRequest(v: OpenValues): RecallCreateRequest {
  const codes = (v.serialCodes ?? '')
    .split(/\n+/)
    // A scanned label is a line of JSON; typed codes may share a line, separated by commas.
    .flatMap((line) => (line.trim().startsWith('{') ? [line] : line.split(',')))
    .map((c) => serialCodeFromScan(c) ?? c.trim())
    .filter(Boolean);
  return {
    title: v.title.trim(),
    reason: v.reason?.trim() ?? '',
    productID: v.productID,
    ...(v.variantID ? { variantID: v.variantID } : {}),
    ...(v.subVariantID ? { subVariantID: v.subVariantID } : {}),
    ...(codes.length ? { serialCodes: codes } : {}),
    ...(v.receivedFrom ? { receivedFrom: v.receivedFrom.format(DAY) } : {}),
    ...(v.receivedTo ? { receivedTo: v.receivedTo.format(DAY) } : {}),
  };
}

/** Opening a recall: a product (a variant, a sub-variant of it), narrowed by serial codes and/or days received. */
function OpenRecallDialog({ onClose }: { onClose: () => void }) {
  const [form] = Form.useForm<OpenValues>();
  const navigate = useNavigate();
  const { notify } = useFeedback();
  const [search, setSearch] = useState('');
  const products = useRecallProductsQuery(search.trim());
  const productID = Form.useWatch('productID', form) as string | undefined;
  const variantID = Form.useWatch('variantID', form) as string | undefined;
  const product = useProductQuery(productID ?? '', { skip: !productID });
  const variants = product.data?.product.variants ?? [];
  const subs = variants.find((v) => v.id === variantID)?.subVariants ?? [];
  const [open, state] = useOpenRecallMutation();
  const [error, setError] = useState<string>();

  const submit = async (v: OpenValues) => {
    setError(undefined);
    try {
      const res = await open(recallRequest(v)).unwrap();
      notify.success(res.message ?? `Recall ${res.recall.number} opened.`);
      onClose();
      navigate(`/admin/recalls/${res.recall.id}`);
    } catch (err) {
      setError(errorMessage(err));
    }
  };

  return (
    <Modal title="Open a recall" open onCancel={onClose} okText="Open recall" okButtonProps={{ danger: true }} confirmLoading={state.isLoading} onOk={() => void form.validateFields().then(submit).catch(() => undefined)} destroyOnHidden>
      <Form form={form} layout="vertical" name="open-recall" onValuesChange={() => setError(undefined)}>
        <Form.Item label="Title" name="title" rules={[{ required: true, whitespace: true, message: 'Give the recall a title.' }]}>
          <Input maxLength={120} placeholder="e.g. Battery may overheat" />
        </Form.Item>
        <Form.Item label="Reason" name="reason">
          <Input.TextArea maxLength={500} rows={2} placeholder="The manufacturer's notice" />
        </Form.Item>
        <Form.Item label="Product" name="productID" rules={[{ required: true, message: 'Choose the product recalled.' }]}>
          <Select
            showSearch
            filterOption={false}
            onSearch={setSearch}
            loading={products.isFetching}
            placeholder="Type to search products"
            options={(products.data?.items ?? []).map((p) => ({ value: p.id, label: `${p.name} (${p.brand})` }))}
            onChange={() => form.setFieldsValue({ variantID: undefined, subVariantID: undefined })}
          />
        </Form.Item>
        {variants.length > 0 && (
          <Form.Item label="Variant (all if none)" name="variantID">
            <Select allowClear options={variants.map((v) => ({ value: v.id, label: v.name }))} onChange={() => form.setFieldsValue({ subVariantID: undefined })} />
          </Form.Item>
        )}
        {subs.length > 0 && (
          <Form.Item label="Sub-variant (all if none)" name="subVariantID">
            <Select allowClear options={subs.map((s) => ({ value: s.id, label: s.name }))} />
          </Form.Item>
        )}
        <Form.Item label="Serial codes (all if none)" name="serialCodes" extra="One per line, or scan the labels.">
          <Input.TextArea rows={3} />
        </Form.Item>
        <div style={{ display: 'flex', gap: 12, flexWrap: 'wrap' }}>
          <Form.Item label="Received from" name="receivedFrom">
            <DatePicker format={DAY} />
          </Form.Item>
          <Form.Item label="Received to" name="receivedTo">
            <DatePicker format={DAY} />
          </Form.Item>
        </div>
      </Form>
      {error && <Alert type="error" showIcon title={error} />}
    </Modal>
  );
}

/**
 * Recalls (issue 26, the superadmin): each with its progress to closure; "Open a recall" holds the
 * units of a product (a level, serial codes, days received) in the warehouse at once and lists
 * those with customers, who are told.
 */
export default function RecallsPage() {
  const [page, setPage] = useState(1);
  const q = useRecallsQuery({ limit: PAGE, offset: (page - 1) * PAGE });
  const [opening, setOpening] = useState(false);
  return (
    <div>
      <PageHeader
        title="Recalls"
        extra={
          <Button type="primary" danger onClick={() => setOpening(true)}>
            Open a recall
          </Button>
        }
      />
      {q.error ? (
        <LazyErrorState title="The recalls could not be loaded" message={errorMessage(q.error)} onRetry={() => void q.refetch()} />
      ) : (
        <ResponsiveTable<RecallSummary>
          rowKey="id"
          loading={listBusy(q)}
          dataSource={q.data?.items ?? []}
          scroll={{ x: true }}
          locale={{ emptyText: <EmptyState description="No recall yet." /> }}
          pagination={{ current: page, pageSize: PAGE, total: q.data?.total ?? 0, onChange: setPage, showSizeChanger: false }}
          columns={[
            { title: 'Recall', dataIndex: 'number', render: (n: string, r: RecallSummary) => <Link to={`/admin/recalls/${r.id}`}>{n}</Link> },
            { title: 'Title', dataIndex: 'title' },
            { title: 'Product', dataIndex: 'productName' },
            { title: 'Status', dataIndex: 'status', render: (s: string) => <Tag color={s === 'OPEN' ? 'volcano' : 'green'}>{s}</Tag> },
            { title: 'Opened', dataIndex: 'openedAt', render: (d: string) => formatManilaDateTime(d) },
            {
              title: 'Resolved',
              key: 'progress',
              render: (_: unknown, r: RecallSummary) => (
                <Progress
                  aria-label={`Recall ${r.number}: ${r.counts.resolved} of ${r.counts.total} units resolved`}
                  percent={r.counts.total ? Math.round((100 * r.counts.resolved) / r.counts.total) : 100}
                  size="small"
                  format={() => `${r.counts.resolved}/${r.counts.total}`}
                  style={{ minWidth: 140 }}
                />
              ),
            },
          ]}
        />
      )}
      {opening && <OpenRecallDialog onClose={() => setOpening(false)} />}
    </div>
  );
}
