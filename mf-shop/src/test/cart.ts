import type { CartItem } from '@dme/contracts';
import { addDays, manilaDate } from '@dme/contracts/browser';

/** The product of the cart fixtures. */
export const CART_PRODUCT = '00000000-0000-4000-8000-000000000001';

/** A cart line: by default a wheelchair in the rental cart, 1 for 3 days from the day after tomorrow. */
export const cartItem = (over: Partial<CartItem> = {}): CartItem => ({
  id: 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa',
  type: 'RENT',
  productID: CART_PRODUCT,
  productVariantID: null,
  productSubVariantID: null,
  name: 'Wheelchair',
  brand: 'Drive',
  image: '/api/uploads/w.png',
  variant: null,
  subVariant: null,
  price: '20.00',
  quantity: 1,
  noOfRentalDays: 3,
  startDate: addDays(manilaDate(), 2),
  lineTotal: '60.00',
  available: true,
  createdAt: '2026-11-20T00:00:00.000Z',
  ...over,
});
