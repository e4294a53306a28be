import { describe, expect, it } from 'vitest';
import { MESSAGE_STATUSES, messageInFlight, type MessageStatus } from './outbox-labels';

describe('messageInFlight: a message the relay still has, which the screens showing it poll', () => {
  const expected: Record<MessageStatus, boolean> = { QUEUED: true, SENDING: true, SENT: false, FAILED: false };
  it.each(MESSAGE_STATUSES.map((s) => [s, expected[s]] as const))('%s → %s', (status, inFlight) => {
    expect(messageInFlight(status)).toBe(inFlight);
  });
});
