import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createHttpApp, createLogger } from '@dme/platform';
import { listen, type TestServer } from '@dme/testing';
import { proxyTo } from './upstream';

/*
 * The proxy's second try (STACK P19, issue 14's follow-up): a kept-alive connection a service had
 * just closed (a replica stopping, or its idle timeout) fails the request sent on it before the
 * service read it. The stand-in service here closes a reused connection as soon as a request
 * arrives on it, once: what a stopping replica does to the connection the gateway reuses.
 */
let upstream: Server;
let upstreamUrl: URL;
let proxy: TestServer;
/** Requests the service received: method, Idempotency-Key, body, and whether it dropped them. */
let seen: Array<{ method: string; key: string | undefined; body: string; dropped: boolean }> = [];
let dropNextReused = false;
const requestsOn = new WeakMap<Socket, number>();

beforeAll(async () => {
  upstream = createServer((req: IncomingMessage, res: ServerResponse) => {
    const n = (requestsOn.get(req.socket) ?? 0) + 1;
    requestsOn.set(req.socket, n);
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const entry = { method: req.method!, key: req.headers['idempotency-key'] as string | undefined, body: Buffer.concat(chunks).toString(), dropped: false };
      seen.push(entry);
      if (n > 1 && dropNextReused) {
        dropNextReused = false;
        entry.dropped = true;
        req.socket.destroy();
        return;
      }
      res.writeHead(req.method === 'POST' ? 201 : 200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ echo: entry.body }));
    });
  });
  upstream.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
  upstreamUrl = new URL(`http://127.0.0.1:${(upstream.address() as AddressInfo).port}`);
  const app = createHttpApp({ name: 'proxy-test', logger: createLogger('proxy-test', 'silent'), parseJson: false });
  app.use((ctx) => proxyTo(ctx, upstreamUrl, { ...ctx.headers, host: upstreamUrl.host }, 1024));
  proxy = await listen(app);
});

afterAll(async () => {
  await proxy?.close();
  upstream?.closeAllConnections();
  await new Promise<void>((resolve) => upstream?.close(() => resolve()));
});

beforeEach(() => {
  seen = [];
  dropNextReused = false;
});

/** A first request leaves a kept-alive connection in the gateway's pool; the next one reuses it. */
async function warm(): Promise<void> {
  expect((await fetch(`${proxy.url}/warm`)).status).toBe(200);
}

const post = (headers: Record<string, string> = {}) =>
  fetch(`${proxy.url}/api/orders`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify({ type: 'BUY', n: 1 }) });

describe('a request that meets a connection the service had just closed', () => {
  it('a POST with an Idempotency-Key is sent again, whole, on a new connection', async () => {
    await warm();
    dropNextReused = true;
    const res = await post({ 'idempotency-key': 'k-1' });
    expect(res.status).toBe(201);
    expect(await res.json()).toEqual({ echo: '{"type":"BUY","n":1}' });
    const posts = seen.filter((s) => s.method === 'POST');
    expect(posts.map((p) => [p.key, p.body, p.dropped])).toEqual([
      ['k-1', '{"type":"BUY","n":1}', true],
      ['k-1', '{"type":"BUY","n":1}', false],
    ]);
  });

  it('a POST without one is not (it could do its work twice): 503, the client may try again', async () => {
    await warm();
    dropNextReused = true;
    const res = await post();
    expect(res.status).toBe(503);
    expect(seen.filter((s) => s.method === 'POST')).toHaveLength(1);
  });

  it('a GET is sent again', async () => {
    await warm();
    dropNextReused = true;
    expect((await fetch(`${proxy.url}/again`)).status).toBe(200);
    expect(seen.filter((s) => s.method === 'GET').map((s) => s.dropped)).toEqual([false, true, false]);
  });

  it('an idempotent POST over the size limit is 413 and never reaches the service', async () => {
    const res = await fetch(`${proxy.url}/api/orders`, { method: 'POST', headers: { 'content-type': 'application/json', 'idempotency-key': 'big' }, body: JSON.stringify({ note: 'x'.repeat(2000) }) });
    expect(res.status).toBe(413);
    expect(seen.filter((s) => s.method === 'POST')).toHaveLength(0);
  });
});
