import { describe, expect, it } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter, useLocation } from 'react-router-dom';
import type { Payment, PaymentSummary, User } from '@dme/contracts';
import App from '../../app';
import { nextStepText } from './labels';
import { mockApi, on, problem, query, type Call } from '@dme/ui/testing';

const accountant = { id: '00000000-0000-4000-8000-0000000000ac', username: 'accounting', firstName: 'Ana', lastName: 'Reyes', userType: 'ACCOUNTING_ADMIN' } as User;

const ids = {
  purchase: '11111111-1111-4111-8111-111111111111',
  waiting: '22222222-2222-4222-8222-222222222222',
  rental: '33333333-3333-4333-8333-333333333333',
  full: '44444444-4444-4444-8444-444444444444',
};

function summary(over: Partial<PaymentSummary> = {}): PaymentSummary {
  return {
    id: ids.purchase,
    orderID: '55555555-5555-4555-8555-555555555555',
    orderNumber: 'ORD-20261123-000001',
    orderType: 'BUY',
    orderStatus: 'FOR_PAYMENT',
    customerID: '66666666-6666-4666-8666-666666666666',
    customerName: 'Maria Santos',
    status: 'PENDING',
    type: null,
    totalOrderPayment: '1250.00',
    totalPartialPayment: null,
    balance: '1250.00',
    nextAction: 'MARK_AS_PAID',
    refundDue: null,
    dueNow: null,
    refundsDue: null,
    createdAt: '2026-11-23T02:00:00.000Z',
    updatedAt: '2026-11-23T02:00:00.000Z',
    ...over,
  };
}

function detail(over: Partial<Payment> = {}): Payment {
  return {
    ...summary(),
    customer: { name: 'Maria Santos', email: 'maria@example.com', contactNumber: '09171234567' },
    delivery: { address: '12 Rizal St', city: 'Makati', state: 'Metro Manila', zipcode: '123456' },
    lines: [{ productName: 'Wheelchair', variantName: 'Standard', subVariantName: null, quantity: 1, noOfRentalDays: null, unitPrice: '1250.00', lineTotal: '1250.00', deposit: '0.00', rentToOwn: null }],
    extraCharge: null,
    overallTotal: null,
    dueDate: null,
    records: [],
    deposit: '0.00',
    depositHeld: '0.00',
    lateFees: null,
    depositApplied: null,
    depositRefund: null,
    refunds: [],
    extensions: [],
    billing: 'UPFRONT',
    deliveredOn: null,
    cycles: [],
    buyOutNow: null,
    ...over,
  };
}

const record = (over: Partial<Payment['records'][number]> = {}): Payment['records'][number] => ({
  id: '77777777-7777-4777-8777-777777777777',
  type: 'PARTIAL',
  invoiceNumber: 'INV-001',
  receiptNumber: 'OR-001',
  note: 'Cash',
  amount: '90.00',
  accommodatedBy: accountant.id,
  accommodatedByName: 'Ana Reyes',
  createdAt: '2026-11-23T16:30:00.000Z',
  cycle: null,
  ...over,
});

const rental = detail({
  id: ids.rental,
  orderNumber: 'ORD-20261120-000007',
  orderType: 'RENT',
  orderStatus: 'DELIVERED',
  status: 'INITIAL_PAYMENT',
  type: 'PARTIAL',
  totalOrderPayment: '270.00',
  totalPartialPayment: '90.00',
  balance: '180.00',
  nextAction: null,
  lines: [{ productName: 'Hospital Bed', variantName: 'Manual', subVariantName: 'Single', quantity: 1, noOfRentalDays: 3, unitPrice: '90.00', lineTotal: '270.00', deposit: '0.00', rentToOwn: null }],
  records: [record()],
});

const forFull = detail({
  ...rental,
  id: ids.full,
  orderStatus: 'FOR_FULL_PAYMENT',
  status: 'FOR_FULL_PAYMENT',
  extraCharge: '500.00',
  overallTotal: '770.00',
  balance: '680.00',
  dueDate: '2026-11-25',
  nextAction: 'COMPLETE_PAYMENT',
});

function Where() {
  const l = useLocation();
  return <output data-testid="location">{l.pathname + l.search}</output>;
}

function open(path: string) {
  render(
    <MemoryRouter initialEntries={[path]}>
      <App user={accountant} />
      <Where />
    </MemoryRouter>,
  );
}

const row = (text: string) => screen.getByText(text).closest('tr') as HTMLElement;
const location = () => screen.getByTestId('location').textContent;
const lists = (calls: Call[]) => calls.filter((c) => c.method === 'GET' && c.url.startsWith('/api/payments?'));
const pressEnter = (el: HTMLElement) => {
  fireEvent.keyDown(el, { key: 'Enter', code: 'Enter', keyCode: 13 });
  fireEvent.keyUp(el, { key: 'Enter', code: 'Enter', keyCode: 13 });
};
const confirms = (calls: Call[]) => calls.filter((c) => c.method === 'POST');

