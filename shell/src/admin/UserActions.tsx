import { Button, Popconfirm, Space } from 'antd';
import { useFeedback } from '@dme/ui';
import type { User, UserStatus } from '@dme/contracts';
import { errorMessage } from '@dme/api-client';
import { MESSAGES } from '@dme/contracts';

/** A trash-can icon (decorative: the button's text names the action). */
function DeleteIcon() {
  return (
    <svg viewBox="0 0 24 24" width="1em" height="1em" fill="currentColor" aria-hidden="true" focusable="false" data-icon="delete">
      <path d="M9 3h6l1 1h4v2H4V4h4l1-1zm-3 5h12l-1 13H7L6 8zm4 2v9h1.5v-9H10zm3.5 0v9H15v-9h-1.5z" />
    </svg>
  );
}

/**
 * Activate / deactivate and delete, each behind a confirm. Deactivating can be undone, so it is a
 * plain action; deleting cannot, so it alone has the danger style and a trash icon (issue 13: the
 * two looked the same).
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
      <Popconfirm
        title={`Delete ${name}?`}
        description="The account is closed for good; its order history is kept."
        okText="Delete"
        okButtonProps={{ danger: true }}
        cancelText="Cancel"
        destroyOnHidden
        onConfirm={() => run(() => remove(user.id).unwrap(), 'User deleted.')}
      >
        <Button size="small" danger icon={<DeleteIcon />} disabled={busy}>
          Delete
        </Button>
      </Popconfirm>
    </Space>
  );
}
