import { z } from 'zod';
import { MESSAGES } from './messages';

/**
 * One rule for every text a client sends (request bodies and query strings), issue 7.
 *
 * - No NUL (PostgreSQL text cannot hold U+0000) and no lone UTF-16 surrogate (PostgreSQL jsonb
 *   refuses "\ud800", and a varchar would silently get U+FFFD). Pairs (emoji, other astral
 *   characters) and accents are fine.
 * - A maximum that the column storing the value can hold. zod 4.6 measures string lengths in
 *   Unicode code points, as PostgreSQL's varchar(n) counts characters, so `max ≤ n` always fits and
 *   an emoji counts as one (text.test.ts checks every stored field against its migration column).
 */

/** True when the text holds neither NUL nor a lone surrogate. */
export function isAllowedText(value: string): boolean {
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    if (c === 0) return false;
    if (c >= 0xd800 && c <= 0xdbff) {
      const next = value.charCodeAt(i + 1);
      if (!(next >= 0xdc00 && next <= 0xdfff)) return false;
      i++;
    } else if (c >= 0xdc00 && c <= 0xdfff) {
      return false;
    }
  }
  return true;
}

export interface TextOptions {
  /** At most this many characters (code points); not more than the width of the column that stores it. */
  max: number;
  /** Message when the value is missing or not a string (zod's default otherwise). */
  error?: string;
  /** Trim surrounding white space before the checks (default true; passwords are taken as typed). */
  trim?: boolean;
}

/**
 * A text field: a string, trimmed (unless `trim: false`), at most `max` long
 * (MESSAGES.common.tooLong), without NUL or lone surrogates (MESSAGES.common.textInvalid).
 * Chain `.min()`, `.regex()`, `.pipe()` as needed; every text schema of a request is built on it.
 */
export function text({ max, error, trim = true }: TextOptions): z.ZodString {
  const base = error === undefined ? z.string() : z.string({ error });
  return (trim ? base.trim() : base)
    .max(max, { error: MESSAGES.common.tooLong })
    .refine(isAllowedText, { error: MESSAGES.common.textInvalid });
}

/** A required text: missing, not a string or blank all give the same message. */
export const requiredText = (message: string, max: number) =>
  text({ max, error: message }).min(1, { error: message });

/** Optional text sent as an empty string (middle name, suffix, note). */
export const optionalText = (max: number) => text({ max }).default('');

/** An optional search term of a list query (used in a LIKE pattern, never stored). */
export const searchParam = (max = 100) => text({ max }).optional();

/** A whole number in a query string: plain decimal digits only ("10", not "0x10", "1e3", " 3"). */
export const queryInt = (min: number, max: number) => {
  const error = `Enter a whole number from ${min} to ${max}.`;
  return z
    .string({ error })
    .regex(/^\d{1,9}$/, { error })
    .transform(Number)
    .pipe(z.number().int().min(min, { error }).max(max, { error }));
};

/**
 * A whole number in a JSON body: a JSON number only (no "3", "0x10", true or [1]), integer, in
 * [min, max]. `error` is the message for a missing value or a value that is not a number; `range`
 * for a number out of range or with decimals (defaults to `error`).
 */
export const bodyInt = (opts: { min: number; max: number; error: string; range?: string; maxError?: string }) => {
  const range = opts.range ?? opts.error;
  return z
    .number({ error: opts.error })
    .int({ error: range })
    .min(opts.min, { error: range })
    .max(opts.max, { error: opts.maxError ?? range });
};
