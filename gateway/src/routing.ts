import { isAllowed, PERMISSIONS, ROUTES, type RouteDef, type RouteId } from '@dme/contracts';

export interface CompiledRoute {
  id: string;
  def: RouteDef;
  regex: RegExp;
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

export function compileRoutes(routes: Record<string, RouteDef> = ROUTES): CompiledRoute[] {
  validateRouteTable(routes);
  return Object.entries(routes).map(([id, def]) => ({
    id,
    def,
    regex: new RegExp(
      `^${def.path
        .split('/')
        .map((seg) => (seg.startsWith(':') ? '[^/]+' : seg.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
        .join('/')}/?$`,
    ),
  }));
}

export type Match = { route: CompiledRoute } | { methodNotAllowed: true } | undefined;

/** Finds the route for a request; literal segments win over parameters (/users/me before /users/:id). */
export function matchRoute(routes: CompiledRoute[], method: string, path: string): Match {
  const candidates = routes.filter((r) => r.regex.test(path));
  if (candidates.length === 0) return undefined;
  const m = method === 'HEAD' ? 'GET' : method;
  const byMethod = candidates.filter((r) => r.def.method === m);
  if (byMethod.length === 0) return { methodNotAllowed: true };
  byMethod.sort((a, b) => paramCount(a.def.path) - paramCount(b.def.path));
  return { route: byMethod[0]! };
}

const paramCount = (p: string) => p.split('/').filter((s) => s.startsWith(':')).length;

export function accessDecision(def: RouteDef, userType: string | undefined): 'allow' | 'unauthenticated' | 'forbidden' {
  if (isAllowed(def.access, userType)) return 'allow';
  return userType ? 'forbidden' : 'unauthenticated';
}

export type { RouteId };
