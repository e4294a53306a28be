import { useState } from 'react';
import { Link } from 'react-router-dom';
import { Space } from 'antd';
import { USER_TYPE_FILTER_VALUES, USER_TYPE_LABELS, type User } from '@dme/contracts';
import { errorMessage, listBusy } from '@dme/api-client';
import { EmptyState, LazyErrorState, PageHeader, StatusTag, ResponsiveTable } from '@dme/ui';
import { useDeleteUserMutation, useSetUserStatusMutation, useUsersQuery } from '../api';
import { UserActions } from './UserActions';

const PAGE = 20;

export function UsersPage() {
  const [userType, setUserType] = useState<string>('CUSTOMER');
  const [page, setPage] = useState(1);
  const list = useUsersQuery({ userType, limit: PAGE, offset: (page - 1) * PAGE });
  const { data, error, refetch } = list;
  const [setStatus, statusState] = useSetUserStatusMutation();
  const [remove, removeState] = useDeleteUserMutation();

  return (
    <section>
      <PageHeader
        title="Users"
        extra={
          // A native select (issue 27, part 5: antd's Select, with its virtual list, was a tenth of
          // the superadmin's first screen for this one choice of six).
          <select
            aria-label="User type"
            className="dme-select"
            value={userType}
            onChange={(e) => {
              setUserType(e.target.value);
              setPage(1);
            }}
          >
            {USER_TYPE_FILTER_VALUES.map((t) => (
              <option key={t} value={t}>
                {USER_TYPE_LABELS[t]}
              </option>
            ))}
          </select>
        }
      />
      {error ? (
        <LazyErrorState message={errorMessage(error)} onRetry={refetch} />
      ) : (
        <ResponsiveTable<User>
          rowKey="id"
          loading={listBusy(list)}
          dataSource={data?.items ?? []}
          locale={{ emptyText: <EmptyState description="No users of this type yet." /> }}
          pagination={{ current: page, pageSize: PAGE, total: data?.total ?? 0, onChange: setPage, showSizeChanger: false }}
          scroll={{ x: true }}
          columns={[
            { title: 'Account Number', dataIndex: 'idNumber' },
            { title: 'Username', dataIndex: 'username' },
            { title: 'First Name', dataIndex: 'firstName' },
            { title: 'Middle Name', dataIndex: 'middleName' },
            { title: 'Last Name', dataIndex: 'lastName' },
            { title: 'Suffix', dataIndex: 'suffix' },
            { title: 'Status', dataIndex: 'status', render: (s: string) => <StatusTag kind="user" status={s} /> },
            {
              title: 'Actions',
              key: 'actions',
              render: (_: unknown, u: User) => (
                <Space wrap>
                  <Link to={`/admin/users/${u.id}`}>View</Link>
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
