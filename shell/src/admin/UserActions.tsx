import { Button, Popconfirm, Space } from 'antd';
import { deleteAction, RowActions, useFeedback } from '@dme/ui';
import type { User, UserStatus } from '@dme/contracts';
import { errorMessage } from '@dme/api-client';
import { MESSAGES } from '@dme/contracts';

/**
 * Activate / deactivate and delete, each behind a confirm. Deactivating can be undone, so it is a
 * plain button on the row; deleting cannot, so it sits in the row's "More actions" menu, red
 * (issue 13: the two looked the same; issue 27: no red Delete on every row).
 */
export function UserActions({
  user,
  setStatus,
  remove,
  busy,
}: {
  user: User;
  setStatus: (args: { id: string; status: UserStatus }) => { unwrap: () => Promise<unknown> };
  remove: (id: string) => { unwrap: () => Promise<unknown> };
  busy?: boolean;
}) {
  const { notify } = useFeedback();
  const active = user.status === 'ACTIVE';
  const next: UserStatus = active ? 'DEACTIVATED' : 'ACTIVE';
  const name = `${user.firstName} ${user.lastName}`;

  const run = async (action: () => Promise<unknown>, done: string) => {
    try {
      await action();
      notify.success(done);
    } catch (err) {
      notify.error(MESSAGES.employee.updateErrorTitle, errorMessage(err));
    }
  };

  return (
    <Space wrap>
      <Popconfirm
        title={active ? `Deactivate ${name}?` : `Activate ${name}?`}
        description={active ? 'They will be signed out at once and cannot sign in.' : 'They will be able to sign in again.'}
        okText="Yes"
        cancelText="No"
        // Rebuilt on every open: a reused popover could keep the previous answer's loading icon
        // (hidden mid-animation), and screen readers would read its button as "loading Yes".
        destroyOnHidden
        onConfirm={() => run(() => setStatus({ id: user.id, status: next }).unwrap(), active ? 'User deactivated.' : 'User activated.')}
      >
        <Button size="small" disabled={busy}>
          {active ? 'Deactivate' : 'Activate'}
        </Button>
      </Popconfirm>
      <RowActions
        name={name}
        disabled={busy}
        actions={[deleteAction(name, 'The account is closed for good; its order history is kept.', () => run(() => remove(user.id).unwrap(), 'User deleted.'))]}
      />
    </Space>
  );
}
