import { describe, expect, it } from 'vitest';
import { ROUTES, type RouteDef } from '@dme/contracts';
import { compileRoutes, matchRoute, type Match } from './routing';

const route = (method: RouteDef['method'], path: string): RouteDef => ({ method, path, service: 'identity', access: 'public', tag: 'test' }) as unknown as RouteDef;

/** A small table with the shapes that matter: a literal beside a parameter, methods sharing a path. */
const TABLE: Record<string, RouteDef> = {
  usersList: route('GET', '/api/users'),
  usersMe: route('GET', '/api/users/me'),
  usersGet: route('GET', '/api/users/:id'),
  usersPatch: route('PATCH', '/api/users/:id'),
  usersStatus: route('PATCH', '/api/users/:id/status'),
  stocksQr: route('GET', '/api/stocks/:id/qr.png'),
  stocksBySerial: route('GET', '/api/stocks/by-serial/:serialCode'),
  settle: route('POST', '/api/recalls/:id/units/:serialCode/settle'),
};
const compiled = compileRoutes(TABLE);
const id = (m: Match) => (m === undefined ? 'none' : 'methodNotAllowed' in m ? '405' : m.route.id);
const match = (method: string, path: string) => id(matchRoute(compiled, method, path));

describe('API route matching (find-my-way)', () => {
  it('finds a route by method and path, with its definition', () => {
    const m = matchRoute(compiled, 'GET', '/api/users/42');
    expect(m && 'route' in m ? m.route : undefined).toEqual({ id: 'usersGet', def: TABLE.usersGet });
    expect(match('PATCH', '/api/users/42')).toBe('usersPatch');
    expect(match('POST', '/api/recalls/7/units/SN-1/settle')).toBe('settle');
  });

  it('lets a literal segment win over a parameter', () => {
    expect(match('GET', '/api/users/me')).toBe('usersMe');
    expect(match('GET', '/api/stocks/by-serial/SN-1')).toBe('stocksBySerial');
    expect(match('GET', '/api/stocks/by-serial/qr.png')).toBe('stocksBySerial');
    expect(match('GET', '/api/stocks/5/qr.png')).toBe('stocksQr');
    // /users/me is GET only: PATCH /users/me is the parameter route.
    expect(match('PATCH', '/api/users/me')).toBe('usersPatch');
  });

  it('answers 405 for a path only another method has, and nothing for an unknown path', () => {
    expect(match('DELETE', '/api/users/42')).toBe('405');
    expect(match('POST', '/api/users')).toBe('405');
    expect(match('OPTIONS', '/api/users')).toBe('405');
    expect(match('GET', '/api/users/42/status')).toBe('405');
    expect(match('GET', '/api/nope')).toBe('none');
    expect(match('DELETE', '/api/nope')).toBe('none');
    expect(match('GET', '/api/users/42/status/x')).toBe('none');
    // Methods no route uses (or names that are no method) are looked up safely.
    expect(match('__proto__', '/api/users')).toBe('405');
    expect(match('constructor', '/api/nope')).toBe('none');
  });

  it('looks HEAD up as GET', () => {
    expect(match('HEAD', '/api/users/me')).toBe('usersMe');
    expect(match('HEAD', '/api/users/42')).toBe('usersGet');
    expect(match('HEAD', '/api/recalls/7/units/SN-1/settle')).toBe('405');
  });

  it('allows one trailing slash, never an empty segment', () => {
    expect(match('GET', '/api/users/')).toBe('usersList');
    expect(match('GET', '/api/users/42/')).toBe('usersGet');
    expect(match('GET', '/api/users//')).toBe('none');
    expect(match('GET', '/api/users//status')).toBe('none');
    expect(match('PATCH', '/api/users//status')).toBe('none');
    expect(match('GET', '/api//users')).toBe('none');
    expect(match('GET', 'api/users')).toBe('none');
  });

  it('matches the path as it came: a parameter is any text up to the next slash, encoded or not', () => {
    for (const value of ['a%2Fb', 'm%65', '%E0%A4%A', '100%25', '%', 'a%3Fb', 'a?b', 'a#b', 'a;b', 'a b', 'ü', '..', 'x'.repeat(500)]) {
      expect(match('GET', `/api/users/${value}`), value).toBe('usersGet');
      expect(match('PATCH', `/api/users/${value}/status`), value).toBe('usersStatus');
    }
    // A literal segment matches only as written: encoded, it is a parameter's value.
    expect(match('GET', '/api/users/m%65')).toBe('usersGet');
    expect(match('GET', '/api/stocks/by%2Dserial/SN-1')).toBe('none');
    expect(match('GET', '/api/stocks/5/qr%2Epng')).toBe('none');
    // Case matters.
    expect(match('GET', '/api/USERS')).toBe('none');
    expect(match('GET', '/api/users/ME')).toBe('usersGet');
  });

  it('finds every route of the real table at its own path', () => {
    const real = compileRoutes();
    for (const [routeId, def] of Object.entries(ROUTES)) {
      const path = def.path.replace(/:[A-Za-z]+/g, 'x1');
      const m = matchRoute(real, def.method, path);
      expect(m && 'route' in m ? m.route.def : undefined, routeId).toEqual(expect.objectContaining({ method: def.method }));
      // The route found is this one, or a more literal one for the same filled-in path.
      if (m && 'route' in m && m.route.id !== routeId) expect(m.route.def.path.split(':').length, routeId).toBeLessThan(def.path.split(':').length);
    }
  });

  it('refuses an invalid table when compiling', () => {
    expect(() => compileRoutes({ ...TABLE, bad: { ...route('GET', '/api/bad'), access: 'nobody' } as unknown as RouteDef })).toThrow(/bad: no valid access rule/);
    expect(() => compileRoutes({ ...TABLE, dup: route('GET', '/api/users') })).toThrow(/duplicate GET \/api\/users/);
  });
});
