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
  'payment:read',
  'payment:confirm',
  'report:read',
  'cart:own',
  'order:place',
  'order:read-own',
  'request:create-own',
  'invoice:read-own',
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
  ],
  WAREHOUSE_ADMIN: WAREHOUSE,
  WAREHOUSE_STAFF: WAREHOUSE,
  ACCOUNTING_ADMIN: ['payment:read', 'payment:confirm'],
  DRIVER: ['order:drive'],
  CUSTOMER: ['cart:own', 'order:place', 'order:read-own', 'request:create-own', 'invoice:read-own'],
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
