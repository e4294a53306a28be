import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';

/**
 * What axe-core finds critical or serious on the page as it is (issues 13, 27). Only violations
 * are asked for (`resultTypes`): axe then skips building the selectors and details of every node
 * that passed, most of its time on a large antd screen, and the violations it answers are the same.
 */
export async function seriousViolations(page: Page) {
  const { violations } = await new AxeBuilder({ page }).options({ resultTypes: ['violations'] }).analyze();
  return violations.filter((v) => v.impact === 'critical' || v.impact === 'serious');
}
