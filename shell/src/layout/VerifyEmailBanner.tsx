import { lazy, Suspense, useState } from 'react';
import { useMeQuery } from '../api';

const VerifyEmailNotice = lazy(() => import('./VerifyEmailNotice'));
const HIDDEN_KEY = 'dme.verifyBannerHidden';

/**
 * Until the signed-in user confirmed their e-mail address (issue 24): a notice with "Send it
 * again". Unconfirmed accounts shop as usual. It floats at the bottom of the window, out of the
 * page's flow: it arrives after the first screen (the server's copy has no banner) and must not
 * move what is already on screen. Closed, it stays closed for the tab's session.
 *
 * Part of the signed-in frame's own script: it only decides whether there is a notice; the notice
 * (antd) is fetched when there is one (issue 27: a confirmed account's first screen loads no antd).
 */
export function VerifyEmailBanner() {
  const { data } = useMeQuery();
  const [hidden, setHidden] = useState(() => sessionStorage.getItem(HIDDEN_KEY) === '1');
  if (data?.emailVerified !== false || hidden) return null;
  const close = () => {
    sessionStorage.setItem(HIDDEN_KEY, '1');
    setHidden(true);
  };
  return (
    <Suspense fallback={null}>
      <VerifyEmailNotice onClose={close} />
    </Suspense>
  );
}
