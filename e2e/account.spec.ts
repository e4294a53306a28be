import { expect, test } from './fixtures';
import { registerByApi, signInAs } from './helpers';
import { linkIn, waitForMail } from './mail';

// Issue 24: the e-mails of an account, read from the stack's own mail catcher (a real SMTP server).
test.describe('e-mail confirmation and password reset', () => {
  test('register → the confirmation e-mail → its link confirms the address; the banner goes away', async ({ page, request }) => {
    const customer = await registerByApi(request);
    await signInAs(page, customer.username, customer.password, '/dashboard');
    const banner = page.getByRole('status').filter({ hasText: 'Please confirm your e-mail address' });
    await expect(banner).toBeVisible();

    const mail = await waitForMail(customer.email, { subject: 'Confirm your e-mail address' });
    expect(mail.envelopeTo).toEqual([customer.email]);
    expect(mail.html).toContain('DME Supply');
    await page.goto(linkIn(mail, '/verify-email'));
    await expect(page.getByText('Thank you: your e-mail address is confirmed.')).toBeVisible();
    // The same link a second time is spent.
    await page.reload();
    await expect(page.getByText('This confirmation link is invalid, was already used or has expired.', { exact: false })).toBeVisible();

    await page.goto('/dashboard');
    await expect(page.getByTestId('current-user').first()).toBeVisible();
    await expect(banner).toHaveCount(0);
  });

  test('"Send it again" from the banner sends a new link', async ({ page, request }) => {
    const customer = await registerByApi(request);
    await signInAs(page, customer.username, customer.password, '/dashboard');
    await waitForMail(customer.email, { subject: 'Confirm your e-mail address' });
    await page.getByRole('button', { name: 'Send it again' }).click();
    await expect(page.getByText('We have sent you a new confirmation link. Please check your e-mail.')).toBeVisible();
    await expect.poll(async () => (await (await fetch(`${process.env.E2E_MAIL_URL}/api/messages?to=${encodeURIComponent(customer.email)}`)).json()).length).toBe(2);
  });

  test('forgot password → the e-mail → a new password → sign in with it (the old one no longer works)', async ({ page, request }) => {
    const customer = await registerByApi(request);
    await page.goto('/login');
    await page.getByRole('link', { name: 'Forgot your password?' }).click();
    await page.waitForURL('**/forgot-password');
    await page.getByLabel('Email').fill(customer.email);
    await page.getByRole('button', { name: 'Send me a reset link' }).click();
    await expect(page.getByText('If an account uses this e-mail address, we have sent it a link to reset the password.', { exact: false })).toBeVisible();

    const mail = await waitForMail(customer.email, { subject: 'Reset your DME Supply password' });
    expect(mail.text).toContain(customer.username);
    await page.goto(linkIn(mail, '/reset-password'));
    await page.getByLabel('New password', { exact: true }).fill('a-new-password-9');
    await page.getByLabel('New password again').fill('not-the-same-9');
    await page.getByRole('button', { name: 'Save my new password' }).click();
    await expect(page.getByText('The two passwords are not the same.')).toBeVisible();
    await page.getByLabel('New password again').fill('a-new-password-9');
    await page.getByRole('button', { name: 'Save my new password' }).click();
    await page.waitForURL('**/login');
    await expect(page.getByText('Your password was changed. Please sign in with your new password.')).toBeVisible();

    await waitForMail(customer.email, { subject: 'Your DME Supply password was changed' });
    const old = await request.post('/api/auth/login', { data: { username: customer.username, password: customer.password } });
    expect(old.status()).toBe(401);
    await signInAs(page, customer.username, 'a-new-password-9', '/dashboard');
    // Following the reset link proved the address: no banner.
    await expect(page.getByRole('status').filter({ hasText: 'Please confirm your e-mail address' })).toHaveCount(0);
  });

  test('an unknown address gets the same answer and no e-mail', async ({ page }) => {
    await page.goto('/forgot-password');
    await page.getByLabel('Email').fill('nobody-here-at-all@example.com');
    await page.getByRole('button', { name: 'Send me a reset link' }).click();
    await expect(page.getByText('If an account uses this e-mail address, we have sent it a link to reset the password.', { exact: false })).toBeVisible();
    const res = await fetch(`${process.env.E2E_MAIL_URL}/api/messages?to=nobody-here-at-all%40example.com`);
    expect(await res.json()).toEqual([]);
  });

  test('a reset link that is not valid says so and offers a new one', async ({ page }) => {
    await page.goto('/reset-password?token=not-a-real-token');
    await page.getByLabel('New password', { exact: true }).fill('a-new-password-9');
    await page.getByLabel('New password again').fill('a-new-password-9');
    await page.getByRole('button', { name: 'Save my new password' }).click();
    await expect(page.getByText('This reset link is invalid, was already used or has expired.', { exact: false })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Ask for a new link' })).toBeVisible();
  });

  test('My account: reminders off and on, a new password (the current one asked), a new address to confirm', async ({ page, request }) => {
    const customer = await registerByApi(request);
    await signInAs(page, customer.username, customer.password, '/dashboard');
    await page.getByTitle('My account').click();
    await page.waitForURL('**/account');
    await expect(page.getByRole('heading', { name: 'My account' })).toBeVisible();
    await expect(page.getByText(customer.email, { exact: true })).toBeVisible();
    await expect(page.getByText('Not confirmed')).toBeVisible();

    const reminders = page.getByRole('switch', { name: 'Remind me about my rentals' });
    await expect(reminders).toBeChecked();
    await reminders.click();
    await expect(page.getByText('Your e-mail preferences are saved.')).toBeVisible();
    await page.reload();
    await expect(page.getByRole('switch', { name: 'Remind me about my rentals' })).not.toBeChecked();

    await page.getByLabel('Current password').fill('not-my-password');
    await page.getByLabel('New password', { exact: true }).fill('changed-in-account-1');
    await page.getByLabel('New password again').fill('changed-in-account-1');
    await page.getByRole('button', { name: 'Change my password' }).click();
    await expect(page.getByText('Your current password is not correct.')).toBeVisible();
    await page.getByLabel('Current password').fill(customer.password);
    await page.getByRole('button', { name: 'Change my password' }).click();
    await expect(page.getByText('Your password was changed. Your other devices were signed out.')).toBeVisible();
    await waitForMail(customer.email, { subject: 'Your DME Supply password was changed' });
    expect((await request.post('/api/auth/login', { data: { username: customer.username, password: 'changed-in-account-1' } })).status()).toBe(200);

    const moved = customer.email.replace('@', '+moved@');
    await page.getByLabel('New e-mail address').fill(moved);
    await page.getByRole('button', { name: 'Change my e-mail address' }).click();
    await expect(page.getByText('We have sent a confirmation link to your new e-mail address.')).toBeVisible();
    await page.goto(linkIn(await waitForMail(moved, { subject: 'Confirm your e-mail address' }), '/verify-email'));
    await expect(page.getByText('Thank you: your e-mail address is confirmed.')).toBeVisible();
    await page.goto('/account');
    await expect(page.getByText(moved, { exact: true })).toBeVisible();
    await expect(page.getByText('Confirmed', { exact: true })).toBeVisible();
  });

  test('a reminder link that is not ours changes nothing and says so', async ({ page }) => {
    await page.goto('/unsubscribe?token=00000000-0000-0000-0000-000000000000.forged');
    await expect(page.getByText('This link is invalid. Sign in to change your e-mail preferences.')).toBeVisible();
  });
});
