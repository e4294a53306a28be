import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '@dme/platform';
import { GatewayEnv } from './config';
import { rehearseCheckout } from './rehearsal';

/*
 * The gateway's start-up rehearsal (issue 30, part 3): checkouts through its own request path
 * against stand-ins, so the first customers after a start meet a path that has run. A rehearsal
 * whose checkouts were refused on the way (the session, the access rule, the body checks, the
 * cross-origin check) would warm only the refusal; one that reached a real service would place
 * orders. Both are what these tests rule out.
 */
let services: Server;
let calls = 0;

beforeAll(async () => {
  services = createServer((req, res) => {
    calls++;
    res.writeHead(500).end();
  });
  await new Promise<void>((resolve) => services.listen(0, '127.0.0.1', () => resolve()));
});
afterAll(() => new Promise<void>((resolve) => services.close(() => resolve())));

const config = () => {
  const url = `http://127.0.0.1:${(services.address() as AddressInfo).port}`;
  return GatewayEnv.parse({ INTERNAL_TOKEN: 'rehearsal-test-token-0123', IDENTITY_URL: url, CATALOG_URL: url, ORDER_URL: url, PAYMENT_URL: url, REPORTING_URL: url });
};
const logger = createLogger('gateway-test', 'silent');

describe('the gateway rehearses checkout before it listens', () => {
  it('places its checkouts all the way through the proxy (201 each) and never calls the configured services', async () => {
    const r = await rehearseCheckout(config(), logger, { budgetMs: 30_000, requests: 40, concurrency: 4 });
    expect(r.requests).toBe(40);
    expect(r.statuses).toEqual({ 201: 40 });
    expect(calls).toBe(0);
  });

  it('stops at its request count, and does nothing with no budget', async () => {
    expect((await rehearseCheckout(config(), logger, { budgetMs: 30_000, requests: 7, concurrency: 3 })).requests).toBe(7);
    expect(await rehearseCheckout(config(), logger, { budgetMs: 0, requests: 100, concurrency: 4 })).toEqual({ requests: 0, ms: 0, statuses: {} });
    expect(calls).toBe(0);
  });
});
