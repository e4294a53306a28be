/** Helpers of the legacy .php suite (legacy.test.ts): calls with a cookie, sign-in, waiting. */
import type { Json } from '@dme/testing';
import { env } from './env';

export interface Answer {
  status: number;
  headers: Headers;
  body: Json;
}

export async function call(
  method: string,
  path: string,
  opts: { cookie?: string; body?: unknown; form?: FormData; headers?: Record<string, string> } = {},
): Promise<Answer> {
  const headers: Record<string, string> = {
    ...(opts.body !== undefined ? { 'content-type': 'application/json' } : {}),
    ...(opts.cookie ? { cookie: opts.cookie } : {}),
    ...opts.headers,
  };
  const res = await fetch(`${env.baseUrl}${path}`, {
    method,
    headers,
    body: opts.form ?? (opts.body === undefined ? undefined : JSON.stringify(opts.body)),
  });
  const text = await res.text();
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = text;
  }
  return { status: res.status, headers: res.headers, body };
}

/** The session cookie (name=value) a sign-in answer sets. */
export function sessionCookie(a: Answer): string | undefined {
  const set = a.headers.getSetCookie().find((c) => c.startsWith('dme_session='));
  return set?.split(';')[0];
}

/** Signs in through /users/login.php; returns the cookie and the user. */
export async function legacyLogin(username: string, password = env.demoPassword): Promise<{ cookie: string; user: { id: string; userType: string } }> {
  const r = await call('POST', '/users/login.php', { body: { username, password } });
  const cookie = sessionCookie(r);
  if (r.status !== 200 || !cookie) throw new Error(`login.php as ${username}: ${r.status} ${JSON.stringify(r.body)}`);
  return { cookie, user: r.body.data };
}

export async function until<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 30_000): Promise<T> {
  const start = Date.now();
  while (Date.now() - start < timeoutMs) {
    const v = await probe().catch(() => undefined);
    if (v !== undefined) return v;
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`${what}: not within ${timeoutMs} ms`);
}

/** A successful answer in the old envelope. */
export function expectOk(a: Answer, status: 200 | 201, what: string): Json {
  if (a.status !== status || a.body?.status !== status || a.body?.message !== 'success' || !('data' in a.body)) {
    throw new Error(`${what}: expected ${status} in the legacy envelope, got ${a.status} ${JSON.stringify(a.body).slice(0, 600)}`);
  }
  return a.body.data;
}

/** A legacy error: the REST status, problem+json, and message = detail. */
export function expectError(a: Answer, status: number, what: string): { detail: string; message: string } {
  const type = a.headers.get('content-type') ?? '';
  if (a.status !== status || !type.startsWith('application/problem+json') || typeof a.body?.message !== 'string' || a.body.message !== a.body.detail || a.body.status !== status) {
    throw new Error(`${what}: expected a ${status} problem with message, got ${a.status} ${type} ${JSON.stringify(a.body).slice(0, 600)}`);
  }
  return a.body;
}
