import { ADDRESS_LIMIT_MESSAGE } from '@dme/platform';
import type { Json } from './index';

/**
 * What a test reads of an answer refused by a per-address limit (issue 30's registration and
 * anonymous-upload limits): compare it with `ADDRESS_LIMITED`. One home for the shape the services
 * promise: 429 problem+json with the limit's text and a Retry-After of 1 s to an hour.
 */
export function addressLimitAnswer(res: { status: number; headers: Headers; body: Json }) {
  const retryAfter = Number(res.headers.get('retry-after'));
  return {
    status: res.status,
    problemJson: /^application\/problem\+json/.test(res.headers.get('content-type') ?? ''),
    problem: { status: res.body?.status, title: res.body?.title, detail: res.body?.detail },
    retryAfterWithinAnHour: Number.isInteger(retryAfter) && retryAfter >= 1 && retryAfter <= 3600,
  };
}

export const ADDRESS_LIMITED: ReturnType<typeof addressLimitAnswer> = {
  status: 429,
  problemJson: true,
  problem: { status: 429, title: 'Too Many Requests', detail: ADDRESS_LIMIT_MESSAGE },
  retryAfterWithinAnHour: true,
};
