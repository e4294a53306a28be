import { describe, expect, it } from 'vitest';
import { problemMessage } from './problem-message';

describe('problemMessage', () => {
  it('prefers field messages, then detail, then title, then the fallback', () => {
    expect(problemMessage({ title: 'Bad Request', detail: 'x', errors: [{ field: 'a', message: 'A!' }, { field: 'b', message: 'B!' }] })).toBe('A! B!');
    expect(problemMessage({ title: 'Conflict', detail: 'Username is already taken.' })).toBe('Username is already taken.');
    expect(problemMessage({ title: 'Not Found' })).toBe('Not Found');
    expect(problemMessage('<html>', 'fallback')).toBe('fallback');
    expect(problemMessage(undefined)).toBe('Something went wrong.');
  });
});
