/**
 * What `npm test -- api` hands the system suite (scripts/test.ts starts the stack once and sets
 * these). Each getter throws a clear message when the suite runs without the stack.
 */
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

function need(name: string): string {
  const v = process.env[name];
  if (!v) throw new Error(`${name} is not set: run this suite through \`npm test -- api\` (it starts the stack and sets E2E_*).`);
  return v;
}

export const env = {
  get baseUrl(): string {
    return need('E2E_BASE_URL').replace(/\/$/, '');
  },
  get databaseUrl(): string {
    return need('E2E_DATABASE_URL');
  },
  get serviceUrls(): Record<string, string> {
    return JSON.parse(need('E2E_SERVICE_URLS')) as Record<string, string>;
  },
  get internalToken(): string {
    return need('E2E_INTERNAL_TOKEN');
  },
  get demoPassword(): string {
    return process.env.E2E_DEMO_PASSWORD ?? 'demo-pass-2026';
  },
  get root(): string {
    return process.env.E2E_ROOT ?? resolve(fileURLToPath(new URL('.', import.meta.url)), '../../..');
  },
};

export const DEMO_USERS = ['superadmin', 'warehouseadmin', 'warehousestaff', 'accounting', 'driver', 'customer'] as const;
export type DemoUser = (typeof DEMO_USERS)[number];

export { TINY_PNG } from '@dme/testing';
