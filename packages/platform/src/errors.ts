import { PROBLEM_TITLES, type FieldError, type Problem } from '@dme/contracts';
import type { z } from 'zod';

/** An error that becomes an RFC 9457 problem answer. */
export class HttpProblem extends Error {
  constructor(
    readonly status: number,
    readonly detail?: string,
    readonly errors?: FieldError[],
    readonly headers?: Record<string, string>,
  ) {
    super(detail ?? PROBLEM_TITLES[status] ?? `HTTP ${status}`);
  }

  toProblem(instance?: string): Problem {
    return {
      type: `https://dme.example/problems/${status2slug(this.status)}`,
      title: PROBLEM_TITLES[this.status] ?? 'Error',
      status: this.status,
      // Every problem says what is wrong, at least in the words of its status.
      detail: this.detail ?? `${PROBLEM_TITLES[this.status] ?? 'Error'}.`,
      ...(instance ? { instance } : {}),
      ...(this.errors && this.errors.length ? { errors: this.errors } : {}),
    };
  }
}

function status2slug(status: number): string {
  return (PROBLEM_TITLES[status] ?? 'error').toLowerCase().replace(/[^a-z]+/g, '-');
}

export const badRequest = (detail: string, errors?: FieldError[]) => new HttpProblem(400, detail, errors);
export const unauthorized = (detail = 'Please sign in.') => new HttpProblem(401, detail);
export const forbidden = (detail = 'You are not allowed to do this.') => new HttpProblem(403, detail);
export const notFound = (detail = 'Not found.') => new HttpProblem(404, detail);
export const conflict = (detail: string) => new HttpProblem(409, detail);
export const tooLarge = (detail: string) => new HttpProblem(413, detail);
export const unsupportedMedia = (detail: string) => new HttpProblem(415, detail);
export const unprocessable = (detail: string) => new HttpProblem(422, detail);
export const tooManyRequests = (detail: string, retryAfterSeconds: number) =>
  new HttpProblem(429, detail, undefined, { 'Retry-After': String(Math.max(1, Math.ceil(retryAfterSeconds))) });

/** A zod failure as a 400 with one entry per field (first message of each field first). */
export function fromZodError(error: z.ZodError, where: 'body' | 'query' | 'params' = 'body'): HttpProblem {
  const errors: FieldError[] = error.issues.map((issue) => ({
    field: issue.path.length ? issue.path.map(String).join('.') : where,
    message: issue.message,
  }));
  const detail = errors.length === 1 ? errors[0]!.message : 'Some fields are not valid.';
  return badRequest(detail, errors);
}
