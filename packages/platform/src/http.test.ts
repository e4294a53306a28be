import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listen, rawExchange, type TestServer } from '@dme/testing';
import { createHttpApp, parseJsonBody, toHttpProblem } from './http';
import { HttpProblem } from './errors';
import { createLogger } from './logger';

let server: TestServer;
let handled = 0;
beforeAll(async () => {
  const app = createHttpApp({ name: 'http-test', logger: createLogger('http-test', 'silent') });
  app.use(async (ctx) => {
    handled++;
    ctx.body = { got: (ctx.request as { body?: unknown }).body ?? null };
  });
  server = await listen(app);
});
afterAll(() => server?.close());

const problemOf = (e: unknown) => (e instanceof HttpProblem ? `${e.status} ${e.detail}` : String(e));
const refusal = (raw: string | Buffer) => {
  try {
    parseJsonBody(Buffer.isBuffer(raw) ? raw : Buffer.from(raw));
    return 'accepted';
  } catch (e) {
    return problemOf(e);
  }
};

describe('JSON request bodies', () => {
  it('refuses invalid JSON, invalid UTF-8, deep nesting and prototype keys with a 400 that says so', () => {
    expect(refusal('{"a":')).toBe('400 The request body is not valid JSON.');
    expect(refusal(Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xff, 0x22, 0x7d]))).toBe('400 The request body is not valid UTF-8 text.');
    expect(refusal(Buffer.from('{"a":"\xed\xa0\x80"}', 'latin1'))).toBe('400 The request body is not valid UTF-8 text.');
    expect(refusal(`${'['.repeat(65)}${']'.repeat(65)}`)).toBe('400 The request body is nested too deeply.');
    expect(refusal(`${'['.repeat(64)}${']'.repeat(64)}`)).toBe('accepted');
    expect(refusal('{"a":{"__proto__":{"admin":true}}}')).toMatch(/^400 .*__proto__/);
    expect(refusal('{"constructor":{"prototype":{"admin":true}}}')).toMatch(/^400 .*constructor/);
    expect(refusal('{"constructor":"fine","text":"[[[[{{{{ in a string"}')).toBe('accepted');
    expect(refusal('{"name":"Zoë 😀"}')).toBe('accepted');
  });

  it('a body over the limit is refused with 413 that the client receives, and the connection ends cleanly', async () => {
    const body = JSON.stringify({ x: 'é'.repeat(100_000) });
    const before = handled;
    const ex = await rawExchange(server.url, [
      `POST /x HTTP/1.1\r\nHost: x\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\n\r\n`,
      body,
      'GET /health/live HTTP/1.1\r\nHost: x\r\n\r\n',
    ], { expect: 2 });
    expect(ex.statuses[0]).toBe(413);
    expect(ex.text).toContain('application/problem+json');
    expect(ex.text).toMatch(/connection: close/i);
    expect(ex.hung).toBe(false);
    expect(ex.closed).toBe(true);
    expect(handled).toBe(before);
  });

  it('a body announced bigger than the limit is refused before it is read, and the 413 still arrives', async () => {
    const huge = Buffer.alloc(4 * 1024 * 1024, 0x61);
    const ex = await rawExchange(server.url, [`POST /x HTTP/1.1\r\nHost: x\r\ncontent-type: application/json\r\ncontent-length: ${huge.length}\r\n\r\n`, huge], { timeoutMs: 8000 });
    expect(ex.statuses[0]).toBe(413);
    expect(ex.hung).toBe(false);
  });

  it('requests answered at once (a health check) and complete bodies keep the connection alive', async () => {
    const ex = await rawExchange(server.url, [
      'GET /health/live HTTP/1.1\r\nHost: x\r\n\r\n',
      'POST /x HTTP/1.1\r\nHost: x\r\ncontent-type: application/json\r\ncontent-length: 2\r\n\r\n{}',
      'GET /health/live HTTP/1.1\r\nHost: x\r\n\r\n',
    ], { expect: 3 });
    expect(ex.statuses).toEqual([200, 200, 200]);
    expect(ex.text).not.toMatch(/connection: close/i);
  });

  it('a compressed body is 415 and a complete JSON body keeps the connection alive', async () => {
    const ex = await rawExchange(server.url, [
      'POST /x HTTP/1.1\r\nHost: x\r\ncontent-type: application/json\r\ncontent-encoding: gzip\r\ncontent-length: 4\r\n\r\nnope',
    ]);
    expect(ex.statuses[0]).toBe(415);
    const ok = await rawExchange(server.url, [
      'POST /x HTTP/1.1\r\nHost: x\r\ncontent-type: application/json\r\ncontent-length: 7\r\n\r\n{"a":1}',
      'GET /health/live HTTP/1.1\r\nHost: x\r\n\r\n',
    ], { expect: 2 });
    expect(ex.hung).toBe(false);
    expect(ok.statuses).toEqual([200, 200]);
    expect(ok.text).toContain('{"got":{"a":1}}');
  });
});

describe('errors as answers', () => {
  it('a PostgreSQL deadlock or serialization failure (also wrapped) is 503 with Retry-After, not 500', () => {
    for (const err of [Object.assign(new Error('deadlock detected'), { code: '40P01' }), { message: 'x', cause: { code: '40001' } }]) {
      const p = toHttpProblem(err);
      expect(p.status).toBe(503);
      expect(p.headers).toEqual({ 'Retry-After': '1' });
      expect(p.toProblem().detail).toMatch(/try again/);
    }
    expect(toHttpProblem(new Error('boom')).status).toBe(500);
  });
});
