import type { UserType } from './enums';

/** Where each role lands after sign-in (SPEC §2). */
export const ROLE_HOME: Partial<Record<UserType, string>> = {
  CUSTOMER: '/dashboard',
  SUPERADMIN: '/admin/users',
  ACCOUNTING_ADMIN: '/admin/payments',
  DRIVER: '/admin/for-delivery',
  WAREHOUSE_ADMIN: '/admin/warehouse-bins',
  WAREHOUSE_STAFF: '/admin/warehouse-bins',
};

export const REMOTES = ['mf-shop', 'mf-warehouse', 'mf-accounting', 'mf-driver'] as const;
export type RemoteName = (typeof REMOTES)[number];

/** The Module Federation name of a remote (a JS identifier, STACK P7). */
export function federationName(remote: RemoteName): string {
  return remote.replace('-', '_');
}

/** The remote each role loads at sign-in. SUPERADMIN loads one only when it opens its screens. */
export const ROLE_REMOTE: Partial<Record<UserType, RemoteName>> = {
  CUSTOMER: 'mf-shop',
  WAREHOUSE_ADMIN: 'mf-warehouse',
  WAREHOUSE_STAFF: 'mf-warehouse',
  ACCOUNTING_ADMIN: 'mf-accounting',
  DRIVER: 'mf-driver',
};

export function homeOf(userType: string | undefined): string | undefined {
  return userType ? (ROLE_HOME as Record<string, string | undefined>)[userType] : undefined;
}

/** Which remote serves which screens (path prefixes). The shell owns everything else. */
export const REMOTE_PATHS: Record<RemoteName, readonly string[]> = {
  'mf-shop': ['/dashboard', '/product-description', '/cart', '/bulk-order-rental', '/bulk-order-purchased', '/orders'],
  'mf-warehouse': ['/admin/warehouse-bins', '/admin/products', '/admin/orders', '/admin/ongoing-rentals', '/admin/calendar', '/admin/units', '/admin/recalls'],
  'mf-accounting': ['/admin/payments', '/admin/reconciliation', '/admin/reports'],
  'mf-driver': ['/admin/today', '/admin/for-delivery', '/admin/for-pickup'],
};

/** The remote that serves a path, if any. */
export function remoteForPath(pathname: string): RemoteName | undefined {
  for (const [remote, prefixes] of Object.entries(REMOTE_PATHS) as Array<[RemoteName, readonly string[]]>) {
    if (prefixes.some((p) => pathname === p || pathname.startsWith(`${p}/`))) return remote;
  }
  return undefined;
}

export interface MenuItem {
  key: string;
  label: string;
  path?: string;
  children?: MenuItem[];
}

const ORDERS_MENU = (base: string): MenuItem => ({
  key: `${base}`,
  label: 'Orders',
  children: [
    { key: `${base}/purchased`, label: 'Purchased', path: `${base}/purchased` },
    { key: `${base}/rentals`, label: 'Rentals', path: `${base}/rentals` },
  ],
});

