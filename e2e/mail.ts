/**
 * Reading the e-mail the stack under test sent, for Playwright specs and the system tests: every
 * test stack has a mail catcher of its own (scripts/lib/mail-catcher.ts), whose address `npm test`
 * passes as E2E_MAIL_URL. Tests address each message by its recipient, so tests running side by
 * side never read each other's mail (no need to clear the inbox).
 */
import type { CaughtMailJson } from '../scripts/lib/mail-catcher';

export type Mail = CaughtMailJson;

/** The mail catcher's base URL (E2E_MAIL_URL), without a trailing slash. */
export function mailbox(): string {
  const url = process.env.E2E_MAIL_URL;
  if (!url) throw new Error('E2E_MAIL_URL is not set: run the suite through `npm test` (it starts a mail catcher with the stack).');
  return url.replace(/\/$/, '');
}

/** Every message sent to `to` (an envelope recipient, any case), newest first. */
export async function allMail(to: string): Promise<Mail[]> {
  const res = await fetch(`${mailbox()}/api/messages?to=${encodeURIComponent(to)}`);
  if (!res.ok) throw new Error(`mail catcher: GET /api/messages answered ${res.status}`);
  return (await res.json()) as Mail[];
}

function matches(mail: Mail, match: { subject?: string | RegExp }): boolean {
  if (match.subject === undefined) return true;
  return typeof match.subject === 'string' ? mail.subject.includes(match.subject) : match.subject.test(mail.subject);
}

/**
 * Waits until a message to `to` matches (`subject`: a part of it, or a RegExp) and returns the
 * newest such message. The shop sends from an outbox, a moment after the action that caused it.
 */
export async function waitForMail(to: string, match: { subject?: string | RegExp } = {}, timeoutMs = 15_000): Promise<Mail> {
  const until = Date.now() + timeoutMs;
  let seen: Mail[] = [];
  for (;;) {
    seen = await allMail(to);
    const hit = seen.find((m) => matches(m, match));
    if (hit) return hit;
    if (Date.now() > until) break;
    await new Promise((r) => setTimeout(r, 200));
  }
  const got = seen.length ? `; it got: ${seen.map((m) => JSON.stringify(m.subject)).join(', ')}` : '; it got none';
  throw new Error(`No e-mail to ${to}${match.subject !== undefined ? ` with subject ${String(match.subject)}` : ''} within ${timeoutMs} ms${got}`);
}

/** The first URL in the message's text body whose path starts with `pathPrefix` (e.g. '/reset-password'). */
export function linkIn(mail: Mail, pathPrefix: string): string {
  for (const [raw] of mail.text.matchAll(/https?:\/\/[^\s<>"']+/g)) {
    // A sentence may end right after the link.
    const candidate = raw.replace(/[.,;:!?)\]]+$/, '');
    try {
      if (new URL(candidate).pathname.startsWith(pathPrefix)) return candidate;
    } catch {
      /* not a URL after all: try the next */
    }
  }
  throw new Error(`No link to ${pathPrefix} in the e-mail "${mail.subject}" to ${mail.envelopeTo.join(', ')}:\n${mail.text}`);
}

/**
 * Makes the mail catcher refuse every message to `address` (any case) with this SMTP answer, e.g.
 * 550 'Mailbox unavailable': the shop's relay then marks that message FAILED with the answer.
 */
export async function refuseMailTo(address: string, code: number, message: string): Promise<void> {
  const res = await fetch(`${mailbox()}/api/refusals`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ address, code, message }),
  });
  if (!res.ok) throw new Error(`mail catcher: POST /api/refusals answered ${res.status}: ${await res.text()}`);
}

/** The mail catcher accepts every message again (refuseMailTo undone, for every address). */
export async function acceptAllMail(): Promise<void> {
  const res = await fetch(`${mailbox()}/api/refusals`, { method: 'DELETE' });
  if (!res.ok) throw new Error(`mail catcher: DELETE /api/refusals answered ${res.status}`);
}
