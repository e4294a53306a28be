import { timingSafeEqual } from 'node:crypto';
import { USER_TYPES, type UserType } from '@dme/contracts';

/** Headers only the gateway sets; any such header a client sends is stripped by the gateway. */
export const IDENTITY_HEADERS = {
  internalToken: 'x-dme-internal-token',
  userId: 'x-dme-user-id',
  userType: 'x-dme-user-type',
  username: 'x-dme-username',
  sessionId: 'x-dme-session-id',
  clientIp: 'x-dme-client-ip',
} as const;

export const IDENTITY_HEADER_PREFIX = 'x-dme-';

export interface Principal {
  userId: string;
  userType: UserType;
  username: string;
  sessionId?: string;
}

export function tokensEqual(a: string | undefined, b: string): boolean {
  if (typeof a !== 'string') return false;
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/**
 * Reads the caller from gateway headers. Headers count only when they come with the internal
 * token, so a request that reaches a service without passing the gateway has no identity.
 */
export function principalFromHeaders(
  headers: Record<string, string | string[] | undefined>,
  internalToken: string,
): { trusted: boolean; principal?: Principal } {
  const h = (name: string) => {
    const v = headers[name];
    return Array.isArray(v) ? v[0] : v;
  };
  const trusted = tokensEqual(h(IDENTITY_HEADERS.internalToken), internalToken);
  if (!trusted) return { trusted };
  const userId = h(IDENTITY_HEADERS.userId);
  const userType = h(IDENTITY_HEADERS.userType);
  const username = h(IDENTITY_HEADERS.username) ?? '';
  if (!userId || !userType || !(USER_TYPES as readonly string[]).includes(userType)) return { trusted };
  const sessionId = h(IDENTITY_HEADERS.sessionId);
  return { trusted, principal: { userId, userType: userType as UserType, username, ...(sessionId ? { sessionId } : {}) } };
}
