import { createHash, createHmac, timingSafeEqual } from 'node:crypto';

/**
 * The one-click "no more reminders" link of every reminder (issue 24): `<userId>.<HMAC-SHA256>`,
 * signed with a key derived from INTERNAL_TOKEN (the secret every process of a deployment already
 * shares, so there is no new one to set). Nothing is stored: the link of any reminder keeps
 * working, and changing INTERNAL_TOKEN voids every link sent before (the preference stays on the
 * customer's account page).
 */
const keyOf = (secret: string) => createHash('sha256').update(`dme:unsubscribe-link\n${secret}`).digest();
const signatureOf = (secret: string, userId: string) => createHmac('sha256', keyOf(secret)).update(`unsubscribe:${userId}`).digest('base64url');

export function unsubscribeToken(secret: string, userId: string): string {
  return `${userId}.${signatureOf(secret, userId)}`;
}

/** The account a link was made for, or undefined for one not signed by us. */
export function unsubscribeUserOf(secret: string, token: string): string | undefined {
  const dot = token.indexOf('.');
  if (dot < 0) return undefined;
  const userId = token.slice(0, dot);
  if (!/^[0-9a-f-]{36}$/.test(userId)) return undefined;
  const given = Buffer.from(token.slice(dot + 1));
  const expected = Buffer.from(signatureOf(secret, userId));
  return given.length === expected.length && timingSafeEqual(given, expected) ? userId : undefined;
}
