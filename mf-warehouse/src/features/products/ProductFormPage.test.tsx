import { describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import { BILLING_LABELS, CATALOG_MESSAGES, RENTAL_TERMS_MESSAGES, RentalTermsSchema, type Product, type RentalTermsWire, type User } from '@dme/contracts';
import { CURRENT_IMAGE_LABEL } from '@dme/ui';
import { mockApi, on } from '@dme/ui/testing';
import App from '../../app';

const staff = { id: '00000000-0000-4000-8000-0000000000a1', username: 'warehouse', firstName: 'Wendy', lastName: 'Ramos', userType: 'WAREHOUSE_STAFF' } as User;
const ID = '11111111-1111-4111-8111-111111111111';
/** What the server stores an upload as: a content hash, nothing the user chose. */
const STORED = '0123abcd4567ef890123abcd4567ef890123abcd4567ef890123abcd4567ef89.png';
const counts = { quantity: 3, availableQuantity: 3, rentedQuantity: 0, damagedQuantity: 0, lostQuantity: 0, soldQuantity: 0, servicingQuantity: 0, repairQuantity: 0, heldQuantity: 0, retiredQuantity: 0 };
const wheelchair: Product = {
  ...counts,
  id: ID,
  name: 'Wheelchair',
  brand: 'Acme',
  description: 'Folding wheelchair',
  type: 'FOR_RENT',
  image: `/api/uploads/${STORED}`,
  price: '50.00',
  damageCharges: '500.00',
  turnaroundDays: 1,
  inspectionChecklist: [],
  maintenance: null,
  rentalTerms: null,
  priceMin: '50.00',
  priceMax: '50.00',
  archived: false,
  variants: [],
  createdAt: '2026-11-01T00:00:00.000Z',
  updatedAt: '2026-11-01T00:00:00.000Z',
};

function edit(product: Product = wheelchair) {
  const api = mockApi(
    on('GET', `/api/admin/products/${ID}`, { status: 200, body: { product } }),
    on('PATCH', `/api/products/${ID}`, (c) => ({ status: 200, body: { product: { ...product, ...(c.body as object) } } })),
    on('GET', '/api/admin/products', { status: 200, body: { items: [product], total: 1 } }),
  );
  // The upload is multipart (mockApi reads JSON bodies): answered here, and recorded.
  const uploads: string[] = [];
  vi.stubGlobal('fetch', async (input: RequestInfo | URL, init?: RequestInit) => {
    if (String(input) !== '/api/uploads') return api.fetchMock(input, init);
    const image = (init!.body as FormData).get('image') as File;
    uploads.push(image.name);
    return new Response(JSON.stringify({ imagePath: '/api/uploads/fedcba98.png', contentType: 'image/png', size: 8 }), { status: 201, headers: { 'content-type': 'application/json' } });
  });
  render(
    <MemoryRouter initialEntries={[`/admin/products/${ID}/edit`]}>
      <App user={staff} />
    </MemoryRouter>,
  );
  return { ...api, uploads };
}

describe('editing a product: its image (issue 13)', () => {
  it('shows the stored image as a thumbnail labelled "Current image", never its hashed file name', async () => {
    const { calls } = edit();
    expect(await screen.findByRole('heading', { name: 'Edit Product' })).toBeInTheDocument();
    expect(await screen.findByText(CURRENT_IMAGE_LABEL)).toBeInTheDocument();
    expect(screen.queryByText(STORED)).toBeNull();
    expect(screen.queryByText(/0123abcd/)).toBeNull();
    expect(document.body.innerHTML).not.toMatch(new RegExp(`>[^<]*${STORED}`));
    const thumb = document.querySelector<HTMLImageElement>('.ant-upload-list-item-thumbnail img');
    expect(thumb).not.toBeNull();
    expect(thumb!.getAttribute('src')).toBe(`/api/uploads/${STORED}`);

    // Saved unchanged: the stored image path is sent back as it was.
    fireEvent.click(screen.getByRole('button', { name: /Save/ }));
    expect(await screen.findByText(CATALOG_MESSAGES.product.updated)).toBeInTheDocument();
    expect(calls.find((c) => c.method === 'PATCH')?.body).toMatchObject({ image: `/api/uploads/${STORED}` });
  });

  it("shows the user's own file name for a file they just uploaded, and saves its new path", async () => {
    const { calls, uploads } = edit();
    await screen.findByText(CURRENT_IMAGE_LABEL);
    const file = new File([new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])], 'my-wheelchair.png', { type: 'image/png' });
    fireEvent.change(document.querySelector('input[type="file"]')!, { target: { files: [file] } });
    await waitFor(() => expect(uploads).toEqual(['my-wheelchair.png']));
    await waitFor(() => expect(screen.queryByText(CURRENT_IMAGE_LABEL)).toBeNull());
    await waitFor(() => expect(screen.getByText('my-wheelchair.png')).toBeInTheDocument());
    expect(screen.queryByText('fedcba98.png')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: /Save/ }));
    await waitFor(() => expect(calls.find((c) => c.method === 'PATCH')?.body).toMatchObject({ image: '/api/uploads/fedcba98.png' }));
  });
});

