import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { describe, expect, it } from 'vitest';
import * as browserContracts from '@dme/contracts/browser';

/**
 * Issue 13: zod must not reach the shop's screens. A module that defines zod schemas runs zod's
 * `new Function` probe as it loads, a CSP violation under the gateway's script-src 'self' (no
 * 'unsafe-eval'), and 23 KB more for the customer. The shop takes values from the zod-free
 * '@dme/contracts/browser' and only types from '@dme/contracts'.
 */
const SRC = join(import.meta.dirname);
const PACKAGES = join(import.meta.dirname, '..', '..', 'packages');

function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? (e.name === 'test' || e.name === 'testing' ? [] : files(join(dir, e.name))) : /\.tsx?$/.test(e.name) && !/\.test\.tsx?$/.test(e.name) ? [join(dir, e.name)] : [],
  );
}

/** The names a file imports as values (not `import type`, not `type X`) from a module. */
function valueImports(text: string, from: string): string[] {
  const re = new RegExp(String.raw`import\s+(type\s+)?(?:\{([^}]*)\}|\*\s+as\s+\w+|\w+)\s+from\s+'${from.replaceAll('/', '\\/')}'`, 'g');
  return [...text.matchAll(re)].flatMap((m) => {
    if (m[1]) return [];
    if (m[2] === undefined) return ['*'];
    return m[2].split(',').map((s) => s.trim()).filter((s) => s && !s.startsWith('type ')).map((s) => s.split(/\s+as\s+/)[0]!);
  });
}

const name = (f: string, root: string) => relative(root, f).split(sep).join('/');

describe('no zod in the shop (issue 13)', () => {
  const shop = files(SRC);

  it('covers the product, cart and bulk-order screens', () => {
    const names = shop.map((f) => name(f, SRC));
    expect(names).toEqual(expect.arrayContaining(['features/products/ProductPage.tsx', 'features/cart/CartPage.tsx', 'lib/checkout/AddressDialog.tsx', 'lib/checkout/useCheckout.ts', 'features/bulk/BulkOrderPage.tsx']));
  });

  it('never imports zod, and takes only types from the main contracts entry', () => {
    for (const f of shop) {
      const text = readFileSync(f, 'utf8');
      expect(text, name(f, SRC)).not.toMatch(/from\s+['"]zod(\/[^'"]*)?['"]|import\(\s*['"]zod/);
      expect(valueImports(text, '@dme/contracts'), name(f, SRC)).toEqual([]);
      expect(text, name(f, SRC)).not.toMatch(/import\(\s*['"]@dme\/contracts['"]\s*\)/);
    }
  });

  it('uses packages (ui, api-client) that take from the contracts only what the zod-free entry has', () => {
    const used = [...files(join(PACKAGES, 'ui', 'src')), ...files(join(PACKAGES, 'api-client', 'src'))];
    expect(used.length).toBeGreaterThan(5);
    for (const f of used) {
      const text = readFileSync(f, 'utf8');
      expect(text, name(f, PACKAGES)).not.toMatch(/from\s+['"]zod(\/[^'"]*)?['"]/);
      for (const n of valueImports(text, '@dme/contracts')) expect(n in browserContracts, `${name(f, PACKAGES)}: ${n}`).toBe(true);
    }
  });
});
