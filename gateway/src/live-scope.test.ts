import { randomUUID } from 'node:crypto';
import { describe, expect, it, vi } from 'vitest';
import { audienceOf, mayReceive, routeEvent } from './live';

// The one rule of who sees which order, replaced by a different one: the live stream must follow
// it (services/order has the same test for its SQL filter).
vi.mock('@dme/contracts', async (importOriginal) => {
  // (its own entry: the kit's index imports the platform, which imports the contracts being mocked)
  const { changedOrderScope } = await import('@dme/testing/visibility');
  return { ...(await importOriginal<typeof import('@dme/contracts')>()), orderScopeOf: changedOrderScope };
});

describe("the live stream's audience is contracts' orderScopeOf (issue 23)", () => {
  const customerId = randomUUID();
  const change = routeEvent(
    JSON.stringify({
      id: randomUUID(),
      type: 'dme.order.status_changed',
      occurredAt: '2026-11-25T03:04:05.000Z',
      source: 'order',
      aggregateId: 'x',
      data: { orderId: randomUUID(), orderNumber: 'N', customerId, type: 'RENT', from: 'TO_SHIP', to: 'OUT_FOR_DELIVERY', by: null, driverId: randomUUID() },
      version: 1,
    }),
  )!;

  it('a changed rule changes who hears of an order: the owner no longer, any driver yes', () => {
    expect(mayReceive(audienceOf({ userId: customerId, userType: 'CUSTOMER' }), change)).toBe(false);
    expect(mayReceive(audienceOf({ userId: randomUUID(), userType: 'DRIVER' }), change)).toBe(true);
  });
});