describe('payments list', () => {
  it('has the four tabs of the spec, Refund Due, Refunded and Cancelled, kept in the address, with a row per payment and its next step', async () => {
    const { calls } = mockApi(
      on('GET', '/api/payments', (c) => {
        const status = query(c).status;
        if (status === 'PENDING') {
          return { status: 200, body: { items: [summary(), summary({ id: ids.waiting, orderNumber: 'ORD-20261123-000002', customerName: 'Jose Cruz', orderStatus: 'PENDING', nextAction: null })], total: 2 } };
        }
        if (status === 'INITIAL_PAYMENT') return { status: 200, body: { items: [rental], total: 1 } };
        return { status: 200, body: { items: [], total: 0 } };
      }),
    );
    open('/admin/payments');
    expect(await screen.findByText('ORD-20261123-000001')).toBeInTheDocument();
    expect(screen.getAllByRole('tab').map((t) => t.textContent)).toEqual(['Pending', 'Partial Paid', 'For Full Payment', 'Paid', 'Refund Due', 'Refunded', 'Cancelled', 'Refunds to Pay']);
    expect(screen.getByRole('tab', { name: 'Pending', selected: true })).toBeInTheDocument();
    expect(query(lists(calls)[0]!)).toMatchObject({ status: 'PENDING', limit: '20', offset: '0' });
    for (const title of ['Order Number', 'Customer', 'Type', 'Order Status', 'Amount / Balance', 'Payment Status']) {
      expect(screen.getByRole('columnheader', { name: title })).toBeInTheDocument();
    }

    const payable = row('ORD-20261123-000001');
    expect(within(payable).getByText('Maria Santos')).toBeInTheDocument();
    expect(within(payable).getByText('Purchase')).toBeInTheDocument();
    expect(within(payable).getByText('FOR PAYMENT')).toBeInTheDocument();
    expect(within(payable).getByText('$1,250.00')).toBeInTheDocument();
    expect(within(payable).getByText('PENDING')).toBeInTheDocument();
    expect(within(payable).getByText('Mark as paid')).toBeInTheDocument();
    expect(within(payable).getByRole('link', { name: 'View' })).toHaveAttribute('href', `/admin/payments/${ids.purchase}`);
    // The order is not confirmed yet: the row says so instead of offering a step.
    const waiting = row('ORD-20261123-000002');
    expect(within(waiting).getByText('Waiting for the warehouse to confirm the order')).toBeInTheDocument();
    expect(within(waiting).queryByText('Mark as paid')).toBeNull();

    fireEvent.click(screen.getByRole('tab', { name: 'Partial Paid' }));
    expect(await screen.findByText('ORD-20261120-000007')).toBeInTheDocument();
    expect(location()).toBe('/admin/payments?status=INITIAL_PAYMENT');
    expect(query(lists(calls).at(-1)!)).toMatchObject({ status: 'INITIAL_PAYMENT' });
    const r = row('ORD-20261120-000007');
    expect(within(r).getByText('Rental')).toBeInTheDocument();
    expect(within(r).getByText('INITIAL PAYMENT')).toBeInTheDocument();
    expect(within(r).getByText('Balance $180.00')).toBeInTheDocument();

    fireEvent.click(screen.getByRole('tab', { name: 'Paid' }));
    expect(await screen.findByText('No paid payments yet.')).toBeInTheDocument();
    expect(location()).toBe('/admin/payments?status=PAID');
    fireEvent.click(screen.getByRole('tab', { name: 'Refunded' }));
    expect(await screen.findByText('No refunded payments.')).toBeInTheDocument();
    expect(location()).toBe('/admin/payments?status=REFUNDED');
    fireEvent.click(screen.getByRole('tab', { name: 'Cancelled' }));
    expect(await screen.findByText('No cancelled payments.')).toBeInTheDocument();
    expect(location()).toBe('/admin/payments?status=CANCELLED');
  });

  it('counts the payments of each tab, and lists payments taken for orders cancelled meanwhile under Refund Due with what is owed (issue 22)', async () => {
    const owed = summary({ id: ids.full, orderNumber: 'ORD-20261123-000009', orderStatus: 'CANCELLED', status: 'REFUND_DUE', type: 'FULL', balance: '0.00', nextAction: null, refundDue: '1250.00' });
    const counts = { PENDING: 2, INITIAL_PAYMENT: 0, FOR_FULL_PAYMENT: 0, PAID: 7, CANCELLED: 3, REFUND_DUE: 1, REFUNDED: 4 };
    const { calls } = mockApi(
      on('GET', '/api/payments', (c) => {
        const status = query(c).status;
        if (status === 'REFUND_DUE') return { status: 200, body: { items: [owed], total: 1, counts } };
        if (status === 'CANCELLED') return { status: 200, body: { items: [summary({ id: ids.waiting, orderStatus: 'CANCELLED', status: 'CANCELLED', nextAction: null })], total: 1, counts } };
        return { status: 200, body: { items: [], total: 0, counts } };
      }),
    );
    open('/admin/payments');
    expect(await screen.findByRole('tab', { name: 'Refund Due 1' })).toBeInTheDocument();
    expect(screen.getAllByRole('tab').map((t) => t.textContent)).toEqual(['Pending 2', 'Partial Paid 0', 'For Full Payment 0', 'Paid 7', 'Refund Due 1', 'Refunded 4', 'Cancelled 3', 'Refunds to Pay 0']);

    fireEvent.click(screen.getByRole('tab', { name: 'Refund Due 1' }));
    expect(await screen.findByText('ORD-20261123-000009')).toBeInTheDocument();
    expect(location()).toBe('/admin/payments?status=REFUND_DUE');
    expect(query(lists(calls).at(-1)!)).toMatchObject({ status: 'REFUND_DUE' });
    const r = row('ORD-20261123-000009');
    expect(within(r).getByText('REFUND DUE')).toBeInTheDocument();
    expect(within(r).getByText('CANCELLED')).toBeInTheDocument();
    expect(within(r).getByText('Refund due $1,250.00')).toBeInTheDocument();
    expect(within(r).getByText('Refund $1,250.00 to the customer')).toBeInTheDocument();
    expect(within(r).getByRole('link', { name: 'View' })).toHaveAttribute('href', `/admin/payments/${ids.full}`);

    fireEvent.click(screen.getByRole('tab', { name: 'Cancelled 3' }));
    // Order and payment both CANCELLED.
    expect(await within(await waitFor(() => row('ORD-20261123-000001'))).findAllByText('CANCELLED')).toHaveLength(2);
    expect(location()).toBe('/admin/payments?status=CANCELLED');
  });

  it('Refunds to Pay (issue 29): every payment with a refund still due, whatever its status, counted on its tab', async () => {
    // A deposit's rest on a rental asked for its full payment, and a cancelled order's payment.
    const deposit = summary({ id: ids.full, orderNumber: 'ORD-20261120-000011', orderType: 'RENT', status: 'FOR_FULL_PAYMENT', refundsDue: '350.00', nextAction: 'COMPLETE_PAYMENT' });
    const cancelled = summary({ id: ids.waiting, orderNumber: 'ORD-20261123-000009', orderStatus: 'CANCELLED', status: 'REFUND_DUE', nextAction: null, refundDue: '1250.00', refundsDue: '1250.00' });
    const counts = { PENDING: 2, INITIAL_PAYMENT: 0, FOR_FULL_PAYMENT: 1, PAID: 7, CANCELLED: 3, REFUND_DUE: 1, REFUNDED: 4 };
    const { calls } = mockApi(
      on('GET', '/api/payments', (c) => {
        const q = query(c);
        if (q.refunds === 'DUE') return { status: 200, body: { items: [deposit, cancelled], total: 2, counts, refundsDue: 2 } };
        return { status: 200, body: { items: [], total: 0, counts, refundsDue: 2 } };
      }),
    );
    open('/admin/payments?status=REFUNDS');
    expect(await screen.findByText('ORD-20261120-000011')).toBeInTheDocument();
    // The tab's count comes with the answer, drawn a moment after its rows on a busy machine.
    expect(await screen.findByRole('tab', { name: 'Refunds to Pay 2', selected: true })).toBeInTheDocument();
    // Asked without a status: the server's filter of refunds still due.
    expect(query(lists(calls).at(-1)!)).toMatchObject({ refunds: 'DUE', limit: '20', offset: '0' });
    expect(query(lists(calls).at(-1)!).status).toBeUndefined();
    expect(within(row('ORD-20261123-000009')).getByText('Refund $1,250.00 to the customer')).toBeInTheDocument();
    // Another tab drops the filter; the count stays.
    fireEvent.click(screen.getByRole('tab', { name: 'Paid 7' }));
    await waitFor(() => expect(query(lists(calls).at(-1)!)).toMatchObject({ status: 'PAID' }));
    expect(query(lists(calls).at(-1)!).refunds).toBeUndefined();
    expect(await screen.findByRole('tab', { name: 'Refunds to Pay 2' })).toBeInTheDocument();
  });

  it('opens on the tab named in the address and searches by order number or customer name', async () => {
    const { calls } = mockApi(
      on('GET', '/api/payments', (c) => {
        const { status, search } = query(c);
        const items = status === 'FOR_FULL_PAYMENT' && (!search || search === 'Maria') ? [forFull] : [];
        return { status: 200, body: { items, total: items.length } };
      }),
    );
    open('/admin/payments?status=FOR_FULL_PAYMENT');
    expect(await screen.findByText('ORD-20261120-000007')).toBeInTheDocument();
    expect(screen.getByRole('tab', { name: 'For Full Payment', selected: true })).toBeInTheDocument();
    expect(within(row('ORD-20261120-000007')).getByText('Complete Payment')).toBeInTheDocument();

    const box = screen.getByRole('searchbox', { name: 'Search payments' });
    fireEvent.change(box, { target: { value: 'Maria' } });
    pressEnter(box);
    await waitFor(() => expect(query(lists(calls).at(-1)!)).toMatchObject({ status: 'FOR_FULL_PAYMENT', search: 'Maria' }));
    expect(location()).toBe('/admin/payments?status=FOR_FULL_PAYMENT&search=Maria');
    fireEvent.change(box, { target: { value: 'ORD-nothing' } });
    pressEnter(box);
    expect(await screen.findByText('No payments match your search.')).toBeInTheDocument();
  });

  it('shows an error with Retry when the list cannot be loaded', async () => {
    let fail = true;
    mockApi(on('GET', '/api/payments', () => (fail ? problem(503, 'The payment service is unavailable.') : { status: 200, body: { items: [summary()], total: 1 } })));
    open('/admin/payments');
    expect(await screen.findByText('The payment service is unavailable.')).toBeInTheDocument();
    fail = false;
    fireEvent.click(screen.getByRole('button', { name: 'Retry' }));
    expect(await screen.findByText('ORD-20261123-000001')).toBeInTheDocument();
  });
});

