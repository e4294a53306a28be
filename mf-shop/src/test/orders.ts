import type { Order, OrderLine, OrderPayment, User } from '@dme/contracts';

/** Test data of the customer's orders (the Order contract of issue 10). */

export const customer = { id: '00000000-0000-4000-8000-000000000001', username: 'maria', firstName: 'Maria', lastName: 'Santos', userType: 'CUSTOMER' } as User;
export const ORDER_ID = '11111111-1111-4111-8111-111111111111';

export const line = (over: Partial<OrderLine> = {}): OrderLine => ({
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
  dueDate: null,
  ...over,
});

export const unpaid: OrderPayment = {
  status: 'UNPAID',
  totalOrderPayment: '270.00',
  totalPartialPayment: '90.00',
  extraCharge: null,
  overallTotal: null,
  balance: null,
  dueDate: null,
  records: [],
};

export const initial = { type: 'PARTIAL' as const, invoiceNumber: 'INV-001', receiptNumber: 'OR-001', amount: '90.00', note: '', createdAt: '2026-11-23T03:00:00.000Z' };
export const fullRecord = { type: 'FULL' as const, invoiceNumber: 'INV-002', receiptNumber: 'OR-002', amount: '680.00', note: 'Bank transfer', createdAt: '2026-11-28T03:00:00.000Z' };
export const packedLine = line({ serialCodes: [{ serialCode: 'HOS-0000101', status: null, returnedAt: null }, { serialCode: 'HOS-0000102', status: null, returnedAt: null }] });

export function order(over: Partial<Order> = {}): Order {
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
    deliveredAt: null,
    driverID: null,
    requests: [],
    dueNotice: null,
    ...over,
  };
}
