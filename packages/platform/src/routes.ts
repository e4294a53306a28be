import Router from '@koa/router';
import type { Context } from 'koa';
import type { z } from 'zod';
import { isAllowed, routesOf, type RateLimitName, type RouteDef, type RouteId, ROUTES, type ServiceName } from '@dme/contracts';
import { forbidden, fromZodError, HttpProblem, unauthorized } from './errors';
import { principalFromHeaders, type Principal } from './principal';
import { BODY_MESSAGES, hasBody, isJsonType, JSON_BODY_LIMIT } from './http';
import { clientAddress, type AddressLimit } from './rate-limit';

type Out<T> = T extends z.ZodType ? z.output<T> : undefined;

export interface RouteInput<R extends RouteDef> {
  body: Out<R['body']>;
  query: Out<R['query']>;
  params: Out<R['params']>;
  /** The signed-in caller; always set on routes that are not public. */
  principal: R['access'] extends 'public' ? Principal | undefined : Principal;
}

export type RouteHandler<R extends RouteDef> = (ctx: Context, input: RouteInput<R>) => Promise<unknown> | unknown;

export type RouteIdOf<S extends ServiceName> = {
  [K in RouteId]: (typeof ROUTES)[K]['service'] extends S ? K : never;
}[RouteId];

export type HandlersOf<S extends ServiceName> = { [K in RouteIdOf<S>]: RouteHandler<(typeof ROUTES)[K]> };

/** The largest JSON body any route of the service takes (its app reads at most this; each route checks its own). */
export function jsonLimitOf(service: ServiceName): number {
  return Math.max(JSON_BODY_LIMIT, ...routesOf(service).map(([, r]) => r.jsonLimit ?? 0));
}

export interface MountOptions {
  /**
   * The limits per client address of routes whose contract names one (`rateLimit`), shared by the
   * service's replicas (rate-limit.ts). A route whose limit is not given here is not limited here
   * (sign-in throttling is identity's own, in its handler).
   */
  limits?: Partial<Record<RateLimitName, AddressLimit>>;
}

/**
 * Mounts a service's handlers on the paths of the contract route table. Every route of the
 * service must have a handler (the type says so). Each request is checked again here: it must
 * come through the gateway (internal token), and the route's access rule must hold. A route with
 * a limit in `options.limits` counts the request before its input is read; a refused request
 * reaches no handler.
 */
export function mountRoutes<S extends ServiceName>(
  service: S,
  handlers: HandlersOf<S>,
  internalToken: string,
  options: MountOptions = {},
): Router {
  const router = new Router();
  for (const [id, route] of routesOf(service)) {
    const handler = (handlers as unknown as Record<string, RouteHandler<RouteDef>>)[id];
    if (!handler) throw new Error(`No handler for route ${id} (${route.method} ${route.path})`);
    const limit = route.rateLimit ? options.limits?.[route.rateLimit] : undefined;
    const method = route.method.toLowerCase() as 'get' | 'post' | 'put' | 'patch' | 'delete';
    router[method](route.path, async (ctx: Context) => {
      const { trusted, principal } = principalFromHeaders(ctx.headers, internalToken);
      if (!trusted) throw new HttpProblem(403, 'Requests must come through the gateway.');
      if (route.access !== 'public') {
        if (!principal) throw unauthorized();
        if (!isAllowed(route.access, principal.userType)) throw forbidden();
      }
      if (route.body && hasBody(ctx.req) && !isJsonType(ctx.req)) throw new HttpProblem(415, BODY_MESSAGES.notJson);
      if (route.body && Number(ctx.get('content-length') || 0) > (route.jsonLimit ?? JSON_BODY_LIMIT)) throw new HttpProblem(413, BODY_MESSAGES.tooLarge);
      if (!route.body && !route.rawBody && hasBody(ctx.req)) throw new HttpProblem(400, BODY_MESSAGES.noBody);
      // After the checks the gateway also makes before it proxies, as the gateway counted them.
      if (limit) await limit.take(clientAddress(ctx), principal);
      const input = {
        principal,
        params: parse(route.params, ctx.params, 'params'),
        query: parse(route.query, ctx.query, 'query'),
        body: route.rawBody ? undefined : parse(route.body, (ctx.request as { body?: unknown }).body ?? {}, 'body'),
      };
      const result = await handler(ctx, input as RouteInput<RouteDef>);
      if (ctx.body === undefined || ctx.body === null) {
        if (result === undefined) {
          ctx.status = route.status ?? 204;
        } else {
          ctx.status = route.status ?? 200;
          ctx.body = result;
        }
      }
      if (!route.binary) ctx.set('Cache-Control', 'no-store');
    });
  }
  return router;
}

function parse(schema: z.ZodType | undefined, value: unknown, where: 'body' | 'query' | 'params'): unknown {
  if (!schema) return undefined;
  const result = schema.safeParse(value);
  if (!result.success) {
    // A malformed id in a path is simply an unknown object.
    if (where === 'params') throw new HttpProblem(404, 'Not found.');
    throw fromZodError(result.error, where);
  }
  return result.data;
}
