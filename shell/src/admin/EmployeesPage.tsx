import { useState } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { Button, Space } from 'antd';
import { USER_TYPE_LABELS, type User } from '@dme/contracts';
import { errorMessage, listBusy } from '@dme/api-client';
import { EmptyState, LazyErrorState, PageHeader, StatusTag, ResponsiveTable } from '@dme/ui';
import { useDeleteEmployeeMutation, useEmployeesQuery, useSetEmployeeStatusMutation } from '../api';
import { UserActions } from './UserActions';

const PAGE = 20;

export function EmployeesPage() {
  const navigate = useNavigate();
  const [page, setPage] = useState(1);
  const list = useEmployeesQuery({ limit: PAGE, offset: (page - 1) * PAGE });
  const { data, error, refetch } = list;
  const [setStatus, statusState] = useSetEmployeeStatusMutation();
  const [remove, removeState] = useDeleteEmployeeMutation();

  return (
    <section>
      <PageHeader
        title="Employees"
        extra={
          <Button type="primary" onClick={() => navigate('/admin/employees/add')}>
            Add Employee
          </Button>
        }
      />
      {error ? (
        <LazyErrorState message={errorMessage(error)} onRetry={refetch} />
      ) : (
        <ResponsiveTable<User>
          rowKey="id"
          loading={listBusy(list)}
          dataSource={data?.items ?? []}
          locale={{ emptyText: <EmptyState description="No employees yet." /> }}
          pagination={{ current: page, pageSize: PAGE, total: data?.total ?? 0, onChange: setPage, showSizeChanger: false }}
          scroll={{ x: true }}
          columns={[
            { title: 'Employee Number', dataIndex: 'idNumber' },
            { title: 'Username', dataIndex: 'username' },
            { title: 'Name', key: 'name', render: (_: unknown, u: User) => [u.firstName, u.middleName, u.lastName, u.suffix].filter(Boolean).join(' ') },
            { title: 'User Type', dataIndex: 'userType', render: (t: User['userType']) => USER_TYPE_LABELS[t] ?? t },
            { title: 'Position', dataIndex: 'position' },
            { title: 'Status', dataIndex: 'status', render: (s: string) => <StatusTag kind="user" status={s} /> },
            {
              title: 'Actions',
              key: 'actions',
              render: (_: unknown, u: User) => (
                <Space wrap>
                  <Link to={`/admin/employees/${u.id}`}>View</Link>
                  <Link to={`/admin/employees/${u.id}/edit`}>Edit</Link>
                  <UserActions user={u} setStatus={setStatus} remove={remove} busy={statusState.isLoading || removeState.isLoading} />
                </Space>
              ),
            },
          ]}
        />
      )}
    </section>
  );
}
