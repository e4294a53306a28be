import { SessionPrincipal } from '@dme/contracts';
import { IDENTITY_HEADERS } from '@dme/platform';
import { postJson } from './upstream';

export const SESSION_COOKIE = 'dme_session';

export type Principal = SessionPrincipal & { sessionId: string };

/**
 * Resolves a session cookie through identity on every request. Nothing is cached here, so a
 * logout or a deactivation is effective at the very next request on every gateway replica.
 */
export async function resolvePrincipal(identityUrl: URL, internalToken: string, token: string | undefined): Promise<Principal | undefined> {
  if (!token || token.length > 200) return undefined;
  const res = await postJson(identityUrl, '/internal/sessions/resolve', { token }, { [IDENTITY_HEADERS.internalToken]: internalToken });
  if (res.status !== 200) return undefined;
  const parsed = SessionPrincipal.extend({ sessionId: SessionPrincipal.shape.userId }).safeParse(
    (res.body as { principal?: unknown } | undefined)?.principal,
  );
  return parsed.success ? parsed.data : undefined;
}
