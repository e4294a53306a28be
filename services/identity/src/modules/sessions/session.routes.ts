import { randomBytes } from 'node:crypto';
import Router from '@koa/router';
import { z } from 'zod';
import { SESSION_LOOKUP_MAX, type SessionResolveAnswer, type SessionResolveManyAnswer } from '@dme/contracts';
import { fromZodError, HttpProblem, tokensEqual, IDENTITY_HEADERS, unauthorized, type RehearsalRequest } from '@dme/platform';
import { em } from '../auth/auth.routes';
import { resolveSession, resolveSessions, type ResolvedSession, type SessionPolicy } from './session.service';

const ResolveBody = z.object({ token: z.string().min(1).max(200) });
const ResolveManyBody = z.object({ tokens: z.array(z.string().min(1).max(200)).min(1).max(SESSION_LOOKUP_MAX) });

/** A resolved session as the gateway is answered it. */
const answerOf = (resolved: ResolvedSession): SessionResolveAnswer => ({ principal: resolved.principal, validUntil: resolved.validUntil.toISOString() });

/** Internal: the gateway resolves session cookies here. Not reachable through /api. */
export function internalSessionRouter(internalToken: string, policy: SessionPolicy): Router {
  const router = new Router({ prefix: '/internal' });
  router.use(async (ctx, next) => {
    if (!tokensEqual(ctx.get(IDENTITY_HEADERS.internalToken) || undefined, internalToken)) {
      throw new HttpProblem(403, 'Internal route.');
    }
    ctx.set('Cache-Control', 'no-store');
    await next();
  });
  router.post('/sessions/resolve', async (ctx) => {
    const parsed = ResolveBody.safeParse((ctx.request as { body?: unknown }).body);
    if (!parsed.success) throw fromZodError(parsed.error);
    const resolved = await resolveSession(em(ctx), parsed.data.token, policy);
    if (!resolved) throw unauthorized('Your session has ended. Please sign in again.');
    // validUntil: a gateway that caches the answer keeps it no longer (and drops it earlier when
    // identity announces the session's end on SESSION_REVOKED_SUBJECT).
    ctx.body = answerOf(resolved);
  });
  // Several cookies in one call (the requests that reached a gateway together): answers[i] is
  // tokens[i]'s session as /sessions/resolve answers it, or null where that answers 401.
  router.post('/sessions/resolve-many', async (ctx) => {
    const parsed = ResolveManyBody.safeParse((ctx.request as { body?: unknown }).body);
    if (!parsed.success) throw fromZodError(parsed.error);
    const resolved = await resolveSessions(em(ctx), parsed.data.tokens, policy);
    const body: SessionResolveManyAnswer = { answers: resolved.map((r) => (r ? answerOf(r) : null)) };
    ctx.body = body;
  });
  return router;
}

/**
 * Identity's start-up rehearsal (platform rehearse, issue 30): every request after a gateway starts
 * asks for its cookie's session, alone or with the others that arrived with it, so both routes are
 * rehearsed, in turn, with cookies that match no session: lookups that find nothing and write
 * nothing (401 alone; 200 with every answer null together).
 */
export function resolveRehearsal(internalToken: string): (i: number) => RehearsalRequest {
  const cookie = () => randomBytes(32).toString('base64url');
  return (i) => ({
    method: 'POST',
    path: i % 2 === 0 ? '/internal/sessions/resolve' : '/internal/sessions/resolve-many',
    headers: { 'content-type': 'application/json', [IDENTITY_HEADERS.internalToken]: internalToken },
    body: JSON.stringify(i % 2 === 0 ? { token: cookie() } : { tokens: Array.from({ length: 10 }, cookie) }),
  });
}
