import { describe, expect, it } from 'vitest';
import { cleanup, render, screen, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import type { Handover, Order } from '@dme/contracts';
import App from '../../app';
import { stubApi } from '../../test/api';
import { customer, FULL_RECORD_ID, fullRecord, INITIAL_RECORD_ID, initial, line, order, ORDER_ID, packedLine, unpaid } from '../../test/orders';

async function show(o: Order) {
  stubApi({ [`/api/my/orders/${ORDER_ID}`]: { status: 200, body: { order: o } } });
  render(
    <MemoryRouter initialEntries={[`/orders/${o.type === 'RENT' ? 'rentals' : 'purchased'}/${ORDER_ID}`]}>
      <App user={customer} />
    </MemoryRouter>,
  );
  await screen.findByRole('heading', { name: `Order ${o.orderNumber}` });
  return within(screen.getByRole('region', { name: 'Payment Information' }));
}

const downloadQr = () => screen.queryByRole('link', { name: 'Download QR' });
/** Every invoice download of the page (one per payment record). */
const invoiceLinks = () => screen.queryAllByRole('link', { name: /^Download .*\.pdf$/ });
const downloadInvoice = () => invoiceLinks()[0] ?? null;
const recordInvoice = (recordId: string) => `/api/my/orders/${ORDER_ID}/records/${recordId}/invoice.pdf`;

describe("the customer's order detail", () => {
  it('shows a pending rental as UNPAID with its total and partial payment, and nothing to download', async () => {
    const pay = await show(order());
    expect(screen.getByText('Order placed')).toBeInTheDocument();
    expect(pay.getByText('UNPAID')).toBeInTheDocument();
    expect(pay.getByTestId('order-total')).toHaveTextContent('$270.00');
    expect(pay.getByText('Partial Payment (first day)')).toBeInTheDocument();
    expect(pay.getByText('$90.00')).toBeInTheDocument();
    for (const label of ['Due Date', 'Extra Charges', 'Overall Total', 'Balance']) expect(pay.queryByText(label)).toBeNull();
    expect(screen.queryByRole('region', { name: 'Payment Records' })).toBeNull();
    expect(screen.queryByRole('columnheader', { name: 'Serial Codes' })).toBeNull();
    expect(downloadQr()).toBeNull();
    expect(downloadInvoice()).toBeNull();
    expect(screen.queryByRole('region', { name: 'Proof of delivery' })).toBeNull();
  });

  it('shows a FOR_PAYMENT purchase as UNPAID with no partial payment', async () => {
    const pay = await show(order({ type: 'BUY', status: 'FOR_PAYMENT', partialPayment: null, payment: { ...unpaid, totalPartialPayment: null }, products: [line({ noOfRentalDays: null })] }));
    expect(pay.getByText('UNPAID')).toBeInTheDocument();
    expect(pay.queryByText('Partial Payment (first day)')).toBeNull();
    expect(downloadInvoice()).toBeNull();
  });

  it('after the first payment: the status, the record and the invoice; no QR before packing', async () => {
    const pay = await show(order({ status: 'PREPARING', payment: { ...unpaid, status: 'INITIAL_PAYMENT', balance: '180.00', records: [initial] } }));
    expect(pay.getByText('INITIAL PAYMENT')).toBeInTheDocument();
    expect(pay.queryByText('UNPAID')).toBeNull();
    expect(pay.getByTestId('order-total')).toHaveTextContent('$270.00');
    expect(pay.queryByText('Due Date')).toBeNull();
    const records = within(screen.getByRole('region', { name: 'Payment Records' }));
    const r = records.getByText('INV-001').closest('tr') as HTMLElement;
    for (const text of ['Initial Payment', 'OR-001', '$90.00', 'Nov 23, 2026, 11:00 AM']) expect(within(r).getByText(text)).toBeInTheDocument();
    const invoice = within(r).getByRole('link', { name: 'Download INITIAL_PAYMENT_INVOICE.pdf' });
    expect(invoice).toHaveAttribute('href', recordInvoice(INITIAL_RECORD_ID));
    // Saved under the name the server gives.
    expect(invoice).toHaveAttribute('download', '');
    expect(invoiceLinks()).toHaveLength(1);
    expect(downloadQr()).toBeNull();
  });

  it('once packed: serial codes per line and the Download QR button saving QR_Code.png', async () => {
    await show(order({ type: 'BUY', status: 'TO_SHIP', payment: { ...unpaid, status: 'PAID', totalPartialPayment: null, balance: '0.00', overallTotal: '270.00', records: [{ ...initial, type: 'FULL', amount: '270.00' }] }, products: [{ ...packedLine, noOfRentalDays: null }] }));
    expect(screen.getByRole('columnheader', { name: 'Serial Codes' })).toBeInTheDocument();
    const products = within(screen.getByRole('region', { name: 'Products' }));
    expect(products.getByText('HOS-0000101')).toBeInTheDocument();
    expect(products.getByText('HOS-0000102')).toBeInTheDocument();
    const qr = downloadQr()!;
    expect(qr).toHaveAttribute('href', `/api/my/orders/${ORDER_ID}/qr.png`);
    expect(qr).toHaveAttribute('download', 'QR_Code.png');
    expect(screen.getByRole('img', { name: 'QR code of order ORD-20261123-000042' })).toHaveAttribute('src', `/api/my/orders/${ORDER_ID}/qr.png`);
    // A purchase shows no due date or balance block.
    const pay = within(screen.getByRole('region', { name: 'Payment Information' }));
    expect(pay.getByText('PAID')).toBeInTheDocument();
    expect(pay.queryByText('Due Date')).toBeNull();
    expect(within(screen.getByRole('region', { name: 'Payment Records' })).getByText('Full Payment')).toBeInTheDocument();
    expect(downloadInvoice()).not.toBeNull();
  });

  it('a rental waiting for its full payment shows due date, extra charges, overall total and balance', async () => {
    const pay = await show(
      order({
        status: 'FOR_FULL_PAYMENT',
        payment: { ...unpaid, status: 'FOR_FULL_PAYMENT', extraCharge: '500.00', overallTotal: '770.00', balance: '680.00', dueDate: '2026-11-29', records: [initial] },
        products: [packedLine],
      }),
    );
    expect(pay.getByText('FOR FULL PAYMENT')).toBeInTheDocument();
    expect(pay.getByText('Nov 29, 2026')).toBeInTheDocument();
    expect(pay.getByText('$500.00')).toBeInTheDocument();
    expect(pay.getByText('$770.00')).toBeInTheDocument();
    expect(pay.getByTestId('balance')).toHaveTextContent('$680.00');
    // Each figure under its label.
    const figure = (label: string) => pay.getByText(label).closest('tr') as HTMLElement;
    expect(figure('Due Date')).toHaveTextContent('Nov 29, 2026');
    expect(figure('Extra Charges')).toHaveTextContent('$500.00');
    expect(figure('Overall Total')).toHaveTextContent('$770.00');
    expect(figure('Balance')).toHaveTextContent('$680.00');
    // The initial payment is on record; the full one is still to come.
    const rows = within(screen.getByRole('region', { name: 'Payment Records' })).getAllByRole('row').slice(1);
    expect(rows.map((r) => within(r).getAllByRole('cell')[0]!.textContent)).toEqual(['Initial Payment']);
    expect(downloadQr()).not.toBeNull();
    expect(downloadInvoice()).not.toBeNull();
  });

  it('a completed rental lists the initial and the full payment', async () => {
    const pay = await show(
      order({
        status: 'COMPLETED',
        payment: { ...unpaid, status: 'PAID', extraCharge: '500.00', overallTotal: '770.00', balance: '0.00', dueDate: '2026-11-29', records: [initial, fullRecord] },
        products: [packedLine],
      }),
    );
    expect(pay.getByText('PAID')).toBeInTheDocument();
    expect(pay.getByText('Nov 29, 2026')).toBeInTheDocument();
    expect(pay.getByText('$500.00')).toBeInTheDocument();
    expect(pay.getByText('$770.00')).toBeInTheDocument();
    expect(pay.getByTestId('balance')).toHaveTextContent('$0.00');
    const rows = within(screen.getByRole('region', { name: 'Payment Records' })).getAllByRole('row').slice(1);
    expect(rows.map((r) => within(r).getAllByRole('cell')[0]!.textContent)).toEqual(['Initial Payment', 'Full Payment']);
    for (const text of ['INV-001', 'OR-001', '$90.00']) expect(within(rows[0]!).getByText(text)).toBeInTheDocument();
    for (const text of ['INV-002', 'OR-002', '$680.00', 'Bank transfer']) expect(within(rows[1]!).getByText(text)).toBeInTheDocument();
    // Each payment has its invoice, the first one too (issue 22); the server names the files.
    expect(within(rows[0]!).getByRole('link', { name: 'Download INITIAL_PAYMENT_INVOICE.pdf' })).toHaveAttribute('href', recordInvoice(INITIAL_RECORD_ID));
    expect(within(rows[1]!).getByRole('link', { name: 'Download FULL_PAYMENT_INVOICE.pdf' })).toHaveAttribute('href', recordInvoice(FULL_RECORD_ID));
    for (const link of invoiceLinks()) expect(link).toHaveAttribute('download', '');
  });

  it('a rental billed by cycles: a cycle record is "Cycle 2 payment" with its CYCLE_INVOICE_2.pdf (issue 29)', async () => {
    const CYCLE_RECORD_ID = '66666666-6666-4666-8666-666666666666';
    const cycle2 = { id: CYCLE_RECORD_ID, type: 'CYCLE' as const, cycle: 2, invoiceNumber: 'INV-003', receiptNumber: 'OR-003', amount: '900.00', note: '', createdAt: '2026-12-23T03:00:00.000Z' };
    await show(order({ status: 'DELIVERED', payment: { ...unpaid, status: 'INITIAL_PAYMENT', balance: '180.00', records: [initial, cycle2] }, products: [packedLine] }));
    const rows = within(screen.getByRole('region', { name: 'Payment Records' })).getAllByRole('row').slice(1);
    expect(rows.map((r) => within(r).getAllByRole('cell')[0]!.textContent)).toEqual(['Initial Payment', 'Cycle 2 payment']);
    for (const text of ['INV-003', 'OR-003', '$900.00']) expect(within(rows[1]!).getByText(text)).toBeInTheDocument();
    expect(within(rows[0]!).getByRole('link', { name: 'Download INITIAL_PAYMENT_INVOICE.pdf' })).toHaveAttribute('href', recordInvoice(INITIAL_RECORD_ID));
    expect(within(rows[1]!).getByRole('link', { name: 'Download CYCLE_INVOICE_2.pdf' })).toHaveAttribute('href', recordInvoice(CYCLE_RECORD_ID));
    expect(within(rows[1]!).getByText('CYCLE_INVOICE_2.pdf')).toBeInTheDocument();
  });

  it('a rent-to-own rental bought out: its buy-out record is "Buy-out" (not a full payment) with BUY_OUT_INVOICE.pdf (issue 29)', async () => {
    const BUYOUT_ID = '77777777-7777-4777-8777-777777777777';
    const buyOut = { id: BUYOUT_ID, type: 'BUYOUT' as const, invoiceNumber: 'INV-004', receiptNumber: 'OR-004', amount: '28500.00', note: '', createdAt: '2026-12-23T03:00:00.000Z' };
    await show(order({ status: 'COMPLETED', payment: { ...unpaid, status: 'PAID', balance: '0.00', records: [initial, buyOut] }, products: [packedLine] }));
    const rows = within(screen.getByRole('region', { name: 'Payment Records' })).getAllByRole('row').slice(1);
    expect(rows.map((r) => within(r).getAllByRole('cell')[0]!.textContent)).toEqual(['Initial Payment', 'Buy-out']);
    expect(within(rows[1]!).getByRole('link', { name: 'Download BUY_OUT_INVOICE.pdf' })).toHaveAttribute('href', recordInvoice(BUYOUT_ID));
  });

  it('a rental billed by cycles: its cycles from delivery, each with its days, due day, rent and state (issue 29)', async () => {
    await show(
      order({
        status: 'DELIVERED',
        // 17:00 UTC on Feb 28 is 1 AM on Mar 1 in Manila.
        deliveredAt: '2026-02-28T17:00:00.000Z',
        billing: 'CYCLES',
        cycles: [
          { n: 1, from: '2026-03-01', to: '2026-03-30', dueOn: '2026-03-01', days: 30, amount: '2700.00', state: 'PAID' },
          { n: 2, from: '2026-03-31', to: '2026-04-29', dueOn: '2026-03-31', days: 30, amount: '1800.00', state: 'DUE' },
        ],
        payment: { ...unpaid, status: 'INITIAL_PAYMENT', records: [initial] },
        products: [packedLine],
      }),
    );
    const cycles = screen.getByRole('region', { name: 'Billing cycles' });
    expect(within(cycles).getByText('Billed every 30 days from delivery (delivered Mar 1, 2026)')).toBeInTheDocument();
    expect(within(cycles).getAllByRole('columnheader').map((h) => h.textContent)).toEqual(['Cycle', 'Days', 'Due on', 'Rent', 'Status']);
    const cycleRow = (n: string) => within(cycles).getByRole('cell', { name: n }).closest('tr') as HTMLElement;
    for (const text of ['Mar 1, 2026 – Mar 30, 2026', 'Mar 1, 2026', '$2,700.00']) expect(within(cycleRow('1')).getByText(text)).toBeInTheDocument();
    expect(within(cycleRow('1')).getByText('Paid')).toHaveClass('ant-tag-green');
    for (const text of ['Mar 31, 2026 – Apr 29, 2026', 'Mar 31, 2026', '$1,800.00']) expect(within(cycleRow('2')).getByText(text)).toBeInTheDocument();
    expect(within(cycleRow('2')).getByText('Due')).toHaveClass('ant-tag-red');
  });

  it('a rental billed by cycles not delivered yet: the cycles start on the delivery day; an upfront rental shows none (issue 29)', async () => {
    await show(order({ status: 'PREPARING', billing: 'CYCLES', cycles: [] }));
    const cycles = screen.getByRole('region', { name: 'Billing cycles' });
    expect(within(cycles).getByText('Billed every 30 days from delivery')).toBeInTheDocument();
    expect(within(cycles).getByText('Cycles start on the delivery day.')).toBeInTheDocument();
    expect(within(cycles).queryByRole('table')).toBeNull();
    cleanup();

    await show(order({ status: 'DELIVERED', deliveredAt: '2026-02-28T17:00:00.000Z', products: [packedLine] }));
    expect(screen.queryByRole('region', { name: 'Billing cycles' })).toBeNull();
    expect(screen.queryByText(/Billed every 30 days/)).toBeNull();
  });

  it('a rental with a deposit kept past its due date: the Deposit row, the late fees so far in a notice and a row (issue 29)', async () => {
    const pay = await show(
      order({
        status: 'DELIVERED',
        payment: { ...unpaid, status: 'INITIAL_PAYMENT', balance: '180.00', deposit: '1000.00', records: [{ ...initial, amount: '1090.00' }] },
        products: [{ ...packedLine, deposit: '1000.00', dueDate: '2026-11-26' }],
        lateFees: { amount: '150.00', days: 3 },
      }),
    );
    const figure = (label: string) => pay.getByText(label).closest('tr') as HTMLElement;
    expect(figure('Deposit')).toHaveTextContent('$1,000.00');
    expect(pay.getByTestId('late-fees-so-far')).toHaveTextContent('$150.00');
    expect(figure('Late Fees So Far')).toHaveTextContent('$150.00');
    expect(pay.getByRole('alert')).toHaveTextContent('Late fees so far: $150.00 (3 days late). They grow each day until the equipment is picked up.');
    // The full payment's figures are not known yet.
    for (const label of ['Late Fees', 'Deposit Applied', 'Deposit Refund']) expect(pay.queryByText(label)).toBeNull();
    expect(pay.queryByTestId('deposit-refund')).toBeNull();
  });

  it('late fees staff waived in part: the row shows what is left and what was waived; the notice the net amount (issue 29)', async () => {
    const pay = await show(
      order({
        status: 'DELIVERED',
        payment: { ...unpaid, status: 'INITIAL_PAYMENT', records: [initial] },
        lateFees: { amount: '100.00', days: 3, charged: '150.00', waived: '50.00' },
      }),
    );
    expect(pay.getByTestId('late-fees-so-far')).toHaveTextContent(/^\$100\.00 \(\$50\.00 waived\)$/);
    expect(pay.getByRole('alert')).toHaveTextContent('Late fees so far: $100.00 (3 days late). They grow each day until the equipment is picked up.');
  });

  it('nothing waived: the row shows the amount alone (issue 29)', async () => {
    const pay = await show(order({ status: 'DELIVERED', payment: { ...unpaid, status: 'INITIAL_PAYMENT', records: [initial] }, lateFees: { amount: '150.00', days: 3, charged: '150.00', waived: '0.00' } }));
    expect(pay.getByTestId('late-fees-so-far')).toHaveTextContent(/^\$150\.00$/);
  });

  it('a day late says "1 day late"; a rental without a deposit or late fees shows neither (issue 29)', async () => {
    let pay = await show(order({ status: 'DELIVERED', payment: { ...unpaid, status: 'INITIAL_PAYMENT', records: [initial] }, lateFees: { amount: '50.00', days: 1 } }));
    expect(pay.getByRole('alert')).toHaveTextContent('Late fees so far: $50.00 (1 day late).');
    expect(pay.queryByText('Deposit')).toBeNull();
    cleanup();
    pay = await show(order({ status: 'DELIVERED', payment: { ...unpaid, status: 'INITIAL_PAYMENT', deposit: '0.00', records: [initial] }, lateFees: null }));
    for (const label of ['Deposit', 'Late Fees So Far', 'Late Fees', 'Deposit Applied', 'Deposit Refund']) expect(pay.queryByText(label)).toBeNull();
    expect(pay.queryByRole('alert')).toBeNull();
  });

  it('at the full payment: the late fees charged, the deposit applied and the deposit refund, under their labels (issue 29)', async () => {
    const pay = await show(
      order({
        status: 'FOR_FULL_PAYMENT',
        payment: {
          ...unpaid,
          status: 'FOR_FULL_PAYMENT',
          deposit: '1000.00',
          extraCharge: '650.00',
          lateFees: '150.00',
          depositApplied: '650.00',
          depositRefund: '350.00',
          overallTotal: '920.00',
          balance: '180.00',
          dueDate: '2026-11-29',
          records: [{ ...initial, amount: '1090.00' }],
        },
        products: [{ ...packedLine, deposit: '1000.00' }],
        lateFees: { amount: '150.00', days: 3 },
      }),
    );
    const figure = (label: string) => pay.getByText(label).closest('tr') as HTMLElement;
    expect(figure('Deposit')).toHaveTextContent('$1,000.00');
    expect(figure('Extra Charges')).toHaveTextContent('$650.00');
    expect(figure('Late Fees')).toHaveTextContent('$150.00');
    expect(figure('Deposit Applied')).toHaveTextContent('$650.00');
    expect(pay.getByTestId('deposit-refund')).toHaveTextContent('$350.00');
    expect(figure('Deposit Refund')).toHaveTextContent('$350.00');
    expect(pay.getByTestId('balance')).toHaveTextContent('$180.00');
    // The late fees are final now: no notice that they grow.
    expect(pay.queryByRole('alert')).toBeNull();
  });

  it('no late fees charged at the full payment: no Late Fees row (issue 29)', async () => {
    const pay = await show(
      order({
        status: 'COMPLETED',
        payment: { ...unpaid, status: 'PAID', deposit: '1000.00', extraCharge: '0.00', lateFees: '0.00', depositApplied: '0.00', depositRefund: '1000.00', overallTotal: '270.00', balance: '0.00', records: [initial, fullRecord] },
        products: [packedLine],
      }),
    );
    expect(pay.queryByText('Late Fees')).toBeNull();
    expect((pay.getByText('Deposit Applied').closest('tr') as HTMLElement)).toHaveTextContent('$0.00');
    expect(pay.getByTestId('deposit-refund')).toHaveTextContent('$1,000.00');
  });

  it('a record from before records had ids: the latest one links to the order\'s latest invoice, an earlier one has no link', async () => {
    const { id: _a, ...oldInitial } = initial;
    const { id: _b, ...oldFull } = fullRecord;
    await show(order({ status: 'COMPLETED', payment: { ...unpaid, status: 'PAID', balance: '0.00', records: [oldInitial, oldFull] }, products: [packedLine] }));
    const rows = within(screen.getByRole('region', { name: 'Payment Records' })).getAllByRole('row').slice(1);
    expect(within(rows[0]!).queryByRole('link')).toBeNull();
    expect(within(rows[1]!).getByRole('link', { name: 'Download FULL_PAYMENT_INVOICE.pdf' })).toHaveAttribute('href', `/api/my/orders/${ORDER_ID}/invoice.pdf`);
  });

  it('a payment taken for an order cancelled meanwhile: REFUND DUE with the amount owed back, and its invoice (issue 22)', async () => {
    const pay = await show(order({ status: 'CANCELLED', payment: { ...unpaid, status: 'REFUND_DUE', refundDue: '90.00', records: [initial] } }));
    expect(pay.getByText('REFUND DUE')).toBeInTheDocument();
    expect(pay.queryByText('UNPAID')).toBeNull();
    expect(pay.getByTestId('refund-due')).toHaveTextContent('$90.00');
    expect(pay.getByRole('alert')).toHaveTextContent('This order was cancelled after your payment of $90.00 was received. It is due to be refunded to you');
    expect(screen.getByRole('link', { name: 'Download INITIAL_PAYMENT_INVOICE.pdf' })).toHaveAttribute('href', recordInvoice(INITIAL_RECORD_ID));
  });

  it('a deposit refund paid back is listed with how and when (issue 29)', async () => {
    const pay = await show(
      order({
        status: 'COMPLETED',
        payment: {
          ...unpaid,
          status: 'PAID',
          deposit: '1000.00',
          extraCharge: '800.00',
          lateFees: '0.00',
          depositApplied: '800.00',
          depositRefund: '200.00',
          overallTotal: '1070.00',
          balance: '0.00',
          records: [initial, fullRecord],
          refunds: [{ number: 'RF-20261128-000001', kind: 'DEPOSIT', amount: '200.00', method: 'BANK_TRANSFER', refundedAt: '2026-11-28T16:30:00.000Z' }],
        },
        products: [packedLine],
      }),
    );
    // 16:30 UTC is half past midnight the next day in Manila.
    expect(pay.getByText('Refund RF-20261128-000001').closest('tr')).toHaveTextContent('$200.00 — Deposit returned, paid back by Bank transfer on Nov 29, 2026');
    expect(pay.getByText('PAID')).toBeInTheDocument();
  });

  it('a cancelled order whose payment was refunded: REFUNDED, the refund, and no refund-due notice (issue 29)', async () => {
    const pay = await show(
      order({
        status: 'CANCELLED',
        payment: {
          ...unpaid,
          status: 'REFUNDED',
          records: [initial],
          refunds: [{ number: 'RF-20261128-000002', kind: 'CANCELLED', amount: '90.00', method: 'GCASH', refundedAt: '2026-11-28T03:00:00.000Z' }],
        },
      }),
    );
    expect(pay.getByText('REFUNDED').closest('.ant-tag')).toHaveClass('ant-tag-green');
    expect(pay.getByTestId('refund')).toHaveTextContent('$90.00 — Order cancelled after payment, paid back by GCash on Nov 28, 2026');
    expect(pay.queryByRole('alert')).toBeNull();
    expect(pay.queryByText('Refund Due')).toBeNull();
  });

  it('a delivered order shows its proof of delivery: a failed attempt, the hand-over with its signature, and the Delivery ticket (issue 28)', async () => {
    const handedOver: Handover = {
      id: '66666666-6666-4666-8666-666666666666',
      leg: 'DELIVERY',
      outcome: 'HANDED_OVER',
      attempt: 2,
      recipientName: 'Ana Santos',
      relation: 'CAREGIVER',
      reason: '',
      serials: ['HOS-0000101', 'HOS-0000102'],
      acknowledgement: 'I received the equipment listed above.',
      driverName: 'Dario Cruz',
      signedAt: '2026-11-25T02:00:00.000Z',
      recordedAt: '2026-11-25T02:01:00.000Z',
      hasSignature: true,
      hasPhoto: true,
    };
    const missed: Handover = { ...handedOver, id: '77777777-7777-4777-8777-777777777777', outcome: 'NOBODY_HOME', attempt: 1, recipientName: '', relation: null, reason: 'Nobody answered the gate.', serials: [], hasSignature: false, hasPhoto: false };
    await show(order({ status: 'DELIVERED', products: [packedLine], handovers: [missed, handedOver] }));
    const proof = within(screen.getByRole('region', { name: 'Proof of delivery' }));
    expect(proof.getByText('Nobody answered the gate.')).toBeInTheDocument();
    expect(proof.getByText('Ana Santos, Caregiver')).toBeInTheDocument();
    expect(proof.getByRole('img', { name: 'Signature of Ana Santos' })).toHaveAttribute('src', `/api/my/orders/${ORDER_ID}/handovers/${handedOver.id}/signature`);
    expect(proof.getByRole('link', { name: /^Photo/ })).toHaveAttribute('href', `/api/my/orders/${ORDER_ID}/handovers/${handedOver.id}/photo`);
    expect(proof.getByRole('button', { name: 'Delivery ticket' })).toBeInTheDocument();
    expect(proof.queryByRole('button', { name: 'Pick-up ticket' })).toBeNull();
  });

  it('a cancelled order offers neither download', async () => {
    await show(order({ status: 'CANCELLED' }));
    expect(downloadQr()).toBeNull();
    expect(downloadInvoice()).toBeNull();
  });
});
