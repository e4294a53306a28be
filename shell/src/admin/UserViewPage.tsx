import { useNavigate, useParams } from 'react-router-dom';
import { Button, Descriptions, Image, Space } from 'antd';
import { USER_TYPE_LABELS } from '@dme/contracts';
import { errorMessage, loaded } from '@dme/api-client';
import { ErrorState, Loading, PageHeader, StatusTag } from '@dme/ui';
import { useEmployeeQuery, useUserQuery } from '../api';

/** Read-only user (or employee) information. */
export function UserViewPage({ kind }: { kind: 'user' | 'employee' }) {
  const { id = '' } = useParams();
  const navigate = useNavigate();
  const userQ = useUserQuery(id, { skip: kind !== 'user' });
  const employeeQ = useEmployeeQuery(id, { skip: kind !== 'employee' });
  const q = kind === 'user' ? userQ : employeeQ;
  const back = kind === 'user' ? '/admin/users' : '/admin/employees';

  if (q.isLoading) return <Loading />;
  if (!loaded(q)) return <ErrorState title="This user could not be shown" message={errorMessage(q.error)} onRetry={q.refetch} />;
  const u = q.data.user;
  return (
    <section>
      <PageHeader
        title={kind === 'user' ? 'User Information' : 'Employee Information'}
        extra={
          <Space>
            {kind === 'employee' && <Button onClick={() => navigate(`/admin/employees/${u.id}/edit`)}>Edit</Button>}
            <Button onClick={() => navigate(back)}>Back</Button>
          </Space>
        }
      />
      <Space align="start" size={24} wrap>
        <Image src={u.image} alt={`${u.firstName} ${u.lastName}`} width={160} />
        <Descriptions bordered column={{ xs: 1, md: 2 }} size="small">
          <Descriptions.Item label="Account Number">{u.idNumber}</Descriptions.Item>
          <Descriptions.Item label="Username">{u.username}</Descriptions.Item>
          <Descriptions.Item label="First Name">{u.firstName}</Descriptions.Item>
          <Descriptions.Item label="Middle Name">{u.middleName || '—'}</Descriptions.Item>
          <Descriptions.Item label="Last Name">{u.lastName}</Descriptions.Item>
          <Descriptions.Item label="Suffix">{u.suffix || '—'}</Descriptions.Item>
          <Descriptions.Item label="Date of Birth">{u.birthDate}</Descriptions.Item>
          <Descriptions.Item label="Age">{u.age}</Descriptions.Item>
          <Descriptions.Item label="Gender">{u.gender === 'MALE' ? 'Male' : 'Female'}</Descriptions.Item>
          <Descriptions.Item label="Contact Number">{u.contactNumber}</Descriptions.Item>
          <Descriptions.Item label="Email">{u.email}</Descriptions.Item>
          <Descriptions.Item label="Address">{u.address}</Descriptions.Item>
          <Descriptions.Item label="City">{u.city}</Descriptions.Item>
          <Descriptions.Item label="State">{u.state}</Descriptions.Item>
          <Descriptions.Item label="Zipcode">{u.zipcode}</Descriptions.Item>
          <Descriptions.Item label="User Type">{USER_TYPE_LABELS[u.userType] ?? u.userType}</Descriptions.Item>
          {u.position && <Descriptions.Item label="Position">{u.position}</Descriptions.Item>}
          <Descriptions.Item label="Status">
            <StatusTag kind="user" status={u.status} />
          </Descriptions.Item>
        </Descriptions>
      </Space>
    </section>
  );
}
