import type { OrderScope } from '@dme/contracts';

/**
 * A deliberately different "who may see which order" rule, for the tests that prove the order
 * service and the gateway's live stream both take it from contracts' orderScopeOf (issue 23): the
 * tests replace orderScopeOf with this one and check each consumer follows it. Here a driver sees
 * every order and a customer sees none — the opposite of the real rule on both counts.
 */
export function changedOrderScope(who: { userId: string; userType: string }): OrderScope {
  if (who.userType === 'DRIVER') return { kind: 'all' };
  if (who.userType === 'CUSTOMER') return { kind: 'none' };
  return { kind: 'all' };
}
