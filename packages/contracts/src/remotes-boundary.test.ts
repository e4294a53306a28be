import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { describe, expect, it } from 'vitest';
import * as browser from './browser';

/**
 * Issue 13, for every remote (mf-shop, mf-warehouse, mf-accounting, mf-driver and any later
 * mf-*): zod must not reach the browser. A module that defines zod schemas runs zod's
 * `new Function` probe as it loads, a CSP violation under the gateway's script-src 'self' (no
 * 'unsafe-eval'). So a remote never imports zod, and takes values only from the zod-free
 * '@dme/contracts/browser' (browser.test.ts checks that it reaches no zod); types may come from
 * '@dme/contracts' with `import type` (erased). mf-shop/src/boundary.test.ts holds the same rule
 * for the shop alone.
 */
const ROOT = join(import.meta.dirname, '..', '..', '..');
const REMOTES = readdirSync(ROOT, { withFileTypes: true })
  .filter((e) => e.isDirectory() && e.name.startsWith('mf-'))
  .map((e) => e.name)
  .sort();

/** The app's source files, tests and test helpers left out (they never reach the browser). */
function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory()
      ? e.name === 'test' || e.name === 'testing'
        ? []
        : files(join(dir, e.name))
      : /\.tsx?$/.test(e.name) && !/\.test\.tsx?$/.test(e.name) && !/^test-setup\.tsx?$/.test(e.name)
        ? [join(dir, e.name)]
        : [],
  );
}

/**
 * The names a file takes as values (not `import type`, not `type X`) from a module, through
 * `import`/`export ... from`; a namespace, default or bare import counts as '*'.
 */
function valueImports(text: string, from: string): string[] {
  const spec = from.replaceAll('/', '\\/');
  const names: string[] = [];
  for (const m of text.matchAll(new RegExp(String.raw`\b(?:import|export)\s+(type\s+)?([^;'"]*?)\s*from\s*['"]${spec}['"]`, 'g'))) {
    if (m[1]) continue;
    const clause = m[2]!;
    const braces = /\{([^}]*)\}/.exec(clause);
    if (clause.replace(/\{[^}]*\}/, '').replace(/,/g, '').trim()) names.push('*');
    if (braces)
      names.push(
        ...braces[1]!
          .split(',')
          .map((s) => s.trim())
          .filter((s) => s && !s.startsWith('type '))
          .map((s) => s.split(/\s+as\s+/)[0]!),
      );
  }
  if (new RegExp(String.raw`import\s*['"]${spec}['"]|import\(\s*['"]${spec}['"]\s*\)`).test(text)) names.push('*');
  return names;
}

const ZOD = /from\s+['"]zod(\/[^'"]*)?['"]|import\s*['"]zod(\/[^'"]*)?['"]|import\(\s*['"]zod/;
const name = (f: string) => relative(ROOT, f).split(sep).join('/');

describe('no zod in any remote (issue 13)', () => {
  it('finds every remote and the screens that used to load zod', () => {
    expect(REMOTES).toEqual(expect.arrayContaining(['mf-accounting', 'mf-driver', 'mf-shop', 'mf-warehouse']));
    const all = REMOTES.flatMap((r) => files(join(ROOT, r, 'src'))).map(name);
    expect(all).toEqual(
      expect.arrayContaining([
        'mf-warehouse/src/features/bins/BinFormPage.tsx',
        'mf-warehouse/src/features/products/ProductFormPage.tsx',
        'mf-warehouse/src/features/stock/AddStockModal.tsx',
        'mf-warehouse/src/features/orders/OrderDetailPage.tsx',
        'mf-warehouse/src/features/orders/usePacking.ts',
        'mf-warehouse/src/features/orders/RentalSteps.tsx',
        'mf-warehouse/src/features/rentals/OngoingRentalsPage.tsx',
        'mf-accounting/src/app.tsx',
        'mf-accounting/src/features/payments/labels.ts',
        'mf-accounting/src/features/reports/ReportsPage.tsx',
        'mf-driver/src/features/orders/ScanDialog.tsx',
        'mf-shop/src/features/cart/CartPage.tsx',
      ]),
    );
  });

  it.each(REMOTES)('%s never imports zod, and takes only types from the main contracts entry', (remote) => {
    const src = files(join(ROOT, remote, 'src'));
    expect(src.length, remote).toBeGreaterThan(3);
    for (const f of src) {
      const text = readFileSync(f, 'utf8');
      expect(text, name(f)).not.toMatch(ZOD);
      expect(valueImports(text, '@dme/contracts'), name(f)).toEqual([]);
      for (const n of valueImports(text, '@dme/contracts/browser')) expect(n in browser, `${name(f)}: ${n}`).toBe(true);
    }
  });

  it('uses packages (ui, api-client) and a shell that take from the contracts only what the zod-free entry has', () => {
    const used = ['packages/ui/src', 'packages/api-client/src', 'shell/src'].flatMap((d) => files(join(ROOT, d)));
    expect(used.length).toBeGreaterThan(10);
    for (const f of used) {
      const text = readFileSync(f, 'utf8');
      expect(text, name(f)).not.toMatch(ZOD);
      for (const n of valueImports(text, '@dme/contracts')) expect(n in browser, `${name(f)}: ${n}`).toBe(true);
    }
  });

  it('reads value imports the way the guard needs', () => {
    // The package name is put together so that these sample lines are not imports of ours themselves.
    const C = ['@dme', 'contracts'].join('/');
    expect(valueImports(`import { A, type B, C as D } from '${C}';`, C)).toEqual(['A', 'C']);
    expect(valueImports(`import type { A } from '${C}';\nimport * as all from '${C}';`, C)).toEqual(['*']);
    expect(valueImports(`import {\n  A,\n  type B,\n} from '${C}';`, C)).toEqual(['A']);
    expect(valueImports(`export { A } from '${C}';\nconst m = import('${C}');`, C)).toEqual(['A', '*']);
    expect(valueImports(`import { A } from '${C}/browser';`, C)).toEqual([]);
    expect(`import { z } from 'zod';`).toMatch(ZOD);
    expect(`import { z } from 'zod/v4/mini';`).toMatch(ZOD);
  });
});
