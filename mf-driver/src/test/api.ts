import { vi } from 'vitest';

export interface Call {
  method: string;
  /** Path and query, e.g. "/api/orders?type=BUY&status=PENDING". */
  url: string;
  body: unknown;
}

type Reply = { status: number; body?: unknown; bytes?: Uint8Array<ArrayBuffer>; contentType?: string } | undefined;
type Handler = (call: Call) => Reply | Promise<Reply>;

/**
 * Replaces fetch for a UI test: each call is recorded and answered by the first handler that
 * replies (JSON, problem+json for errors, or bytes); unanswered calls get a 404 problem.
 */
export function mockApi(...handlers: Handler[]) {
  const calls: Call[] = [];
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const req = input instanceof Request ? input : new Request(new URL(String(input), window.location.href), init);
    const url = new URL(req.url, window.location.href);
    const text = req.method === 'GET' ? '' : await req.clone().text();
    const call: Call = { method: req.method.toUpperCase(), url: url.pathname + url.search, body: text ? JSON.parse(text) : undefined };
    calls.push(call);
    let reply: Reply;
    for (const h of handlers) {
      reply = await h(call);
      if (reply) break;
    }
    const r: NonNullable<Reply> = reply ?? problem(404, 'Not found.');
    if (r.bytes) return new Response(r.bytes, { status: r.status, headers: { 'content-type': r.contentType ?? 'application/octet-stream' } });
    const type = r.status >= 400 ? 'application/problem+json' : 'application/json';
    return new Response(JSON.stringify(r.body ?? {}), { status: r.status, headers: { 'content-type': type } });
  });
  vi.stubGlobal('fetch', fetchMock);
  return { calls, fetchMock };
}

/** A handler for one method + path (query ignored). */
export const on =
  (method: string, path: string, reply: Reply | ((call: Call) => Reply | Promise<Reply>)): Handler =>
  (call) =>
    call.method === method && call.url.split('?')[0] === path ? (typeof reply === 'function' ? reply(call) : reply) : undefined;

export const problem = (status: number, detail: string) => ({ status, body: { type: 'about:blank', title: 'Error', status, detail } });

export const query = (c: Call) => Object.fromEntries(new URL(c.url, 'http://x').searchParams);
