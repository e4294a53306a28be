import { useEffect, useRef } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import { Result, Spin } from 'antd';
import { MESSAGES } from '@dme/contracts';
import { errorMessage } from '@dme/api-client';
import { useUnsubscribeMutation } from '../../api';
import { AuthCard, AuthFrame } from './AuthFrame';

/** The one-click link of a reminder (/unsubscribe?token=...): reminders off, on opening (issue 24). */
export default function UnsubscribePage() {
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const [unsubscribe, { data, error }] = useUnsubscribeMutation();
  const asked = useRef(false);
  useEffect(() => {
    if (!token || asked.current) return;
    asked.current = true;
    void unsubscribe({ token });
  }, [token, unsubscribe]);

  const failed = !token ? MESSAGES.account.unsubscribeLinkInvalid : error ? errorMessage(error) : null;
  return (
    <AuthFrame>
      <AuthCard title="E-mail reminders" maxWidth={480}>
        {failed ? (
          <Result status="warning" title={failed} extra={<Link to="/login">Sign in</Link>} />
        ) : data ? (
          <Result status="success" title={data.message} extra={<Link to="/account">Change it in My account</Link>} />
        ) : (
          <div role="status" style={{ textAlign: 'center', padding: 24 }}>
            <Spin /> <p>Turning reminders off…</p>
          </div>
        )}
      </AuthCard>
    </AuthFrame>
  );
}
