import http from 'node:http';
import type { Context } from 'koa';
import { HttpProblem } from '@dme/platform';

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

const unavailable = () => new HttpProblem(503, 'The service is not available right now. Please try again in a moment.');

/**
 * Streams the request to a service and its answer back (STACK P19: upstream and client errors
 * are handled, a client that disconnects mid-answer does not take the process down).
 */
export function proxyTo(ctx: Context, base: URL, headers: http.OutgoingHttpHeaders, body?: Buffer): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    let settled = false;
    // The client went away before the answer: there is no one to answer, and no error to report.
    let clientGone = false;
    const upstream = http.request(
      { hostname: base.hostname, port: base.port, method: ctx.method, path: ctx.url, headers, agent },
      (res) => {
        settled = true;
        res.on('error', () => undefined);
        ctx.status = res.statusCode ?? 502;
        for (const [name, value] of Object.entries(res.headers)) {
          if (value === undefined || HOP_BY_HOP.has(name)) continue;
          ctx.set(name, value as string | string[]);
        }
        if (ctx.status === 204 || ctx.status === 304 || ctx.method === 'HEAD') {
          res.resume();
          ctx.body = null;
        } else {
          ctx.body = res;
        }
        resolve();
      },
    );
    upstream.on('error', () => {
      if (!settled) {
        settled = true;
        if (clientGone) resolve();
        else reject(unavailable());
      }
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
    if (body !== undefined) upstream.end(body);
    else if (ctx.req.readableEnded) upstream.end();
    else ctx.req.pipe(upstream);
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

/** Reads a small request body fully (used where the gateway must look inside, e.g. sign-in). */
export async function readBody(ctx: Context, limit: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of ctx.req) {
    size += (chunk as Buffer).length;
    if (size > limit) throw new HttpProblem(413, 'The request body is too large.');
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}
