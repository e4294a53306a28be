import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { closeHttpGracefully, createHttpApp, listenHttp } from './http';
import { createLogger } from './logger';

/** GET over a keep-alive agent; resolves with the status and body, or the client-side error code. */
function get(port: number, path: string, agent: http.Agent): Promise<{ status: number; body: string } | { error: string }> {
  return new Promise((resolve) => {
    const req = http.get({ host: '127.0.0.1', port, path, agent }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      res.on('error', (err: NodeJS.ErrnoException) => resolve({ error: err.code ?? err.message }));
    });
    req.on('error', (err: NodeJS.ErrnoException) => resolve({ error: err.code ?? err.message }));
  });
}

/** Answers every path with its name; `/slow` takes 600 ms. */
function echoApp() {
  const app = createHttpApp({ name: 'shutdown-test', logger: createLogger('shutdown-test', 'silent') });
  app.use(async (ctx) => {
    if (ctx.path === '/slow') await new Promise((r) => setTimeout(r, 600));
    ctx.body = { path: ctx.path };
  });
  return app;
}

describe('graceful HTTP shutdown (issue 14)', () => {
  it('answers the requests it accepted, refuses new connections, and closes idle keep-alive connections at once', async () => {
    const app = echoApp();
    // keepAliveTimeout is 65 s here (listenHttp): a close that waited for idle connections would hang.
    const server = await listenHttp(app, 0, '127.0.0.1');
    const { port } = server.address() as AddressInfo;
    const agent = new http.Agent({ keepAlive: true, maxSockets: 10 });
    try {
      // An idle keep-alive connection, and two requests in flight when the stop begins.
      expect(await get(port, '/warm', agent)).toMatchObject({ status: 200 });
      const inFlight = [get(port, '/slow', agent), get(port, '/slow', agent)];
      await new Promise((r) => setTimeout(r, 100));
      const started = Date.now();
      const closed = closeHttpGracefully(server, 5000);

      const answers = await Promise.all(inFlight);
      expect(answers).toEqual([
        { status: 200, body: '{"path":"/slow"}' },
        { status: 200, body: '{"path":"/slow"}' },
      ]);
      await closed;
      // Done when the last answer went out, not after keepAliveTimeout or the 5 s limit.
      expect(Date.now() - started).toBeLessThan(2500);
      expect(await get(port, '/late', new http.Agent())).toEqual({ error: 'ECONNREFUSED' });
    } finally {
      agent.destroy();
      server.closeAllConnections();
    }
  });

  it('answers /health/ready with 503 "stopping" from the moment the stop begins, while liveness stays 200 and accepted requests finish', async () => {
    const app = echoApp();
    const server = await listenHttp(app, 0, '127.0.0.1');
    const { port } = server.address() as AddressInfo;
    const agent = new http.Agent({ keepAlive: true, maxSockets: 10 });
    try {
      expect(await get(port, '/health/ready', agent)).toEqual({ status: 200, body: expect.stringContaining('"status":"ready"') });
      const inFlight = get(port, '/slow', agent);
      await new Promise((r) => setTimeout(r, 100));
      // The drain: the listener stays open for a second, so the checks below reach it.
      const closed = closeHttpGracefully(server, 5000, 1000);

      const ready = await get(port, '/health/ready', new http.Agent());
      expect(ready).toMatchObject({ status: 503 });
      expect(JSON.parse((ready as { body: string }).body)).toEqual({ status: 'stopping', service: 'shutdown-test', pid: process.pid, checks: {} });
      expect(await get(port, '/health/live', new http.Agent())).toMatchObject({ status: 200 });
      // A load balancer that has not seen the 503 yet loses nothing: its request is still answered.
      expect(await get(port, '/late-but-accepted', new http.Agent())).toEqual({ status: 200, body: '{"path":"/late-but-accepted"}' });
      expect(await inFlight).toEqual({ status: 200, body: '{"path":"/slow"}' });
      await closed;
      expect(await get(port, '/health/ready', new http.Agent())).toEqual({ error: 'ECONNREFUSED' });
    } finally {
      agent.destroy();
      server.closeAllConnections();
    }
  });

  it('cuts a request that outlives the limit instead of waiting for it', async () => {
    const app = createHttpApp({ name: 'shutdown-test', logger: createLogger('shutdown-test', 'silent') });
    app.use(async (ctx) => {
      await new Promise((r) => setTimeout(r, 3000));
      ctx.body = 'late';
    });
    const server = await listenHttp(app, 0, '127.0.0.1');
    const { port } = server.address() as AddressInfo;
    const agent = new http.Agent({ keepAlive: true });
    try {
      const hanging = get(port, '/hang', agent);
      await new Promise((r) => setTimeout(r, 100));
      const started = Date.now();
      await closeHttpGracefully(server, 300);
      expect(Date.now() - started).toBeLessThan(1500);
      expect(await hanging).toHaveProperty('error');
    } finally {
      agent.destroy();
    }
  });

  it('waits for a handler whose caller went away (its connection closed) before it finishes: what it accepted is done', async () => {
    const app = createHttpApp({ name: 'shutdown-test', logger: createLogger('shutdown-test', 'silent') });
    let finished = false;
    app.use(async (ctx) => {
      await new Promise((r) => setTimeout(r, 600));
      finished = true;
      ctx.body = 'done';
    });
    const server = await listenHttp(app, 0, '127.0.0.1');
    const { port } = server.address() as AddressInfo;
    // The caller sends the request and drops the connection while it is being handled.
    const req = http.get({ host: '127.0.0.1', port, path: '/checkout', agent: new http.Agent() });
    req.on('error', () => undefined);
    await new Promise((r) => setTimeout(r, 150));
    req.destroy();
    await new Promise((r) => setTimeout(r, 50));
    await closeHttpGracefully(server, 5000);
    expect(finished).toBe(true);
  });
});
