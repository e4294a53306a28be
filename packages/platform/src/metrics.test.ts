import Router from '@koa/router';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listen, type TestServer } from '@dme/testing';
import { createHttpApp, metricsOf } from './http';
import { createLogger } from './logger';

let server: TestServer;
let queued = 3;
beforeAll(async () => {
  const app = createHttpApp({ name: 'metrics-test', logger: createLogger('metrics-test', 'silent') });
  const router = new Router();
  router.get('/things/:id', (ctx) => {
    if (ctx.params.id === 'boom') throw new Error('boom');
    ctx.body = { id: ctx.params.id };
  });
  app.use(router.routes());
  const m = metricsOf(app);
  m.token = 'metrics-token-0123456789';
  m.gauge('queue_length', 'Things waiting', () => queued);
  server = await listen(app);
});
afterAll(() => server?.close());

const scrape = (auth?: string) => fetch(`${server.url}/metrics`, { headers: auth ? { authorization: auth } : {} });

describe('GET /metrics (issue 14)', () => {
  it('is refused without the token, or with a wrong one (401 problem+json), and counts no scrape as a request', async () => {
    for (const auth of [undefined, 'Bearer wrong', 'metrics-token-0123456789', 'Bearer metrics-token-01234567890']) {
      const res = await scrape(auth);
      expect(res.status).toBe(401);
      expect(res.headers.get('content-type')).toContain('application/problem+json');
    }
  });

  it('counts requests by route pattern, method and status, with Node process figures and the gauges a service adds', async () => {
    for (const id of ['a', 'b', 'c']) expect((await fetch(`${server.url}/things/${id}`)).status).toBe(200);
    expect((await fetch(`${server.url}/things/boom`)).status).toBe(500);
    expect((await fetch(`${server.url}/nowhere`)).status).toBe(404);
    queued = 7;
    const res = await scrape('Bearer metrics-token-0123456789');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/plain');
    const text = await res.text();
    const count = (labels: string) => Number(new RegExp(`^http_request_duration_seconds_count\\{${labels}\\} (\\d+)$`, 'm').exec(text)?.[1]);
    expect(count('service="metrics-test",method="GET",route="/things/:id",status="200"')).toBe(3);
    expect(count('service="metrics-test",method="GET",route="/things/:id",status="500"')).toBe(1);
    expect(count('service="metrics-test",method="GET",route="unmatched",status="404"')).toBe(1);
    // No series per raw path, and the scrapes above are not requests.
    expect(text).not.toContain('/things/a');
    expect(text).not.toContain('route="/metrics"');
    expect(text).toMatch(/^queue_length\{service="metrics-test"\} 7$/m);
    expect(text).toMatch(/^process_cpu_user_seconds_total\{service="metrics-test"\} /m);
  });
});
