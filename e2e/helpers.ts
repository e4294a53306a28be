import { randomBytes } from 'node:crypto';
import { expect, type APIRequestContext, type Locator, type Page } from '@playwright/test';
import { DEMO_PASSWORD } from './fixtures';
import { encodePng } from '../scripts/lib/png';

/** A small valid PNG (solid grey), with the same encoder the seed uses. */
export function makePng(size = 8): Buffer {
  return encodePng(size, size, () => [0x7a, 0x7a, 0x7a]);
}

export function uniqueName(prefix: string): string {
  return `${prefix}_${randomBytes(4).toString('hex')}`;
}

export function person(username: string) {
  return {
    username,
    password: 'e2e-password-1',
    firstName: 'Elena',
    middleName: '',
    lastName: 'Torres',
    suffix: '',
    birthDate: '1985-06-15',
    gender: 'FEMALE',
    contactNumber: '+63 917 000 1111',
    email: `${username}@example.com`,
    address: '5 Mabini St',
    city: 'Quezon City',
    state: 'Metro Manila',
    zipcode: '110100',
  };
}

/** Registers a customer through the API (with an uploaded image), for tests that need a fresh one. */
export async function registerByApi(request: APIRequestContext, username = uniqueName('cust'), over: Partial<ReturnType<typeof person>> = {}) {
  const upload = await request.post('/api/uploads', { multipart: { image: { name: 'me.png', mimeType: 'image/png', buffer: makePng() } } });
  const { imagePath } = (await upload.json()) as { imagePath: string };
  const body = { ...person(username), ...over, image: imagePath };
  const res = await request.post('/api/auth/register', { data: body });
  if (res.status() !== 201) throw new Error(`register failed: ${res.status()} ${await res.text()}`);
  const { user } = (await res.json()) as { user: { id: string } };
  return { ...body, id: user.id };
}

/** Signs in through the real login form and waits for the role's home page. */
export async function signInAs(page: Page, username: string, password = DEMO_PASSWORD, home?: string): Promise<void> {
  await page.goto('/login');
  await page.getByLabel('Username').fill(username);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  if (home) await page.waitForURL(`**${home}`);
}

/**
 * Picks an option of an antd Select by its field label and checks that it took (a click during
 * the dropdown's opening animation can miss; then it tries again).
 */
export async function pickOption(scope: Page | Locator, label: string, option: string, opts: { search?: boolean | string } = {}): Promise<void> {
  const page = 'page' in scope ? scope.page() : scope;
  await expect(async () => {
    await scope.getByLabel(label, { exact: true }).click();
    // A select that searches the server: type the option's name (or the text given) as a person
    // would, so the option is among the few listed whatever else the catalogue holds.
    if (opts.search) await scope.getByLabel(label, { exact: true }).fill(typeof opts.search === 'string' ? opts.search : option);
    await page.locator('.ant-select-dropdown:visible').getByTitle(option, { exact: true }).click({ timeout: 2000 });
    await expect(scope.locator(`.ant-select-content-has-value[title="${option}"]`).first()).toBeVisible({ timeout: 1000 });
  }).toPass({ timeout: 15_000 });
}

/** Resolves once every finite animation of the page has ended (an opening modal's zoom, a drawer's slide); spinners never end. */
export async function animationsEnded(page: Page): Promise<void> {
  await page.evaluate(() => Promise.allSettled(document.getAnimations().filter((a) => a.effect?.getComputedTiming().endTime !== Infinity).map((a) => a.finished)));
}

/**
 * A dialog once it has opened: a click while antd's modal still zooms in can miss its button (a
 * 24×6 px "Confirm Order" mid-zoom took the click, and no order was sent).
 */
export async function openedDialog(page: Page, name: string): Promise<Locator> {
  const dialog = page.getByRole('dialog', { name });
  await expect(dialog).toBeVisible();
  await animationsEnded(page);
  return dialog;
}

/**
 * Answers an open antd Popconfirm with one of its buttons and checks that it took (the popover
 * closes). A click during the popover's opening animation can miss; then, while the popover is
 * still open, it clicks again (antd ignores clicks while the answer is being sent).
 */
export async function answerPopconfirm(page: Page, button: string): Promise<void> {
  // antd names the button "loading Yes" while its spinner shows.
  const answer = page.getByRole('button', { name: new RegExp(`^(loading )?${button}$`) });
  await expect(answer).toBeVisible();
  await expect(async () => {
    if ((await answer.count()) > 0) await answer.click({ timeout: 2000 }).catch(() => undefined);
    await expect(answer).toHaveCount(0, { timeout: 5000 });
  }).toPass({ timeout: 20_000 });
}
