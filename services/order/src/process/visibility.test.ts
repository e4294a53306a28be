import { randomUUID } from 'node:crypto';
import { describe, expect, it, vi } from 'vitest';
import type { Principal } from '@dme/platform';
import { visibility } from './transitions';

// The one rule of who sees which order, replaced by a different one: the order service's filter
// must follow it (gateway/src/live-scope.test.ts has the same test for the live stream).
vi.mock('@dme/contracts', async (importOriginal) => {
  // (its own entry: the kit's index imports the platform, which imports the contracts being mocked)
  const { changedOrderScope } = await import('@dme/testing/visibility');
  return { ...(await importOriginal<typeof import('@dme/contracts')>()), orderScopeOf: changedOrderScope };
});

const who = (userType: 'DRIVER' | 'CUSTOMER'): Principal => ({ userId: randomUUID(), username: 'u', userType });

describe("the order service's visibility is contracts' orderScopeOf (issue 23)", () => {
  it('a changed rule changes which orders a caller reaches: a driver every order, a customer none', () => {
    expect(visibility(who('DRIVER'))).toEqual({ where: '', params: [] });
    expect(visibility(who('CUSTOMER'))).toEqual({ where: 'and false', params: [] });
  });
});
