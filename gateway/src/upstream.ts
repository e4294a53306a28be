import http, { type IncomingMessage } from 'node:http';
import type { Context } from 'koa';
import { BODY_MESSAGES, hasBody, HttpProblem } from '@dme/platform';

/** One keep-alive pool for every call to the services. */
export const agent = new http.Agent({ keepAlive: true, maxSockets: 512, keepAliveMsecs: 10_000 });

const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-authenticate',
  'proxy-authorization',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
]);

/** Answers up to this size (with a Content-Length) are read whole before they are passed on. */
const HOLD_WHOLE_MAX = 64 * 1024;

const unavailable = () => new HttpProblem(503, 'The service is not available right now. Please try again in a moment.');

/**
 * Streams the request to a service and its answer back (STACK P19: upstream and client errors
 * are handled, a client that disconnects mid-answer does not take the process down). A body over
 * `maxBody` bytes is cut off with 413 even when sent without a length. A request that meets a
 * kept-alive connection the service had just closed (a replica stopping, or its idle timeout) is
 * tried once more when sending it again cannot do anything twice: a request without a body, or
 * one with an Idempotency-Key (the service answers a repeat as it answered the first), whose body
 * is then read whole first so it can be sent again.
 */
export async function proxyTo(ctx: Context, base: URL, headers: http.OutgoingHttpHeaders, maxBody: number): Promise<void> {
  const bodiless = !hasBody(ctx.req);
  let whole: Buffer | undefined;
  if (!bodiless && ctx.get('idempotency-key')) {
    whole = await readWhole(ctx.req, maxBody);
    // The client went away while sending: there is no one to answer.
    if (!whole) return;
    delete headers['transfer-encoding'];
    headers['content-length'] = whole.length;
  }
  const body = whole;
  const attempt = (mayRetry: boolean): Promise<void> =>
    new Promise<void>((resolve, reject) => {
      let settled = false;
      // The client went away before the answer: there is no one to answer, and no error to report.
      let clientGone = false;
      const upstream = http.request(
        { hostname: base.hostname, port: base.port, method: ctx.method, path: ctx.url, headers, agent },
        (res) => {
          if (settled) {
            res.resume();
            return;
          }
          settled = true;
          res.on('error', () => undefined);
          ctx.status = res.statusCode ?? 502;
          for (const [name, value] of Object.entries(res.headers)) {
            if (value === undefined || HOP_BY_HOP.has(name)) continue;
            ctx.set(name, value as string | string[]);
          }
          const length = Number(res.headers['content-length'] ?? NaN);
          if (ctx.status === 204 || ctx.status === 304 || ctx.method === 'HEAD') {
            res.resume();
            ctx.body = null;
          } else if (length <= HOLD_WHOLE_MAX) {
            // A small answer (every JSON answer) is read whole: it is then compressed in one call,
            // and an answer cut off half-way is a clean 503 instead of a truncated body.
            const chunks: Buffer[] = [];
            const cutOff = () => (clientGone ? resolve() : reject(unavailable()));
            res.on('data', (c: Buffer) => chunks.push(c));
            res.on('end', () => {
              if (!res.complete) return cutOff();
              ctx.body = Buffer.concat(chunks);
              resolve();
            });
            res.on('aborted', cutOff);
            res.on('error', cutOff);
            return;
          } else {
            ctx.body = res;
          }
          resolve();
        },
      );
      upstream.on('error', (err: NodeJS.ErrnoException) => {
        if (settled) return;
        settled = true;
        if (clientGone) resolve();
        else if (mayRetry && (bodiless || body) && upstream.reusedSocket && err.code === 'ECONNRESET') resolve(attempt(false));
        else reject(unavailable());
      });
      const abandon = () => {
        clientGone = true;
        if (!upstream.destroyed) upstream.destroy();
      };
      ctx.req.on('close', () => {
        if (!ctx.req.complete) abandon();
      });
      ctx.res.on('close', () => {
        if (!ctx.res.writableFinished) abandon();
      });
      if (bodiless || body) {
        upstream.end(body);
        return;
      }
      let size = 0;
      const onData = (chunk: Buffer) => {
        size += chunk.length;
        if (size <= maxBody) return;
        ctx.req.off('data', onData);
        ctx.req.unpipe(upstream);
        ctx.req.pause();
        upstream.destroy();
        if (!settled) {
          settled = true;
          reject(new HttpProblem(413, BODY_MESSAGES.tooLarge));
        }
      };
      ctx.req.on('data', onData);
      ctx.req.pipe(upstream);
    });
  return attempt(true);
}

/**
 * A request's whole body, at most `maxBody` bytes (413 past that); undefined when the client went
 * away before sending all of it.
 */
function readWhole(req: IncomingMessage, maxBody: number): Promise<Buffer | undefined> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxBody) {
        req.off('data', onData);
        req.pause();
        reject(new HttpProblem(413, BODY_MESSAGES.tooLarge));
        return;
      }
      chunks.push(chunk);
    };
    req.on('data', onData);
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('close', () => {
      if (!req.complete) resolve(undefined);
    });
    req.on('error', () => resolve(undefined));
  });
}

/** A small JSON POST to a service (session resolution). */
export function postJson(base: URL, path: string, payload: unknown, headers: http.OutgoingHttpHeaders): Promise<{ status: number; body: unknown }> {
  const data = Buffer.from(JSON.stringify(payload));
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        hostname: base.hostname,
        port: base.port,
        method: 'POST',
        path,
        agent,
        headers: { ...headers, 'content-type': 'application/json', 'content-length': data.length },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('error', () => reject(unavailable()));
        res.on('end', () => {
          let body: unknown;
          try {
            body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
          } catch {
            body = undefined;
          }
          resolve({ status: res.statusCode ?? 502, body });
        });
      },
    );
    req.on('error', () => reject(unavailable()));
    req.end(data);
  });
}
