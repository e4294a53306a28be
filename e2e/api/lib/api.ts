/**
 * Calls through the running stack's gateway for the system suite (REST and the legacy .php calls):
 * JSON in and out with a session cookie, sign-in, and waiting for what events bring about.
 */
import { expect } from 'vitest';
import type { Json } from '@dme/testing';
import { env, TINY_PNG } from './env';

export interface Answer {
  status: number;
  headers: Headers;
  /** The JSON answer parsed, else its text. */
  body: Json;
  /** The answer as it came (a PDF, a PNG). */
  bytes: Buffer;
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
  const bytes = Buffer.from(await res.arrayBuffer());
  const text = bytes.toString('utf8');
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = text;
  }
  return { status: res.status, headers: res.headers, body, bytes };
}

/** The session cookie (name=value) a sign-in answer sets. */
export function sessionCookie(a: Answer): string | undefined {
  const set = a.headers.getSetCookie().find((c) => c.startsWith('dme_session='));
  return set?.split(';')[0];
}

/** Polls `probe` until it answers something; the last error it threw is told if it never does. */
export async function until<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 30_000): Promise<T> {
  const start = Date.now();
  let last: unknown;
  while (Date.now() - start < timeoutMs) {
    try {
      const v = await probe();
      if (v !== undefined) return v;
    } catch (err) {
      last = err;
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`${what}: not within ${timeoutMs} ms${last ? ` (${String(last)})` : ''}`);
}

/** Signs in through POST /api/auth/login; returns the session cookie (name=value). */
export async function signIn(username: string, password = env.demoPassword): Promise<string> {
  const r = await call('POST', '/api/auth/login', { body: { username, password } });
  expect(r.status, `sign in ${username}`).toBe(200);
  const cookie = sessionCookie(r);
  expect(cookie, `sign in ${username}: a session cookie`).toBeDefined();
  return cookie!;
}

/** Uploads the tiny PNG (as `cookie`'s session, or signed out as a registering visitor does); answers its imagePath. */
export async function uploadImage(cookie?: string): Promise<string> {
  const form = new FormData();
  form.append('image', new Blob([new Uint8Array(TINY_PNG)], { type: 'image/png' }), 'a.png');
  const up = await call('POST', '/api/uploads', { form, cookie });
  expect(up.status, JSON.stringify(up.body)).toBe(201);
  return (up.body as { imagePath: string }).imagePath;
}
