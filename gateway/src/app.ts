import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { OutgoingHttpHeaders } from 'node:http';
import type { Context } from 'koa';
import { LIVE_EVENTS_PATH, REMOTES, ROUTES, type RouteDef, type ServiceName } from '@dme/contracts';
import {
  BODY_MESSAGES,
  createHttpApp,
  hasBody,
  isJsonType,
  JSON_BODY_LIMIT,
  forbidden,
  HttpProblem,
  IDENTITY_HEADERS,
  IDENTITY_HEADER_PREFIX,
  notFound,
  unauthorized,
  type Logger,
} from '@dme/platform';
import type { GatewayConfig } from './config';
import { accessDecision, compileRoutes, matchRoute } from './routing';
import { SESSION_COOKIE, sessionResolver, type Principal, type SessionResolver } from './session';
import { proxyTo } from './upstream';
import { compressJson } from './compress';
import { StaticFolder } from './static';
import { ShellHints } from './hints';
import { BOOT_SCRIPT, compressPage, FirstScreens, withFirstScreen } from './first-screen';
import { buildOpenApi, DOCS_HTML, DOCS_INIT_JS } from './openapi';
import { LiveHub, liveOptions } from './live';
import { createLegacyAdapter, isLegacyPath } from './legacy';
import { crossOriginRefusal } from './csrf';

export interface GatewayDeps {
  config: GatewayConfig;
  logger: Logger;
  routes?: Record<string, RouteDef>;
  /**
   * Resolves session cookies through identity. It caches only once it follows identity's
   * revocations over NATS (main.ts does that); without one, every request is resolved.
   */
  sessions?: SessionResolver;
  /**
   * The live-updates streams (GET /api/events), served here. main.ts attaches it to NATS; an
   * unattached hub keeps its streams open with heartbeats only.
   */
  live?: LiveHub;
}

const STRIP_REQUEST = new Set(['host', 'connection', 'keep-alive', 'transfer-encoding', 'upgrade', 'proxy-authorization', 'te', 'trailer']);

const SECURITY_HEADERS: Record<string, string> = {
  'X-Content-Type-Options': 'nosniff',
  'X-Frame-Options': 'DENY',
  'Referrer-Policy': 'same-origin',
  'Permissions-Policy': 'camera=(self), microphone=(), geolocation=()',
  'Cross-Origin-Opener-Policy': 'same-origin',
};

const CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "media-src 'self' blob:",
  "object-src 'none'",
  "base-uri 'self'",
  "frame-ancestors 'none'",
  "form-action 'self'",
].join('; ');

/**
 * Service workers served from a remote's folder, with the scope each may take (issue 28, part 4a):
 * the driver app's worker (mf-driver/src/pwa/sw.ts) controls the driver's screens under /admin/,
 * wider than its own folder, which the browser allows only when this header says so. Like every
 * file with a fixed name it goes with `Cache-Control: no-cache` (static.ts).
 */
const SERVICE_WORKERS: Record<string, { scope: string }> = {
  '/remotes/mf-driver/sw.js': { scope: '/admin/' },
};
/** A worker's own policy (a page's CSP does not reach it): it fetches from this origin only. */
const WORKER_CSP = "default-src 'self'; script-src 'self'; connect-src 'self'; object-src 'none'";

