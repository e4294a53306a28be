import { useEffect, useRef, useState } from 'react';
import { Alert, Button } from 'antd';
import { MESSAGES } from '@dme/contracts';
import { errorMessage } from '@dme/api-client';
import { useResendVerificationMutation } from '../api';

/**
 * While the notice shows, the page gets room below its end as tall as the notice (padding at the bottom of
 * the body, which moves nothing on screen), so the page's last buttons (the cart's Buy Now on a
 * phone) scroll above it instead of staying under it (issue 27: no action is ever covered).
 */
function useRoomBelow() {
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const el = box.current;
    if (!el) return;
    const body = el.ownerDocument.body;
    const root = el.ownerDocument.documentElement;
    const fit = () => {
      const room = `${Math.ceil(el.getBoundingClientRect().height) + 32}px`;
      body.style.paddingBottom = room;
      root.style.scrollPaddingBottom = room;
    };
    fit();
    const seen = typeof ResizeObserver === 'undefined' ? undefined : new ResizeObserver(fit);
    seen?.observe(el);
    return () => {
      seen?.disconnect();
      body.style.paddingBottom = '';
      root.style.scrollPaddingBottom = '';
    };
  }, []);
  return box;
}

/**
 * The notice itself (antd's Alert and Button): a chunk fetched only when there is something to
 * say (VerifyEmailBanner decides), so a confirmed account's first screen carries no antd.
 */
export default function VerifyEmailNotice({ onClose }: { onClose: () => void }) {
  const [resend, { isLoading }] = useResendVerificationMutation();
  const [answer, setAnswer] = useState<{ ok: boolean; text: string } | null>(null);
  const box = useRoomBelow();
  const send = async () => {
    try {
      setAnswer({ ok: true, text: (await resend().unwrap()).message });
    } catch (err) {
      setAnswer({ ok: false, text: errorMessage(err) });
    }
  };
  return (
    <div ref={box} style={{ position: 'fixed', left: 16, right: 16, bottom: 16, zIndex: 900, maxWidth: 720, margin: '0 auto', boxShadow: '0 6px 16px rgba(0,0,0,.12)', borderRadius: 8 }}>
      <Alert
        type={answer && !answer.ok ? 'error' : 'warning'}
        showIcon
        // A standing notice, not an interruption: screen readers read it politely.
        role="status"
        title={answer?.text ?? MESSAGES.account.unverifiedBanner}
        closable={{ 'aria-label': 'Close' }}
        onClose={onClose}
        action={
          answer?.ok ? null : (
            <Button size="small" onClick={() => void send()} loading={isLoading}>
              Send it again
            </Button>
          )
        }
      />
    </div>
  );
}
