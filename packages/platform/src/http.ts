import { randomUUID } from 'node:crypto';
import Koa, { type Context, type Next } from 'koa';
import { createServer, type IncomingMessage, type RequestListener, type Server } from 'node:http';
import type { Socket } from 'node:net';
import { PROBLEM_CONTENT_TYPE, PROBLEM_TITLES } from '@dme/contracts';
import { HttpProblem } from './errors';
import { isRequestId, withRequestContext, type Logger } from './logger';
import { createProcessMetrics, metricsAuthorized, type ProcessMetrics } from './metrics';

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
  // PostgreSQL gave up on a transaction that collided with another (deadlock, serialization):
  // nothing was changed, and the same request is likely to succeed again.
  if (isTransientDbConflict(err)) {
    return new HttpProblem(503, 'The request collided with another one and was not carried out. Please try again.', undefined, { 'Retry-After': '1' });
  }
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

/**
 * PostgreSQL rolled the transaction back whole because it collided with another (deadlock 40P01,
 * serialization failure 40001), here or in a cause: nothing was changed and it may be run again.
 */
export function isTransientDbConflict(err: unknown, depth = 0): boolean {
  const e = err as { code?: unknown; cause?: unknown } | undefined;
  if (!e || depth > 5) return false;
  if (e.code === '40P01' || e.code === '40001') return true;
  return isTransientDbConflict(e.cause, depth + 1);
}

export interface HttpAppOptions {
  name: string;
  logger: Logger;
  /** Largest JSON body accepted, in bytes (default 100 KB). */
  jsonLimit?: number;
  /** Parse JSON bodies (default true; the gateway streams bodies instead). */
  parseJson?: boolean;
  /**
   * Trust X-Forwarded-* headers (default true: services sit behind the gateway). The gateway is
   * the edge and trusts them only when TRUST_PROXY says a load balancer sits in front of it.
   */
  trustProxy?: boolean;
}

/** What a server needs of an app: Koa's request handler. */
export interface HttpApp {
  callback: () => RequestListener;
}

/** What /health/ready reports: each dependency up or down. */
export type ReadinessCheck = () => Promise<Record<string, 'up' | 'down'>>;
const READINESS = new WeakMap<object, ReadinessCheck>();

/** Tells an app made by createHttpApp how to check its dependencies for /health/ready. */
const METRICS = new WeakMap<object, ProcessMetrics>();

/** The app's metrics (made by createHttpApp): add gauges, set the token that opens GET /metrics. */
export function metricsOf(app: HttpApp): ProcessMetrics {
  const m = METRICS.get(app);
  if (!m) throw new Error('metricsOf: not an app made by createHttpApp');
  return m;
}

export function setReadiness(app: HttpApp, check: ReadinessCheck): void {
  READINESS.set(app, check);
}

/** Apps whose process is stopping: /health/ready answers 503 so load balancers send no more. */
const STOPPING = new WeakSet<object>();
/** The app each server made by listenHttp serves (closeHttpGracefully marks it stopping). */
const SERVED = new WeakMap<Server, object>();

/**
 * Handlers of each app still running. A request's handler goes on when its connection closes
 * under it (the caller gave up, or a gateway's kept-alive connection was cut): a stopping process
 * waits for these too, not only for open connections, so a checkout it accepted is finished
 * (its Idempotency-Key never left "being placed").
 */
const IN_FLIGHT = new WeakMap<object, { n: number; idle: Array<() => void> }>();

function inFlightOf(app: object) {
  let f = IN_FLIGHT.get(app);
  if (!f) IN_FLIGHT.set(app, (f = { n: 0, idle: [] }));
  return f;
}

/** Resolves once no handler of the app is running (or after `timeoutMs`). */
function handlersDone(app: object, timeoutMs: number): Promise<void> {
  const f = inFlightOf(app);
  if (f.n === 0) return Promise.resolve();
  return new Promise((resolve) => {
    const cut = setTimeout(resolve, timeoutMs);
    cut.unref();
    f.idle.push(() => {
      clearTimeout(cut);
      resolve();
    });
  });
}