/** Types into an antd input found by its label (InputNumber fires its change on input). */
function type(label: string, value: string) {
  const input = screen.getByLabelText(label, { selector: 'input' });
  fireEvent.change(input, { target: { value } });
  fireEvent.blur(input);
}
const patchBody = (calls: Array<{ method: string; body?: unknown }>) => calls.find((c) => c.method === 'PATCH')?.body as Record<string, unknown> | undefined;

describe("a rental product's money terms (issue 29)", () => {
  it('sends the deposit, late fee, grace days and cap filled in, exactly as the wire terms', async () => {
    const { calls } = edit();
    await screen.findByText('Rental money terms');
    fireEvent.click(screen.getByRole('radio', { name: 'Fixed amount per unit' }));
    type('Deposit amount', '500');
    type('Late fee per day', '50');
    type('Grace days', '2');
    fireEvent.click(screen.getByRole('radio', { name: 'Days' }));
    type('Cap days', '10');
    fireEvent.click(screen.getByRole('button', { name: /Save/ }));
    expect(await screen.findByText(CATALOG_MESSAGES.product.updated)).toBeInTheDocument();
    const expected: RentalTermsWire = { deposit: { kind: 'FIXED', amount: '500.00' }, lateFeePerDay: '50.00', graceDays: 2, lateFeeCap: { kind: 'DAYS', days: 10 } };
    expect(patchBody(calls)?.rentalTerms).toEqual(expected);
    // What the server accepts as it is.
    expect(RentalTermsSchema.parse(patchBody(calls)?.rentalTerms)).toEqual(expected);
  });

  it('a percent deposit out of 1 to 100 shows its message and nothing is sent', async () => {
    const { calls } = edit();
    await screen.findByText('Rental money terms');
    fireEvent.click(screen.getByRole('radio', { name: 'Percent of the rental' }));
    type('Deposit percent', '150');
    fireEvent.click(screen.getByRole('button', { name: /Save/ }));
    expect(await screen.findByText(RENTAL_TERMS_MESSAGES.depositPercent)).toBeInTheDocument();
    // Fixed to a whole percent: the message goes and the terms are sent.
    type('Deposit percent', '25');
    await waitFor(() => expect(screen.queryByText(RENTAL_TERMS_MESSAGES.depositPercent)).toBeNull());
    expect(calls.some((c) => c.method === 'PATCH')).toBe(false);
    fireEvent.click(screen.getByRole('button', { name: /Save/ }));
    await waitFor(() => expect(patchBody(calls)?.rentalTerms).toEqual({ deposit: { kind: 'PERCENT', percent: 25 }, lateFeePerDay: '0.00', graceDays: 0, lateFeeCap: null }));
  });

  it("shows a product's stored terms and sends them back unchanged", async () => {
    const terms: RentalTermsWire = { deposit: { kind: 'PERCENT', percent: 25 }, lateFeePerDay: '75.50', graceDays: 1, lateFeeCap: { kind: 'AMOUNT', amount: '300.00' } };
    const { calls } = edit({ ...wheelchair, rentalTerms: terms });
    await screen.findByText('Rental money terms');
    expect(screen.getByRole('radio', { name: 'Percent of the rental' })).toBeChecked();
    expect(screen.getByLabelText('Deposit percent', { selector: 'input' })).toHaveValue('25');
    expect(screen.getByLabelText('Late fee per day', { selector: 'input' })).toHaveValue('75.50');
    expect(screen.getByLabelText('Grace days', { selector: 'input' })).toHaveValue('1');
    expect(screen.getByRole('radio', { name: 'Amount per unit' })).toBeChecked();
    expect(screen.getByLabelText('Cap amount', { selector: 'input' })).toHaveValue('300.00');
    fireEvent.click(screen.getByRole('button', { name: /Save/ }));
    await waitFor(() => expect(patchBody(calls)?.rentalTerms).toEqual(terms));
  });

  it('billing: upfront by default; "Every 30 days" sends billing CYCLES even with no deposit and no late fee', async () => {
    const { calls } = edit();
    await screen.findByText('Rental money terms');
    expect(screen.getByRole('radiogroup', { name: 'Billing' })).toBeInTheDocument();
    expect(screen.getByRole('radio', { name: BILLING_LABELS.UPFRONT })).toBeChecked();
    expect(screen.getByText('A rental of more than 30 days is billed every 30 days from delivery; the first payment stays the first day and the deposit.')).toBeInTheDocument();
    fireEvent.click(screen.getByRole('radio', { name: BILLING_LABELS.CYCLES }));
    fireEvent.click(screen.getByRole('button', { name: /Save/ }));
    expect(await screen.findByText(CATALOG_MESSAGES.product.updated)).toBeInTheDocument();
    const expected: RentalTermsWire = { deposit: null, lateFeePerDay: '0.00', graceDays: 0, lateFeeCap: null, billing: 'CYCLES' };
    expect(patchBody(calls)?.rentalTerms).toEqual(expected);
    expect(RentalTermsSchema.parse(patchBody(calls)?.rentalTerms)).toEqual(expected);
  });

  it('shows a product billed by cycles as such and sends it back unchanged; back to upfront with nothing else sends null', async () => {
    const terms: RentalTermsWire = { deposit: { kind: 'FIXED', amount: '1000.00' }, lateFeePerDay: '0.00', graceDays: 0, lateFeeCap: null, billing: 'CYCLES' };
    const first = edit({ ...wheelchair, rentalTerms: terms });
    await screen.findByText('Rental money terms');
    expect(screen.getByRole('radio', { name: BILLING_LABELS.CYCLES })).toBeChecked();
    expect(screen.getByRole('radio', { name: BILLING_LABELS.UPFRONT })).not.toBeChecked();
    fireEvent.click(screen.getByRole('button', { name: /Save/ }));
    await waitFor(() => expect(patchBody(first.calls)?.rentalTerms).toEqual(terms));
    cleanup();

    const second = edit({ ...wheelchair, rentalTerms: { ...terms, deposit: null } });
    await screen.findByText('Rental money terms');
    expect(screen.getByRole('radio', { name: BILLING_LABELS.CYCLES })).toBeChecked();
    fireEvent.click(screen.getByRole('radio', { name: BILLING_LABELS.UPFRONT }));
    fireEvent.click(screen.getByRole('button', { name: /Save/ }));
    await waitFor(() => expect(patchBody(second.calls)).toBeDefined());
    expect(patchBody(second.calls)).toHaveProperty('rentalTerms', null);
  });

  it('rent-to-own (issue 29): offered with billing every 30 days only; its three fields are checked and sent', async () => {
    const { calls } = edit();
    await screen.findByText('Rental money terms');
    expect(screen.queryByRole('radiogroup', { name: 'Rent-to-own' })).toBeNull();
    fireEvent.click(screen.getByRole('radio', { name: BILLING_LABELS.CYCLES }));
    expect(await screen.findByRole('radiogroup', { name: 'Rent-to-own' })).toBeInTheDocument();
    fireEvent.click(screen.getByRole('radio', { name: 'On' }));
    fireEvent.click(screen.getByRole('button', { name: /Save/ }));
    for (const m of [RENTAL_TERMS_MESSAGES.salePrice, RENTAL_TERMS_MESSAGES.creditPercent, RENTAL_TERMS_MESSAGES.afterCycles]) expect(await screen.findByText(m)).toBeInTheDocument();
    expect(patchBody(calls)).toBeUndefined();
    type('Sale price', '30000');
    type('Rent credited (%)', '50');
    type('Owned after cycles', '12');
    fireEvent.click(screen.getByRole('button', { name: /Save/ }));
    expect(await screen.findByText(CATALOG_MESSAGES.product.updated)).toBeInTheDocument();
    const expected: RentalTermsWire = { deposit: null, lateFeePerDay: '0.00', graceDays: 0, lateFeeCap: null, billing: 'CYCLES', rentToOwn: { salePrice: '30000.00', creditPercent: 50, afterCycles: 12 } };
    expect(patchBody(calls)?.rentalTerms).toEqual(expected);
    expect(RentalTermsSchema.parse(patchBody(calls)?.rentalTerms)).toEqual(expected);
  });

  it('a product with rent-to-own shows it; back to upfront billing drops it', async () => {
    const terms: RentalTermsWire = { deposit: null, lateFeePerDay: '0.00', graceDays: 0, lateFeeCap: null, billing: 'CYCLES', rentToOwn: { salePrice: '30000.00', creditPercent: 50, afterCycles: 12 } };
    const { calls } = edit({ ...wheelchair, rentalTerms: terms });
    await screen.findByText('Rental money terms');
    expect(screen.getByRole('radio', { name: 'On' })).toBeChecked();
    expect(screen.getByLabelText('Owned after cycles')).toHaveValue('12');
    fireEvent.click(screen.getByRole('radio', { name: BILLING_LABELS.UPFRONT }));
    expect(screen.queryByRole('radiogroup', { name: 'Rent-to-own' })).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: /Save/ }));
    await waitFor(() => expect(patchBody(calls)).toBeDefined());
    expect(patchBody(calls)).toHaveProperty('rentalTerms', null);
  });

  it('sends null when there is no deposit and no late fee, and nothing for a product for sale', async () => {
    const rent = edit();
    await screen.findByText('Rental money terms');
    expect(screen.getByRole('radiogroup', { name: 'Deposit' })).toBeInTheDocument();
    expect(screen.getByRole('radiogroup', { name: 'Late fee cap' })).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: /Save/ }));
    await waitFor(() => expect(patchBody(rent.calls)).toBeDefined());
    expect(patchBody(rent.calls)).toHaveProperty('rentalTerms', null);
    cleanup();

    const sale = edit({ ...wheelchair, type: 'FOR_SALE' });
    await screen.findByRole('heading', { name: 'Edit Product' });
    await screen.findByText(CURRENT_IMAGE_LABEL);
    expect(screen.queryByText('Rental money terms')).toBeNull();
    expect(screen.queryByLabelText('Deposit')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: /Save/ }));
    await waitFor(() => expect(patchBody(sale.calls)).toBeDefined());
    expect(patchBody(sale.calls)).not.toHaveProperty('rentalTerms');
  });
});
