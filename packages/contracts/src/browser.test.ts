import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import * as browser from './browser';
import * as all from './index';

/** Every module browser.ts reaches through relative imports (type-only imports are erased). */
function reached(file: string, seen = new Set<string>()): Set<string> {
  if (seen.has(file)) return seen;
  seen.add(file);
  const text = readFileSync(join(import.meta.dirname, file), 'utf8');
  for (const m of text.matchAll(/^(?:import|export)\s+(?!type\b)[^'"]*from\s+'(\.\/[\w-]+)'/gm)) reached(`${m[1]}.ts`, seen);
  return seen;
}

describe('@dme/contracts/browser (issue 13: no zod in the browser)', () => {
  it('reaches no module that imports zod', () => {
    const modules = [...reached('./browser.ts')];
    expect(modules.length).toBeGreaterThan(5);
    for (const f of modules) expect(readFileSync(join(import.meta.dirname, f), 'utf8'), f).not.toMatch(/from\s+['"]zod['"]|import\(\s*['"]zod['"]/);
  });

  it('exports the same values as the main entry', () => {
    for (const [name, value] of Object.entries(browser)) expect(all[name as keyof typeof all], name).toBe(value);
  });
});
