import { timingSafeEqual } from 'node:crypto';
import { USER_TYPES, type UserType } from '@dme/contracts';

/** Headers only the gateway sets; any such header a client sends is stripped by the gateway. */
export const IDENTITY_HEADERS = {
  internalToken: 'x-dme-internal-token',
  userId: 'x-dme-user-id',
  userType: 'x-dme-user-type',
  username: 'x-dme-username',
  /** The person's full name (first and last), URI-encoded (a header value is Latin-1 only). */
  name: 'x-dme-name',
  sessionId: 'x-dme-session-id',
  clientIp: 'x-dme-client-ip',
} as const;

export const IDENTITY_HEADER_PREFIX = 'x-dme-';

export interface Principal {
  userId: string;
  userType: UserType;
  username: string;
  /** The person's full name as identity knows it now; absent when unknown (use the username). */
  name?: string;
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
  const name = decodeName(h(IDENTITY_HEADERS.name));
  return { trusted, principal: { userId, userType: userType as UserType, username, ...(name ? { name } : {}), ...(sessionId ? { sessionId } : {}) } };
}

function decodeName(v: string | undefined): string | undefined {
  if (!v) return undefined;
  try {
    return decodeURIComponent(v).trim() || undefined;
  } catch {
    return undefined;
  }
}

/** How a record names the person who acted: their full name, or their username when the name is unknown. */
export function personName(p: Pick<Principal, 'name' | 'username'>): string {
  return p.name?.trim() || p.username;
}
