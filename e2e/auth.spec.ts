import { expect, test } from './fixtures';
import { makePng, person, pickOption, signInAs, uniqueName } from './helpers';

test.describe('register and sign in (SPEC §5, §8)', () => {
  test('a visitor registers with an image, signs in and lands on /dashboard', async ({ page }) => {
    const username = uniqueName('newcust');
    const p = person(username);
    await page.goto('/register');
    await page.getByLabel('Username').fill(p.username);
    await page.getByLabel('Password').fill(p.password);
    await page.getByLabel('First Name').fill(p.firstName);
    await page.getByLabel('Last Name').fill(p.lastName);
    await page.getByLabel('Date of Birth').fill(p.birthDate);
    await expect(page.getByLabel('Age', { exact: true })).toHaveValue(/^\d+$/);
    await expect(page.getByLabel('Age', { exact: true })).toHaveAttribute('readonly', '');
    await pickOption(page, 'Gender', 'Female');
    await page.getByLabel('Contact Number').fill(p.contactNumber);
    await page.getByLabel('Email').fill(p.email);
    await page.getByLabel('Address').fill(p.address);
    await page.getByLabel('City').fill(p.city);
    await page.getByLabel('State').fill(p.state);
    await page.getByLabel('Zipcode').fill(p.zipcode);
    await page.locator('input[type=file]').setInputFiles({ name: 'me.png', mimeType: 'image/png', buffer: makePng() });
    await expect(page.locator('.ant-upload-list-item')).toHaveCount(1);
    await expect(page.locator('.ant-upload-list-item-uploading')).toHaveCount(0);
    await page.getByRole('button', { name: 'Register' }).click();
    await expect(page.getByText('User created successfully!')).toBeVisible();
    await page.waitForURL('**/login');

    await signInAs(page, username, p.password, '/dashboard');
    await expect(page.getByTestId('current-user')).toContainText(`${p.firstName} ${p.lastName}`);
    await expect(page.getByTestId('current-user')).toContainText(`@${username}`);
    const stored = await page.evaluate(() => JSON.parse(localStorage.getItem('userStore') ?? 'null'));
    expect(stored).toMatchObject({ loginStatus: true, user: { username, userType: 'CUSTOMER' } });
    expect(JSON.stringify(stored)).not.toContain(p.password);
  });

  test('the register form shows every required message and the length rules', async ({ page }) => {
    await page.goto('/register');
    await page.getByRole('button', { name: 'Register' }).click();
    for (const msg of [
      'Please input your Username!',
      'Please input your Password!',
      'Please input your First Name!',
      'Please input Date of Birth!',
      'Please input Gender!',
      'Please input your Email!',
      'Please upload image!',
    ]) {
      await expect(page.getByText(msg, { exact: true })).toBeVisible();
    }
    // Age is computed from the birth date (read-only): never an error the user cannot fix (issue 13).
    await expect(page.getByText('Please input Age!', { exact: true })).toHaveCount(0);
    await page.getByLabel('Address').fill('1234567890123');
    await page.getByLabel('Zipcode').fill('123');
    await expect(page.getByText('Address must be at most 12 characters.')).toBeVisible();
    await expect(page.getByText('Zipcode must be at least 6 characters.')).toBeVisible();
  });

  test('only a JPG or PNG image is accepted', async ({ page }) => {
    await page.goto('/register');
    await page.locator('input[type=file]').setInputFiles({ name: 'doc.pdf', mimeType: 'application/pdf', buffer: Buffer.from('%PDF-1.4') });
    await expect(page.getByText('You can only upload JPG or PNG file!')).toBeVisible();
    await expect(page.locator('.ant-upload-list-item')).toHaveCount(0);
  });

  test('a username already taken shows Create User Error with the server message', async ({ page, request }) => {
    await page.goto('/register');
    const p = person('customer');
    for (const [label, value] of [
      ['Username', 'customer'],
      ['Password', p.password],
      ['First Name', p.firstName],
      ['Last Name', p.lastName],
      ['Date of Birth', p.birthDate],
      ['Contact Number', p.contactNumber],
      ['Email', p.email],
      ['Address', p.address],
      ['City', p.city],
      ['State', p.state],
      ['Zipcode', p.zipcode],
    ] as const) {
      await page.getByLabel(label).fill(value);
    }
    await pickOption(page, 'Gender', 'Male');
    await page.locator('input[type=file]').setInputFiles({ name: 'me.png', mimeType: 'image/png', buffer: makePng() });
    await expect(page.locator('.ant-upload-list-item')).toHaveCount(1);
    await expect(page.locator('.ant-upload-list-item-uploading')).toHaveCount(0);
    await page.getByRole('button', { name: 'Register' }).click();
    // SPEC §7, §9: the 409's notification shows the server's message for about 500 ms (waitFor
    // watches the page itself, so so short a notice is not missed between polls; its title and the
    // server's message are matched in that one wait, as a loaded machine may take longer than the
    // notice lasts between two steps) ...
    const notice = page.locator('.ant-notification-notice').filter({ hasText: 'Create User Error' }).filter({ hasText: 'Username is already taken.' });
    await notice.waitFor({ state: 'visible' });
    await expect(notice).toBeHidden({ timeout: 2500 });
    // ... and the message stays on the Username field.
    await expect(page.locator('.ant-form-item').filter({ has: page.getByLabel('Username') })).toContainText('Username is already taken.');
    await expect(page).toHaveURL(/\/register$/);
    expect((await request.get('/api/auth/me')).status()).toBe(401);
  });

  test('login: required messages, and a failure notification with the server message', async ({ page }) => {
    await page.goto('/login');
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await expect(page.getByText('Please input your Username!')).toBeVisible();
    await expect(page.getByText('Please input your Password!')).toBeVisible();
    await signInAs(page, 'customer', 'not-the-password');
    await expect(page.getByText('User Login Error')).toBeVisible();
    await expect(page.getByText('Invalid username or password.')).toBeVisible();
    await expect(page).toHaveURL(/\/login$/);
  });

  test('a signed-out visitor who opens a staff page is sent to sign in', async ({ page }) => {
    await page.goto('/admin/users');
    await expect(page).toHaveURL(/\/login$/);
  });
});
