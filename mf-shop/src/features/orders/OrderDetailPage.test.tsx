import { describe, expect, it } from 'vitest';
import { render, screen, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import type { Order, OrderLine, OrderPayment, User } from '@dme/contracts';
import App from '../../app';
import { stubApi } from '../../test/api';

const customer = { id: '00000000-0000-4000-8000-000000000001', username: 'maria', firstName: 'Maria', lastName: 'Santos', userType: 'CUSTOMER' } as User;
const ORDER_ID = '11111111-1111-4111-8111-111111111111';

const line = (over: Partial<OrderLine> = {}): OrderLine => ({
  id: '22222222-2222-4222-8222-222222222222',
  productID: '33333333-3333-4333-8333-333333333333',
  productName: 'Hospital Bed',
  productImage: '/api/uploads/bed.png',
  productVariantID: null,
  productSubVariantID: null,
  variant: null,
  subVariant: null,
  quantity: 2,
  noOfRentalDays: 3,
  productAmount: '45.00',
  productDamageCharges: '250.00',
  lineTotal: '270.00',
  serialCodes: [],
  ...over,
});

const unpaid: OrderPayment = {
  status: 'UNPAID',
  totalOrderPayment: '270.00',
  totalPartialPayment: '90.00',
  extraCharge: null,
  overallTotal: null,
  balance: null,
  dueDate: null,
  records: [],
};

const initial = { type: 'PARTIAL' as const, invoiceNumber: 'INV-001', receiptNumber: 'OR-001', amount: '90.00', note: '', createdAt: '2026-11-23T03:00:00.000Z' };
const fullRecord = { type: 'FULL' as const, invoiceNumber: 'INV-002', receiptNumber: 'OR-002', amount: '680.00', note: 'Bank transfer', createdAt: '2026-11-28T03:00:00.000Z' };
const packedLine = line({ serialCodes: [{ serialCode: 'HOS-0000101', status: null }, { serialCode: 'HOS-0000102', status: null }] });

function order(over: Partial<Order> = {}): Order {
  return {
    id: ORDER_ID,
    orderNumber: 'ORD-20261123-000042',
    createdAt: '2026-11-23T02:00:00.000Z',
    status: 'PENDING',
    type: 'RENT',
    typeOfOrder: null,
    totalAmount: '270.00',
    customerID: customer.id,
    customerName: 'Maria Santos',
    deliveryAddress: '12 Rizal St',
    deliveryCity: 'Makati',
    deliveryState: 'Metro Manila',
    deliveryZipcode: '123456',
    note: '',
    partialPayment: '90.00',
    payment: unpaid,
    orderTracker: [{ title: 'Order placed', status: 'PENDING', createdAt: '2026-11-23T02:00:00.000Z' }],
    products: [line()],
    customer: null,
    allowedTransitions: [],
    ...over,
  };
}

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
const downloadInvoice = () => screen.queryByRole('link', { name: 'Download invoice' });

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
    const invoice = downloadInvoice()!;
    expect(invoice).toHaveAttribute('href', `/api/my/orders/${ORDER_ID}/invoice.pdf`);
    // Saved under the name the server gives.
    expect(invoice).toHaveAttribute('download', '');
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
    expect(pay.getByTestId('balance')).toHaveTextContent('$0.00');
    const rows = within(screen.getByRole('region', { name: 'Payment Records' })).getAllByRole('row').slice(1);
    expect(rows.map((r) => within(r).getAllByRole('cell')[0]!.textContent)).toEqual(['Initial Payment', 'Full Payment']);
    expect(within(rows[1]!).getByText('Bank transfer')).toBeInTheDocument();
  });

  it('a cancelled order offers neither download', async () => {
    await show(order({ status: 'CANCELLED' }));
    expect(downloadQr()).toBeNull();
    expect(downloadInvoice()).toBeNull();
  });
});
