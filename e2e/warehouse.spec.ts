import jsQR from 'jsqr';
import { PNG } from 'pngjs';
import { readFile } from 'node:fs/promises';
import { expect, test } from './fixtures';
import { makePng, pickOption, signInAs, uniqueName } from './helpers';

test.describe('warehouse: bins, products with variants, stock and QR labels (issue #3)', () => {
  test('a warehouse admin creates a bin and a product with 2×2 variants, adds stock of 3, sees counts and decodes a QR', async ({ page, request }) => {
    const binName = uniqueName('BIN');
    const productName = uniqueName('Chair');
    await signInAs(page, 'warehouseadmin', undefined, '/admin/warehouse-bins');

    // A bin: required messages first, then created.
    await page.getByRole('button', { name: 'Add Warehouse Bin' }).click();
    await page.getByRole('button', { name: 'Create Warehouse Bin' }).click();
    await expect(page.getByText('Please input Bin Name!')).toBeVisible();
    await expect(page.getByText('Please input Description!')).toBeVisible();
    await page.getByLabel('Bin Name').fill(binName);
    await page.getByLabel('Description').fill('Aisle E, shelf 2');
    await page.getByRole('button', { name: 'Create Warehouse Bin' }).click();
    await expect(page.getByText('Warehouse Bin created successfully!')).toBeVisible();
    await page.waitForURL('**/admin/warehouse-bins');
    await expect(page.getByRole('row', { name: new RegExp(binName) })).toBeVisible();

    // A product with two variants, each with two sub-variants.
    await page.getByRole('menuitem', { name: 'Products' }).click();
    await page.getByRole('button', { name: 'Add Product' }).click();
    await page.getByRole('button', { name: 'Create Product' }).click();
    await expect(page.getByText('Please upload image', { exact: true })).toBeVisible();
    await expect(page.getByText('Please input Price!')).toBeVisible();
    await expect(page.getByText('Please input Damage of Lost Fee!')).toBeVisible();

    await page.locator('input[type=file]').setInputFiles({ name: 'chair.png', mimeType: 'image/png', buffer: makePng(16) });
    await expect(page.locator('.ant-upload-list-item')).toHaveCount(1);
    await expect(page.locator('.ant-upload-list-item-uploading')).toHaveCount(0);
    await page.getByLabel('Brand').fill('Drive Medical');
    await page.getByLabel('Product Name').fill(productName);
    await page.getByLabel('Description', { exact: true }).fill('Folding wheelchair for e2e.');
    const top = page.locator('form[id="product"] > .ant-row').last();
    await top.getByLabel('Price').fill('15');
    await top.getByLabel('Damage or Lost Fee').fill('250');
    const variants: Array<[string, Array<[string, string]>]> = [
      ['Standard', [['16 in', '15'], ['18 in', '16.5']]],
      ['Heavy-duty', [['20 in', '22'], ['22 in', '24']]],
    ];
    for (const [i, [name, subs]] of variants.entries()) {
      await page.getByRole('button', { name: 'Add variant' }).click();
      const card = page.locator('.ant-card').nth(i);
      await card.getByLabel('Variant Name').fill(name);
      for (const [j, [sub, price]] of subs.entries()) {
        await card.getByRole('button', { name: 'Add sub-variant' }).click();
        await card.getByLabel(`Sub-variant ${j + 1}`, { exact: true }).fill(sub);
        await card.getByLabel('Price').nth(j).fill(price);
        await card.getByLabel('Damage or Lost Fee').nth(j).fill('250');
      }
    }
    await page.getByRole('button', { name: 'Create Product' }).click();
    await expect(page.getByText('Product created successfully!')).toBeVisible();
    await page.waitForURL('**/admin/products');

    // Find it, expand it: the variants and sub-variants are listed.
    await page.getByLabel('Search products').fill(productName);
    await page.getByLabel('Search products').press('Enter');
    const row = page.getByRole('row', { name: new RegExp(productName) });
    await expect(row).toContainText('$15.00 – $24.00 / day');
    await expect(row.getByRole('link', { name: 'Stocks' })).toHaveCount(0);
    await row.getByRole('button', { name: 'Expand row' }).click();
    const standardRow = page.locator('tr.dme-table-row', { hasText: 'Standard' });
    await expect(standardRow).toBeVisible();
    await expect(page.locator('tr.dme-table-row', { hasText: 'Heavy-duty' })).toBeVisible();

    // Add stock of 3 on the Standard variant (its 18 in sub-variant).
    await standardRow.getByRole('link', { name: 'Stocks' }).click();
    await expect(page.getByRole('heading', { name: new RegExp(`Stocks: ${productName.slice(0, 10)}`) })).toBeVisible();
    await page.getByRole('button', { name: 'Add Stock' }).click();
    const modal = page.getByRole('dialog', { name: 'Add Stock' });
    await expect(modal).toContainText('Stock quantity cannot be deleted or modified after submission.');
    await modal.getByRole('button', { name: 'Add Stock' }).click();
    await expect(modal.getByText('Please select Warehouse Bin!')).toBeVisible();
    await expect(modal.getByText('Please input Quantity!')).toBeVisible();
    await pickOption(modal, 'Sub-variant', '18 in');
    await pickOption(modal, 'Warehouse Bin', binName, { search: true });
    await modal.getByLabel('Quantity').fill('3');
    await modal.getByRole('button', { name: 'Add Stock' }).click();
    await expect(page.getByText('Add product stock added successfully!')).toBeVisible();

    // The counts of the variant, and its three serial-coded items.
    const counts = page.locator('.ant-descriptions').first();
    await expect(counts).toContainText('Quantity3');
    await expect(counts).toContainText('Available3');
    const stockRows = page.locator('tbody tr.dme-table-row');
    await expect(stockRows).toHaveCount(3);
    await expect(stockRows.first()).toContainText('AVAILABLE');
    await expect(stockRows.first()).toContainText(binName);
    await expect(page.getByRole('link', { name: 'Print QR labels for this batch (A4)' })).toBeVisible();
    const serial = (await stockRows.first().locator('code').textContent())!.trim();

    // Download the item's QR PNG and decode it: productID and serialCode.
    const downloadPromise = page.waitForEvent('download');
    await stockRows.first().getByRole('link', { name: /Download QR/ }).click();
    const download = await downloadPromise;
    expect(download.suggestedFilename()).toBe('QR_Code.png');
    const png = PNG.sync.read(await readFile((await download.path())!));
    const decoded = jsQR(new Uint8ClampedArray(png.data), png.width, png.height);
    const payload = JSON.parse(decoded!.data) as { productID: string; serialCode: string };
    expect(payload.serialCode).toBe(serial);
    expect(page.url()).toContain(`/admin/products/${payload.productID}/stocks-variant/`);

    // The product list shows the new counts.
    await page.getByRole('button', { name: 'Back' }).click();
    await page.getByLabel('Search products').fill(productName);
    await page.getByLabel('Search products').press('Enter');
    const listed = page.getByRole('row', { name: new RegExp(productName) });
    // Columns: expand, Image, Name, Brand, Type, Price, Quantity, Available, Rented / Sold, Actions.
    await expect(listed.locator('td').nth(6)).toHaveText('3');
    await expect(listed.locator('td').nth(7)).toHaveText('3');
    await expect(listed.locator('td').nth(8)).toHaveText('0');

    // A customer sees it in the shop once it has stock (public API; the grid comes with issue #4).
    const shop = await request.get(`/api/products?type=FOR_RENT&search=${encodeURIComponent(productName)}`);
    expect((await shop.json()).items).toEqual([
      expect.objectContaining({ id: payload.productID, name: productName, inStock: true, availableQuantity: 3, priceMin: '15.00', priceMax: '24.00' }),
    ]);
  });

  test('the superadmin opens the sub-variant stock screen; warehouse staff cannot', async ({ page, browser, baseURL }) => {
    await signInAs(page, 'superadmin', undefined, '/admin/users');
    await page.getByRole('menuitem', { name: 'Products' }).click();
    await page.getByLabel('Search products').fill('Wheelchair');
    await page.getByLabel('Search products').press('Enter');
    const row = page.locator('tr.dme-table-row', { hasText: 'Wheelchair' }).first();
    await row.getByRole('button', { name: 'Expand row' }).click();
    const std = page.locator('tr.dme-table-row', { hasText: 'Standard' }).first();
    await std.getByRole('button', { name: 'Expand row' }).click();
    await page.locator('tr.dme-table-row', { hasText: '16 in seat' }).getByRole('link', { name: 'Stocks' }).click();
    await expect(page.getByRole('heading', { name: /Stocks: Wheelchair \/ Standard \/ 16 in seat/ })).toBeVisible();
    const subUrl = new URL(page.url()).pathname;
    await expect(page.locator('tbody tr.dme-table-row')).toHaveCount(4);

    const ctx = await browser.newContext({ baseURL });
    const staff = await ctx.newPage();
    await signInAs(staff, 'warehousestaff', undefined, '/admin/warehouse-bins');
    await staff.goto(subUrl);
    await expect(staff.getByText('Not available', { exact: true })).toBeVisible();
    await ctx.close();
  });

  test('a bin holding stock cannot be deleted', async ({ page }) => {
    await signInAs(page, 'warehousestaff', undefined, '/admin/warehouse-bins');
    const row = page.getByRole('row', { name: /A-01 Mobility/ });
    // Said before the click (issue 27): the row menu's Delete is disabled with the reason.
    await row.getByRole('button', { name: 'More actions for A-01 Mobility' }).click();
    const del = page.getByRole('menuitem', { name: /Delete/ });
    await expect(del).toHaveAttribute('aria-disabled', 'true');
    await expect(del).toContainText(/Can't delete: this bin holds \d+ units?\./);
  });
});
