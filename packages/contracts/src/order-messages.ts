/**
 * The cart, order and rental texts (SPEC §5/§8) and order limits, kept free of zod on purpose: the
 * shop's product, cart, bulk-order and order screens import them, and a module with schemas would
 * bring zod along, whose `new Function` probe breaks the CSP (no 'unsafe-eval'; issue 13). The
 * schemas in ordering.ts and rentals.ts use these same constants; PACKING_MESSAGES are the
 * warehouse's packing texts (order detail page).
 */
import { formatBusinessDate } from './time';
import type { StockStatus } from './enums';
import { STOCK_STATUS_LABELS } from './stock-status';

/** Texts of SPEC §5/§8 for cart and orders, verbatim, and ours where the spec is silent. */
export const ORDER_MESSAGES = {
  address: 'Please input your Address!',
  city: 'Please input your City!',
  state: 'Please input your State!',
  zipcode: 'Please input your Zipcode!',
  addressMax: 'Address must be at most 12 characters.',
  zipcodeMin: 'Zipcode must be at least 6 characters.',
  maxStock: 'The item has reached the maximum stock! Please adjust the quantity according to its availability.',
  addedToCart: 'Added to cart!',
  removeConfirm: 'Are you sure to delete this product?',
  submitted: 'Order submitted successfully!',
  quantityMin: 'Quantity must be at least 1.',
  daysMin: 'Rental days must be at least 1.',
  emptyOrder: 'Add at least one product to the order.',
  wrongType: 'This product cannot be ordered this way: rent items go in rental orders, sale items in purchase orders.',
  unknownProduct: 'This product is no longer available.',
  chooseVariant: 'Please choose a variant.',
  chooseSubVariant: 'Please choose a sub-variant.',
  idempotencyMismatch: 'This Idempotency-Key was already used for a different order.',
  idempotencyInProgress: 'This order is already being placed. Please wait a moment.',
  idempotencyMissing: 'An Idempotency-Key header is required to place an order.',
  cannotCancel: 'This order can no longer be cancelled.',
  cancelled: 'Order cancelled.',
} as const;

export const MAX_QUANTITY = 500;
export const MAX_RENTAL_DAYS = 365;

/** Rental texts of SPEC §5/§8 verbatim, and ours where the spec is silent. */
export const RENTAL_MESSAGES = {
  selectProduct: 'Select at least 1 product!',
  requestSubmitted: 'Request Successfully Submitted!',
  hasDueProducts: 'Has to due products',
  dueToday: 'Some products are due for return today.',
  markOnProgress: 'Mark as On Progress',
  markDone: 'Mark as Done',
  // ours
  scanWhat: 'Scan the order QR code or type the order number.',
  /** Also another driver's order, or one not waiting to be taken this way: the same answer as a code that names no order. */
  unknownOrder: 'No order you can take here or already have matches this QR code or order number.',
  notForDelivery: (orderNumber: string, status: string) =>
    `Order ${orderNumber} is ${status.replaceAll('_', ' ')}: only orders TO SHIP, or OUT FOR DELIVERY with you, can be scanned for delivery.`,
  notForPickup: (orderNumber: string, status: string) => `Order ${orderNumber} is ${status.replaceAll('_', ' ')}: only rentals FOR RETURN can be scanned for pick-up.`,
  otherDriver: (orderNumber: string) => `Order ${orderNumber} is with another driver.`,
  takenOut: (orderNumber: string) => `Order ${orderNumber} is out for delivery with you.`,
  notPickingUp: 'Serial codes are marked as returned only while the order is FOR PICK UP.',
  unknownSerial: 'This serial code was not packed for this order.',
  alreadyReturned: 'This serial code was already marked as returned.',
  requestNotOngoing: 'Requests can be filed only while the rental is ongoing (delivered).',
  unknownLine: 'Choose products of this order.',
  requestStep: (from: string, to: string) => `A request ${from.replaceAll('_', ' ')} cannot be marked ${to.replaceAll('_', ' ')}.`,
} as const;

