import type { UserType } from './enums';

/** Permissions are values; roles are sets of them (DESIGN §9). */
export const PERMISSIONS = [
  'user:read',
  'user:manage',
  'employee:read',
  'employee:manage',
  'bin:read',
  'bin:manage',
  'product:manage',
  'stock:read',
  'stock:create',
  'order:read',
  'order:process',
  'order:drive',
  'request:manage',
  // Downtime of rental units (issue 25).
  'booking:manage',
  // A unit's steps between rentals: clean, inspect, put away, repair, hold, scrap (issue 26).
  'unit:process',
  // Recalls: open one, settle its units, close it (issue 26; the superadmin).
  'recall:manage',
  'payment:read',
  'payment:confirm',
  'report:read',
  // The Messages screen: every e-mail sent, and sending a failed one again (issue 24).
  'message:read',
  'message:manage',
  'cart:own',
  'order:place',
  'order:read-own',
  'request:create-own',
  'invoice:read-own',
  // A customer extends their own ongoing rental (issue 25).
  'rental:extend-own',
] as const;
export type Permission = (typeof PERMISSIONS)[number];

const WAREHOUSE: Permission[] = [
  'bin:read',
  'bin:manage',
  'product:manage',
  'stock:read',
  'stock:create',
  'order:read',
  'order:process',
  'request:manage',
  'booking:manage',
  'unit:process',
];

export const ROLE_PERMISSIONS: Record<UserType, readonly Permission[]> = {
  SUPERADMIN: [
    'user:read',
    'user:manage',
    'employee:read',
    'employee:manage',
    ...WAREHOUSE,
    'order:drive',
    'payment:read',
    'payment:confirm',
    'report:read',
    'message:read',
    'message:manage',
    'recall:manage',
  ],
  WAREHOUSE_ADMIN: WAREHOUSE,
  WAREHOUSE_STAFF: WAREHOUSE,
  ACCOUNTING_ADMIN: ['payment:read', 'payment:confirm'],
  DRIVER: ['order:drive'],
  CUSTOMER: ['cart:own', 'order:place', 'order:read-own', 'request:create-own', 'invoice:read-own', 'rental:extend-own'],
  SUPPORT: [],
};

export function permissionsOf(userType: string): readonly Permission[] {
  return (ROLE_PERMISSIONS as Record<string, readonly Permission[] | undefined>)[userType] ?? [];
}

export function hasPermission(userType: string, permission: Permission): boolean {
  return permissionsOf(userType).includes(permission);
}

/**
 * Who may call a route: anyone, any signed-in user, or holders of one permission.
 * Every API route declares one of these; a test fails if one does not.
 */
export type Access = 'public' | 'authenticated' | Permission;

export function isAllowed(access: Access, userType: string | undefined): boolean {
  if (access === 'public') return true;
  if (!userType) return false;
  if (access === 'authenticated') return true;
  return hasPermission(userType, access);
}

/**
 * Which orders a user may see (SPEC §6, DESIGN §9) — the one rule: holders of order:read see
 * every order (staff; the superadmin, who also drives); a driver (order:drive) the orders assigned
 * to them (taking a waiting order is a step, the scan, not a read); a customer (order:read-own)
 * their own; anyone else none. The order service turns it into its SQL filter, the gateway's live
 * stream into who hears of an order's change.
 */
export type OrderScope = { kind: 'all' } | { kind: 'driver'; userId: string } | { kind: 'customer'; userId: string } | { kind: 'none' };

export function orderScopeOf(who: { userId: string; userType: string }): OrderScope {
  if (hasPermission(who.userType, 'order:read')) return { kind: 'all' };
  if (hasPermission(who.userType, 'order:drive')) return { kind: 'driver', userId: who.userId };
  if (hasPermission(who.userType, 'order:read-own')) return { kind: 'customer', userId: who.userId };
  return { kind: 'none' };
}

/** Whether an order (its customer and the driver assigned to it) is in a scope. */
export function inOrderScope(scope: OrderScope, order: { customerId: string; driverId: string | null }): boolean {
  switch (scope.kind) {
    case 'all':
      return true;
    case 'driver':
      return order.driverId === scope.userId;
    case 'customer':
      return order.customerId === scope.userId;
    default:
      return false;
  }
}

/**
 * Who hears of an order's changes on the live stream, from the user's order scope (orderScopeOf):
 * whoever sees every order, and accounting (payment:read: it reads no order but takes every
 * payment), hear of all of them; anyone else of the orders in their scope.
 */
export type LiveAudience = { kind: 'staff' } | Exclude<OrderScope, { kind: 'all' }>;

export function liveAudienceOf(who: { userType: string }, scope: OrderScope): LiveAudience {
  if (hasPermission(who.userType, 'payment:read')) return { kind: 'staff' };
  return scope.kind === 'all' ? { kind: 'staff' } : scope;
}
