import { Button } from 'antd';
import { OUTBOX_MESSAGES, type MessageSummary } from '@dme/contracts';
import { errorMessage } from '@dme/api-client';
import { useFeedback } from '@dme/ui';
import { useResendMessageMutation } from '../api';

/** "Send again" for a FAILED message, behind a confirm; the list and the drawer refresh from the answer's tags. */
export function ResendMessageButton({ message, size }: { message: Pick<MessageSummary, 'id' | 'recipient' | 'status'>; size?: 'small' | 'middle' }) {
  const { confirm, notify } = useFeedback();
  const [resend, state] = useResendMessageMutation();
  if (message.status !== 'FAILED') return null;

  const run = async () => {
    if (!(await confirm({ title: OUTBOX_MESSAGES.resendTitle, content: `To ${message.recipient}. ${OUTBOX_MESSAGES.resendContent}`, okText: 'Send again', cancelText: 'Cancel' }))) return;
    try {
      await resend(message.id).unwrap();
      notify.success(OUTBOX_MESSAGES.resent);
    } catch (err) {
      notify.error(OUTBOX_MESSAGES.resendErrorTitle, errorMessage(err));
    }
  };

  return (
    <Button
      size={size ?? 'small'}
      loading={state.isLoading}
      onClick={(e) => {
        // In a row: the click is the button's, not the row's (which opens the message).
        e.stopPropagation();
        void run();
      }}
    >
      Send again
    </Button>
  );
}
