import { renderToString } from 'react-dom/server';
import { MemoryRouter } from 'react-router-dom';
import { ME_URL, MeResponse, menuOf } from '@dme/contracts';
import { Frame, selectedKey } from '../src/layout/AppLayout';

/** Stands for the screen in the rendered frame; text no user data can contain (React escapes `<`). */
const SCREEN = '<dme-first-screen>';

/**
 * The signed-in frame around a remote's server-rendered first screen (issue 13: mobile LCP), run
 * by the gateway in Node with the answer of `/api/auth/me`: the same `Frame` the app's AppLayout
 * renders, with the drawer closed. Undefined when the answer is not a profile.
 */
export function renderFrame(path: string, reads: Readonly<Record<string, unknown>>, screenHtml: string): string | undefined {
  const me = MeResponse.safeParse(reads[ME_URL]);
  if (!me.success) return undefined;
  const user = me.data.user;
  const menu = menuOf(user.userType);
  const html = renderToString(
    <MemoryRouter initialEntries={[path]}>
      <Frame user={user} menu={menu} selected={selectedKey(menu, path)} drawer={false}>
        {SCREEN}
      </Frame>
    </MemoryRouter>,
  );
  const escaped = '&lt;dme-first-screen&gt;';
  return html.includes(escaped) ? html.replace(escaped, () => screenHtml) : undefined;
}