/** Texts of packing (SPEC §5 Scanning, §8), verbatim, and ours where the spec is silent. */
export const PACKING_MESSAGES = {
  alreadyScanned: 'Already scanned',
  wrongProduct: (productName: string) => `Scanned product is not ${productName}. Please make sure that you only scanned the type of product you selected.`,
  /** A unit that is not on the shelf; with its status, the message names it (issue 26: "returned (to clean)", "on hold"...). */
  notAvailable: (serialCode: string, status?: string) =>
    status && status !== 'AVAILABLE' && status in STOCK_STATUS_LABELS
      ? `${serialCode} is not available: it is ${STOCK_STATUS_LABELS[status as StockStatus].toLowerCase()}.`
      : `${serialCode} is not available: it is rented, sold, damaged or lost, or packed for another order.`,
  unknownCode: (serialCode: string) => `There is no item with the serial code ${serialCode}.`,
  scanEveryLine: 'Scan every item of every line before shipping the order.',
  tooMany: (productName: string) => `More items were scanned for ${productName} than the order has.`,
  // saved packing progress (issue 22)
  notPreparing: 'Items are scanned only while the order is PREPARING.',
  scannedForOtherOrder: (serialCode: string, orderNumber: string) => `${serialCode} is already scanned for order ${orderNumber}.`,
  notScanned: 'This serial code is not scanned for this line.',
} as const;

/** Texts of dated rentals (issue 25): bookings per unit, downtime, availability. */
export const BOOKING_MESSAGES = {
  startRange: (lastDay: string) => `Please choose a start date from today up to ${lastDay}.`,
  startDate: 'Please choose a start date.',
  /** A short line of a dated rental: the spec's max-stock message, and the first start that works. */
  notFree: (what: string, quantity: number, start: string) => `${what}: ${quantity === 1 ? 'no unit is' : `not ${quantity} units are`} free from ${start} for the whole rental.`,
  firstFree: (date: string) => `The first start date that works is ${date}.`,
  noneAhead: 'No start date in the next 180 days works for this quantity.',
  /** Packing a unit booked by another order for overlapping days. */
  bookedOtherwise: (serialCode: string, orderNumber: string, from: string, to: string) =>
    `${serialCode} is booked for order ${orderNumber} from ${from} to ${to}.`,
  downUnit: (serialCode: string, reason: string, from: string, to: string) => `${serialCode} is blocked for ${reason.toLowerCase()} from ${from} to ${to}.`,
  downtimeOverlaps: (serialCode: string) => `${serialCode} is booked or blocked on some of these days; choose other dates or another unit.`,
  downtimeRange: 'The last day must be on or after the first day.',
  downtimeWhat: 'Choose a unit, or a product level to block all its units.',
  downtimeRentOnly: 'Only units of rental products can be blocked for dates.',
  downtimeCreated: (n: number) => `${n} ${n === 1 ? 'unit' : 'units'} blocked.`,
  downtimeRemoved: 'Downtime removed.',
  downtimeRemoveConfirm: 'Remove this downtime? The unit can be booked on these days again.',
  /** Extensions (issue 25). */
  extended: (days: number, due: string) => `Rental extended by ${days} ${days === 1 ? 'day' : 'days'}: due back on ${due}.`,
  extendRefused: (maxDays: number, until: string) =>
    maxDays === 0
      ? `The units are booked right after this rental (cleaning included), so it cannot be extended. Return them by ${until}.`
      : `The units are booked after this rental: it can be extended by at most ${maxDays} ${maxDays === 1 ? 'day' : 'days'}, until ${until}.`,
  extendNotOngoing: 'Only an ongoing (delivered) rental can be extended.',
  extendNotOpen: 'Only a rental that is booked or out with the customer can be extended.',
  extendTooLong: `A rental can run at most ${MAX_RENTAL_DAYS} days.`,
  /** Ending a rental early (issue 25): staff, while it is out with the customer. */
  endEarlyNotOngoing: 'Only a rental out with the customer can end early.',
  endEarlyNothing: 'Every product of this rental is due back by then: nothing ends early.',
  endEarlyRange: (from: string, to: string) => (from === to ? `Choose ${from} as the return day.` : `Choose a return day from ${from} to ${to}.`),
  endedEarly: (returnOn: string) => `Rental ends early: due back on ${returnOn}.`,
  /** The customer's notice of a booking at risk: its unit is overdue from the rental before. */
  atRiskNotice: (productName: string, start: string) =>
    `The ${productName} booked for you from ${formatBusinessDate(start)} is overdue from its previous rental. We are getting another unit ready, or will call you.`,
} as const;

export const DOWNTIME_REASONS = ['MAINTENANCE', 'REPAIR', 'MISSING'] as const;
export type DowntimeReason = (typeof DOWNTIME_REASONS)[number];
