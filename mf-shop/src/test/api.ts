import { vi } from 'vitest';

type Reply = { status: number; body?: unknown };

/**
 * Replaces fetch: GET paths (query ignored) answer from `routes` as JSON; anything else gets a
 * problem+json 404. Returns the requested paths.
 */
export function stubApi(routes: Record<string, Reply>) {
  const paths: string[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      const req = input instanceof Request ? input : new Request(new URL(String(input), window.location.href), init);
      const path = new URL(req.url, window.location.href).pathname;
      paths.push(path);
      const reply = req.method === 'GET' ? routes[path] : undefined;
      const { status, body } = reply ?? { status: 404, body: { type: 'about:blank', title: 'Not Found', status: 404, detail: 'Not found.' } };
      return new Response(JSON.stringify(body ?? {}), { status, headers: { 'content-type': status >= 400 ? 'application/problem+json' : 'application/json' } });
    }),
  );
  return paths;
}
