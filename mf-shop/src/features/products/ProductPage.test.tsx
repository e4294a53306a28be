import { describe, expect, it } from 'vitest';
import { render, screen, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import type { Product, RentalTermsWire } from '@dme/contracts';
import App from '../../app';
import { stubApi } from '../../test/api';
import { customer } from '../../test/orders';
import { card, id, product } from '../../test/bulk';

const PRODUCT = id(7);

/** A rental product (issue 29: with its money terms, or none). */
const rental = (over: Partial<Product> = {}): Product => ({
  ...product(card(7)),
  name: 'Hospital Bed',
  type: 'FOR_RENT',
  price: '45.00',
  priceMin: '45.00',
  priceMax: '45.00',
  damageCharges: '250.00',
  rentalTerms: null,
  ...over,
});

async function show(p: Product) {
  stubApi({
    [`/api/products/${PRODUCT}`]: { status: 200, body: { product: p } },
    [`/api/products/${PRODUCT}/availability`]: { status: 200, body: { productID: PRODUCT, variantID: null, subVariantID: null, quantity: 1, rentalDays: 1, turnaroundDays: 1, units: 5, days: [] } },
  });
  render(
    <MemoryRouter initialEntries={[`/product-description/${PRODUCT}`]}>
      <App user={customer} />
    </MemoryRouter>,
  );
  await screen.findByRole('heading', { name: p.name });
}

const termsList = () => screen.queryByRole('list', { name: 'Rental terms' });

describe('the product page: rental terms (issue 29)', () => {
  it('lists a rental\'s deposit and late fee in words under the price', async () => {
    const terms: RentalTermsWire = { deposit: { kind: 'FIXED', amount: '500.00' }, lateFeePerDay: '50.00', graceDays: 2, lateFeeCap: { kind: 'DAYS', days: 10 } };
    await show(rental({ rentalTerms: terms }));
    expect(screen.getByTestId('price')).toHaveTextContent('$45.00 / day');
    expect(screen.getByText('Rental terms')).toBeInTheDocument();
    const items = within(termsList()!).getAllByRole('listitem').map((li) => li.textContent);
    expect(items).toEqual(['Deposit $500.00 per unit, refunded at return less any charges', 'Late fee $50.00 a day per unit after 2 grace days, at most 10 days']);
  });

  it('a percent deposit alone is one sentence', async () => {
    await show(rental({ rentalTerms: { deposit: { kind: 'PERCENT', percent: 25 }, lateFeePerDay: '0.00', graceDays: 0, lateFeeCap: null } }));
    expect(within(termsList()!).getAllByRole('listitem').map((li) => li.textContent)).toEqual(['Deposit 25% of the rental, refunded at return less any charges']);
  });

  it('a rental billed by cycles says so, even with no deposit and no late fee', async () => {
    await show(rental({ rentalTerms: { deposit: null, lateFeePerDay: '0.00', graceDays: 0, lateFeeCap: null, billing: 'CYCLES' } }));
    expect(within(termsList()!).getAllByRole('listitem').map((li) => li.textContent)).toEqual(['Rentals over 30 days are billed every 30 days']);
  });

  it('a rental billed upfront (said or not) says nothing of cycles', async () => {
    await show(rental({ rentalTerms: { deposit: { kind: 'FIXED', amount: '500.00' }, lateFeePerDay: '0.00', graceDays: 0, lateFeeCap: null, billing: 'UPFRONT' } }));
    expect(within(termsList()!).getAllByRole('listitem').map((li) => li.textContent)).toEqual(['Deposit $500.00 per unit, refunded at return less any charges']);
    expect(screen.queryByText(/billed every 30 days/)).toBeNull();
  });

  it('shows no terms for a rental whose terms charge nothing', async () => {
    await show(rental({ rentalTerms: { deposit: null, lateFeePerDay: '0.00', graceDays: 0, lateFeeCap: null } }));
    expect(termsList()).toBeNull();
    expect(screen.queryByText('Rental terms')).toBeNull();
  });

  it('a product for sale shows no rental terms', async () => {
    await show(rental({ type: 'FOR_SALE', rentalTerms: { deposit: { kind: 'FIXED', amount: '500.00' }, lateFeePerDay: '50.00', graceDays: 0, lateFeeCap: null } }));
    expect(screen.getByText('For Sale')).toBeInTheDocument();
    expect(termsList()).toBeNull();
  });
});
