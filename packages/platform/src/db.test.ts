import { describe, expect, it } from 'vitest';
import { containsPattern } from './db';

describe('containsPattern', () => {
  it('takes the user’s % _ and \\ literally', () => {
    expect(containsPattern('wheel')).toBe('%wheel%');
    expect(containsPattern('50%_off\\')).toBe('%50\\%\\_off\\\\%');
  });
});
