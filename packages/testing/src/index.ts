import { randomBytes } from 'node:crypto';
import { createServer as createNetServer, type AddressInfo } from 'node:net';
import { createServer, type RequestListener, type Server } from 'node:http';
import { jetstreamManager } from '@nats-io/jetstream';
import { answerClientErrors, dropDatabase, ensureDatabase, IDENTITY_HEADERS, namesOf, type NatsConnection } from '@dme/platform';
import type { UserType } from '@dme/contracts';

/**
 * A parsed JSON answer as tests read it: navigable without casts, each value read is then checked
 * by an assertion. The one place `any` is allowed (tests only, never product code).
 */
// oxlint-disable-next-line typescript/no-explicit-any
export type Json = any;

/** The PostgreSQL server tests use (the test runner sets TEST_DATABASE_URL). */
export function testServerUrl(): string {
  return process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
}

export function testNatsUrl(): string {
  return process.env.TEST_NATS_URL ?? process.env.NATS_URL ?? 'nats://127.0.0.1:4222';
}

/**
 * A NATS prefix (NATS_PREFIX) of a test file's own: connections made with it see none of the
 * core subjects other files use at the same time (the unit stage runs several files at once), e.g.
 * another file's logouts on the session-revocation subject. Close them with closePrefixedNats.
 */
export function testNatsPrefix(name: string): string {
  return runName(name, 16);
}

/** A name of this run's own: `t_<name's letters and digits, lower case, at most keep>_<8 random hex>`. */
function runName(name: string, keep?: number): string {
  return `t_${name.replace(/[^a-z0-9]/gi, '').toLowerCase().slice(0, keep)}_${randomBytes(4).toString('hex')}`;
}

/**
 * Closes a test's NATS connection made with a prefix of its own (NATS_PREFIX), deleting that
 * prefix's event and dead-letter streams first: nothing of the test is left on the server.
 */
export async function closePrefixedNats(nc: NatsConnection | undefined): Promise<void> {
  if (!nc) return;
  const jsm = await jetstreamManager(nc);
  await jsm.streams.delete(namesOf(nc).eventStream).catch(() => undefined);
  await jsm.streams.delete(namesOf(nc).deadLetterStream).catch(() => undefined);
  await nc.drain();
}

export const TEST_INTERNAL_TOKEN = 'test-internal-token-0123456789abcdef';

/** A fresh database for one test file; drop() removes it. */
export async function createTestDatabase(prefix: string): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = runName(prefix);
  const url = new URL(testServerUrl());
  url.pathname = `/${name}`;
  await ensureDatabase(url.toString());
  return { url: url.toString(), drop: () => dropDatabase(url.toString()) };
}

/** Ports this process has handed out: none is handed out twice (the first may not be bound yet). */
const handedOut = new Set<number>();

/**
 * A TCP port free on 127.0.0.1 right now, and never one this process handed out before: two
 * calls made before either port is bound would otherwise get the same port now and then, and
 * two processes of a test stack would share it (one answering for the other).
 */
export async function freePort(): Promise<number> {
  for (;;) {
    const port = await new Promise<number>((done, fail) => {
      const srv = createNetServer();
      srv.listen(0, '127.0.0.1', () => {
        const { port } = srv.address() as AddressInfo;
        srv.close(() => done(port));
      });
      srv.on('error', fail);
    });
    if (handedOut.has(port)) continue;
    handedOut.add(port);
    return port;
  }
}

export interface TestServer {
  url: string;
  close: () => Promise<void>;
}

