import http, { type OutgoingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { listenHttp, type HttpApp } from './http';

/** How long a rehearsal may take at most, how many requests it sends at most, and how many at a time. */
export interface RehearsalOptions {
  budgetMs: number;
  requests: number;
  concurrency: number;
}

/** What a rehearsal did: requests answered, how long it took, and their answers' statuses (0: no answer). */
export interface Rehearsal {
  requests: number;
  ms: number;
  statuses: Record<number, number>;
}

/** One request of a rehearsal. */
export interface RehearsalRequest {
  method: string;
  path: string;
  headers?: OutgoingHttpHeaders;
  body?: string;
}

/**
 * Sends requests through an app on a loopback port of its own before the process listens for
 * real (issue 30, part 3): a process's first requests run every function of their path for the
 * first time (interpreted, each first call of Node's HTTP server, of the database driver, ...),
 * and the first customers after a start waited for that. The requests are the caller's, and must
 * change nothing (a lookup of something that does not exist, or an app whose services are
 * stand-ins). Stops at `budgetMs` or `requests`, whichever comes first; never fails the start
 * (an answer that does not come counts as status 0).
 */
export async function rehearse(app: HttpApp, next: (i: number) => RehearsalRequest, opts: RehearsalOptions): Promise<Rehearsal> {
  const started = performance.now();
  const statuses: Record<number, number> = {};
  if (opts.requests <= 0 || opts.budgetMs <= 0) return { requests: 0, ms: 0, statuses };
  const { port, close } = await onLoopback(app);
  const agent = new http.Agent({ keepAlive: true, maxSockets: opts.concurrency });
  const deadline = started + opts.budgetMs;
  let sent = 0;
  let done = 0;
  try {
    await Promise.all(
      Array.from({ length: Math.max(1, opts.concurrency) }, async () => {
        while (sent < opts.requests && performance.now() < deadline) {
          const status = await send(port, agent, next(sent++), deadline);
          statuses[status] = (statuses[status] ?? 0) + 1;
          done++;
        }
      }),
    );
  } finally {
    agent.destroy();
    await close();
  }
  return { requests: done, ms: performance.now() - started, statuses };
}

/** A rehearsal as the "listening" log line reports it. */
export const rehearsalLog = (r: Rehearsal) => ({ requests: r.requests, ms: Math.round(r.ms), statuses: r.statuses });

/**
 * Serves an app on a port of its own on the loopback interface (a rehearsal's app, or stand-ins
 * of other processes); `close` ends it with its open connections at once.
 */
export async function onLoopback(app: HttpApp): Promise<{ port: number; url: string; close: () => Promise<void> }> {
  const server = await listenHttp(app, 0, '127.0.0.1');
  const port = (server.address() as AddressInfo).port;
  return {
    port,
    url: `http://127.0.0.1:${port}`,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

function send(port: number, agent: http.Agent, r: RehearsalRequest, deadline: number): Promise<number> {
  return new Promise((resolve) => {
    const body = r.body === undefined ? undefined : Buffer.from(r.body);
    const req = http.request(
      {
        host: '127.0.0.1',
        port,
        method: r.method,
        path: r.path,
        agent,
        headers: { ...r.headers, ...(body ? { 'content-length': body.length } : {}) },
        // An answer that does not come before the deadline is not waited for.
        timeout: Math.max(1, deadline - performance.now()) + 1000,
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
        res.on('error', () => resolve(0));
      },
    );
    req.on('timeout', () => req.destroy());
    req.on('error', () => resolve(0));
    req.end(body);
  });
}
