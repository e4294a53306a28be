import { useEffect, useState } from 'react';
import { Alert, Form, InputNumber, Modal, Select } from 'antd';
import { CATALOG_MESSAGES } from '@dme/contracts/browser';
import type { AddStockResponse, Product } from '@dme/contracts';
import { errorMessage, fieldErrors } from '@dme/api-client';
import { useFeedback } from '@dme/ui';
import { useBinsQuery } from '../../lib/api';
import { useAddStockMutation } from './api';

const M = CATALOG_MESSAGES.stock;

interface Values {
  warehouseBinID: string;
  quantity: number;
  productSubVariantID?: string;
}

/**
 * Add Stock (SPEC §5): bin and quantity required, with the warning that quantities cannot be
 * changed afterwards. On a variant with sub-variants the sub-variant is chosen here.
 */
export function AddStockModal({
  open,
  onClose,
  onAdded,
  product,
  variantID,
  subVariantID,
}: {
  open: boolean;
  onClose: () => void;
  onAdded: (result: AddStockResponse) => void;
  product: Product;
  variantID?: string;
  subVariantID?: string;
}) {
  const [form] = Form.useForm<Values>();
  const { notify } = useFeedback();
  // The bin list searches the server as the user types (a shop has more than 100 bins in time).
  const [typed, setTyped] = useState('');
  const [binSearch, setBinSearch] = useState('');
  useEffect(() => {
    const t = setTimeout(() => setBinSearch(typed.trim()), 300);
    return () => clearTimeout(t);
  }, [typed]);
  const bins = useBinsQuery({ limit: 100, offset: 0, ...(binSearch ? { search: binSearch } : {}) }, { skip: !open });
  const [addStock, state] = useAddStockMutation();
  const [attempted, setAttempted] = useState(false);
  const variant = product.variants.find((v) => v.id === variantID);
  const needsSub = !subVariantID && (variant?.subVariants.length ?? 0) > 0;

  const submit = async () => {
    setAttempted(true);
    const v = await form.validateFields();
    try {
      const result = await addStock({
        productID: product.id,
        warehouseBinID: v.warehouseBinID,
        quantity: v.quantity,
        productVariantID: variantID ?? null,
        productSubVariantID: subVariantID ?? v.productSubVariantID ?? null,
      }).unwrap();
      notify.success(M.added);
      form.resetFields();
      setAttempted(false);
      onAdded(result);
    } catch (err) {
      const fields = fieldErrors(err).filter((f) => ['warehouseBinID', 'quantity', 'productSubVariantID'].includes(f.name));
      if (fields.length) form.setFields(fields as never);
      notify.error(M.errorTitle, errorMessage(err));
    }
  };

  return (
    <Modal
      title="Add Stock"
      open={open}
      okText="Add Stock"
      onOk={() => void submit().catch(() => undefined)}
      confirmLoading={state.isLoading}
      onCancel={onClose}
      destroyOnHidden
    >
      <Alert type="warning" showIcon title={M.warning} style={{ marginBottom: 16 }} />
      <Form form={form} layout="vertical" name="add-stock" validateTrigger={attempted ? 'onChange' : 'onSubmit'}>
        {needsSub && (
          <Form.Item label="Sub-variant" name="productSubVariantID" rules={[{ required: true, message: 'Please select Sub-variant!' }]}>
            <Select placeholder="Select" options={variant!.subVariants.map((s) => ({ value: s.id, label: s.name }))} />
          </Form.Item>
        )}
        <Form.Item label="Warehouse Bin" name="warehouseBinID" rules={[{ required: true, message: M.bin }]}>
          <Select
            placeholder="Select or type to search"
            showSearch
            filterOption={false}
            onSearch={setTyped}
            loading={bins.isFetching}
            options={(bins.data?.items ?? []).map((b) => ({ value: b.id, label: b.name }))}
            notFoundContent={bins.isFetching ? 'Loading...' : binSearch ? `No warehouse bin matches "${binSearch}".` : 'No warehouse bins yet: add one first.'}
          />
        </Form.Item>
        <Form.Item label="Quantity" name="quantity" rules={[{ required: true, message: M.quantity }, { type: 'integer', min: 1, max: 500, message: M.quantityRange }]}>
          <InputNumber min={1} max={500} precision={0} style={{ width: '100%' }} />
        </Form.Item>
      </Form>
    </Modal>
  );
}
