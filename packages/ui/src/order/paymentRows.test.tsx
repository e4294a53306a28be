// @vitest-environment happy-dom
import { describe, expect, it } from 'vitest';
import { render, screen, within } from '@testing-library/react';
import type { OrderPayment } from '@dme/contracts';
import { PaymentInfoBlock } from './PaymentInfoBlock';
import { paymentRows, type PaymentRowsOptions, type PaymentRowsOrder } from './paymentRows';

const unpaid: OrderPayment = {
  status: 'UNPAID',
  totalOrderPayment: '60.00',
  totalPartialPayment: '20.00',
  extraCharge: null,
  overallTotal: null,
  balance: null,
  dueDate: null,
  records: [],
  deposit: '0.00',
  lateFees: null,
  depositApplied: null,
  depositRefund: null,
  refunds: [],
};

/** A rental paid in full with a deposit: late fees charged, the deposit applied to the charges and its rest refunded (paid back). */
const settled: PaymentRowsOrder = {
  type: 'RENT',
  lateFees: { amount: '300.00', days: 3, waived: '100.00' },
  payment: {
    ...unpaid,
    status: 'PAID',
    deposit: '1000.00',
    extraCharge: '450.00',
    overallTotal: '510.00',
    balance: '0.00',
    dueDate: '2026-11-30',
    lateFees: '300.00',
    depositApplied: '450.00',
    depositRefund: '550.00',
    refunds: [{ number: 'RF-20261128-000001', kind: 'DEPOSIT', amount: '550.00', method: 'BANK_TRANSFER', refundedAt: '2026-11-28T16:30:00.000Z' }],
  },
};

const customer: PaymentRowsOptions = { audience: 'customer', dateText: (d) => `on ${d}` };
const staff: PaymentRowsOptions = { audience: 'staff', dateText: (d) => `at ${d}`, lateFeesAction: <button type="button">Waive late fees</button> };

/** The rows as the block shows them: label → text. */
function shown(order: PaymentRowsOrder, options: PaymentRowsOptions): Array<[string, string]> {
  const { unmount } = render(<PaymentInfoBlock rows={paymentRows(order, options)} />);
  const section = screen.getByRole('region', { name: 'Payment Information' });
  const labels = [...section.querySelectorAll('.ant-descriptions-item-label')].map((e) => e.textContent ?? '');
  const values = [...section.querySelectorAll('.ant-descriptions-item-content')].map((e) => e.textContent ?? '');
  unmount();
  return labels.map((l, i) => [l, values[i]!]);
}

describe('paymentRows', () => {
  it("a purchase: status and total only, under each screen's label", () => {
    const order: PaymentRowsOrder = { type: 'BUY', lateFees: null, payment: { ...unpaid, totalPartialPayment: null } };
    expect(shown(order, customer)).toEqual([
      ['Status', 'UNPAID'],
      ['Order Total', '$60.00'],
    ]);
    expect(shown(order, staff)).toEqual([
      ['Status', 'UNPAID'],
      ['Total Order Payment', '$60.00'],
    ]);
  });

  it("a rental's money terms for the customer: late fees so far net of waivers, the full payment's amounts, the settlement and the refund paid back", () => {
    expect(shown(settled, customer)).toEqual([
      ['Status', 'PAID'],
      ['Order Total', '$60.00'],
      ['Partial Payment (first day)', '$20.00'],
      ['Deposit', '$1,000.00'],
      ['Late Fees So Far', '$300.00 ($100.00 waived)'],
      ['Due Date', 'on 2026-11-30'],
      ['Extra Charges', '$450.00'],
      ['Overall Total', '$510.00'],
      ['Late Fees', '$300.00'],
      ['Deposit Applied', '$450.00'],
      ['Deposit Refund', '$550.00'],
      ['Balance', '$0.00'],
      // 16:30 UTC is half past midnight the next day in Manila.
      ['Refund RF-20261128-000001', '$550.00 — Deposit returned, paid back by Bank transfer on Nov 29, 2026'],
    ]);
  });

  it('the same rental for staff: late fees so far with the days late and the action, the due date last, no refund rows', () => {
    expect(shown(settled, staff)).toEqual([
      ['Status', 'PAID'],
      ['Total Order Payment', '$60.00'],
      ['Partial Payment (first day)', '$20.00'],
      ['Deposit', '$1,000.00'],
      ['Late Fees So Far', '$300.00 (3 days late) — $100.00 waived' + 'Waive late fees'],
      ['Extra Charges', '$450.00'],
      ['Overall Total', '$510.00'],
      ['Late Fees', '$300.00'],
      ['Deposit Applied', '$450.00'],
      ['Deposit Refund', '$550.00'],
      ['Balance', '$0.00'],
      ['Due Date', 'at 2026-11-30'],
    ]);
  });

  it("the customer sees the full payment's amounts from FOR_FULL_PAYMENT on, '—' while unknown; staff each once known", () => {
    const asked: PaymentRowsOrder = { type: 'RENT', lateFees: null, payment: { ...unpaid, status: 'FOR_FULL_PAYMENT', extraCharge: '0.00' } };
    expect(shown(asked, customer).slice(3)).toEqual([
      ['Due Date', '—'],
      ['Extra Charges', '$0.00'],
      ['Overall Total', '—'],
      ['Balance', '—'],
    ]);
    expect(shown(asked, staff).slice(3)).toEqual([['Extra Charges', '$0.00']]);
    const initial: PaymentRowsOrder = { type: 'RENT', lateFees: null, payment: { ...unpaid, status: 'INITIAL_PAYMENT', balance: '40.00' } };
    expect(shown(initial, customer).map(([l]) => l)).toEqual(['Status', 'Order Total', 'Partial Payment (first day)']);
    expect(shown(initial, staff).slice(3)).toEqual([['Balance', '$40.00']]);
  });

  it('without a deposit nor late fees: no deposit or late fee rows, even with the settlement figures', () => {
    const order: PaymentRowsOrder = { ...settled, lateFees: null, payment: { ...settled.payment, deposit: '0.00', lateFees: '0.00', refunds: [] } };
    for (const options of [customer, staff]) {
      const labels = shown(order, options).map(([l]) => l);
      for (const gone of ['Deposit', 'Late Fees So Far', 'Late Fees', 'Deposit Applied', 'Deposit Refund']) expect(labels).not.toContain(gone);
    }
  });

  it('an order cancelled after payment: the customer sees what is owed back; staff do not', () => {
    const order: PaymentRowsOrder = { type: 'BUY', lateFees: null, payment: { ...unpaid, status: 'REFUND_DUE', refundDue: '90.00', totalPartialPayment: null } };
    expect(shown(order, customer)).toContainEqual(['Refund Due', '$90.00']);
    expect(shown(order, staff).map(([l]) => l)).not.toContain('Refund Due');
  });

  it('keeps the test ids the screens and their end-to-end tests read', () => {
    render(<PaymentInfoBlock rows={paymentRows(settled, customer)} />);
    const section = screen.getByRole('region', { name: 'Payment Information' });
    expect(within(section).getByTestId('order-total')).toHaveTextContent('$60.00');
    expect(within(section).getByTestId('deposit')).toHaveTextContent('$1,000.00');
    expect(within(section).getByTestId('late-fees-so-far')).toHaveTextContent('$300.00 ($100.00 waived)');
    expect(within(section).getByTestId('deposit-refund')).toHaveTextContent('$550.00');
    expect(within(section).getByTestId('balance')).toHaveTextContent('$0.00');
    expect(within(section).getByTestId('refund')).toHaveTextContent('$550.00 — Deposit returned');
  });
});
