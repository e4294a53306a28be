import { expect, test } from './fixtures';
import { registerByApi, signInAs, uniqueName } from './helpers';
import { acceptAllMail, allMail, refuseMailTo, waitForMail } from './mail';

// Issue 24: the superadmin's Messages screen — every e-mail the shop sent, read from identity's
// message outbox, against the stack's own mail catcher (a real SMTP server that can refuse).
test.describe('messages (the e-mail the shop sent)', () => {
  test.afterEach(async () => {
    await acceptAllMail();
  });

  test("the superadmin finds a new customer's confirmation e-mail and reads it", async ({ page, request }) => {
    const customer = await registerByApi(request);
    await waitForMail(customer.email, { subject: 'Confirm your e-mail address' });

    await signInAs(page, 'superadmin', undefined, '/admin/users');
    await page.getByRole('menuitem', { name: 'Messages' }).click();
    await page.waitForURL('**/admin/messages');
    await page.getByRole('searchbox', { name: 'Search messages' }).fill(customer.email);
    await page.getByRole('searchbox', { name: 'Search messages' }).press('Enter');
    const row = page.getByRole('row').filter({ hasText: customer.email });
    await expect(row).toHaveCount(1);
    await expect(row.getByText('SENT')).toBeVisible();
    await expect(row.getByText('verify-email')).toBeVisible();

    await row.getByText('Confirm your e-mail address for DME Supply').click();
    const drawer = page.getByRole('dialog').filter({ hasText: 'Message-ID' });
    await expect(drawer.getByText('Message-ID')).toBeVisible();
    await expect(drawer.locator('.ant-drawer-title')).toHaveText('Confirm your e-mail address for DME Supply');
    await expect(drawer.getByText(customer.email, { exact: true })).toBeVisible();
    await expect(drawer.getByText(`Please confirm that ${customer.email}`, { exact: false })).toBeVisible();
    // The HTML as the customer sees it, in a sandbox.
    const frame = drawer.locator('iframe[title="Message content"]');
    await expect(frame).toHaveAttribute('sandbox', '');
    await expect(page.frameLocator('iframe[title="Message content"]').getByText('Confirm my e-mail address')).toBeVisible();
  });

  test('a message the mail server refused shows FAILED with its answer; "Send again" delivers it once the server accepts', async ({ page, request }) => {
    const username = uniqueName('refused');
    const email = `${username}@example.com`;
    await refuseMailTo(email, 550, 'Mailbox unavailable');
    await registerByApi(request, username);

    await signInAs(page, 'superadmin', undefined, '/admin/users');
    await page.goto('/admin/messages');
    const search = page.getByRole('searchbox', { name: 'Search messages' });
    await search.fill(email);
    await search.press('Enter');
    const row = page.getByRole('row').filter({ hasText: email });
    // The relay sends a moment after the registration: refresh until the refusal is recorded.
    await expect(async () => {
      await page.getByRole('button', { name: 'Refresh' }).click();
      await expect(row.getByText('FAILED')).toBeVisible({ timeout: 1000 });
    }).toPass({ timeout: 20_000 });
    expect(await allMail(email)).toEqual([]);

    await row.getByText('Confirm your e-mail address for DME Supply').click();
    const drawer = page.getByRole('dialog').filter({ hasText: 'Message-ID' });
    await expect(drawer.getByText('550 Mailbox unavailable', { exact: false })).toBeVisible();

    await acceptAllMail();
    await drawer.getByRole('button', { name: 'Send again' }).click();
    await page.getByRole('dialog').filter({ hasText: 'Send this message again?' }).getByRole('button', { name: 'Send again' }).click();
    await expect(page.getByText('The message is queued to be sent again.')).toBeVisible();
    // The drawer and the list follow the relay until the message is delivered.
    await expect(drawer.getByText('SENT', { exact: true })).toBeVisible({ timeout: 20_000 });
    await expect(drawer.getByRole('button', { name: 'Send again' })).toHaveCount(0);
    const mail = await waitForMail(email, { subject: 'Confirm your e-mail address' });
    expect(mail.envelopeTo).toEqual([email]);
    await page.keyboard.press('Escape');
    await expect(row.getByText('SENT', { exact: true })).toBeVisible({ timeout: 20_000 });
  });
});
