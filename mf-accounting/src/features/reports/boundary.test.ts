import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { describe, expect, it } from 'vitest';

const SRC = join(import.meta.dirname, '..', '..');

function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? files(join(dir, e.name)) : /\.tsx?$/.test(e.name) ? [join(dir, e.name)] : []));
}

describe('the chart library stays in the reports chunk', () => {
  it('is imported only by modules under features/reports', () => {
    const importers = files(SRC)
      .filter((f) => !f.endsWith('.test.ts') && !f.endsWith('.test.tsx'))
      .filter((f) => /from\s+['"]recharts['"]|import\(\s*['"]recharts['"]\s*\)/.test(readFileSync(f, 'utf8')))
      .map((f) => relative(SRC, f).split(sep).join('/'));
    expect(importers).toEqual(['features/reports/ReportCharts.tsx']);
  });

  it('is reached only through the lazily loaded reports screen', () => {
    const routes = readFileSync(join(SRC, 'routes.tsx'), 'utf8');
    expect(routes).toMatch(/lazy\(\(\) => import\('\.\/features\/reports\/ReportsPage'\)\)/);
    const others = files(SRC).filter((f) => !relative(SRC, f).startsWith(`features${sep}reports`) && !/\.test\.tsx?$/.test(f));
    for (const f of others) expect(readFileSync(f, 'utf8'), relative(SRC, f)).not.toMatch(/from\s+['"][./]*features\/reports\//);
  });
});
