/**
 * Cross-site request forgery (issue 22): a request that changes something (any method but GET,
 * HEAD and OPTIONS) is carried out only when it comes from the shop's own pages. SameSite=Lax on
 * the session cookie keeps other sites' requests anonymous, but a sibling subdomain or another port
 * of the same host is the same *site*, and its requests carry the cookie.
 *
 * The decision, in this order (the same as Go's net/http CrossOriginProtection):
 * 1. GET, HEAD, OPTIONS: allowed (they change nothing).
 * 2. `Origin` in the configured list (ALLOWED_ORIGINS): allowed.
 * 3. `Sec-Fetch-Site` sent (every current browser sends it): `same-origin` and `none` (typed by the
 *    user) are allowed, `same-site` and `cross-site` refused. The browser decides here, so nothing
 *    depends on how proxies in front rewrite Host.
 * 4. No `Sec-Fetch-Site` and no `Origin`: not a browser (curl, scripts, tests, the legacy
 *    adapter's own loopback calls): allowed.
 * 5. Only `Origin` (older browsers): allowed when it is the gateway's own origin, the request's
 *    scheme and host as Koa sees them (X-Forwarded-Proto / X-Forwarded-Host with TRUST_PROXY=true),
 *    else refused. `Origin: null` is refused.
 */
import type { Context } from 'koa';
import type { Problem } from '@dme/contracts';
import { HttpProblem } from '@dme/platform';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** The text of the refusal: what happened and what to do. */
export const CROSS_ORIGIN_DETAIL =
  "This request was sent from another website, so it was refused: changes are accepted only from the shop's own pages. Open the shop and try again there.";

/** An origin as browsers serialise it (scheme://host[:port], default port left out), or undefined. */
export function normalizeOrigin(value: string): string | undefined {
  try {
    const u = new URL(value);
    if (u.protocol !== 'http:' && u.protocol !== 'https:') return undefined;
    return u.origin;
  } catch {
    return undefined;
  }
}

export interface OriginFacts {
  method: string;
  origin: string | undefined;
  secFetchSite: string | undefined;
  /** The gateway's own origin for this request (scheme and Host), undefined when Host is unusable. */
  ownOrigin: string | undefined;
}

/** Whether the request may go on (the rule above); pure, for unit tests. */
export function crossOriginAllowed(facts: OriginFacts, allowed: ReadonlySet<string>): boolean {
  if (SAFE_METHODS.has(facts.method.toUpperCase())) return true;
  const origin = facts.origin ? normalizeOrigin(facts.origin) : undefined;
  if (origin !== undefined && allowed.has(origin)) return true;
  const site = facts.secFetchSite?.trim().toLowerCase();
  if (site) return site === 'same-origin' || site === 'none';
  if (facts.origin === undefined) return true;
  return origin !== undefined && origin === facts.ownOrigin;
}

/** The facts of a Koa request; Koa's protocol and host follow X-Forwarded-* only when the app trusts its proxy. */
export function originFacts(ctx: Context): OriginFacts {
  const header = (name: string) => {
    const v = ctx.get(name);
    return v === '' ? undefined : v;
  };
  const host = ctx.host;
  return {
    method: ctx.method,
    origin: header('origin'),
    secFetchSite: header('sec-fetch-site'),
    ownOrigin: host ? normalizeOrigin(`${ctx.protocol}://${host}`) : undefined,
  };
}

/** The 403 of a refused request: its own type and title, so a client (and a log) can tell it from a missing permission. */
export class CrossOriginRefused extends HttpProblem {
  constructor() {
    super(403, CROSS_ORIGIN_DETAIL);
  }

  override toProblem(instance?: string): Problem {
    return { ...super.toProblem(instance), type: 'https://dme.example/problems/cross-origin-request', title: 'Cross-origin request refused' };
  }
}

/** The 403 for a request refused by the rule, else undefined. */
export function crossOriginRefusal(ctx: Context, allowed: ReadonlySet<string>): HttpProblem | undefined {
  return crossOriginAllowed(originFacts(ctx), allowed) ? undefined : new CrossOriginRefused();
}