/** From now on /health/ready answers 503 `stopping` (liveness stays 200). */
export function markStopping(app: HttpApp): void {
  STOPPING.add(app);
}

export const BODY_MESSAGES = {
  invalidJson: 'The request body is not valid JSON.',
  tooDeep: 'The request body is nested too deeply.',
  protoKey: 'The request body must not contain the key "__proto__".',
  tooLarge: 'The request body is too large.',
  encoding: 'Compressed request bodies are not supported: send the body without Content-Encoding.',
  cutOff: 'The request body was cut off before it ended.',
  notJson: 'Send the request body as JSON (Content-Type: application/json).',
  notUtf8: 'The request body is not valid UTF-8 text.',
  protoKeyConstructor: 'The request body must not contain the key "constructor" with a "prototype".',
  noBody: 'This request takes no body.',
} as const;

/** Largest JSON request body (the gateway refuses bigger ones before they reach a service). */
export const JSON_BODY_LIMIT = 100 * 1024;

/** How long a connection closed after an early refusal keeps reading what the client still sends. */
const LINGER_MS = 2000;

/** A JSON body may nest this deep at most (our schemas need far less). */
export const MAX_JSON_DEPTH = 64;

/** True when the request announces a body (a length above 0, or chunked). */
export function hasBody(req: IncomingMessage): boolean {
  const length = req.headers['content-length'];
  return req.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}

/**
 * Reads a request body fully, refusing more than `limit` bytes with 413 (before reading when the
 * announced length is already too big). The stream is paused, not destroyed, so the refusal can
 * still be answered; the caller's answer then closes the connection (see createHttpApp).
 */
export function readRequestBody(req: IncomingMessage, limit: number): Promise<Buffer> {
  const announced = Number(req.headers['content-length'] ?? 0);
  if (announced > limit) return Promise.reject(new HttpProblem(413, BODY_MESSAGES.tooLarge));
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const done = (err?: HttpProblem) => {
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('aborted', onAborted);
      req.off('error', onAborted);
      if (err) {
        req.pause();
        reject(err);
      } else resolve(Buffer.concat(chunks));
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) return done(new HttpProblem(413, BODY_MESSAGES.tooLarge));
      chunks.push(chunk);
    };
    const onEnd = () => done();
    const onAborted = () => done(new HttpProblem(400, BODY_MESSAGES.cutOff));
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('aborted', onAborted);
    req.on('error', onAborted);
  });
}

/** How deeply a JSON text nests objects and arrays (strings are skipped). */
function jsonDepth(text: string, max: number): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92 /* \ */) i++;
      else if (c === 34 /* " */) inString = false;
    } else if (c === 34) inString = true;
    else if (c === 123 || c === 91) {
      depth++;
      if (depth > deepest) deepest = depth;
      if (deepest > max) return deepest;
    } else if (c === 125 || c === 93) depth--;
  }
  return deepest;
}

/** Finds prototype-poisoning keys: `__proto__`, or `constructor` holding a `prototype` (as @hapi/bourne). */
function poisonKey(value: unknown, depth = 0): '__proto__' | 'constructor' | undefined {
  if (value === null || typeof value !== 'object' || depth > MAX_JSON_DEPTH) return undefined;
  if (Array.isArray(value)) {
    for (const v of value) {
      const found = poisonKey(v, depth + 1);
      if (found) return found;
    }
    return undefined;
  }
  for (const key of Object.keys(value)) {
    const child = (value as Record<string, unknown>)[key];
    if (key === '__proto__') return '__proto__';
    if (key === 'constructor' && child !== null && typeof child === 'object' && Object.hasOwn(child, 'prototype')) return 'constructor';
    const found = poisonKey(child, depth + 1);
    if (found) return found;
  }
  return undefined;
}

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });

