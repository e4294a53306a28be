import { vi } from 'vitest';

type Reply = { status: number; body?: unknown };
/** A reply, or one computed from the request's JSON body (e.g. to change what a later GET answers). */
type Route = Reply | ((body: unknown) => Reply);

export interface ApiCall {
  method: string;
  path: string;
  body: unknown;
}

/**
 * Replaces fetch: `routes` answer as JSON by path (query ignored); a plain path answers GET, a
 * "METHOD /path" key (e.g. "POST /api/my/orders/1/requests") answers that method. Anything else
 * gets a problem+json 404. Returns the requested paths; `calls` has each call with its JSON body.
 */
export function stubApi(routes: Record<string, Route>) {
  const paths: string[] = [];
  const calls: ApiCall[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      const req = input instanceof Request ? input : new Request(new URL(String(input), window.location.href), init);
      const path = new URL(req.url, window.location.href).pathname;
      const text = req.method === 'GET' ? '' : await req.text();
      const body: unknown = text ? JSON.parse(text) : undefined;
      paths.push(path);
      calls.push({ method: req.method, path, body });
      const route = req.method === 'GET' ? (routes[path] ?? routes[`GET ${path}`]) : routes[`${req.method} ${path}`];
      const reply = typeof route === 'function' ? route(body) : route;
      const { status, body: out } = reply ?? { status: 404, body: { type: 'about:blank', title: 'Not Found', status: 404, detail: 'Not found.' } };
      return new Response(JSON.stringify(out ?? {}), { status, headers: { 'content-type': status >= 400 ? 'application/problem+json' : 'application/json' } });
    }),
  );
  return Object.assign(paths, { calls });
}
