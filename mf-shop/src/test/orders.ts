import type { Order, OrderLine, OrderPayment, User } from '@dme/contracts';
import { serialEntry } from '@dme/ui/testing';

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
  startDate: null,
  rentalTerms: null,
  deposit: '0.00',
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
  deposit: '0.00',
  lateFees: null,
  depositApplied: null,
  depositRefund: null,
  refunds: [],
};

export const INITIAL_RECORD_ID = '44444444-4444-4444-8444-444444444444';
export const FULL_RECORD_ID = '55555555-5555-4555-8555-555555555555';
export const initial = { id: INITIAL_RECORD_ID, type: 'PARTIAL' as const, invoiceNumber: 'INV-001', receiptNumber: 'OR-001', amount: '90.00', note: '', createdAt: '2026-11-23T03:00:00.000Z' };
export const fullRecord = { id: FULL_RECORD_ID, type: 'FULL' as const, invoiceNumber: 'INV-002', receiptNumber: 'OR-002', amount: '680.00', note: 'Bank transfer', createdAt: '2026-11-28T03:00:00.000Z' };
/** A serial code entry (SPEC §3) of a packed unit from bin B-01: not returned yet unless `over` says so. */
export const serial = (serialCode: string, over: Partial<OrderLine['serialCodes'][number]> = {}) =>
  serialEntry(serialCode, { productID: '33333333-3333-4333-8333-333333333333', warehouseBin: { name: 'B-01 Beds' }, ...over });
export const packedLine = line({ serialCodes: [serial('HOS-0000101'), serial('HOS-0000102')] });

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
    extensions: [],
    extendable: false,
    earlyEnd: null,
    handovers: [],
    assignment: null,
    lateFees: null,
    lateFeeWaivers: [],
    billing: 'UPFRONT',
    cycles: [],
    rentToOwn: [],
    ...over,
  };
}
