import { useState } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { Button, Popconfirm, Space, Table } from 'antd';
import type { Bin } from '@dme/contracts';
import { errorMessage } from '@dme/api-client';
import { EmptyState, LazyErrorState, PageHeader, useFeedback } from '@dme/ui';
import { useBinsQuery } from '../../lib/api';
import { useDeleteBinMutation } from './api';

const PAGE = 20;

export function BinsPage() {
  const navigate = useNavigate();
  const { notify } = useFeedback();
  const [page, setPage] = useState(1);
  const { data, isLoading, isFetching, error, refetch } = useBinsQuery({ limit: PAGE, offset: (page - 1) * PAGE });
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
        <Table<Bin>
          rowKey="id"
          loading={isLoading || isFetching}
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
                  <Popconfirm
                    title={`Delete ${bin.name}?`}
                    description={bin.stockCount > 0 ? 'This bin holds stock and cannot be deleted.' : 'The bin is removed for good.'}
                    okText="Delete"
                    okButtonProps={{ danger: true, disabled: bin.stockCount > 0 }}
                    cancelText="Cancel"
                    onConfirm={() => onDelete(bin)}
                  >
                    <Button size="small" danger disabled={removing.isLoading}>
                      Delete
                    </Button>
                  </Popconfirm>
                </Space>
              ),
            },
          ]}
        />
      )}
    </section>
  );
}
