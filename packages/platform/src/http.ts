import { randomUUID } from 'node:crypto';
import Koa, { type Context, type Next } from 'koa';
import { bodyParser } from '@koa/bodyparser';
import { PROBLEM_CONTENT_TYPE } from '@dme/contracts';
import { HttpProblem } from './errors';
import type { Logger } from './logger';

export interface AppState {
  requestId: string;
  [key: string]: unknown;
}

/** Writes a problem+json answer. */
export function sendProblem(ctx: Context, problem: HttpProblem): void {
  ctx.status = problem.status;
  if (problem.headers) for (const [k, v] of Object.entries(problem.headers)) ctx.set(k, v);
  ctx.type = PROBLEM_CONTENT_TYPE;
  ctx.body = problem.toProblem(ctx.path);
}

/** Turns anything thrown into an HttpProblem; unknown errors are 500s (always a bug). */
export function toHttpProblem(err: unknown): HttpProblem {
  if (err instanceof HttpProblem) return err;
  const e = err as { status?: unknown; statusCode?: unknown; expose?: unknown; message?: unknown; type?: unknown };
  const status = typeof e?.status === 'number' ? e.status : typeof e?.statusCode === 'number' ? e.statusCode : 500;
  if (status >= 400 && status < 500) {
    if (status === 413) return new HttpProblem(413, 'The request body is too large.');
    if (status === 400 && e.type === 'entity.parse.failed') return new HttpProblem(400, 'The request body is not valid JSON.');
    if (status === 415) return new HttpProblem(415, 'Unsupported content type.');
    return new HttpProblem(status, e.expose && typeof e.message === 'string' ? e.message : undefined);
  }
  return new HttpProblem(500, 'Something went wrong on our side. Please try again.');
}

export interface HttpAppOptions {
  name: string;
  logger: Logger;
  /** Largest JSON body accepted (default 100kb). */
  jsonLimit?: string;
  /** Parse JSON bodies (default true; the gateway streams bodies instead). */
  parseJson?: boolean;
  /**
   * Trust X-Forwarded-* headers (default true: services sit behind the gateway). The gateway is
   * the edge and trusts them only when TRUST_PROXY says a load balancer sits in front of it.
   */
  trustProxy?: boolean;
}

/** A Koa app with request ids, problem+json errors, security headers and a JSON body parser. */
export function createHttpApp({ name, logger, jsonLimit = '100kb', parseJson = true, trustProxy = true }: HttpAppOptions): Koa<AppState> {
  const app = new Koa<AppState>();
  app.proxy = trustProxy;
  app.silent = true;

  app.use(async (ctx: Context, next: Next) => {
    const incoming = ctx.get('x-request-id');
    const requestId = /^[A-Za-z0-9._-]{8,100}$/.test(incoming) ? incoming : randomUUID();
    ctx.state.requestId = requestId;
    ctx.set('X-Request-Id', requestId);
    ctx.set('X-Content-Type-Options', 'nosniff');
    try {
      if (ctx.path === '/health' && ctx.method === 'GET') {
        ctx.body = { status: 'ok', service: name };
        return;
      }
      await next();
      if (ctx.status === 404 && ctx.body == null) {
        sendProblem(ctx, new HttpProblem(404, 'Not found.'));
      }
    } catch (err) {
      const problem = toHttpProblem(err);
      if (problem.status >= 500) {
        logger.error({ err, requestId, method: ctx.method, path: ctx.path }, `${name}: unhandled error`);
      }
      sendProblem(ctx, problem);
    }
  });

  if (!parseJson) return app;
  app.use(
    bodyParser({
      enableTypes: ['json'],
      jsonLimit,
      jsonStrict: true,
      // Only JSON is parsed here; multipart bodies are streamed by the routes that take them.
      onError: (err: Error) => {
        throw err;
      },
    }),
  );

  return app;
}
