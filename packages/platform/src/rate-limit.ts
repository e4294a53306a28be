import { createHash } from 'node:crypto';
import { isIP } from 'node:net';
import type { Context } from 'koa';
import type { EntityManager } from '@mikro-orm/postgresql';
import { RateLimiterPostgres, RateLimiterRes } from 'rate-limiter-flexible';
import { HttpProblem, tooManyRequests } from './errors';
import { IDENTITY_HEADERS, type Principal } from './principal';
import { schemaOf } from './sql';

/**
 * Limits per client address shared by every replica of a service (issue 30): registration and the
 * account links in identity, anonymous uploads in the catalog. The counts are rows of
 * rate-limiter-flexible's PostgreSQL store in the service's own schema (`rate_limits`, made by the
 * service's migration with rateLimitTableSql, so no DDL runs at request time). Windows are fixed:
 * the first request from an address opens one of `windowSeconds`; past `max` requests in it the
 * address gets 429 with Retry-After until it ends. A refused request does nothing else.
 */

/** The answer over the limit, as the gateway gave it when it counted these in its memory. */
export const ADDRESS_LIMIT_MESSAGE = 'Too many requests from your address. Please try again later.';
/** The answer when the count cannot be kept (PostgreSQL does not answer): 503, nothing done. */
export const LIMIT_STORE_UNAVAILABLE_MESSAGE = 'The service is not available right now. Please try again in a moment.';

export const RATE_LIMIT_TABLE = 'rate_limits';

/**
 * The store's table, exactly as RateLimiterPostgres expects it (its columns, in its order: it
 * inserts positionally), plus an index for the clean-up of ended windows.
 */
export function rateLimitTableSql(schema: string, table = RATE_LIMIT_TABLE): string[] {
  return [
    `create table "${schema}"."${table}" (
      "key" varchar(255) primary key,
      "points" integer not null default 0,
      "expire" bigint
    )`,
    `create index "${table}_expire_idx" on "${schema}"."${table}" ("expire")`,
  ];
}

/** The client's address: the gateway sends it (believed only with the internal token, mountRoutes). */
export const clientAddress = (ctx: Context): string => ctx.get(IDENTITY_HEADERS.clientIp) || ctx.ip || '';

/**
 * The address a limit counts. IPv4 as it is (also when written IPv4-mapped, ::ffff:a.b.c.d); IPv6
 * by its /64 network, since one subscriber is usually given a whole /64 and could otherwise use
 * a fresh address for every request.
 */
export function addressKey(raw: string): string {
  let ip = raw.trim().toLowerCase();
  if (ip.startsWith('[') && ip.endsWith(']')) ip = ip.slice(1, -1);
  const zone = ip.indexOf('%');
  if (zone >= 0) ip = ip.slice(0, zone);
  if (isIP(ip) !== 6) return ip || 'unknown';
  const groups = expandIpv6(ip);
  if (groups.slice(0, 5).every((g) => g === 0) && groups[5] === 0xffff) {
    return [groups[6]! >> 8, groups[6]! & 0xff, groups[7]! >> 8, groups[7]! & 0xff].join('.');
  }
  return `${groups.slice(0, 4).map((g) => g.toString(16)).join(':')}::/64`;
}

/** The eight 16-bit groups of a valid IPv6 address (:: and a trailing dotted IPv4 expanded). */
function expandIpv6(ip: string): number[] {
  const toGroups = (part: string): number[] => {
    if (!part) return [];
    return part.split(':').flatMap((g) => {
      if (g.includes('.')) {
        const [a, b, c, d] = g.split('.').map(Number) as [number, number, number, number];
        return [(a << 8) | b, (c << 8) | d];
      }
      return [parseInt(g, 16)];
    });
  };
  const [head = '', tail] = ip.split('::') as [string, string | undefined];
  const h = toGroups(head);
  if (tail === undefined) return h;
  const t = toGroups(tail);
  return [...h, ...Array<number>(8 - h.length - t.length).fill(0), ...t];
}

export interface AddressLimitOptions {
  /** The limit's name, the prefix of its keys (e.g. `register`); one table holds several limits. */
  name: string;
  /** Requests one address may make in a window. */
  max: number;
  windowSeconds: number;
  /** Count only callers who are not signed in (signed-in callers pass uncounted). */
  anonymousOnly?: boolean;
  table?: string;
}

export interface AddressLimit {
  readonly name: string;
  /**
   * Counts one request from `address` (unless `anonymousOnly` and `principal` is set). Over the
   * limit: throws 429 problem with Retry-After (the rest of the window). When the store does not
   * answer: throws 503 with Retry-After, so the request is refused, never answered with a 500.
   */
  take(address: string, principal?: Principal): Promise<void>;
}

/**
 * A limit per address counted in the service's own schema (the ORM's), through the ORM's pool.
 * Keys are `<name>:` + the SHA-256 of the address (IPv6 by /64): the table keeps no list of
 * addresses. Ended windows are deleted by the store itself every 5 minutes (an hour after they end).
 */
export function addressLimit(em: EntityManager, opts: AddressLimitOptions): AddressLimit {
  const limiter = new RateLimiterPostgres({
    storeClient: em.getConnection().getKnex(),
    storeType: 'knex',
    schemaName: schemaOf(em),
    tableName: opts.table ?? RATE_LIMIT_TABLE,
    tableCreated: true,
    keyPrefix: opts.name,
    points: opts.max,
    duration: opts.windowSeconds,
  });
  return {
    name: opts.name,
    async take(address, principal) {
      if (opts.anonymousOnly && principal) return;
      const key = createHash('sha256').update(addressKey(address)).digest('hex');
      try {
        await limiter.consume(key, 1);
      } catch (err) {
        if (err instanceof RateLimiterRes) throw tooManyRequests(ADDRESS_LIMIT_MESSAGE, err.msBeforeNext / 1000);
        throw Object.assign(new HttpProblem(503, LIMIT_STORE_UNAVAILABLE_MESSAGE, undefined, { 'Retry-After': '5' }), { cause: err });
      }
    },
  };
}
