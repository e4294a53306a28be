import { useState } from 'react';
import { Alert, Button } from 'antd';
import { MESSAGES } from '@dme/contracts';
import { errorMessage } from '@dme/api-client';
import { useMeQuery, useResendVerificationMutation } from '../api';

/**
 * Until the signed-in user confirmed their e-mail address (issue 24): a banner above every screen
 * with "Send it again". Unconfirmed accounts shop as usual.
 */
export default function VerifyEmailBanner() {
  const { data } = useMeQuery();
  const [resend, { isLoading }] = useResendVerificationMutation();
  const [answer, setAnswer] = useState<{ ok: boolean; text: string } | null>(null);
  if (data?.emailVerified !== false) return null;
  const send = async () => {
    try {
      setAnswer({ ok: true, text: (await resend().unwrap()).message });
    } catch (err) {
      setAnswer({ ok: false, text: errorMessage(err) });
    }
  };
  return (
    <Alert
      type={answer && !answer.ok ? 'error' : 'warning'}
      showIcon
      banner
      // A standing notice, not an interruption: screen readers read it politely.
      role="status"
      style={{ marginBottom: 16 }}
      message={answer?.text ?? MESSAGES.account.unverifiedBanner}
      action={
        answer?.ok ? null : (
          <Button size="small" onClick={() => void send()} loading={isLoading}>
            Send it again
          </Button>
        )
      }
    />
  );
}