/** The gateway: static bundles, OpenAPI docs, and /api → authenticate → authorize → proxy. */
export function createApp({ config, logger, routes = ROUTES, sessions = sessionResolver(config, logger), live }: GatewayDeps) {
  const liveHub = live ?? new LiveHub(liveOptions(config, sessions, logger));
  const compiled = compileRoutes(routes);
  const upstreams: Record<ServiceName, URL> = {
    identity: new URL(config.IDENTITY_URL),
    catalog: new URL(config.CATALOG_URL),
    order: new URL(config.ORDER_URL),
    payment: new URL(config.PAYMENT_URL),
    reporting: new URL(config.REPORTING_URL),
  };
  const shell = new StaticFolder(join(config.STATIC_ROOT, 'shell', 'dist'));
  const remotes = new Map(REMOTES.map((r) => [r, new StaticFolder(join(config.STATIC_ROOT, r, 'dist'))]));
  /**
   * A GET of an API route straight from its service, as `principal` (anonymously without one),
   * allowed as the route says, within 300 ms: the reads the gateway makes for a page it serves.
   */
  async function readApi(url: string, principal?: Principal): Promise<unknown> {
    const match = matchRoute(compiled, 'GET', new URL(url, 'http://gateway').pathname);
    if (!match || 'methodNotAllowed' in match || accessDecision(match.route.def, principal?.userType) !== 'allow') return undefined;
    const headers: OutgoingHttpHeaders = { [IDENTITY_HEADERS.internalToken]: config.INTERNAL_TOKEN };
    if (principal) setIdentity(headers, principal);
    const res = await fetch(new URL(url, upstreams[match.route.def.service]), { headers: headers as Record<string, string>, signal: AbortSignal.timeout(300) });
    return res.ok ? res.json() : undefined;
  }
  const appDir = (app: string) => join(config.STATIC_ROOT, app, 'dist');
  // The public list behind the first picture is read anonymously (one cached answer for everyone).
  const hints = new ShellHints(appDir('shell'), appDir, (url) => readApi(url));
  const firstScreens = new FirstScreens((app) => join(config.STATIC_ROOT, app), readApi, logger);
  // The screens' modules (a second of compiling on a busy machine) are loaded now; main.ts waits
  // for them before it listens, so no request waits behind their compiling.
  const screensLoaded = firstScreens.warm(['shell', ...REMOTES]);
  // swagger-ui's files as the gateway's build copies them, with their compressed copies beside them
  // (gateway/package.json, scripts/precompress.mjs): nothing is compressed on a request. Before a
  // build (the gateway's tests run it from source), the package's own files, uncompressed.
  const builtSwagger = join(config.STATIC_ROOT, 'gateway', 'dist', 'swagger-ui');
  const swagger = new StaticFolder(existsSync(builtSwagger) ? builtSwagger : dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json')));
  let openapi: string | undefined;
  // The old client's .php calls (SPEC §7, issue 12), translated into REST calls through this gateway.
  const legacy = createLegacyAdapter({ logger, maxBodyBytes: config.MAX_BODY_BYTES });

  const app = createHttpApp({ name: 'gateway', logger, parseJson: false, trustProxy: config.TRUST_PROXY });

  app.use(async (ctx, next) => {
    for (const [k, v] of Object.entries(SECURITY_HEADERS)) ctx.set(k, v);
    await next();
  });
  // API answers are small and made per request: gzip's fastest level, in one call with a window
  // fitted to the answer (level 6 through koa-compress's streams was a fifth of the gateway's CPU
  // under the checkout load, docs/benchmarks.md). Built assets are compressed once (static.ts).
  app.use(compressJson());

  // Cross-site request forgery (csrf.ts): a request that changes something is carried out only
  // when it comes from the shop's own pages (or an ALLOWED_ORIGINS one); the old .php calls too,
  // answered in their own error shape.
  app.use(async (ctx, next) => {
    const refused = crossOriginRefusal(ctx, config.ALLOWED_ORIGINS);
    if (!refused) return next();
    logger.info(
      { requestId: ctx.state.requestId, method: ctx.method, path: ctx.path, origin: ctx.get('origin'), secFetchSite: ctx.get('sec-fetch-site'), host: ctx.host, protocol: ctx.protocol },
      'gateway: cross-origin request refused',
    );
    if (isLegacyPath(ctx.path)) return legacy.refuse(ctx, refused);
    throw refused;
  });

  app.use(async (ctx, next) => {
    const path = ctx.path;
    if (path === '/api/openapi.json') {
      openapi ??= JSON.stringify(buildOpenApi(routes));
      ctx.type = 'application/json';
      ctx.body = openapi;
      return;
    }
    if (path === '/api/docs' || path === '/api/docs/') {
      ctx.set('Content-Security-Policy', CSP);
      ctx.type = 'text/html';
      ctx.body = DOCS_HTML;
      return;
    }
    if (path === '/api/docs/legacy' || path === '/api/docs/legacy/') {
      ctx.type = 'application/json';
      ctx.body = legacy.docs;
      return;
    }
    if (path === '/api/docs/init.js') {
      ctx.type = 'text/javascript';
      ctx.body = DOCS_INIT_JS;
      return;
    }
    if (path.startsWith('/api/docs/assets/')) {
      const name = path.slice('/api/docs/assets/'.length);
      if (!/^swagger-ui(-bundle)?\.(js|css)$/.test(name) || !(await swagger.serve(ctx, name))) throw notFound();
      return;
    }
    if (path === '/api' || path.startsWith('/api/')) return api(ctx);
    if (isLegacyPath(path)) return legacy.serve(ctx);
    await next();
  });

  // Static: each remote at /remotes/<name>/, the shell at / with the SPA fallback.
  app.use(async (ctx) => {
    if (ctx.method !== 'GET' && ctx.method !== 'HEAD') throw new HttpProblem(405, 'Method not allowed.');
    const m = /^\/remotes\/([a-z-]+)\/(.*)$/.exec(ctx.path);
    if (m) {
      const folder = remotes.get(m[1] as (typeof REMOTES)[number]);
      if (!folder || !(await folder.serve(ctx, m[2] || 'index.html'))) throw notFound();
      ctx.set('Cross-Origin-Resource-Policy', 'same-origin');
      const worker = SERVICE_WORKERS[ctx.path];
      if (worker) {
        ctx.set('Service-Worker-Allowed', worker.scope);
        ctx.set('Content-Security-Policy', WORKER_CSP);
      }
      return;
    }
    if (ctx.path !== '/' && (await shell.serve(ctx, ctx.path))) return;
    // Anything else is a screen of the single-page app (or a missing asset).
    if (/\.[a-z0-9]{1,5}$/i.test(ctx.path) && ctx.path !== '/') throw notFound();
    ctx.set('Content-Security-Policy', CSP);
    // A signed-in user's first screen: what the shell will ask for next, fetched in parallel.
    const token = ctx.cookies.get(SESSION_COOKIE);
    const principal = token ? await sessions.resolve(token).catch(() => undefined) : undefined;
    if (principal) {
      const [link, screen] = await Promise.all([hints.linkHeader(principal.userType, ctx.path, ctx.search), firstScreens.render(principal, ctx.path, ctx.search)]);
      if (link) ctx.set('Link', link);
      // The page with the user's first screen in it: made for this user, kept by no cache.
      const [index, boot] = screen === undefined ? [] : await Promise.all([shell.text('index.html'), shell.text(BOOT_SCRIPT)]);
      const page = index === undefined || screen === undefined ? undefined : withFirstScreen(index, screen, boot === undefined ? undefined : BOOT_SCRIPT);
      if (page !== undefined) {
        const { body, encoding } = compressPage(page, ctx.get('accept-encoding'));
        ctx.set('Cache-Control', 'private, no-store');
        ctx.set('Vary', 'Accept-Encoding, Cookie');
        if (encoding) ctx.set('Content-Encoding', encoding);
        ctx.type = 'text/html; charset=utf-8';
        ctx.status = 200;
        ctx.body = ctx.method === 'HEAD' ? null : body;
        ctx.set('Content-Length', String(body.length));
        return;
      }
    }
    if (await shell.serve(ctx, 'index.html')) {
      if (principal) ctx.set('Vary', 'Accept-Encoding, Cookie');
    } else {
      ctx.status = 503;
      ctx.type = 'text/plain';
      ctx.body = 'The web app is not built yet. Run `npm run build` (npm start does it for you).';
    }
  });

  async function api(ctx: Context): Promise<void> {
    // Live updates are the gateway's own route (not in the proxied route table).
    if (ctx.path === LIVE_EVENTS_PATH || ctx.path === `${LIVE_EVENTS_PATH}/`) return liveHub.serve(ctx);
    const match = matchRoute(compiled, ctx.method, ctx.path);
    if (!match) throw notFound('There is no such API route.');
    if ('methodNotAllowed' in match) throw new HttpProblem(405, 'Method not allowed.');
    const { def } = match.route;

    const token = ctx.cookies.get(SESSION_COOKIE);
    const principal = await sessions.resolve(token);
    const decision = accessDecision(def, principal?.userType);
    if (decision === 'unauthenticated') throw unauthorized();
    if (decision === 'forbidden') throw forbidden();

    // The body checks a service would make, made here first: a service refusing a body half-way
    // would close the connection under the gateway while it is still sending.
    const length = Number(ctx.get('content-length') || 0);
    const bodyLimit = def.body ? Math.min(def.jsonLimit ?? JSON_BODY_LIMIT, config.MAX_BODY_BYTES) : config.MAX_BODY_BYTES;
    if (hasBody(ctx.req)) {
      if (!def.body && !def.rawBody) throw new HttpProblem(400, BODY_MESSAGES.noBody);
      if (length > bodyLimit) throw new HttpProblem(413, BODY_MESSAGES.tooLarge);
      if (String(ctx.get('content-encoding') || 'identity').trim().toLowerCase() !== 'identity') throw new HttpProblem(415, BODY_MESSAGES.encoding);
      if (def.body && !isJsonType(ctx.req)) throw new HttpProblem(415, BODY_MESSAGES.notJson);
    }

    // The limits per address (sign-in throttling, registration, anonymous uploads) are counted by
    // the service that owns the route, in PostgreSQL, shared by every replica of both (issue 30):
    // the gateway sends the client's address in x-dme-client-ip and keeps no counts of its own.
    // The legacy adapter's own calls carry their caller's address (believed only with this process's key).
    const ip = legacy.clientIp(ctx) ?? ctx.ip;

    const headers: OutgoingHttpHeaders = {};
    for (const [name, value] of Object.entries(ctx.headers)) {
      if (value === undefined || STRIP_REQUEST.has(name) || name.startsWith(IDENTITY_HEADER_PREFIX)) continue;
      headers[name] = value;
    }
    headers[IDENTITY_HEADERS.internalToken] = config.INTERNAL_TOKEN;
    headers[IDENTITY_HEADERS.clientIp] = ip;
    headers['x-request-id'] = ctx.state.requestId as string;
    headers['x-forwarded-for'] = ip;
    headers['x-forwarded-proto'] = ctx.protocol;
    if (principal) setIdentity(headers, principal);

    if (match.route.id !== 'authLogout') return proxyTo(ctx, upstreams[def.service], headers, bodyLimit);
    try {
      await proxyTo(ctx, upstreams[def.service], headers, bodyLimit);
    } finally {
      // Identity announces the logout to every gateway before answering; this one also drops the
      // session itself as the answer passes through.
      sessions.forget(token);
    }
  }

  return Object.assign(app, { screensLoaded });
}

function setIdentity(headers: OutgoingHttpHeaders, p: Principal): void {
  headers[IDENTITY_HEADERS.userId] = p.userId;
  headers[IDENTITY_HEADERS.userType] = p.userType;
  headers[IDENTITY_HEADERS.username] = p.username;
  if (p.name) headers[IDENTITY_HEADERS.name] = encodeURIComponent(p.name);
  headers[IDENTITY_HEADERS.sessionId] = p.sessionId;
}
