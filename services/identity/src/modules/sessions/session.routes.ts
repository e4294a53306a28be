import { randomBytes } from 'node:crypto';
import Router from '@koa/router';
import { z } from 'zod';
import { fromZodError, HttpProblem, tokensEqual, IDENTITY_HEADERS, unauthorized, type RehearsalRequest } from '@dme/platform';
import { em } from '../auth/auth.routes';
import { resolveSession, type SessionPolicy } from './session.service';

const ResolveBody = z.object({ token: z.string().min(1).max(200) });

/** Internal: the gateway resolves a session cookie here. Not reachable through /api. */
export function internalSessionRouter(internalToken: string, policy: SessionPolicy): Router {
  const router = new Router({ prefix: '/internal' });
  router.post('/sessions/resolve', async (ctx) => {
    if (!tokensEqual(ctx.get(IDENTITY_HEADERS.internalToken) || undefined, internalToken)) {
      throw new HttpProblem(403, 'Internal route.');
    }
    const parsed = ResolveBody.safeParse((ctx.request as { body?: unknown }).body);
    if (!parsed.success) throw fromZodError(parsed.error);
    const resolved = await resolveSession(em(ctx), parsed.data.token, policy);
    if (!resolved) throw unauthorized('Your session has ended. Please sign in again.');
    ctx.set('Cache-Control', 'no-store');
    // validUntil: a gateway that caches the answer keeps it no longer (and drops it earlier when
    // identity announces the session's end on SESSION_REVOKED_SUBJECT).
    ctx.body = { principal: resolved.principal, validUntil: resolved.validUntil.toISOString() };
  });
  return router;
}

/**
 * Identity's start-up rehearsal (platform rehearse, issue 30): every request after a gateway starts
 * asks this route for its cookie's session, so it is rehearsed with cookies that match no session:
 * a lookup that finds nothing and writes nothing, answered 401.
 */
export function resolveRehearsal(internalToken: string): () => RehearsalRequest {
  return () => ({
    method: 'POST',
    path: '/internal/sessions/resolve',
    headers: { 'content-type': 'application/json', [IDENTITY_HEADERS.internalToken]: internalToken },
    body: JSON.stringify({ token: randomBytes(32).toString('base64url') }),
  });
}
