import { describe, expect, it } from 'vitest';
import { fullPaymentPromptText } from './format';

describe('the prompt before asking for the full payment', () => {
  const preview = { extraCharge: '650.00', chargedSerials: [{ serialCode: 'WHE-0000002', status: 'DAMAGED' as const }], balance: '900.00', dueDate: '2026-11-29' };

  it('without a deposit or late fees: the extra charge and the codes it is for, as before issue 29', () => {
    expect(fullPaymentPromptText({ ...preview, lateFees: '0.00', depositApplied: '0.00', depositRefund: '0.00' })).toBe(
      'The extra charge will be the damage or lost fees of every serial code not marked OK: $650.00 (WHE-0000002 (DAMAGED)). The full payment is due one day from now.',
    );
  });

  it('issue 29: says the late fees within it and how the deposit settles it, with the server figures', () => {
    expect(fullPaymentPromptText({ ...preview, extraCharge: '800.00', lateFees: '150.00', depositApplied: '800.00', depositRefund: '200.00' })).toBe(
      'The extra charge will be the damage or lost fees of every serial code not marked OK: $800.00 (WHE-0000002 (DAMAGED)). It includes late fees of $150.00. The deposit of $1,000.00 pays $800.00 of it; $200.00 is refunded. The full payment is due one day from now.',
    );
  });
});