/** Parses a JSON request body; anything wrong with it is a 400 that says what. */
export function parseJsonBody(raw: Buffer): unknown {
  let text: string;
  try {
    text = utf8.decode(raw);
  } catch {
    throw new HttpProblem(400, BODY_MESSAGES.notUtf8);
  }
  if (text.trim() === '') return {};
  if (jsonDepth(text, MAX_JSON_DEPTH) > MAX_JSON_DEPTH) throw new HttpProblem(400, BODY_MESSAGES.tooDeep);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new HttpProblem(400, BODY_MESSAGES.invalidJson);
  }
  const poison = poisonKey(value);
  if (poison) throw new HttpProblem(400, poison === '__proto__' ? BODY_MESSAGES.protoKey : BODY_MESSAGES.protoKeyConstructor);
  return value;
}

/** Whether a request's Content-Type is JSON (application/json or +json). */
export function isJsonType(req: IncomingMessage): boolean {
  const type = String(req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
  return type === 'application/json' || (type.startsWith('application/') && type.endsWith('+json'));
}

async function readiness(app: object): Promise<{ ok: boolean; checks: Record<string, 'up' | 'down'> }> {
  const check = READINESS.get(app);
  if (!check) return { ok: true, checks: {} };
  try {
    const checks = await check();
    return { ok: Object.values(checks).every((v) => v === 'up'), checks };
  } catch {
    return { ok: false, checks: {} };
  }
}

/**
 * A Koa app with request ids, problem+json errors, security headers, health endpoints and a JSON
 * body reader. After any answer given before the request body was read to its end (a refusal),
 * the connection is closed cleanly, so a keep-alive client is never left waiting.
 */
export function createHttpApp({ name, logger, jsonLimit = 100 * 1024, parseJson = true, trustProxy = true }: HttpAppOptions): Koa<AppState> {
  const app = new Koa<AppState>();
  app.proxy = trustProxy;
  app.silent = true;
  const metrics = createProcessMetrics(name);
  METRICS.set(app, metrics);

  // First: counts every handler of the app while it runs (closeHttpGracefully waits for them).
  app.use(countInFlight(app));
  app.use(assignRequestId);
  app.use(requestFrame(app, name, logger, metrics));

  if (!parseJson) return app;
  app.use(jsonBodyReader(jsonLimit));

  return app;
}

/** Middleware counting the app's handlers still running; wakes those waiting (handlersDone) when none is left. */
function countInFlight(app: object) {
  return async (_ctx: Context, next: Next) => {
    const f = inFlightOf(app);
    f.n += 1;
    try {
      await next();
    } finally {
      f.n -= 1;
      if (f.n === 0) for (const done of f.idle.splice(0)) done();
    }
  };
}

/** Middleware giving the request its id (the caller's X-Request-Id when well-formed) and running the rest in its context. */
function assignRequestId(ctx: Context, next: Next) {
  const incoming = ctx.get('x-request-id');
  const requestId = isRequestId(incoming) ? incoming : randomUUID();
  ctx.state.requestId = requestId;
  // Everything done for this request runs in its context: log lines, recorded events and NATS
  // commands carry the id (logger.ts).
  return withRequestContext(requestId, next);
}

/**
 * Middleware around every request: common headers, the health and metrics endpoints, 404s and
 * errors as problem+json, the request's duration, and closing the connection after a refusal.
 */
function requestFrame(app: object, name: string, logger: Logger, metrics: ProcessMetrics) {
  return async (ctx: Context, next: Next) => {
    const requestId = ctx.state.requestId as string;
    ctx.set('X-Request-Id', requestId);
    ctx.set('X-Content-Type-Options', 'nosniff');
    const started = process.hrtime.bigint();
    let observed = false; // health checks and scrapes are not counted
    try {
      if (await answerOwnEndpoint(ctx, app, name, metrics)) return;
      observed = true;
      await next();
      if (ctx.status === 404 && ctx.body == null) {
        sendProblem(ctx, new HttpProblem(404, 'Not found.'));
      }
    } catch (err) {
      answerError(ctx, err, name, logger, requestId);
    } finally {
      finishRequest(ctx, metrics, observed, started);
    }
  };
}

/** Answers the process's own endpoints (liveness, metrics, readiness); false for any other request. */
async function answerOwnEndpoint(ctx: Context, app: object, name: string, metrics: ProcessMetrics): Promise<boolean> {
  if (ctx.method === 'GET' && (ctx.path === '/health' || ctx.path === '/health/live')) {
    ctx.set('Cache-Control', 'no-store');
    ctx.body = { status: 'ok', service: name, pid: process.pid };
    return true;
  }
  if (ctx.method === 'GET' && ctx.path === '/metrics' && metrics.token) {
    // For Prometheus inside the deployment, with the internal token as a bearer token.
    if (!metricsAuthorized(ctx.get('authorization'), metrics.token)) throw new HttpProblem(401, 'Metrics need the internal token.');
    ctx.set('Cache-Control', 'no-store');
    ctx.type = metrics.registry.contentType;
    ctx.body = await metrics.registry.metrics();
    return true;
  }
  if (ctx.method === 'GET' && ctx.path === '/health/ready') {
    if (STOPPING.has(app)) {
      // Not a failure: the process is finishing its requests; a load balancer should send no more.
      ctx.set('Cache-Control', 'no-store');
      ctx.status = 503;
      ctx.body = { status: 'stopping', service: name, pid: process.pid, checks: {} };
      return true;
    }
    const { ok, checks } = await readiness(app);
    ctx.set('Cache-Control', 'no-store');
    ctx.status = ok ? 200 : 503;
    ctx.body = { status: ok ? 'ready' : 'not ready', service: name, pid: process.pid, checks };
    return true;
  }
  return false;
}

/** Answers anything thrown as a problem+json; a 5xx is logged (a 502 or 503 as a warning). */
function answerError(ctx: Context, err: unknown, name: string, logger: Logger, requestId: string): void {
  const problem = toHttpProblem(err);
  if (problem.status >= 500) {
    const unavailable = problem.status === 503 || problem.status === 502;
    logger[unavailable ? 'warn' : 'error']({ err, requestId, method: ctx.method, path: ctx.path }, unavailable ? `${name}: a dependency is unavailable` : `${name}: unhandled error`);
  }
  sendProblem(ctx, problem);
}

/** After the answer: the request's duration (when observed), and a clean close after an early refusal. */
function finishRequest(ctx: Context, metrics: ProcessMetrics, observed: boolean, started: bigint): void {
  if (observed) {
    // By route pattern (never the raw path: ids would make every request its own series).
    const route = (ctx as { _matchedRoute?: string })._matchedRoute ?? 'unmatched';
    metrics.http.observe({ method: ctx.method, route: String(route), status: String(ctx.status) }, Number(process.hrtime.bigint() - started) / 1e9);
  }
  // Answered before the body arrived in full: close instead of leaving the rest on the socket.
  // (A request without a body has nothing left to arrive, even if Node has not marked it
  // complete yet because this answer came synchronously.)
  if (hasBody(ctx.req) && !ctx.req.complete) closeAfterAnswer(ctx);
}

/** Middleware reading a JSON body into ctx.request.body (compressed bodies refused; other types left to the routes). */
function jsonBodyReader(jsonLimit: number) {
  return async (ctx: Context, next: Next) => {
    if (!hasBody(ctx.req)) return next();
    const encoding = String(ctx.get('content-encoding') || 'identity').trim().toLowerCase();
    if (encoding !== 'identity') throw new HttpProblem(415, BODY_MESSAGES.encoding);
    // Only JSON is read here; multipart bodies are streamed by the routes that take them.
    if (isJsonType(ctx.req)) (ctx.request as { body?: unknown }).body = parseJsonBody(await readRequestBody(ctx.req, jsonLimit));
    await next();
  };
}

/**
 * Ends the connection after this answer, cleanly: the answer says `Connection: close`, the rest of
 * the request body is read and dropped, and the socket is closed once the client has sent it all
 * (or after LINGER_MS). Closing at once with unread data would make the kernel reset the
 * connection, and the client would often lose the answer (a 413 it never sees).
 */
function closeAfterAnswer(ctx: Context): void {
  ctx.set('Connection', 'close');
  const socket = ctx.req.socket as Socket & { destroySoon?: () => void };
  if (socket.destroySoon && !(socket as { lingering?: boolean }).lingering) {
    (socket as { lingering?: boolean }).lingering = true;
    socket.destroySoon = function lingerThenClose(this: Socket) {
      if (this.writable) this.end();
      const timer = setTimeout(() => this.destroy(), LINGER_MS);
      timer.unref();
      this.once('close', () => clearTimeout(timer));
      if (ctx.req.complete) this.destroy();
      else ctx.req.once('end', () => setImmediate(() => this.destroy()));
      ctx.req.resume();
    };
  }
}

/**
 * Answers what Node's HTTP parser refuses before Koa sees it (headers or URL too large, not
 * HTTP) with a problem+json and a clean close, instead of an empty answer.
 */
export function answerClientErrors(server: Server): void {
  server.on('clientError', (err: NodeJS.ErrnoException, socket: Socket) => {
    if (err.code === 'ECONNRESET' || !socket.writable) {
      socket.destroy();
      return;
    }
    const status = err.code === 'HPE_HEADER_OVERFLOW' ? 431 : err.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 408 : 400;
    const detail =
      status === 431 ? 'The request URL or headers are too large.' : status === 408 ? 'The request took too long to arrive.' : 'The request is not valid HTTP.';
    const body = JSON.stringify(new HttpProblem(status, detail).toProblem());
    socket.end(
      `HTTP/1.1 ${status} ${PROBLEM_TITLES[status] ?? 'Error'}\r\nContent-Type: ${PROBLEM_CONTENT_TYPE}\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  });
}

/**
 * Stops a server gracefully. At once, /health/ready answers 503 `stopping` (liveness stays 200).
 * For `drainMs` the server still takes requests as usual, so load balancers that have not yet
 * seen the 503 lose nothing; then no new connections, every request already being served is
 * answered, then its connection closes. Keep-alive connections close as soon as they are idle
 * (Node would otherwise keep them for keepAliveTimeout); whatever is still open `timeoutMs` after
 * the drain is cut. Handlers still running after their connection closed are waited for as well
 * (within the same `timeoutMs`).
 */
export async function closeHttpGracefully(server: Server, timeoutMs = 9000, drainMs = 0): Promise<void> {
  const app = SERVED.get(server);
  if (app) STOPPING.add(app);
  if (drainMs > 0) await new Promise((r) => setTimeout(r, drainMs));
  return new Promise((resolve) => {
    const sweep = setInterval(() => server.closeIdleConnections(), 50);
    const cut = setTimeout(() => server.closeAllConnections(), timeoutMs);
    sweep.unref();
    cut.unref();
    const started = Date.now();
    server.close(() => {
      clearInterval(sweep);
      clearTimeout(cut);
      void (app ? handlersDone(app, Math.max(0, timeoutMs - (Date.now() - started))) : Promise.resolve()).then(resolve);
    });
    server.closeIdleConnections();
  });
}

/** Starts an HTTP server for a Koa app: keep-alive longer than a load balancer's, client errors answered. */
export async function listenHttp(app: HttpApp, port: number, host: string): Promise<Server> {
  const server = createServer(app.callback());
  SERVED.set(server, app);
  server.listen(port, host);
  server.keepAliveTimeout = 65_000;
  answerClientErrors(server);
  await new Promise<void>((resolve, reject) => {
    server.once('listening', () => resolve());
    server.once('error', reject);
  });
  return server;
}
