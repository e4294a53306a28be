import { expect } from 'vitest';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import type { Order, OrderLine, OrderSummary, User } from '@dme/contracts';
import { SCANNER_MESSAGES } from '@dme/ui';
import { serialEntry, type Call } from '@dme/ui/testing';
import App from '../app';
import { SCAN_INPUT_LABEL } from '../features/orders/purpose';

/** The driver's screens' test data (shared by the test files here): a driver, orders, and the app opened at a path. */

export const driver = { id: '00000000-0000-4000-8000-0000000000d1', username: 'driver', firstName: 'Dan', lastName: 'Cruz', userType: 'DRIVER' } as User;

export const ORDER = 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa';
export const CUSTOMER = 'dddddddd-dddd-4ddd-8ddd-dddddddddddd';

export const summary = (i: number, over: Partial<OrderSummary> = {}): OrderSummary => ({
  id: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
  orderNumber: `ORD-20261123-${String(i).padStart(6, '0')}`,
  createdAt: '2026-11-23T16:30:00.000Z',
  status: 'OUT_FOR_DELIVERY',
  type: 'BUY',
  typeOfOrder: null,
  totalAmount: '150.00',
  customerID: CUSTOMER,
  customerName: 'Maria Santos',
  customerNumber: 'CUS-000007',
  ...over,
});

export const line: OrderLine = {
  id: 'bbbbbbbb-bbbb-4bbb-8bbb-bbbbbbbbbbbb',
  productID: '11111111-1111-4111-8111-111111111111',
  productName: 'Wheelchair',
  productImage: '/api/uploads/wheelchair.png',
  productVariantID: '33333333-3333-4333-8333-333333333333',
  productSubVariantID: '55555555-5555-4555-8555-555555555555',
  variant: { name: 'Standard', price: null },
  subVariant: { name: 'Large', price: '50.00' },
  quantity: 2,
  noOfRentalDays: 3,
  productAmount: '50.00',
  productDamageCharges: '500.00',
  lineTotal: '300.00',
  serialCodes: [
    serialEntry('WHE-0000001'),
    serialEntry('WHE-0000002', { status: 'OK', updatedAt: '2026-11-27T02:00:00.000Z', returnedAt: '2026-11-27T02:00:00.000Z', inventoryType: 'IN' }),
  ],
  dueDate: '2026-11-27',
  startDate: '2026-11-20',
  rentalTerms: null,
  deposit: '0.00',
};

export function order(over: Partial<Order> = {}): Order {
  return {
    ...summary(1, { id: ORDER, orderNumber: 'ORD-20261123-000123', type: 'RENT', status: 'FOR_PICK_UP', totalAmount: '300.00' }),
    deliveryAddress: '12 Rizal St',
    deliveryCity: 'Makati',
    deliveryState: 'Metro Manila',
    deliveryZipcode: '123456',
    note: 'Call before delivery',
    partialPayment: '100.00',
    payment: { status: 'INITIAL_PAYMENT', totalOrderPayment: '300.00', totalPartialPayment: '100.00', extraCharge: null, overallTotal: null, balance: '200.00', dueDate: null, records: [], deposit: '0.00', lateFees: null, depositApplied: null, depositRefund: null, refunds: [] },
    orderTracker: [
      { title: 'Order placed', status: 'PENDING', createdAt: '2026-11-23T05:00:00.000Z' },
      { title: 'Picked up by the driver', status: 'FOR_PICK_UP', createdAt: '2026-11-27T01:00:00.000Z' },
    ],
    products: [line],
    customer: { idNumber: 'CUS-000007', firstName: 'Maria', middleName: 'Luna', lastName: 'Santos', suffix: 'Jr.', email: 'maria@example.com', contactNumber: '09171234567' },
    allowedTransitions: [],
    deliveredAt: '2026-11-24T03:00:00.000Z',
    driverID: driver.id,
    requests: [],
    dueNotice: null,
    extensions: [],
    extendable: false,
    earlyEnd: null,
    assignment: null,
    handovers: [],
    lateFees: null,
    lateFeeWaivers: [],
    billing: 'UPFRONT',
    cycles: [],
    rentToOwn: [],
    ...over,
  };
}

export function open(path: string) {
  render(
    <MemoryRouter initialEntries={[path]}>
      <App user={driver} />
    </MemoryRouter>,
  );
}

export const lists = (calls: Call[]) => calls.filter((c) => c.method === 'GET' && c.url.startsWith('/api/driver/orders?'));
export const scans = (calls: Call[]) => calls.filter((c) => c.method === 'POST' && c.url === '/api/driver/scan');
export const list = (items: OrderSummary[]) => ({ status: 200, body: { items, total: items.length } });

export async function openScanner() {
  fireEvent.click(await screen.findByRole('button', { name: 'Scan Order' }));
  const dialog = await screen.findByRole('dialog', { name: 'Scan Order' });
  // No camera in a test: the scanner says so, and the typed field works.
  expect(await within(dialog).findByText(SCANNER_MESSAGES.noCamera)).toBeInTheDocument();
  return dialog;
}
/** Types a code and presses Enter (the form's submit), as a keyboard-wedge scanner does. */
export function typeCode(dialog: HTMLElement, text: string) {
  const input = within(dialog).getByLabelText(SCAN_INPUT_LABEL);
  fireEvent.change(input, { target: { value: text } });
  fireEvent.submit(input.closest('form')!);
}
export async function answer(dialog: HTMLElement, text: string) {
  await waitFor(() => expect(within(within(dialog).getByTestId('scan-answer')).getByRole('alert')).toHaveTextContent(text));
}
