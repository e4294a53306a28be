import { expect, test } from './fixtures';
import { answerPopconfirm, makePng, pickOption, registerByApi, signInAs, uniqueName } from './helpers';

test.describe('superadmin: users and employees', () => {
  test("deactivating a customer refuses their open session at once, and their sign-in", async ({ browser, baseURL }) => {
    const customerCtx = await browser.newContext({ baseURL });
    const customer = await customerCtx.newPage();
    const c = await registerByApi(customerCtx.request);
    await signInAs(customer, c.username, c.password, '/dashboard');

    const adminCtx = await browser.newContext({ baseURL });
    const admin = await adminCtx.newPage();
    await signInAs(admin, 'superadmin', undefined, '/admin/users');
    const row = admin.getByRole('row', { name: new RegExp(c.username) });
    await expect(row.getByText('ACTIVE')).toBeVisible();
    await row.getByRole('button', { name: 'Deactivate' }).click();
    const patched = admin.waitForResponse((r) => r.request().method() === 'PATCH' && r.url().endsWith(`/api/users/${c.id}/status`));
    await answerPopconfirm(admin, 'Yes');
    expect((await patched).status()).toBe(200);
    await expect(row.getByText('DEACTIVATED')).toBeVisible();

    // The customer's session is refused at once: the very next call after the answer is 401 ...
    expect((await customer.request.get('/api/auth/me')).status()).toBe(401);
    // ... and the app sends them back to sign in.
    await customer.getByRole('menuitem', { name: 'Cart' }).click();
    await customer.reload();
    await customer.waitForURL('**/login');
    expect(await customer.evaluate(() => localStorage.getItem('userStore'))).toBeNull();
    await signInAs(customer, c.username, c.password);
    await expect(customer.getByText('User Login Error')).toBeVisible();
    await expect(customer.getByText(/deactivated/i)).toBeVisible();

    // Activating again lets them in.
    await row.getByRole('button', { name: 'Activate' }).click();
    await answerPopconfirm(admin, 'Yes');
    await expect(row.getByText('ACTIVE')).toBeVisible();
    await signInAs(customer, c.username, c.password, '/dashboard');
    await customerCtx.close();
    await adminCtx.close();
  });

  test('views a user read-only and deletes one behind a confirm', async ({ page, request }) => {
    const c = await registerByApi(request);
    await signInAs(page, 'superadmin', undefined, '/admin/users');
    const row = page.getByRole('row', { name: new RegExp(c.username) });
    await row.getByRole('link', { name: 'View' }).click();
    await expect(page.getByRole('heading', { name: 'User Information' })).toBeVisible();
    await expect(page.getByText(c.email)).toBeVisible();
    // Nothing to edit on the page (the top bar's "Find unit" box is not the page's).
    await expect(page.getByRole('main').getByRole('textbox')).toHaveCount(0);
    await page.getByRole('button', { name: 'Back' }).click();
    // Delete is in the row's own "More actions" menu (issue 27), not a red button on every row.
    await expect(row.getByRole('button', { name: 'Delete' })).toHaveCount(0);
    const more = row.getByRole('button', { name: `More actions for ${c.firstName} ${c.lastName}` });
    await more.click();
    await page.getByRole('menuitem', { name: 'Delete' }).click();
    await page.getByRole('button', { name: 'Cancel' }).click();
    // Cancel closes the question and keeps the user.
    await expect(page.getByRole('dialog')).toHaveCount(0);
    await expect(row).toBeVisible();
    await more.click();
    await page.getByRole('menuitem', { name: 'Delete' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete', exact: true }).click();
    await expect(page.getByRole('row', { name: new RegExp(c.username) })).toHaveCount(0);
  });

  test('adds an employee, who can then sign in to their home; edits them without username or password', async ({ page, browser, baseURL }) => {
    const username = uniqueName('driver');
    await signInAs(page, 'superadmin', undefined, '/admin/users');
    await page.getByRole('menuitem', { name: 'Employees' }).click();
    await page.getByRole('button', { name: 'Add Employee' }).click();
    await page.getByRole('button', { name: 'Create Employee' }).click();
    await expect(page.getByText('Please input User Type!')).toBeVisible();
    await expect(page.getByText('Please input Position!')).toBeVisible();
    await expect(page.getByText('Please upload image!')).toBeVisible();

    await pickOption(page, 'User Type', 'Driver');
    await page.getByLabel('Position').fill('Delivery Driver');
    await page.getByLabel('First Name').fill('Ramon');
    await page.getByLabel('Last Name').fill('Aquino');
    await page.getByLabel('Date of Birth').fill('1992-03-04');
    await pickOption(page, 'Gender', 'Male');
    await page.getByLabel('Contact Number').fill('+63 917 222 3333');
    await page.getByLabel('Email').fill(`${username}@example.com`);
    await page.getByLabel('Address').fill('3 Luna St');
    await page.getByLabel('City').fill('Pasig');
    await page.getByLabel('State').fill('Metro Manila');
    await page.getByLabel('Zipcode').fill('160000');
    await page.locator('input[type=file]').setInputFiles({ name: 'id.png', mimeType: 'image/png', buffer: makePng() });
    await expect(page.locator('.ant-upload-list-item')).toHaveCount(1);
    await expect(page.locator('.ant-upload-list-item-uploading')).toHaveCount(0);
    await page.getByLabel('Username').fill(username);
    await page.getByLabel('Password').fill('driver-pass-1');
    await page.getByRole('button', { name: 'Create Employee' }).click();
    await expect(page.getByText('User created successfully!')).toBeVisible();
    await page.waitForURL('**/admin/employees');
    const row = page.getByRole('row', { name: new RegExp(username) });
    await expect(row).toContainText('Delivery Driver');

    await row.getByRole('link', { name: 'Edit' }).click();
    await expect(page.getByLabel('Username')).toHaveCount(0);
    await expect(page.getByLabel('Password')).toHaveCount(0);
    await page.getByLabel('Position').fill('Senior Driver');
    await page.getByRole('button', { name: 'Save Changes' }).click();
    await expect(page.getByText('User successfully updated!')).toBeVisible();
    await page.waitForURL('**/admin/employees');
    await expect(page.getByRole('row', { name: new RegExp(username) })).toContainText('Senior Driver');

    const ctx = await browser.newContext({ baseURL });
    const driver = await ctx.newPage();
    await signInAs(driver, username, 'driver-pass-1', '/admin/for-delivery');
    await ctx.close();
  });

  test('an employee of a type without screens (SUPPORT) gets no routes and an empty menu', async ({ page, browser, baseURL }) => {
    const username = uniqueName('support');
    await signInAs(page, 'superadmin', undefined, '/admin/users');
    const upload = await page.request.post('/api/uploads', { multipart: { image: { name: 'a.png', mimeType: 'image/png', buffer: makePng() } } });
    const { imagePath } = (await upload.json()) as { imagePath: string };
    const res = await page.request.post('/api/employees', {
      data: {
        userType: 'SUPPORT', position: 'Helpdesk', username, password: 'support-pass-1', firstName: 'Sam', middleName: '', lastName: 'Lee', suffix: '',
        birthDate: '1990-01-01', gender: 'MALE', contactNumber: '0917', email: `${username}@example.com`, address: '1 Main St', city: 'Makati',
        state: 'Metro Manila', zipcode: '120000', image: imagePath,
      },
    });
    expect(res.status()).toBe(201);
    const ctx = await browser.newContext({ baseURL });
    const support = await ctx.newPage();
    await signInAs(support, username, 'support-pass-1');
    await expect(support.getByText('No pages are available for your account yet.')).toBeVisible();
    await expect(support.getByRole('navigation', { name: 'Main menu' }).getByRole('menuitem')).toHaveCount(0);
    await support.goto('/admin/users');
    await expect(support.getByText('No pages are available for your account yet.')).toBeVisible();
    await ctx.close();
  });
});

test.describe('logout', () => {
  test("asks 'Are you sure you want to logout?'; No keeps the session, Yes clears it", async ({ page }) => {
    await signInAs(page, 'accounting', undefined, '/admin/payments');
    await page.getByRole('button', { name: 'Logout' }).click();
    await expect(page.getByRole('dialog')).toContainText('Are you sure you want to logout?');
    await page.getByRole('button', { name: 'No' }).click();
    await expect(page).toHaveURL(/\/admin\/payments$/);
    expect(await page.evaluate(() => localStorage.getItem('userStore'))).not.toBeNull();

    await page.getByRole('button', { name: 'Logout' }).click();
    await page.getByRole('button', { name: 'Yes' }).click();
    await page.waitForURL('**/login');
    expect(await page.evaluate(() => localStorage.getItem('userStore'))).toBeNull();
    expect((await page.request.get('/api/auth/me')).status()).toBe(401);
    await page.goto('/admin/payments');
    await expect(page).toHaveURL(/\/login$/);
  });
});
