import { useEffect, useRef } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import { Result, Spin } from 'antd';
import { MESSAGES } from '@dme/contracts';
import { errorMessage } from '@dme/api-client';
import { useVerifyEmailMutation } from '../../api';
import { AuthCard, AuthFrame } from './AuthFrame';

/** The page a confirmation e-mail links to (/verify-email?token=...): confirms once, on opening. */
export default function VerifyEmailPage() {
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const [verify, { data, error, isUninitialized, isLoading }] = useVerifyEmailMutation();
  const asked = useRef(false);
  useEffect(() => {
    // Once per page (React's development double effects would use the token twice).
    if (!token || asked.current) return;
    asked.current = true;
    void verify({ token });
  }, [token, verify]);

  const failed = !token ? MESSAGES.account.verifyLinkInvalid : error ? errorMessage(error) : null;
  return (
    <AuthFrame>
      <AuthCard title="Confirm your e-mail address" maxWidth={480}>
        {failed ? (
          <Result status="warning" title={failed} extra={<Link to="/login">Sign in</Link>} />
        ) : data ? (
          <Result status="success" title={data.message} extra={<Link to="/login">Continue to the shop</Link>} />
        ) : (
          <div role="status" aria-busy={isLoading || isUninitialized} style={{ textAlign: 'center', padding: 24 }}>
            <Spin /> <p>Confirming your e-mail address…</p>
          </div>
        )}
      </AuthCard>
    </AuthFrame>
  );
}
