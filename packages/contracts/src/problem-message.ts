/** Reads the best human message from a problem+json body (for toasts). No zod: browser code. */
export function problemMessage(body: unknown, fallback = 'Something went wrong.'): string {
  if (!body || typeof body !== 'object') return fallback;
  const p = body as { detail?: unknown; title?: unknown; errors?: unknown };
  if (Array.isArray(p.errors) && p.errors.length > 0) {
    const messages = p.errors
      .map((e) => (e && typeof e === 'object' && typeof (e as { message?: unknown }).message === 'string' ? (e as { message: string }).message : undefined))
      .filter((m): m is string => Boolean(m));
    if (messages.length) return messages.join(' ');
  }
  if (typeof p.detail === 'string' && p.detail) return p.detail;
  if (typeof p.title === 'string' && p.title) return p.title;
  return fallback;
}
