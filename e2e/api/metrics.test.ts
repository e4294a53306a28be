import { describe, expect, it } from 'vitest';
import { env } from './lib/env';

/**
 * Every process serves Prometheus metrics (issue 14) to whoever has the internal token, and to
 * no one else: the gateway's /metrics is on the public port.
 */
const scrape = (url: string, token?: string) => fetch(`${url}/metrics`, { headers: token ? { authorization: `Bearer ${token}` } : {} });

describe('GET /metrics on every process (issue 14)', () => {
  it('the gateway refuses it without the internal token', async () => {
    const res = await scrape(env.baseUrl);
    expect(res.status).toBe(401);
    expect((await scrape(env.baseUrl, 'not-the-token')).status).toBe(401);
  });

  it('the gateway and each service report requests per route, the outbox lag and the database pool', async () => {
    // Some traffic first: the shop list through the gateway.
    expect((await fetch(`${env.baseUrl}/api/products?limit=5`)).status).toBe(200);

    const gateway = await (await scrape(env.baseUrl, env.internalToken)).text();
    expect(gateway).toMatch(/^http_request_duration_seconds_count\{service="gateway",method="GET",route="[^"]+",status="200"\} [1-9]\d*$/m);

    for (const [service, url] of Object.entries(env.serviceUrls)) {
      const res = await scrape(url, env.internalToken);
      expect(res.status, service).toBe(200);
      const text = await res.text();
      expect(text, service).toMatch(new RegExp(`^outbox_unpublished_events\\{service="${service}"\\} \\d+$`, 'm'));
      expect(text, service).toMatch(new RegExp(`^outbox_oldest_unpublished_seconds\\{service="${service}"\\} [\\d.e+-]+$`, 'm'));
      expect(text, service).toMatch(new RegExp(`^db_pool_connections_in_use\\{service="${service}"\\} \\d+$`, 'm'));
      expect(text, service).toMatch(new RegExp(`^process_resident_memory_bytes\\{service="${service}"\\} \\d+`, 'm'));
    }
    // Issue 29: the newest reconciliation's mismatches, for an alert (none on a stack whose payments all went through the services).
    const payment = await (await scrape(env.serviceUrls.payment!, env.internalToken)).text();
    expect(payment).toMatch(/^payment_reconciliation_mismatches\{service="payment"\} 0$/m);
    const catalog = await (await scrape(env.serviceUrls.catalog!, env.internalToken)).text();
    expect(catalog).toMatch(/^http_request_duration_seconds_count\{service="catalog",method="GET",route="\/api\/products",status="200"\} [1-9]\d*$/m);
  });
});
