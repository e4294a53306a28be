/**
 * The legacy adapter's way into the REST API: an HTTP request to this gateway's own listening
 * address (the local address and port the legacy request itself arrived on), carrying the
 * caller's Cookie header. So every REST call of a legacy call passes through the gateway's own
 * front door: session resolution, the route table's permissions, body limits, rate limits, and
 * then the services' validation, object checks and totals. Nothing is decided here.
 *
 * The one thing a loopback request would lose is the caller's address (rate limits, sign-in
 * throttling): it travels in `x-dme-legacy-client-ip`, believed only with this process's random
 * key (`x-dme-legacy-key`), which never leaves the process (the gateway strips every `x-dme-*`
 * header before proxying to a service).
 */
import http from 'node:http';
import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { Context } from 'koa';
import { ROUTES, type RouteId } from '@dme/contracts';
import { HttpProblem, unauthorized } from '@dme/platform';
import { segment } from './mapping';

export const LEGACY_KEY_HEADER = 'x-dme-legacy-key';
export const LEGACY_IP_HEADER = 'x-dme-legacy-client-ip';

const agent = new http.Agent({ keepAlive: true, maxSockets: 256, keepAliveMsecs: 10_000 });

/** Largest REST answer a legacy call reads. */
const MAX_ANSWER_BYTES = 32 * 1024 * 1024;
const TIMEOUT_MS = 30_000;

/** A REST answer of 400 or above: passed to the old client as it is (plus `message` and `error`). */
export class RestError extends Error {
  constructor(
    readonly status: number,
    readonly body: unknown,
    readonly headers: http.IncomingHttpHeaders,
  ) {
    super(`REST ${status}`);
  }
}

export interface RestAnswer {
  status: number;
  body: unknown;
  headers: http.IncomingHttpHeaders;
}

export interface RestCall {
  params?: Record<string, string>;
  query?: Record<string, string | undefined>;
  /** A JSON body, or raw bytes with their content type (multipart). */
  body?: unknown;
  raw?: { contentType: string; bytes: Buffer };
  headers?: Record<string, string>;
}

/** The signed-in caller, as GET /api/auth/me says. */
export interface Caller {
  user: { id: string; userType: string; status: string } & Record<string, unknown>;
  permissions: string[];
}

/** The per-process key that lets the gateway believe a loopback request's client address. */
export class LoopbackKey {
  private readonly key = randomBytes(32).toString('hex');

  get value(): string {
    return this.key;
  }

  /** The original client's address of a loopback request of this process, else undefined. */
  clientIp(ctx: Context): string | undefined {
    const sent = ctx.get(LEGACY_KEY_HEADER);
    const ip = ctx.get(LEGACY_IP_HEADER);
    if (!sent || !ip || sent.length !== this.key.length) return undefined;
    return timingSafeEqual(Buffer.from(sent), Buffer.from(this.key)) ? ip : undefined;
  }
}

/** The REST API as one legacy request sees it: its caller's cookie, its address, its request id. */
export class Rest {
  private readonly host: string;
  private readonly port: number;
  private caller: Promise<Caller | undefined> | undefined;
  /** Set-Cookie headers of the REST answers (sign-in), passed back to the old client. */
  readonly setCookies: string[] = [];

  constructor(
    private readonly ctx: Context,
    private readonly key: LoopbackKey,
    private readonly clientIp: string,
  ) {
    const socket = ctx.req.socket;
    let host = socket.localAddress ?? '127.0.0.1';
    if (host.startsWith('::ffff:')) host = host.slice(7);
    if (host === '::' || host === '0.0.0.0' || host === '') host = '127.0.0.1';
    this.host = host;
    this.port = socket.localPort ?? 0;
  }

  /** Calls a REST route by its id in the route table; a 4xx/5xx answer is thrown as RestError. */
  async call(id: RouteId, opts: RestCall = {}): Promise<RestAnswer> {
    const def = ROUTES[id];
    const path = def.path.replace(/:([A-Za-z0-9_]+)/g, (_, name: string) => {
      const v = opts.params?.[name];
      if (v === undefined) throw new Error(`legacy: ${id} needs the path parameter ${name}`);
      return segment(v);
    });
    const qs = new URLSearchParams();
    for (const [k, v] of Object.entries(opts.query ?? {})) if (v !== undefined) qs.append(k, v);
    const q = qs.toString();
    const answer = await this.send(def.method, q ? `${path}?${q}` : path, opts);
    if (answer.status >= 400) throw new RestError(answer.status, answer.body, answer.headers);
    return answer;
  }

  /** The signed-in caller (once per legacy request), or undefined when anonymous. */
  me(): Promise<Caller | undefined> {
    this.caller ??= (async () => {
      if (!this.ctx.get('cookie')) return undefined;
      try {
        const r = await this.call('authMe');
        return r.body as Caller;
      } catch (err) {
        if (err instanceof RestError && err.status === 401) return undefined;
        throw err;
      }
    })();
    return this.caller;
  }

  async requireMe(): Promise<Caller> {
    const me = await this.me();
    if (!me) throw unauthorized();
    return me;
  }

  private send(method: string, path: string, opts: RestCall): Promise<RestAnswer> {
    const headers: http.OutgoingHttpHeaders = {
      accept: 'application/json',
      [LEGACY_KEY_HEADER]: this.key.value,
      [LEGACY_IP_HEADER]: this.clientIp,
      'x-request-id': String(this.ctx.state.requestId ?? ''),
      ...opts.headers,
    };
    const cookie = this.ctx.get('cookie');
    if (cookie) headers.cookie = cookie;
    const ua = this.ctx.get('user-agent');
    if (ua) headers['user-agent'] = ua;
    let bytes: Buffer | undefined;
    if (opts.raw) {
      bytes = opts.raw.bytes;
      headers['content-type'] = opts.raw.contentType;
    } else if (opts.body !== undefined) {
      bytes = Buffer.from(JSON.stringify(opts.body), 'utf8');
      headers['content-type'] = 'application/json';
    }
    if (bytes) headers['content-length'] = bytes.length;
    return new Promise((resolve, reject) => {
      const unavailable = () => reject(new HttpProblem(503, 'The service is not available right now. Please try again in a moment.'));
      const req = http.request({ host: this.host, port: this.port, method, path, headers, agent, timeout: TIMEOUT_MS }, (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (c: Buffer) => {
          size += c.length;
          if (size > MAX_ANSWER_BYTES) {
            res.destroy();
            return;
          }
          chunks.push(c);
        });
        res.on('error', unavailable);
        res.on('aborted', unavailable);
        res.on('end', () => {
          if (!res.complete) return unavailable();
          for (const c of [res.headers['set-cookie'] ?? []].flat()) this.setCookies.push(c);
          const text = Buffer.concat(chunks).toString('utf8');
          let body: unknown;
          try {
            body = text ? JSON.parse(text) : undefined;
          } catch {
            body = undefined;
          }
          resolve({ status: res.statusCode ?? 502, body, headers: res.headers });
        });
      });
      req.on('timeout', () => req.destroy());
      req.on('error', unavailable);
      req.end(bytes);
    });
  }
}
