import Router from 'find-my-way';
import { isAllowed, PERMISSIONS, ROUTES, type RouteDef, type RouteId } from '@dme/contracts';

export interface CompiledRoute {
  id: string;
  def: RouteDef;
}

/** The route table in a find-my-way router, built once (compileRoutes). */
export interface CompiledRoutes {
  readonly routes: readonly CompiledRoute[];
  /** One router for every method of the table (find-my-way keeps a tree per method). */
  readonly router: Router.Instance<Router.HTTPVersion.V1>;
  /** The methods the table uses: the others are never looked up. */
  readonly methods: ReadonlySet<string>;
}

const ACCESS_VALUES = new Set<string>(['public', 'authenticated', ...PERMISSIONS]);

/**
 * Refuses a route table where any route lacks a valid access rule (public, authenticated or a
 * known permission). The gateway will not start with such a table.
 */
export function validateRouteTable(routes: Record<string, Partial<RouteDef>>): void {
  const problems: string[] = [];
  const seen = new Set<string>();
  for (const [id, r] of Object.entries(routes)) {
    if (!r.access || !ACCESS_VALUES.has(r.access)) problems.push(`${id}: no valid access rule (got ${String(r.access)})`);
    if (!r.path?.startsWith('/api/')) problems.push(`${id}: path must start with /api/`);
    const key = `${r.method} ${r.path}`;
    if (seen.has(key)) problems.push(`${id}: duplicate ${key}`);
    seen.add(key);
  }
  if (problems.length) throw new Error(`Route table is not valid:\n${problems.join('\n')}`);
}

/**
 * The route table in a router (find-my-way: a radix tree per method, static segments before
 * parameters, so /users/me wins over /users/:id; a trailing slash is ignored).
 */
export function compileRoutes(routes: Record<string, RouteDef> = ROUTES): CompiledRoutes {
  validateRouteTable(routes);
  const router = Router({ ignoreTrailingSlash: true, maxParamLength: Number.MAX_SAFE_INTEGER });
  const compiled = Object.entries(routes).map(([id, def]) => ({ id, def }));
  for (const route of compiled) router.on(route.def.method, route.def.path, noop, route);
  return { routes: compiled, router, methods: new Set(compiled.map((r) => r.def.method)) };
}

const noop = () => undefined;

export type Match = { route: CompiledRoute } | { methodNotAllowed: true } | undefined;

/**
 * Finds the route for a request; literal segments win over parameters (/users/me before
 * /users/:id); HEAD is looked up as GET; a path that only another method has is
 * `methodNotAllowed` (405).
 *
 * `path` is the request's path as it came (Koa's ctx.path, not decoded), matched as it is, as the
 * services' routers match it: a parameter is any non-empty text up to the next `/` (an encoded
 * `%2F` included), a literal segment matches only as written (`m%65` is not `me`).
 */
export function matchRoute(compiled: CompiledRoutes, method: string, path: string): Match {
  // An empty segment never matches (a parameter is never empty); a single trailing slash is allowed.
  if (!path.startsWith('/') || path.includes('//')) return undefined;
  // find-my-way decodes a path before matching and ends it at `?` or `#`: with these three
  // characters escaped, what it decodes is exactly the path as it came.
  const raw = path.replace(/[%?#]/g, encodeURIComponent);
  const m = method === 'HEAD' ? 'GET' : method;
  const found = compiled.methods.has(m) ? compiled.router.find(m as Router.HTTPMethod, raw) : null;
  if (found) return { route: found.store as CompiledRoute };
  for (const other of compiled.methods) {
    if (other !== m && compiled.router.find(other as Router.HTTPMethod, raw)) return { methodNotAllowed: true };
  }
  return undefined;
}

export function accessDecision(def: RouteDef, userType: string | undefined): 'allow' | 'unauthenticated' | 'forbidden' {
  if (isAllowed(def.access, userType)) return 'allow';
  return userType ? 'forbidden' : 'unauthenticated';
}

export type { RouteId };
