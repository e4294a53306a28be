/**
 * The legacy adapter (issue 12): serves the old client's `.php` calls (SPEC §7) at the root of the
 * gateway by translating each into REST calls through the gateway itself (client.ts), with the
 * old envelope and status codes (mapping.ts), following one table (table.ts).
 *
 * Order of checks, as the gateway's own: the method, then who may call it (the REST route's
 * access, from the route table), then the body (framing, size, JSON, the old body's schema); only
 * then does the handler call the REST API, which checks everything again.
 */
import type { Context } from 'koa';
import { isAllowed, PROBLEM_CONTENT_TYPE, PROBLEM_TITLES } from '@dme/contracts';
import {
  BODY_MESSAGES,
  forbidden,
  fromZodError,
  hasBody,
  HttpProblem,
  isJsonType,
  JSON_BODY_LIMIT,
  notFound,
  parseJsonBody,
  readRequestBody,
  toHttpProblem,
  type Logger,
} from '@dme/platform';
import { LoopbackKey, Rest, RestError } from './client';
import { errorBody, successBody } from './mapping';
import { LEGACY_BY_PATH, legacyDocs, type LegacyCall } from './table';

export { LEGACY_CALLS, legacyDocs, type LegacyCall } from './table';

/** A path the adapter answers: anything ending in `.php` outside /api and /remotes. */
export function isLegacyPath(path: string): boolean {
  return path.endsWith('.php') && !path.startsWith('/api/') && !path.startsWith('/remotes/');
}

export interface LegacyAdapterOptions {
  logger: Logger;
  /** The gateway's largest body (multipart uploads). */
  maxBodyBytes: number;
}

export interface LegacyAdapter {
  /** Answers a legacy call (isLegacyPath). */
  serve(ctx: Context): Promise<void>;
  /** Answers a refusal made before the call was looked at (cross-origin, csrf.ts) in the legacy error shape. */
  refuse(ctx: Context, problem: HttpProblem): void;
  /** The original client address of the adapter's own REST calls (believed only with this process's key). */
  clientIp(ctx: Context): string | undefined;
  docs: ReturnType<typeof legacyDocs>;
}

export function createLegacyAdapter({ logger, maxBodyBytes }: LegacyAdapterOptions): LegacyAdapter {
  const key = new LoopbackKey();

  function answerError(ctx: Context, err: unknown): void {
    let status: number;
    let body: unknown;
    let headers: Record<string, string> = {};
    if (err instanceof RestError) {
      status = err.status;
      body = err.body;
      const retry = err.headers['retry-after'];
      if (typeof retry === 'string') headers = { 'Retry-After': retry };
    } else {
      const problem = toHttpProblem(err);
      if (problem.status >= 500 && !(err instanceof HttpProblem)) {
        logger.error({ err, requestId: ctx.state.requestId, path: ctx.path }, 'gateway: legacy call failed');
      }
      status = problem.status;
      body = problem.toProblem(ctx.path);
      headers = problem.headers ?? {};
    }
    ctx.status = status;
    for (const [k, v] of Object.entries(headers)) ctx.set(k, v);
    ctx.type = PROBLEM_CONTENT_TYPE;
    ctx.body = errorBody(status, body, `${PROBLEM_TITLES[status] ?? 'Error'}.`);
  }

  async function readBody(ctx: Context, call: LegacyCall): Promise<{ body: Record<string, unknown>; raw?: { contentType: string; bytes: Buffer } }> {
    const spec = call.body;
    if (spec === 'ignored') return { body: {} };
    if (!hasBody(ctx.req)) {
      if (spec === 'multipart') throw new HttpProblem(415, 'Send the image as multipart/form-data (field "image").');
      if (!spec) return { body: {} };
    } else {
      if (!spec) throw new HttpProblem(400, BODY_MESSAGES.noBody);
      const limit = spec === 'multipart' ? maxBodyBytes : Math.min(JSON_BODY_LIMIT, maxBodyBytes);
      if (Number(ctx.get('content-length') || 0) > limit) throw new HttpProblem(413, BODY_MESSAGES.tooLarge);
      if (String(ctx.get('content-encoding') || 'identity').trim().toLowerCase() !== 'identity') throw new HttpProblem(415, BODY_MESSAGES.encoding);
      if (spec === 'multipart') return { body: {}, raw: { contentType: ctx.get('content-type'), bytes: await readRequestBody(ctx.req, limit) } };
      if (!isJsonType(ctx.req)) throw new HttpProblem(415, BODY_MESSAGES.notJson);
    }
    const value = hasBody(ctx.req) ? parseJsonBody(await readRequestBody(ctx.req, Math.min(JSON_BODY_LIMIT, maxBodyBytes))) : {};
    const parsed = spec.safeParse(value);
    if (!parsed.success) throw fromZodError(parsed.error);
    // The body as sent (not the parsed output: amounts stay as the client wrote them for the REST API to read).
    return { body: value as Record<string, unknown> };
  }

  async function serve(ctx: Context): Promise<void> {
    try {
      const byMethod = LEGACY_BY_PATH.get(ctx.path);
      if (!byMethod) throw notFound('There is no such legacy call.');
      const call = byMethod.get(ctx.method === 'HEAD' ? 'GET' : ctx.method);
      if (!call) {
        ctx.set('Allow', [...byMethod.keys()].join(', '));
        throw new HttpProblem(405, 'Method not allowed.');
      }
      const rest = new Rest(ctx, key, key.clientIp(ctx) ?? ctx.ip);
      if (call.access !== 'public') {
        const me = await rest.requireMe();
        if (call.access !== 'authenticated' && !isAllowed(call.access, me.user.userType)) throw forbidden();
      }
      const { body, raw } = await readBody(ctx, call);
      const data = await call.handle({
        query: new URLSearchParams(ctx.querystring),
        body,
        ...(raw ? { raw } : {}),
        rest,
        header: (name) => ctx.get(name),
      });
      for (const c of rest.setCookies) ctx.append('Set-Cookie', c);
      ctx.set('Cache-Control', 'no-store');
      ctx.status = successBody(call.kind, data).status;
      ctx.body = successBody(call.kind, data);
    } catch (err) {
      answerError(ctx, err);
    }
  }

  return { serve, refuse: answerError, clientIp: (ctx) => key.clientIp(ctx), docs: legacyDocs() };
}
