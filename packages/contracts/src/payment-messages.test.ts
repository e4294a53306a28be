import { describe, expect, it } from 'vitest';
import { daysChangeLabel } from './payment-messages';

describe('daysChangeLabel (issue 29: extensions on the invoice and the payment screen)', () => {
  it.each([
    ['EXTEND', 2, 'Extension (+2 days)'],
    ['EXTEND', 1, 'Extension (+1 day)'],
    ['END_EARLY', -3, 'Ended early (−3 days)'],
    ['END_EARLY', -1, 'Ended early (−1 day)'],
  ] as const)('%s %i → %s', (kind, days, label) => {
    expect(daysChangeLabel(kind, days)).toBe(label);
  });
});