describe('payment detail', () => {
  it('shows order, customer, address, lines and amounts of a purchase, with Mark as paid and Back', async () => {
    mockApi(
      on('GET', `/api/payments/${ids.purchase}`, { status: 200, body: { payment: detail() } }),
      on('GET', '/api/payments', { status: 200, body: { items: [], total: 0 } }),
    );
    open(`/admin/payments/${ids.purchase}`);
    expect(await screen.findByRole('heading', { name: 'Order ORD-20261123-000001' })).toBeInTheDocument();
    expect(screen.getByText('Purchase')).toBeInTheDocument();
    const customer = screen.getByRole('region', { name: 'Customer' });
    for (const text of ['Maria Santos', 'maria@example.com', '09171234567']) expect(within(customer).getByText(text)).toBeInTheDocument();
    const address = screen.getByRole('region', { name: 'Delivery Address' });
    for (const text of ['12 Rizal St', 'Makati', 'Metro Manila', '123456']) expect(within(address).getByText(text)).toBeInTheDocument();
    expect(within(screen.getByRole('region', { name: 'Products' })).getByText('Wheelchair')).toBeInTheDocument();
    expect(screen.getByTestId('order-total')).toHaveTextContent('$1,250.00');
    expect(screen.getByTestId('balance')).toHaveTextContent('$1,250.00');
    expect(screen.getByText('No payment taken yet.')).toBeInTheDocument();

    expect(screen.getByRole('button', { name: 'Mark as paid' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Pay Partial Payment' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Complete Payment' })).toBeNull();
    // No payment taken yet: no invoice.
    expect(screen.queryByRole('link', { name: /^Download/ })).toBeNull();

    fireEvent.click(screen.getByRole('button', { name: 'Back' }));
    await waitFor(() => expect(location()).toBe('/admin/payments?status=PENDING'));
  });

  it('says the order is waiting for the warehouse instead of offering a step', async () => {
    mockApi(on('GET', `/api/payments/${ids.waiting}`, { status: 200, body: { payment: detail({ id: ids.waiting, orderStatus: 'PENDING', nextAction: null }) } }));
    open(`/admin/payments/${ids.waiting}`);
    expect(await screen.findByText('Waiting for the warehouse to confirm the order')).toBeInTheDocument();
    for (const name of ['Mark as paid', 'Pay Partial Payment', 'Complete Payment']) expect(screen.queryByRole('button', { name })).toBeNull();
  });

  it('offers Pay Partial Payment on a confirmed rental', async () => {
    mockApi(
      on('GET', `/api/payments/${ids.rental}`, {
        status: 200,
        body: { payment: { ...rental, orderStatus: 'FOR_PAYMENT', status: 'PENDING', type: null, balance: '270.00', records: [], nextAction: 'PAY_PARTIAL' } },
      }),
    );
    open(`/admin/payments/${ids.rental}`);
    fireEvent.click(await screen.findByRole('button', { name: 'Pay Partial Payment' }));
    const dialog = await screen.findByRole('dialog', { name: 'Pay Partial Payment' });
    expect(within(dialog).getByText('$90.00')).toBeInTheDocument();
    expect(within(dialog).queryByLabelText('Balance')).toBeNull();
  });

  it("Pay Partial Payment says the server's amount due now, which includes the deposit (issue 29)", async () => {
    mockApi(
      on('GET', `/api/payments/${ids.rental}`, {
        status: 200,
        body: { payment: { ...rental, orderStatus: 'FOR_PAYMENT', status: 'PENDING', type: null, balance: '1270.00', records: [], nextAction: 'PAY_PARTIAL', deposit: '1000.00', dueNow: '1090.00' } },
      }),
    );
    open(`/admin/payments/${ids.rental}`);
    fireEvent.click(await screen.findByRole('button', { name: 'Pay Partial Payment' }));
    const dialog = await screen.findByRole('dialog', { name: 'Pay Partial Payment' });
    expect(within(dialog).getByTestId('due-now')).toHaveTextContent('$1,090.00');
    expect(within(dialog).getByText(/includes the deposit of \$1,000\.00/)).toBeInTheDocument();
    expect(within(dialog).queryByText('$90.00')).toBeNull();
  });

  it('without a deposit the dialog does not mention one; Mark as paid and Complete Payment take dueNow when the server gives it (issue 29)', async () => {
    mockApi(
      on('GET', `/api/payments/${ids.rental}`, {
        status: 200,
        body: { payment: { ...rental, orderStatus: 'FOR_PAYMENT', status: 'PENDING', type: null, balance: '270.00', records: [], nextAction: 'PAY_PARTIAL', dueNow: '90.00' } },
      }),
      on('GET', `/api/payments/${ids.purchase}`, { status: 200, body: { payment: detail({ dueNow: '1200.00' }) } }),
      on('GET', `/api/payments/${ids.full}`, { status: 200, body: { payment: { ...forFull, dueNow: '600.00' } } }),
    );
    open(`/admin/payments/${ids.rental}`);
    fireEvent.click(await screen.findByRole('button', { name: 'Pay Partial Payment' }));
    let dialog = await screen.findByRole('dialog', { name: 'Pay Partial Payment' });
    expect(within(dialog).getByTestId('due-now')).toHaveTextContent('$90.00');
    expect(within(dialog).queryByText(/includes the deposit/)).toBeNull();
    cleanup();

    open(`/admin/payments/${ids.purchase}`);
    fireEvent.click(await screen.findByRole('button', { name: 'Mark as paid' }));
    dialog = await screen.findByRole('dialog', { name: 'Mark as paid' });
    expect(within(dialog).getByText('$1,200.00')).toBeInTheDocument();
    expect(within(dialog).queryByText('$1,250.00')).toBeNull();
    cleanup();

    open(`/admin/payments/${ids.full}`);
    fireEvent.click(await screen.findByRole('button', { name: 'Complete Payment' }));
    dialog = await screen.findByRole('dialog', { name: 'Complete Payment' });
    expect(within(dialog).getByLabelText('Balance')).toHaveValue('$600.00');
  });

  it('lists the records of a rental with the invoice to download, and no step while it is out', async () => {
    mockApi(on('GET', `/api/payments/${ids.rental}`, { status: 200, body: { payment: rental } }));
    open(`/admin/payments/${ids.rental}`);
    const records = await screen.findByRole('region', { name: 'Payment Records' });
    const r = within(records).getByText('INV-001').closest('tr') as HTMLElement;
    for (const text of ['Partial Payment', 'OR-001', '$90.00', 'Ana Reyes', 'Cash']) expect(within(r).getByText(text)).toBeInTheDocument();
    // 16:30 UTC is half past midnight the next day in Manila.
    expect(within(r).getByText(/Nov 24, 2026/)).toBeInTheDocument();
    expect(within(r).getByRole('link', { name: 'Download INITIAL_PAYMENT_INVOICE.pdf' })).toHaveAttribute('href', `/api/payments/${ids.rental}/records/${record().id}/invoice.pdf`);
    expect(within(r).getByRole('link', { name: 'Download INITIAL_PAYMENT_INVOICE.pdf' })).toHaveAttribute('download', '');
    expect(within(screen.getByRole('region', { name: 'Products' })).getByText('Single')).toBeInTheDocument();
    for (const name of ['Mark as paid', 'Pay Partial Payment', 'Complete Payment']) expect(screen.queryByRole('button', { name })).toBeNull();
  });

  it('shows the full payment with due date, extra charges and overall total; its dialog shows balance and extra charges read-only', async () => {
    mockApi(on('GET', `/api/payments/${ids.full}`, { status: 200, body: { payment: forFull } }));
    open(`/admin/payments/${ids.full}`);
    const amounts = await screen.findByRole('region', { name: 'Amounts' });
    for (const text of ['$270.00', '$90.00', '$500.00', '$770.00', '$680.00', 'Nov 25, 2026']) expect(within(amounts).getByText(text)).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Complete Payment' }));
    const dialog = await screen.findByRole('dialog', { name: 'Complete Payment' });
    expect(within(dialog).getByLabelText('Balance')).toHaveValue('$680.00');
    expect(within(dialog).getByLabelText('Balance')).toHaveAttribute('readonly');
    expect(within(dialog).getByLabelText('Extra Charges')).toHaveValue('$500.00');
    expect(within(dialog).getByLabelText('Extra Charges')).toHaveAttribute('readonly');
  });

  it('a rental with a deposit: Deposit and Deposit Held, and a Deposit column on the lines (issue 29)', async () => {
    const held = detail({
      ...rental,
      deposit: '1000.00',
      depositHeld: '1000.00',
      lines: [
        { ...rental.lines[0]!, deposit: '1000.00' },
        { productName: 'Cane', variantName: null, subVariantName: null, quantity: 1, noOfRentalDays: 3, unitPrice: '10.00', lineTotal: '30.00', deposit: '0.00', rentToOwn: null },
      ],
    });
    mockApi(on('GET', `/api/payments/${ids.rental}`, { status: 200, body: { payment: held } }));
    open(`/admin/payments/${ids.rental}`);
    const amounts = await screen.findByRole('region', { name: 'Amounts' });
    expect(within(amounts).getByText('Deposit').closest('tr')).toHaveTextContent('$1,000.00');
    expect(within(amounts).getByTestId('deposit-held')).toHaveTextContent('$1,000.00');
    // Not at the full payment yet.
    for (const label of ['Late Fees', 'Deposit Applied', 'Deposit Refund']) expect(within(amounts).queryByText(label)).toBeNull();
    const products = screen.getByRole('region', { name: 'Products' });
    expect(within(products).getByRole('columnheader', { name: 'Deposit' })).toBeInTheDocument();
    expect(within(products).getByText('Hospital Bed').closest('tr')).toHaveTextContent('$1,000.00');
    expect(within(products).getByText('Cane').closest('tr')).toHaveTextContent('$0.00');
  });

  it('a rental extended, then ended early: each change of days under the order total (issue 29)', async () => {
    const changed = detail({
      ...rental,
      extensions: [
        { seq: 1, kind: 'EXTEND', days: 2, amount: '156.00', by: 'CUSTOMER' },
        { seq: 2, kind: 'END_EARLY', days: -1, amount: '-78.00', by: 'STAFF' },
      ],
    });
    mockApi(on('GET', `/api/payments/${ids.rental}`, { status: 200, body: { payment: changed } }));
    open(`/admin/payments/${ids.rental}`);
    const amounts = await screen.findByRole('region', { name: 'Amounts' });
    expect(within(amounts).getByText('Extension (+2 days)').closest('tr')).toHaveTextContent('$156.00');
    expect(within(amounts).getByText('Ended early (−1 day)').closest('tr')).toHaveTextContent('-$78.00');
  });

  it('a payment without a deposit shows no deposit row nor column (issue 29)', async () => {
    mockApi(on('GET', `/api/payments/${ids.rental}`, { status: 200, body: { payment: rental } }));
    open(`/admin/payments/${ids.rental}`);
    const amounts = await screen.findByRole('region', { name: 'Amounts' });
    for (const label of ['Deposit', 'Deposit Held', 'Late Fees', 'Deposit Applied', 'Deposit Refund']) expect(within(amounts).queryByText(label)).toBeNull();
    expect(within(amounts).queryByText(/^Extension/)).toBeNull();
    expect(within(screen.getByRole('region', { name: 'Products' })).queryByRole('columnheader', { name: 'Deposit' })).toBeNull();
  });

  it('at the full payment: the late fees, the deposit applied and the deposit refund (issue 29)', async () => {
    const settled = detail({ ...forFull, deposit: '1000.00', depositHeld: '1000.00', extraCharge: '650.00', lateFees: '150.00', depositApplied: '650.00', depositRefund: '350.00', overallTotal: '920.00', balance: '180.00', dueNow: '180.00' });
    mockApi(on('GET', `/api/payments/${ids.full}`, { status: 200, body: { payment: settled } }));
    open(`/admin/payments/${ids.full}`);
    const amounts = await screen.findByRole('region', { name: 'Amounts' });
    const figure = (label: string) => within(amounts).getByText(label).closest('tr') as HTMLElement;
    expect(figure('Late Fees')).toHaveTextContent('$150.00');
    expect(figure('Deposit Applied')).toHaveTextContent('$650.00');
    expect(within(amounts).getByTestId('deposit-refund')).toHaveTextContent('$350.00');
    expect(figure('Extra Charges')).toHaveTextContent('$650.00');
    expect(within(amounts).getByTestId('balance')).toHaveTextContent('$180.00');
  });

  it('a rental paid in full offers the invoice of each record, the first one too (issue 22)', async () => {
    const second = '88888888-8888-4888-8888-888888888888';
    mockApi(
      on('GET', `/api/payments/${ids.full}`, {
        status: 200,
        body: { payment: { ...forFull, status: 'PAID', orderStatus: 'COMPLETED', nextAction: null, balance: '0.00', records: [record(), record({ id: second, type: 'FULL', invoiceNumber: 'INV-002', amount: '680.00' })] } },
      }),
    );
    open(`/admin/payments/${ids.full}`);
    const records = await screen.findByRole('region', { name: 'Payment Records' });
    const first = within(records).getByText('INV-001').closest('tr') as HTMLElement;
    const last = within(records).getByText('INV-002').closest('tr') as HTMLElement;
    expect(within(first).getByRole('link', { name: 'Download INITIAL_PAYMENT_INVOICE.pdf' })).toHaveAttribute('href', `/api/payments/${ids.full}/records/${record().id}/invoice.pdf`);
    expect(within(last).getByRole('link', { name: 'Download FULL_PAYMENT_INVOICE.pdf' })).toHaveAttribute('href', `/api/payments/${ids.full}/records/${second}/invoice.pdf`);
  });

  it('a payment taken for an order cancelled meanwhile says what is owed back, offers no step, and Back goes to Refund Due (issue 22)', async () => {
    const owed = detail({ orderStatus: 'CANCELLED', status: 'REFUND_DUE', type: 'FULL', balance: '0.00', overallTotal: '1250.00', nextAction: null, refundDue: '1250.00', records: [record({ type: 'FULL', amount: '1250.00' })] });
    mockApi(on('GET', `/api/payments/${ids.purchase}`, { status: 200, body: { payment: owed } }), on('GET', '/api/payments', { status: 200, body: { items: [], total: 0 } }));
    open(`/admin/payments/${ids.purchase}`);
    expect(await screen.findByRole('alert')).toHaveTextContent('The order was cancelled after this payment was taken: the amount paid is due to be refunded. Refund $1,250.00 to the customer.');
    expect(screen.getByTestId('refund-due')).toHaveTextContent('$1,250.00');
    for (const name of ['Mark as paid', 'Pay Partial Payment', 'Complete Payment']) expect(screen.queryByRole('button', { name })).toBeNull();
    expect(screen.getByRole('link', { name: 'Download INVOICE.pdf' })).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Back' }));
    await waitFor(() => expect(location()).toBe('/admin/payments?status=REFUND_DUE'));
  });

  it('shows the error with Retry when the payment cannot be loaded', async () => {
    mockApi(on('GET', `/api/payments/${ids.purchase}`, problem(404, 'Payment not found.')));
    open(`/admin/payments/${ids.purchase}`);
    expect(await screen.findByText('Payment not found.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Back' })).toBeInTheDocument();
  });
});