/** Side menu per role (SPEC §2). An unknown user type gets an empty menu. */
export const ROLE_MENUS: Partial<Record<UserType, MenuItem[]>> = {
  CUSTOMER: [
    { key: '/dashboard', label: 'Products', path: '/dashboard' },
    { key: '/cart', label: 'Cart', path: '/cart' },
    { key: '/bulk-order-purchased', label: 'Create Bulk Purchased Order', path: '/bulk-order-purchased' },
    { key: '/bulk-order-rental', label: 'Create Bulk Rental Order', path: '/bulk-order-rental' },
    ORDERS_MENU('/orders'),
  ],
  SUPERADMIN: [
    { key: '/admin/users', label: 'Users', path: '/admin/users' },
    { key: '/admin/employees', label: 'Employees', path: '/admin/employees' },
    { key: '/admin/warehouse-bins', label: 'Warehouse Bins', path: '/admin/warehouse-bins' },
    { key: '/admin/products', label: 'Products', path: '/admin/products' },
    ORDERS_MENU('/admin/orders'),
    { key: '/admin/for-delivery', label: 'For Delivery', path: '/admin/for-delivery' },
    { key: '/admin/for-pickup', label: 'For Pickup', path: '/admin/for-pickup' },
    { key: '/admin/ongoing-rentals', label: 'Ongoing Rentals', path: '/admin/ongoing-rentals' },
    { key: '/admin/calendar', label: 'Calendar', path: '/admin/calendar' },
    { key: '/admin/units', label: 'Units', path: '/admin/units' },
    { key: '/admin/recalls', label: 'Recalls', path: '/admin/recalls' },
    { key: '/admin/payments', label: 'Payments', path: '/admin/payments' },
    { key: '/admin/reconciliation', label: 'Reconciliation', path: '/admin/reconciliation' },
    { key: '/admin/reports', label: 'Reports', path: '/admin/reports' },
    { key: '/admin/messages', label: 'Messages', path: '/admin/messages' },
  ],
  WAREHOUSE_ADMIN: [
    { key: '/admin/warehouse-bins', label: 'Warehouse Bins', path: '/admin/warehouse-bins' },
    { key: '/admin/products', label: 'Products', path: '/admin/products' },
    ORDERS_MENU('/admin/orders'),
    { key: '/admin/ongoing-rentals', label: 'Ongoing Rentals', path: '/admin/ongoing-rentals' },
    { key: '/admin/calendar', label: 'Calendar', path: '/admin/calendar' },
    { key: '/admin/units', label: 'Units', path: '/admin/units' },
  ],
  WAREHOUSE_STAFF: [
    { key: '/admin/warehouse-bins', label: 'Warehouse Bins', path: '/admin/warehouse-bins' },
    { key: '/admin/products', label: 'Products', path: '/admin/products' },
    ORDERS_MENU('/admin/orders'),
    { key: '/admin/ongoing-rentals', label: 'Ongoing Rentals', path: '/admin/ongoing-rentals' },
    { key: '/admin/calendar', label: 'Calendar', path: '/admin/calendar' },
    { key: '/admin/units', label: 'Units', path: '/admin/units' },
  ],
  ACCOUNTING_ADMIN: [
    { key: '/admin/payments', label: 'Payments', path: '/admin/payments' },
    { key: '/admin/reconciliation', label: 'Reconciliation', path: '/admin/reconciliation' },
  ],
  DRIVER: [
    { key: '/admin/today', label: 'Today', path: '/admin/today' },
    { key: '/admin/for-delivery', label: 'For Delivery', path: '/admin/for-delivery' },
    { key: '/admin/for-pickup', label: 'For Pickup', path: '/admin/for-pickup' },
  ],
};

export function menuOf(userType: string | undefined): MenuItem[] {
  return userType ? ((ROLE_MENUS as Record<string, MenuItem[] | undefined>)[userType] ?? []) : [];
}

/**
 * The remotes a role may load. SUPERADMIN opens the staff remotes' screens (never the shop's);
 * every other role has exactly its own; an unknown type has none.
 */
export function allowedRemotes(userType: string | undefined): RemoteName[] {
  if (userType === 'SUPERADMIN') return ['mf-warehouse', 'mf-accounting', 'mf-driver'];
  const own = userType ? (ROLE_REMOTE as Record<string, RemoteName | undefined>)[userType] : undefined;
  return own ? [own] : [];
}

/** The remote to load for a path, or undefined when the path is not this role's. */
export function remoteFor(userType: string | undefined, pathname: string): RemoteName | undefined {
  const remote = remoteForPath(pathname);
  return remote && allowedRemotes(userType).includes(remote) ? remote : undefined;
}

/** Shell screens only the superadmin has (users, employees and the e-mail sent). */
export const SUPERADMIN_SHELL_PATHS = ['/admin/users', '/admin/employees', '/admin/messages'] as const;

export function isSuperadminShellPath(pathname: string): boolean {
  return SUPERADMIN_SHELL_PATHS.some((p) => pathname === p || pathname.startsWith(`${p}/`));
}

/** How many product cards the shop's dashboard asks for at a time ("Load more" for the rest). */
export const PRODUCT_CARD_PAGE = 100;

/** The signed-in user's profile: the shell's first read on every signed-in page. */
export const ME_URL = '/api/auth/me';

/** The customer's due notices (rentals ending, payments due), shown above the dashboard's grids. */
export const MY_NOTICES_URL = '/api/my/notices';

/** The shop dashboard's first read of one grid, exactly as its API client asks for it. */
export function productCardsUrl(type: 'FOR_RENT' | 'FOR_SALE'): string {
  return `/api/products?${new URLSearchParams({ type, limit: String(PRODUCT_CARD_PAGE), offset: '0' })}`;
}

/**
 * The API reads a screen makes as soon as it opens, for the gateway's preload hints (issue 13:
 * mobile LCP). A screen with a query string (a search) reads something else: no hints.
 */
export function firstScreenReads(userType: string | undefined, pathname: string, search = ''): string[] {
  if (search && search !== '?') return [];
  if (userType === 'CUSTOMER' && pathname === '/dashboard') return [productCardsUrl('FOR_RENT'), productCardsUrl('FOR_SALE'), MY_NOTICES_URL];
  return [];
}

/**
 * The list whose first item's `image` is a screen's largest picture when it opens (the first
 * card of the shop's dashboard): the gateway reads it and names that picture in a preload hint,
 * so it is downloaded while the scripts are, not after them.
 */
export function firstScreenPictureList(userType: string | undefined, pathname: string, search = ''): string | undefined {
  return firstScreenReads(userType, pathname, search)[0];
}
