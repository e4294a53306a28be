import { useState } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { Button, Space } from 'antd';
import type { Bin } from '@dme/contracts';
import { CATALOG_MESSAGES } from '@dme/contracts/browser';
import { errorMessage, listBusy } from '@dme/api-client';
import { EmptyState, LazyErrorState, PageHeader, RowActions, deleteAction, useFeedback, ResponsiveTable } from '@dme/ui';
import { useBinsQuery } from '../../lib/api';
import { useDeleteBinMutation } from './api';

const PAGE = 20;

export function BinsPage() {
  const navigate = useNavigate();
  const { notify } = useFeedback();
  const [page, setPage] = useState(1);
  const list = useBinsQuery({ limit: PAGE, offset: (page - 1) * PAGE });
  const { data, error, refetch } = list;
  const [remove, removing] = useDeleteBinMutation();

  const onDelete = async (bin: Bin) => {
    try {
      await remove(bin.id).unwrap();
      notify.success('Warehouse Bin deleted.');
    } catch (err) {
      notify.error('Delete Warehouse Bin Error', errorMessage(err));
    }
  };

  return (
    <section>
      <PageHeader title="Warehouse Bins" extra={<Button type="primary" onClick={() => navigate('/admin/warehouse-bins/add')}>Add Warehouse Bin</Button>} />
      {error ? (
        <LazyErrorState message={errorMessage(error)} onRetry={refetch} />
      ) : (
        <ResponsiveTable<Bin>
          rowKey="id"
          loading={listBusy(list)}
          dataSource={data?.items ?? []}
          locale={{ emptyText: <EmptyState description="No warehouse bins yet." /> }}
          pagination={{ current: page, pageSize: PAGE, total: data?.total ?? 0, onChange: setPage, showSizeChanger: false }}
          columns={[
            { title: 'Name', dataIndex: 'name' },
            { title: 'Description', dataIndex: 'description' },
            { title: 'Stock', dataIndex: 'stockCount', align: 'right' },
            {
              title: 'Actions',
              key: 'actions',
              render: (_: unknown, bin: Bin) => (
                <Space wrap>
                  <Link to={`/admin/warehouse-bins/${bin.id}/stocks`}>Stocks</Link>
                  <Link to={`/admin/warehouse-bins/${bin.id}/edit`}>Edit</Link>
                  <RowActions
                    name={bin.name}
                    disabled={removing.isLoading}
                    actions={[deleteAction(bin.name, 'The bin is removed for good.', () => onDelete(bin), bin.stockCount > 0 ? CATALOG_MESSAGES.bin.cannotDelete(bin.stockCount) : undefined)]}
                  />
                </Space>
              ),
            },
          ]}
        />
      )}
    </section>
  );
}
