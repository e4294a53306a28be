import { describe, expect, it } from 'vitest';
import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { query, type Call } from '@dme/ui/testing';
import { id, open } from '../../test/bulk';

const productCalls = (calls: Call[]) => calls.filter((c) => c.url.startsWith('/api/products?'));
const picker = () => screen.getByRole('combobox', { name: 'Product of line 1' });

describe('the bulk order product picker (issue 13: past the first 100 products)', () => {
  it('searches the server as the customer types, so a product past the first 100 can be found and ordered', async () => {
    const { calls } = open();
    await screen.findByRole('combobox', { name: 'Product of line 1' });
    await waitFor(() => expect(productCalls(calls)).toHaveLength(1));
    expect(query(productCalls(calls)[0]!)).toMatchObject({ type: 'FOR_SALE', limit: '100', offset: '0' });
    expect(query(productCalls(calls)[0]!).search).toBeUndefined();

    // The list opens on the first page of 100 (a virtual list: the first rows are drawn).
    fireEvent.mouseDown(picker());
    expect(await screen.findByText('Sale item 1 (Acme)')).toBeInTheDocument();
    expect(screen.getByText('100 of 150: type to narrow')).toBeInTheDocument();
    expect(screen.queryByText('Sale item 150 (Acme)')).toBeNull();

    // Typed quickly: one request, for what was typed last.
    fireEvent.change(picker(), { target: { value: 'item 1' } });
    fireEvent.change(picker(), { target: { value: 'item 15' } });
    fireEvent.change(picker(), { target: { value: 'item 150' } });
    const option = await screen.findByText('Sale item 150 (Acme)');
    const searches = productCalls(calls).map((c) => query(c).search).filter(Boolean);
    expect(searches).toEqual(['item 150']);

    fireEvent.click(option);
    // The product loads (its price and stock), the line is complete and can be ordered.
    await waitFor(() => expect(calls.some((c) => c.url === `/api/products/${id(150)}`)).toBe(true));
    expect(await screen.findByText('5 available')).toBeInTheDocument();
    expect(screen.getByTestId('bulk-total')).toHaveTextContent('$12.50');
    expect(screen.getByRole('button', { name: 'Place Order' })).toBeEnabled();
    expect(screen.getAllByText('Sale item 150 (Acme)').length).toBeGreaterThan(0);
  });

  it('offers "Load more" in the list when the server has more than one page', async () => {
    const { calls } = open();
    await screen.findByRole('combobox', { name: 'Product of line 1' });
    fireEvent.mouseDown(picker());
    expect(await screen.findByText('100 of 150: type to narrow')).toBeInTheDocument();
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Load more' }));
    });
    await waitFor(() => expect(query(productCalls(calls).at(-1)!)).toMatchObject({ type: 'FOR_SALE', offset: '100', limit: '100' }));
    // All 150 are in the list now: nothing more to load.
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Load more' })).toBeNull());
    expect(screen.queryByText(/of 150: type to narrow/)).toBeNull();
  });

  it('says why Place Order is disabled (issue 27): the first line not ready, next to the button', async () => {
    open();
    await screen.findByRole('combobox', { name: 'Product of line 1' });
    // The page keeps its draft: line 1 has the product chosen above; a new line has none.
    fireEvent.click(screen.getByRole('button', { name: 'Add line' }));
    const place = screen.getByRole('button', { name: 'Place Order' });
    expect(place).toBeDisabled();
    await waitFor(() => expect(screen.getByRole('button', { name: 'Place Order' })).toHaveAccessibleDescription('Choose a product on line 2.'));
    expect(screen.getByText('Choose a product on line 2.')).toBeVisible();
  });
});
