/**
 * A raw HTTP client (node:http) for the system suite: it sends exactly the path, headers and bytes
 * it is given (fetch would normalise the URL, refuse some headers and pick its own framing), with a
 * hard timeout, so that a request the server leaves hanging is a result and not a stuck test.
 */
import http from 'node:http';
import { hostOf } from './host';
import { RawConnection } from './socket';

export interface RawRequest {
  method: string;
  /** Path and query exactly as sent (already percent-encoded where needed). */
  path: string;
  headers?: Record<string, string>;
  body?: Buffer;
}

export type RawResponse =
  | { kind: 'answer'; status: number; headers: http.IncomingHttpHeaders; body: Buffer; ms: number }
  | { kind: 'timeout'; ms: number }
  | { kind: 'error'; message: string; ms: number };

export { hostOf };

/** Bodies this large go over a hand-driven socket (see sendLarge). */
const LARGE_BODY = 1024 * 1024;

export function makeAgent(maxSockets: number): http.Agent {
  return new http.Agent({ keepAlive: true, maxSockets });
}

export function send(baseUrl: string, req: RawRequest, opts: { timeoutMs?: number; agent?: http.Agent } = {}): Promise<RawResponse> {
  if (req.body && req.body.length >= LARGE_BODY) return sendLarge(baseUrl, req, opts.timeoutMs ?? 15_000);
  const started = Date.now();
  const timeoutMs = opts.timeoutMs ?? 15_000;
  const { hostname, port } = hostOf(baseUrl);
  return new Promise((resolve) => {
    let done = false;
    const finish = (r: RawResponse) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      resolve(r);
    };
    const headers: Record<string, string> = { ...req.headers };
    if (req.body !== undefined && !Object.keys(headers).some((h) => h.toLowerCase() === 'content-length')) {
      headers['content-length'] = String(req.body.length);
    }
    let out: http.ClientRequest;
    try {
      out = http.request({ hostname, port, method: req.method, path: req.path, headers, agent: opts.agent ?? false });
    } catch (err) {
      resolve({ kind: 'error', message: `client refused to send: ${(err as Error).message}`, ms: 0 });
      return;
    }
    const timer = setTimeout(() => {
      finish({ kind: 'timeout', ms: Date.now() - started });
      out.destroy();
    }, timeoutMs);
    out.on('response', (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () =>
        finish({ kind: 'answer', status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks), ms: Date.now() - started }),
      );
      res.on('error', (err) => finish({ kind: 'error', message: `response aborted: ${err.message}`, ms: Date.now() - started }));
      res.on('aborted', () => finish({ kind: 'error', message: 'response aborted', ms: Date.now() - started }));
    });
    out.on('error', (err) => finish({ kind: 'error', message: err.message, ms: Date.now() - started }));
    if (req.body !== undefined) out.end(req.body);
    else out.end();
  });
}

export function json(r: RawResponse): unknown {
  if (r.kind !== 'answer') return undefined;
  try {
    return JSON.parse(r.body.toString('utf8'));
  } catch {
    return undefined;
  }
}

/** Is this answer an RFC 9457 problem document with a `detail`? Returns the reason when not. */
export function problemDefect(r: RawResponse): string | undefined {
  if (r.kind !== 'answer') return `no answer (${r.kind})`;
  const type = String(r.headers['content-type'] ?? '');
  if (!type.toLowerCase().startsWith('application/problem+json')) return `content-type is "${type || '(none)'}", not application/problem+json`;
  const body = json(r) as { status?: unknown; detail?: unknown; title?: unknown } | undefined;
  if (!body || typeof body !== 'object') return 'body is not a JSON object';
  if (typeof body.detail !== 'string' || body.detail.length === 0) return 'problem has no `detail`';
  if (body.status !== undefined && body.status !== r.status) return `problem status ${String(body.status)} differs from HTTP status ${r.status}`;
  return undefined;
}

export function cookieFrom(r: RawResponse, name: string): string | undefined {
  if (r.kind !== 'answer') return undefined;
  for (const c of r.headers['set-cookie'] ?? []) {
    const m = new RegExp(`^${name}=([^;]*)`).exec(c);
    if (m && m[1]) return m[1];
  }
  return undefined;
}

/**
 * A large body over its own connection: node:http reports a write error (EPIPE) and drops an early
 * answer the server did send (a 413 before the body is read), so this reads whatever answer
 * arrives while the body is still being written. If the server resets the connection before its
 * answer could be read, that is reported as no answer.
 */
async function sendLarge(baseUrl: string, req: RawRequest, timeoutMs: number): Promise<RawResponse> {
  const started = Date.now();
  let conn: RawConnection;
  try {
    conn = await RawConnection.open(baseUrl);
  } catch (err) {
    return { kind: 'error', message: (err as Error).message, ms: Date.now() - started };
  }
  try {
    const headers: Record<string, string> = { host: 'localhost', ...req.headers };
    if (!Object.keys(headers).some((h) => h.toLowerCase() === 'content-length')) headers['content-length'] = String(req.body?.length ?? 0);
    const head = `${req.method} ${req.path} HTTP/1.1\r\n${Object.entries(headers).map(([k, v]) => `${k}: ${v}`).join('\r\n')}\r\n\r\n`;
    void conn.write(Buffer.concat([Buffer.from(head, 'latin1'), req.body ?? Buffer.alloc(0)]));
    const out = await conn.read(timeoutMs);
    const ms = Date.now() - started;
    if (out.kind === 'answer') return { kind: 'answer', status: out.status, headers: out.headers, body: out.body, ms };
    if (out.kind === 'silent') return { kind: 'timeout', ms };
    return { kind: 'error', message: `closed without an answer (${out.reason})`, ms };
  } finally {
    conn.destroy();
  }
}
