/**
 * The gateway's live-update stream (text/event-stream): one `change` event per order, payment or
 * request change (its schema, LiveEvent, is in rentals.ts). Kept free of zod on purpose: the
 * remotes import these on their first screen, and a module with schemas would bring zod along
 * (the customer's JS budget, DESIGN §12).
 */
export const LIVE_EVENTS_PATH = '/api/events';
export const LIVE_KINDS = ['order', 'payment', 'request'] as const;
