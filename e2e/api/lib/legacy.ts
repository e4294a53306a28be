/** Helpers of the legacy .php suite (legacy.test.ts): calls with a cookie, sign-in, waiting. */
import type { Json } from '@dme/testing';
import { call, sessionCookie, type Answer } from './api';
import { env } from './env';

export { call, sessionCookie, until, type Answer } from './api';

/** Signs in through /users/login.php; returns the cookie and the user. */
export async function legacyLogin(username: string, password = env.demoPassword): Promise<{ cookie: string; user: { id: string; userType: string } }> {
  const r = await call('POST', '/users/login.php', { body: { username, password } });
  const cookie = sessionCookie(r);
  if (r.status !== 200 || !cookie) throw new Error(`login.php as ${username}: ${r.status} ${JSON.stringify(r.body)}`);
  return { cookie, user: r.body.data };
}

/** A successful answer in the old envelope. */
export function expectOk(a: Answer, status: 200 | 201, what: string): Json {
  if (a.status !== status || a.body?.status !== status || a.body?.message !== 'success' || !('data' in a.body)) {
    throw new Error(`${what}: expected ${status} in the legacy envelope, got ${a.status} ${JSON.stringify(a.body).slice(0, 600)}`);
  }
  return a.body.data;
}

/** A legacy error: the REST status, problem+json, and message = error = detail (SPEC §7: uploads and reports read `error`). */
export function expectError(a: Answer, status: number, what: string): { detail: string; message: string; error: string; errors?: Array<{ field: string; message: string }> } {
  const type = a.headers.get('content-type') ?? '';
  if (
    a.status !== status ||
    !type.startsWith('application/problem+json') ||
    typeof a.body?.message !== 'string' ||
    a.body.message !== a.body.detail ||
    a.body.error !== a.body.detail ||
    a.body.status !== status
  ) {
    throw new Error(`${what}: expected a ${status} problem with message and error, got ${a.status} ${type} ${JSON.stringify(a.body).slice(0, 600)}`);
  }
  return a.body;
}