export async function listen(app: { callback: () => RequestListener }): Promise<TestServer> {
  const server: Server = createServer(app.callback());
  server.listen(0, '127.0.0.1');
  answerClientErrors(server);
  await new Promise<void>((resolve) => server.once('listening', () => resolve()));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export interface Caller {
  userId: string;
  userType: UserType;
  username?: string;
  /** The person's full name, forwarded as the gateway does (URI-encoded). */
  name?: string;
}

/**
 * Calls a service as the gateway would: with the internal token and, when a caller is given,
 * the identity headers.
 */
export function serviceClient(baseUrl: string, token = TEST_INTERNAL_TOKEN) {
  async function call(method: string, path: string, opts: { as?: Caller; body?: unknown; headers?: Record<string, string> } = {}) {
    const headers: Record<string, string> = { [IDENTITY_HEADERS.internalToken]: token, ...opts.headers };
    if (opts.as) {
      headers[IDENTITY_HEADERS.userId] = opts.as.userId;
      headers[IDENTITY_HEADERS.userType] = opts.as.userType;
      headers[IDENTITY_HEADERS.username] = opts.as.username ?? 'tester';
      if (opts.as.name) headers[IDENTITY_HEADERS.name] = encodeURIComponent(opts.as.name);
    }
    let body: string | undefined;
    if (opts.body !== undefined) {
      headers['content-type'] = 'application/json';
      body = typeof opts.body === 'string' ? opts.body : JSON.stringify(opts.body);
    }
    const res = await fetch(`${baseUrl}${path}`, { method, headers, body });
    const text = await res.text();
    let json: Json;
    try {
      json = text ? JSON.parse(text) : undefined;
    } catch {
      json = undefined;
    }
    return { status: res.status, headers: res.headers, body: json, text };
  }
  return {
    call,
    get: (path: string, opts?: Parameters<typeof call>[2]) => call('GET', path, opts),
    post: (path: string, body?: unknown, opts?: Parameters<typeof call>[2]) => call('POST', path, { ...opts, body }),
    patch: (path: string, body?: unknown, opts?: Parameters<typeof call>[2]) => call('PATCH', path, { ...opts, body }),
    del: (path: string, opts?: Parameters<typeof call>[2]) => call('DELETE', path, opts),
  };
}

/** Waits until check() returns a truthy value or the time runs out. */
export async function eventually<T>(check: () => Promise<T | undefined | false> | T | undefined | false, timeoutMs = 5000, stepMs = 50): Promise<T> {
  const until = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const v = await check();
      if (v) return v;
    } catch (err) {
      last = err;
    }
    if (Date.now() > until) throw new Error(`eventually: timed out${last ? `: ${String(last)}` : ''}`);
    await new Promise((r) => setTimeout(r, stepMs));
  }
}

/** A tiny valid PNG (1×1) and JPEG, for upload tests. */
export const TINY_PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);

/** A multipart/form-data body that uploads TINY_PNG as the `image` field, with its content type. */
export function pngUploadForm(boundary = 'dme-test'): { contentType: string; body: Buffer } {
  return {
    contentType: `multipart/form-data; boundary=${boundary}`,
    body: Buffer.concat([
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="image"; filename="a.png"\r\nContent-Type: image/png\r\n\r\n`),
      TINY_PNG,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]),
  };
}
export const TINY_JPEG = Buffer.from(
  '/9j/4AAQSkZJRgABAQEASABIAAD/2wBDAP//////////////////////////////////////////////////////////////////////////////////////wgALCAABAAEBAREA/8QAFBABAAAAAAAAAAAAAAAAAAAAAP/aAAgBAQABPxA=',
  'base64',
);

/** A person's fields that pass every register rule. */
export function validPerson(overrides: Record<string, unknown> = {}) {
  const n = randomBytes(3).toString('hex');
  return {
    username: `user_${n}`,
    password: 'correct-horse-9',
    firstName: 'Maria',
    middleName: '',
    lastName: 'Santos',
    suffix: '',
    birthDate: '1990-05-17',
    gender: 'FEMALE',
    contactNumber: '+63 917 555 0101',
    email: `maria.${n}@example.com`,
    address: '12 Rizal St',
    city: 'Makati',
    state: 'Metro Manila',
    zipcode: '121000',
    image: '/api/uploads/a1b2c3d4e5f6a7b8c9d0e1f2a3b4c5d6.png',
    ...overrides,
  };
}
export * from './raw';
export * from './limits';
export * from './plans';