describe('the confirm dialog', () => {
  const fill = (dialog: HTMLElement, invoice: string, receipt: string, note?: string) => {
    fireEvent.change(within(dialog).getByLabelText('Invoice Number'), { target: { value: invoice } });
    fireEvent.change(within(dialog).getByLabelText('Receipt Number'), { target: { value: receipt } });
    if (note !== undefined) fireEvent.change(within(dialog).getByLabelText('Note'), { target: { value: note } });
  };
  const confirmIn = (dialog: HTMLElement) => fireEvent.click(within(dialog).getByRole('button', { name: /Confirm$/ }));

  it('requires both numbers, keeps one Idempotency-Key across retries in a dialog, takes a new one for a new dialog, and refreshes detail and list', async () => {
    let paid = false;
    let failures = 2;
    const paidPayment = detail({
      status: 'PAID',
      type: 'FULL',
      orderStatus: 'PREPARING',
      balance: '0.00',
      overallTotal: '1250.00',
      nextAction: null,
      records: [record({ type: 'FULL', invoiceNumber: 'INV-9', receiptNumber: 'OR-9', amount: '1250.00', note: 'Bank transfer' })],
    });
    const { calls } = mockApi(
      on('GET', '/api/payments', () => ({ status: 200, body: { items: [paid ? { ...summary(), status: 'PAID', nextAction: null, balance: '0.00' } : summary()], total: 1 } })),
      on('GET', `/api/payments/${ids.purchase}`, () => ({ status: 200, body: { payment: paid ? paidPayment : detail() } })),
      on('POST', `/api/payments/${ids.purchase}/confirm`, () => {
        if (failures === 2) {
          failures -= 1;
          return 'network-error';
        }
        if (failures === 1) {
          failures -= 1;
          return problem(503, 'The payment service is unavailable.');
        }
        paid = true;
        return { status: 200, body: { payment: paidPayment } };
      }),
    );
    open('/admin/payments');
    fireEvent.click(within(await waitFor(() => row('ORD-20261123-000001'))).getByRole('link', { name: 'View' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Mark as paid' }));
    let dialog = await screen.findByRole('dialog', { name: 'Mark as paid' });
    expect(within(dialog).getByText('$1,250.00')).toBeInTheDocument();

    // Both numbers are required, with the spec's messages; nothing is sent.
    confirmIn(dialog);
    expect(await within(dialog).findByText('Please enter invoice number!')).toBeInTheDocument();
    expect(within(dialog).getByText('Please enter receipt number!')).toBeInTheDocument();
    fill(dialog, '   ', 'OR-9');
    confirmIn(dialog);
    await waitFor(() => expect(within(dialog).queryByText('Please enter receipt number!')).toBeNull());
    expect(within(dialog).getByText('Please enter invoice number!')).toBeInTheDocument();
    expect(confirms(calls)).toHaveLength(0);

    // A lost answer, then a 503: each retry in this dialog carries the same key and body.
    fill(dialog, ' INV-9 ', 'OR-9', 'Bank transfer');
    confirmIn(dialog);
    expect(await within(dialog).findByText('The server cannot be reached. Check your connection and try again.')).toBeInTheDocument();
    confirmIn(dialog);
    expect(await within(dialog).findByText('The payment service is unavailable.')).toBeInTheDocument();
    const [first, second] = confirms(calls);
    const key = first!.headers.get('Idempotency-Key');
    expect(key).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(second!.headers.get('Idempotency-Key')).toBe(key);
    expect(first!.body).toEqual({ invoiceNumber: 'INV-9', receiptNumber: 'OR-9', note: 'Bank transfer' });
    expect(second!.body).toEqual(first!.body);

    // Closed and opened again: a new dialog, a new key, empty fields.
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    fireEvent.click(screen.getByRole('button', { name: 'Mark as paid' }));
    dialog = await screen.findByRole('dialog', { name: 'Mark as paid' });
    expect(within(dialog).getByLabelText('Invoice Number')).toHaveValue('');
    fill(dialog, 'INV-9', 'OR-9');
    const before = calls.length;
    confirmIn(dialog);
    expect(await screen.findByText('Payment recorded.')).toBeInTheDocument();
    const third = confirms(calls)[2]!;
    expect(third.headers.get('Idempotency-Key')).not.toBe(key);
    expect(third.body).toEqual({ invoiceNumber: 'INV-9', receiptNumber: 'OR-9', note: '' });

    // The detail shows the payment taken at once, with its invoice; the list reloads.
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(await screen.findByText('INV-9')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Mark as paid' })).toBeNull();
    expect(screen.getByRole('link', { name: 'Download INVOICE.pdf' })).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Back' }));
    await waitFor(() => expect(location()).toBe('/admin/payments'));
    await waitFor(() => expect(lists(calls.slice(before)).length).toBeGreaterThan(0));
    expect(await within(await waitFor(() => row('ORD-20261123-000001'))).findByText('PAID')).toBeInTheDocument();
  });

  it('sends one request for a double click', async () => {
    let release!: () => void;
    const answered = new Promise<void>((r) => (release = r));
    const { calls } = mockApi(
      on('GET', `/api/payments/${ids.purchase}`, { status: 200, body: { payment: detail() } }),
      on('POST', `/api/payments/${ids.purchase}/confirm`, async () => {
        await answered;
        return { status: 200, body: { payment: detail({ status: 'PAID', nextAction: null }) } };
      }),
    );
    open(`/admin/payments/${ids.purchase}`);
    fireEvent.click(await screen.findByRole('button', { name: 'Mark as paid' }));
    const dialog = await screen.findByRole('dialog', { name: 'Mark as paid' });
    fill(dialog, 'INV-1', 'OR-1');
    confirmIn(dialog);
    confirmIn(dialog);
    await waitFor(() => expect(confirms(calls)).toHaveLength(1));
    confirmIn(dialog);
    release();
    expect(await screen.findByText('Payment recorded.')).toBeInTheDocument();
    expect(confirms(calls)).toHaveLength(1);
  });

  it("shows a 400's field errors on their fields (then a new key), and a 409's or 422's message", async () => {
    let answer = problem(400, 'Invalid input.', [{ field: 'invoiceNumber', message: 'This text contains characters that are not allowed.' }]);
    const { calls } = mockApi(
      on('GET', `/api/payments/${ids.purchase}`, { status: 200, body: { payment: detail() } }),
      on('POST', `/api/payments/${ids.purchase}/confirm`, () => answer),
    );
    open(`/admin/payments/${ids.purchase}`);
    fireEvent.click(await screen.findByRole('button', { name: 'Mark as paid' }));
    const dialog = await screen.findByRole('dialog', { name: 'Mark as paid' });
    fill(dialog, 'INV-1', 'OR-1');
    confirmIn(dialog);
    const invoice = within(dialog).getByLabelText('Invoice Number');
    await waitFor(() => expect(invoice).toHaveAttribute('aria-invalid', 'true'));
    expect(await within(dialog).findByText('This text contains characters that are not allowed.')).toBeInTheDocument();

    answer = problem(409, 'This payment cannot be taken now: its order is not waiting for a payment.');
    fill(dialog, 'INV-2', 'OR-1');
    confirmIn(dialog);
    expect(await within(dialog).findByText('This payment cannot be taken now: its order is not waiting for a payment.')).toBeInTheDocument();
    const [bad, refused] = confirms(calls);
    expect(refused!.headers.get('Idempotency-Key')).not.toBe(bad!.headers.get('Idempotency-Key'));
    // A 409 means the payment changed: the detail is read again.
    await waitFor(() => expect(calls.filter((c) => c.url === `/api/payments/${ids.purchase}`).length).toBeGreaterThan(1));

    // After a 409 the dialog keeps its key: a changed form with it is refused with the server's 422.
    answer = problem(422, 'This Idempotency-Key was already used for a different payment.');
    fill(dialog, 'INV-3', 'OR-1');
    confirmIn(dialog);
    expect(await within(dialog).findByText('This Idempotency-Key was already used for a different payment.')).toBeInTheDocument();
    expect(confirms(calls)[2]!.headers.get('Idempotency-Key')).toBe(refused!.headers.get('Idempotency-Key'));
  });
});

describe('refunds (issue 29)', () => {
  const refundIds = { deposit: '99999999-9999-4999-8999-999999999991', cancelled: '99999999-9999-4999-8999-999999999992' };
  const refund = (over: Partial<Payment['refunds'][number]> = {}): Payment['refunds'][number] => ({
    id: refundIds.deposit,
    number: 'RF-20261128-000001',
    kind: 'DEPOSIT',
    amount: '200.00',
    status: 'DUE',
    createdAt: '2026-11-28T02:00:00.000Z',
    refundedAt: null,
    method: null,
    reference: '',
    note: '',
    refundedByName: null,
    ...over,
  });
  const recorded = (over: Partial<Payment['refunds'][number]> = {}) =>
    refund({ status: 'REFUNDED', method: 'BANK_TRANSFER', reference: 'BT-123', refundedAt: '2026-11-28T16:30:00.000Z', refundedByName: 'Ana Reyes', ...over });
  // A rental paid in full whose deposit's rest is owed back.
  const settled = detail({
    ...forFull,
    status: 'PAID',
    orderStatus: 'COMPLETED',
    nextAction: null,
    balance: '0.00',
    deposit: '1000.00',
    depositHeld: '1000.00',
    extraCharge: '800.00',
    lateFees: '0.00',
    depositApplied: '800.00',
    depositRefund: '200.00',
    records: [record(), record({ id: '88888888-8888-4888-8888-888888888888', type: 'FULL', invoiceNumber: 'INV-002', amount: '270.00' })],
    refunds: [refund()],
  });
  const refunds = () => screen.getByRole('region', { name: 'Refunds' });
  const recordsOf = (calls: Call[]) => calls.filter((c) => c.method === 'POST' && c.url.includes('/refunds/'));
  const recordIn = (dialog: HTMLElement) => fireEvent.click(within(dialog).getByRole('button', { name: 'Record Refund' }));
  const chooseMethod = async (dialog: HTMLElement, label: string) => {
    fireEvent.mouseDown(within(dialog).getByRole('combobox', { name: 'Method' }));
    fireEvent.click(await screen.findByTitle(label));
  };

  it('a payment without refunds has no Refunds section', async () => {
    mockApi(on('GET', `/api/payments/${ids.rental}`, { status: 200, body: { payment: rental } }));
    open(`/admin/payments/${ids.rental}`);
    await screen.findByRole('region', { name: 'Payment Records' });
    expect(screen.queryByRole('region', { name: 'Refunds' })).toBeNull();
    expect(screen.queryByRole('button', { name: /^Record refund/ })).toBeNull();
  });

  it('lists a deposit refund due with its reason, amount and status, says it is owed, and offers to record it', async () => {
    mockApi(on('GET', `/api/payments/${ids.full}`, { status: 200, body: { payment: settled } }));
    open(`/admin/payments/${ids.full}`);
    await screen.findByRole('region', { name: 'Refunds' });
    for (const title of ['Refund No.', 'Reason', 'Amount', 'Status', 'Paid back']) expect(within(refunds()).getByRole('columnheader', { name: title })).toBeInTheDocument();
    const r = within(refunds()).getByText('RF-20261128-000001').closest('tr') as HTMLElement;
    for (const text of ['Deposit returned', '$200.00', 'Due']) expect(within(r).getByText(text)).toBeInTheDocument();
    expect(within(r).getByRole('button', { name: 'Record refund RF-20261128-000001' })).toHaveTextContent('Record refund');
    expect(screen.getByRole('alert')).toHaveTextContent('Refund $200.00 to the customer');
  });

  it('records a refund: the method is required, then one request with an Idempotency-Key; the payment shows how it was paid back', async () => {
    let done = false;
    const after = { ...settled, refunds: [recorded()] };
    const { calls } = mockApi(
      on('GET', `/api/payments/${ids.full}`, () => ({ status: 200, body: { payment: done ? after : settled } })),
      on('GET', '/api/payments', { status: 200, body: { items: [], total: 0 } }),
      on('POST', `/api/payments/${ids.full}/refunds/${refundIds.deposit}/record`, () => {
        done = true;
        return { status: 200, body: { payment: after } };
      }),
    );
    open(`/admin/payments/${ids.full}`);
    fireEvent.click(await screen.findByRole('button', { name: 'Record refund RF-20261128-000001' }));
    const dialog = await screen.findByRole('dialog', { name: 'Record Refund' });
    expect(within(dialog).getByText('RF-20261128-000001')).toBeInTheDocument();
    expect(within(dialog).getByTestId('refund-amount')).toHaveTextContent('$200.00');
    expect(within(dialog).getByText('Deposit returned')).toBeInTheDocument();

    // No method: refused with the message, nothing sent.
    recordIn(dialog);
    expect(await within(dialog).findByText('Please choose how the money was paid back!')).toBeInTheDocument();
    expect(recordsOf(calls)).toHaveLength(0);

    await chooseMethod(dialog, 'Bank transfer');
    fireEvent.change(within(dialog).getByLabelText('Reference'), { target: { value: ' BT-123 ' } });
    recordIn(dialog);
    expect(await screen.findByText('Refund recorded.')).toBeInTheDocument();
    const [sent] = recordsOf(calls);
    expect(recordsOf(calls)).toHaveLength(1);
    expect(sent!.url).toBe(`/api/payments/${ids.full}/refunds/${refundIds.deposit}/record`);
    expect(sent!.headers.get('Idempotency-Key')).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(sent!.body).toMatchObject({ method: 'BANK_TRANSFER', reference: 'BT-123' });
    expect((sent!.body as { note?: string }).note ?? '').toBe('');

    // The payment as the answer says: the refund paid back, no button, no notice left.
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    const r = within(refunds()).getByText('RF-20261128-000001').closest('tr') as HTMLElement;
    expect(within(r).getByText('Refunded')).toBeInTheDocument();
    expect(r).toHaveTextContent('Bank transfer · BT-123');
    expect(r).toHaveTextContent('by Ana Reyes');
    expect(within(r).queryByRole('button')).toBeNull();
    // Nothing is owed any more (the toast is the only alert).
    expect(screen.queryByText(/Refund \$200\.00 to the customer/)).toBeNull();
  });

  it("shows the server's refusal in the dialog (a refund recorded meanwhile), and a bad method on its field", async () => {
    let answer = problem(400, 'Invalid input.', [{ field: 'method', message: 'Please choose how the money was paid back!' }]);
    const { calls } = mockApi(
      on('GET', `/api/payments/${ids.full}`, { status: 200, body: { payment: settled } }),
      on('POST', `/api/payments/${ids.full}/refunds/${refundIds.deposit}/record`, () => answer),
    );
    open(`/admin/payments/${ids.full}`);
    fireEvent.click(await screen.findByRole('button', { name: 'Record refund RF-20261128-000001' }));
    const dialog = await screen.findByRole('dialog', { name: 'Record Refund' });
    await chooseMethod(dialog, 'Cash');
    recordIn(dialog);
    expect(await within(dialog).findByText('Please choose how the money was paid back!')).toBeInTheDocument();
    expect(within(dialog).queryByRole('alert')).toBeNull();

    answer = problem(409, 'This refund was already recorded as paid back.');
    recordIn(dialog);
    expect(await within(dialog).findByText('This refund was already recorded as paid back.')).toBeInTheDocument();
    const [bad, refused] = recordsOf(calls);
    expect(bad!.body).toMatchObject({ method: 'CASH' });
    // A 400 recorded nothing: the corrected form is a new request with a new key.
    expect(refused!.headers.get('Idempotency-Key')).not.toBe(bad!.headers.get('Idempotency-Key'));
    // A 409 means the payment changed: it is read again.
    await waitFor(() => expect(calls.filter((c) => c.url === `/api/payments/${ids.full}`).length).toBeGreaterThan(1));
  });

  it('a cancelled order\'s payment refunded: REFUNDED, no refund-due notice, and how it was paid back without a button', async () => {
    const refunded = detail({
      orderStatus: 'CANCELLED',
      status: 'REFUNDED',
      type: 'FULL',
      balance: '0.00',
      overallTotal: '1250.00',
      nextAction: null,
      refundDue: null,
      records: [record({ type: 'FULL', amount: '1250.00' })],
      refunds: [recorded({ id: refundIds.cancelled, number: 'RF-20261128-000002', kind: 'CANCELLED', amount: '1250.00', method: 'GCASH', reference: '', note: 'Sent to 0917' })],
    });
    mockApi(on('GET', `/api/payments/${ids.purchase}`, { status: 200, body: { payment: refunded } }), on('GET', '/api/payments', { status: 200, body: { items: [], total: 0 } }));
    open(`/admin/payments/${ids.purchase}`);
    await screen.findByRole('region', { name: 'Refunds' });
    expect(screen.getByText('REFUNDED').closest('.ant-tag')).toHaveClass('ant-tag-green');
    expect(screen.queryByRole('alert')).toBeNull();
    expect(screen.queryByTestId('refund-due')).toBeNull();
    const r = within(refunds()).getByText('RF-20261128-000002').closest('tr') as HTMLElement;
    for (const text of ['Order cancelled after payment', '$1,250.00', 'Refunded', 'GCash', 'Sent to 0917']) expect(within(r).getByText(text)).toBeInTheDocument();
    // 16:30 UTC is half past midnight the next day in Manila.
    expect(r).toHaveTextContent(/Nov 29, 2026.*by Ana Reyes/);
    expect(within(r).queryByRole('button')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Back' }));
    await waitFor(() => expect(location()).toBe('/admin/payments?status=REFUNDED'));
  });
});

describe('billing cycles (issue 29)', () => {
  const cycleRecord = '88888888-8888-4888-8888-888888888881';
  // A 70-day rental at $90.00 a day billed per 30-day cycle from its delivery on Mar 1: the first
  // day paid first, the rest of cycle 1 paid with its cycle payment, cycle 2 due, cycle 3 to come.
  const cycling = detail({
    ...rental,
    orderStatus: 'DELIVERED',
    status: 'INITIAL_PAYMENT',
    totalOrderPayment: '6300.00',
    balance: '3600.00',
    lines: [{ ...rental.lines[0]!, noOfRentalDays: 70, lineTotal: '6300.00' }],
    nextAction: 'PAY_CYCLE',
    dueNow: '2700.00',
    billing: 'CYCLES',
    deliveredOn: '2026-03-01',
    cycles: [
      { n: 1, from: '2026-03-01', to: '2026-03-30', dueOn: '2026-03-01', days: 30, amount: '2700.00', state: 'PAID' },
      { n: 2, from: '2026-03-31', to: '2026-04-29', dueOn: '2026-03-31', days: 30, amount: '2700.00', state: 'DUE' },
      { n: 3, from: '2026-04-30', to: '2026-05-09', dueOn: '2026-04-30', days: 10, amount: '900.00', state: 'UPCOMING' },
    ],
    records: [record(), record({ id: cycleRecord, type: 'CYCLE', cycle: 1, invoiceNumber: 'INV-C1', receiptNumber: 'OR-C1', amount: '2610.00' })],
  });
  const cyclesRegion = () => screen.getByRole('region', { name: 'Billing cycles' });
  const cycleRow = (n: string) => within(cyclesRegion()).getByRole('cell', { name: n }).closest('tr') as HTMLElement;

  it('shows each cycle from delivery with its days, due day, rent and state', async () => {
    mockApi(on('GET', `/api/payments/${ids.rental}`, { status: 200, body: { payment: cycling } }));
    open(`/admin/payments/${ids.rental}`);
    await screen.findByRole('region', { name: 'Billing cycles' });
    expect(within(cyclesRegion()).getByText('Billed every 30 days from delivery (delivered Mar 1, 2026)')).toBeInTheDocument();
    for (const title of ['Cycle', 'Days', 'Due on', 'Rent', 'Status']) expect(within(cyclesRegion()).getByRole('columnheader', { name: title })).toBeInTheDocument();

    const first = cycleRow('1');
    for (const text of ['Mar 1, 2026 – Mar 30, 2026', 'Mar 1, 2026', '$2,700.00']) expect(within(first).getByText(text)).toBeInTheDocument();
    expect(within(first).getByText('Paid').closest('.ant-tag')).toHaveClass('ant-tag-green');
    const second = cycleRow('2');
    for (const text of ['Mar 31, 2026 – Apr 29, 2026', 'Mar 31, 2026', '$2,700.00']) expect(within(second).getByText(text)).toBeInTheDocument();
    expect(within(second).getByText('Due').closest('.ant-tag')).toHaveClass('ant-tag-red');
    const third = cycleRow('3');
    for (const text of ['Apr 30, 2026 – May 9, 2026', 'Apr 30, 2026', '$900.00']) expect(within(third).getByText(text)).toBeInTheDocument();
    const upcoming = within(third).getByText('Upcoming').closest('.ant-tag');
    expect(upcoming).not.toHaveClass('ant-tag-green');
    expect(upcoming).not.toHaveClass('ant-tag-red');
    expect(within(cyclesRegion()).queryByText('Cycles start on the delivery day.')).toBeNull();
  });

  it("names a cycle's payment by its cycle, with its own invoice; the first payment stays as it was", async () => {
    mockApi(on('GET', `/api/payments/${ids.rental}`, { status: 200, body: { payment: cycling } }));
    open(`/admin/payments/${ids.rental}`);
    const records = await screen.findByRole('region', { name: 'Payment Records' });
    const paid = within(records).getByText('INV-C1').closest('tr') as HTMLElement;
    expect(within(paid).getByText('Cycle 1 payment')).toBeInTheDocument();
    expect(within(paid).getByText('$2,610.00')).toBeInTheDocument();
    expect(within(paid).getByRole('link', { name: 'Download CYCLE_INVOICE_1.pdf' })).toHaveAttribute('href', `/api/payments/${ids.rental}/records/${cycleRecord}/invoice.pdf`);
    const firstDay = within(records).getByText('INV-001').closest('tr') as HTMLElement;
    expect(within(firstDay).getByText('Partial Payment')).toBeInTheDocument();
    expect(within(firstDay).getByRole('link', { name: 'Download INITIAL_PAYMENT_INVOICE.pdf' })).toBeInTheDocument();
  });

  it("Take Cycle Payment: the dialog says the server's amount due now and the cycle it pays, and sends the numbers", async () => {
    const after = detail({
      ...cycling,
      dueNow: null,
      nextAction: null,
      balance: '900.00',
      cycles: cycling.cycles.map((c) => (c.n === 2 ? { ...c, state: 'PAID' as const } : c)),
      records: [...cycling.records, record({ id: '88888888-8888-4888-8888-888888888882', type: 'CYCLE', cycle: 2, invoiceNumber: 'INV-C2', receiptNumber: 'OR-C2', amount: '2700.00' })],
    });
    let paid = false;
    const { calls } = mockApi(
      on('GET', `/api/payments/${ids.rental}`, () => ({ status: 200, body: { payment: paid ? after : cycling } })),
      on('GET', '/api/payments', { status: 200, body: { items: [], total: 0 } }),
      on('POST', `/api/payments/${ids.rental}/confirm`, () => {
        paid = true;
        return { status: 200, body: { payment: after } };
      }),
    );
    open(`/admin/payments/${ids.rental}`);
    for (const name of ['Mark as paid', 'Pay Partial Payment', 'Complete Payment']) expect(screen.queryByRole('button', { name })).toBeNull();
    fireEvent.click(await screen.findByRole('button', { name: 'Take Cycle Payment' }));
    const dialog = await screen.findByRole('dialog', { name: 'Take Cycle Payment' });
    expect(within(dialog).getByTestId('due-now')).toHaveTextContent('$2,700.00');
    expect(within(dialog).getByTestId('due-cycle')).toHaveTextContent('Cycle 2: Mar 31, 2026 – Apr 29, 2026');
    expect(within(dialog).queryByLabelText('Balance')).toBeNull();

    fireEvent.change(within(dialog).getByLabelText('Invoice Number'), { target: { value: 'INV-C2' } });
    fireEvent.change(within(dialog).getByLabelText('Receipt Number'), { target: { value: 'OR-C2' } });
    fireEvent.click(within(dialog).getByRole('button', { name: /Confirm$/ }));
    expect(await screen.findByText('Payment recorded.')).toBeInTheDocument();
    const posts = calls.filter((c) => c.method === 'POST');
    expect(posts).toHaveLength(1);
    expect(posts[0]!.body).toEqual({ invoiceNumber: 'INV-C2', receiptNumber: 'OR-C2', note: '' });

    // The payment as the answer says: cycle 2 paid, its record with its invoice, no step left.
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(within(cycleRow('2')).getByText('Paid')).toBeInTheDocument();
    const taken = within(screen.getByRole('region', { name: 'Payment Records' })).getByText('INV-C2').closest('tr') as HTMLElement;
    expect(within(taken).getByText('Cycle 2 payment')).toBeInTheDocument();
    expect(within(taken).getByRole('link', { name: 'Download CYCLE_INVOICE_2.pdf' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Take Cycle Payment' })).toBeNull();
  });

  it('rent-to-own: "Take Buy-Out Payment" beside the cycle payment shows the buy-out price and sends the BUY_OUT action; the answer is the payment bought out', async () => {
    const offered = detail({ ...cycling, buyOutNow: '28500.00' });
    const after = detail({
      ...cycling,
      status: 'PAID',
      type: 'BUYOUT',
      dueNow: null,
      nextAction: null,
      buyOutNow: null,
      balance: '0.00',
      records: [...cycling.records, record({ id: '88888888-8888-4888-8888-888888888883', type: 'BUYOUT', invoiceNumber: 'INV-BO', receiptNumber: 'OR-BO', amount: '28500.00' })],
    });
    let paid = false;
    const { calls } = mockApi(
      on('GET', `/api/payments/${ids.rental}`, () => ({ status: 200, body: { payment: paid ? after : offered } })),
      on('GET', '/api/payments', { status: 200, body: { items: [], total: 0 } }),
      on('POST', `/api/payments/${ids.rental}/confirm`, () => {
        paid = true;
        return { status: 200, body: { payment: after } };
      }),
    );
    open(`/admin/payments/${ids.rental}`);
    expect(await screen.findByRole('button', { name: 'Take Cycle Payment' })).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Take Buy-Out Payment' }));
    const dialog = await screen.findByRole('dialog', { name: 'Take Buy-Out Payment' });
    expect(within(dialog).getByTestId('due-now')).toHaveTextContent('$28,500.00');
    expect(within(dialog).getByText(/the equipment becomes the customer's and the deposit is refunded/)).toBeInTheDocument();
    fireEvent.change(within(dialog).getByLabelText('Invoice Number'), { target: { value: 'INV-BO' } });
    fireEvent.change(within(dialog).getByLabelText('Receipt Number'), { target: { value: 'OR-BO' } });
    fireEvent.click(within(dialog).getByRole('button', { name: /Confirm$/ }));
    expect(await screen.findByText('Payment recorded.')).toBeInTheDocument();
    const posts = calls.filter((c) => c.method === 'POST');
    expect(posts.map((c) => c.body)).toEqual([{ invoiceNumber: 'INV-BO', receiptNumber: 'OR-BO', note: '', action: 'BUY_OUT' }]);
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    const taken = within(screen.getByRole('region', { name: 'Payment Records' })).getByText('INV-BO').closest('tr') as HTMLElement;
    expect(within(taken).getByText('Buy-out')).toBeInTheDocument();
    expect(within(taken).getByRole('link', { name: 'Download BUY_OUT_INVOICE.pdf' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Take Buy-Out Payment' })).toBeNull();
  });

  it('before delivery: says the cycles start on the delivery day, with no table', async () => {
    const notDelivered = detail({ ...cycling, orderStatus: 'TO_SHIP', nextAction: null, dueNow: null, deliveredOn: null, cycles: [], records: [record()] });
    mockApi(on('GET', `/api/payments/${ids.rental}`, { status: 200, body: { payment: notDelivered } }));
    open(`/admin/payments/${ids.rental}`);
    await screen.findByRole('region', { name: 'Billing cycles' });
    expect(within(cyclesRegion()).getByText('Billed every 30 days from delivery')).toBeInTheDocument();
    expect(within(cyclesRegion()).getByText('Cycles start on the delivery day.')).toBeInTheDocument();
    expect(within(cyclesRegion()).queryByRole('table')).toBeNull();
  });

  it('an upfront rental shows no billing cycles', async () => {
    mockApi(on('GET', `/api/payments/${ids.rental}`, { status: 200, body: { payment: rental } }));
    open(`/admin/payments/${ids.rental}`);
    await screen.findByRole('region', { name: 'Payment Records' });
    expect(screen.queryByRole('region', { name: 'Billing cycles' })).toBeNull();
    expect(screen.queryByText(/Billed every 30 days/)).toBeNull();
    expect(screen.queryByText('Cycles start on the delivery day.')).toBeNull();
  });
});

describe("the list's next step (issue 29)", () => {
  it('a settled payment with a deposit refund still due says to refund it; one without says nothing', () => {
    expect(nextStepText({ status: 'PAID', nextAction: null, refundDue: null, refundsDue: '200.00' })).toBe('Refund $200.00 to the customer');
    expect(nextStepText({ status: 'PAID', nextAction: null, refundDue: null, refundsDue: null })).toBeNull();
    // What can be taken now comes first.
    expect(nextStepText({ status: 'FOR_FULL_PAYMENT', nextAction: 'COMPLETE_PAYMENT', refundDue: null, refundsDue: '200.00' })).toBe('Complete Payment');
  });
});
