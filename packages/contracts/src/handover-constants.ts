/**
 * The hand-over at the door (issue 28): what a driver records when equipment changes hands —
 * at delivery (the customer receives it) and at pick-up (the customer gives it back). Kept free of
 * zod (browser code imports it; see rental-constants.ts); the schemas are in handovers.ts and
 * driver-day.ts.
 */
import type { OrderStatus } from './enums';

/** Which hand-over: the delivery (to the customer) or the pick-up (back from the customer). */
export const HANDOVER_LEGS = ['DELIVERY', 'PICKUP'] as const;
export type HandoverLeg = (typeof HANDOVER_LEGS)[number];

/** HANDED_OVER completes the step (DELIVERED, FOR_PICK_UP); the others record a failed attempt. */
export const HANDOVER_OUTCOMES = ['HANDED_OVER', 'REFUSED', 'NOBODY_HOME'] as const;
export type HandoverOutcome = (typeof HANDOVER_OUTCOMES)[number];

export const HANDOVER_OUTCOME_LABELS: Record<HandoverOutcome, string> = {
  HANDED_OVER: 'Handed over',
  REFUSED: 'Refused',
  NOBODY_HOME: 'Nobody home',
};

/** Who signed, as the patient's relation. */
export const HANDOVER_RELATIONS = ['PATIENT', 'FAMILY', 'CAREGIVER', 'FACILITY_STAFF', 'OTHER'] as const;
export type HandoverRelation = (typeof HANDOVER_RELATIONS)[number];

export const HANDOVER_RELATION_LABELS: Record<HandoverRelation, string> = {
  PATIENT: 'Patient',
  FAMILY: 'Family member',
  CAREGIVER: 'Caregiver',
  FACILITY_STAFF: 'Facility staff',
  OTHER: 'Other',
};

/** The sentence the signer confirms, per leg (printed on the ticket as it was shown). */
export const HANDOVER_ACKNOWLEDGEMENT: Record<HandoverLeg, string> = {
  DELIVERY: 'I received the equipment listed above, in good condition, and was shown how to use it safely.',
  PICKUP: 'I handed back the equipment listed above.',
};

/** Caps on the images of a hand-over (decoded bytes); the client shrinks photos well below. */
export const HANDOVER_LIMITS = {
  signatureBytes: 200 * 1024,
  photoBytes: 1536 * 1024,
  /** The whole JSON request (two base64 images and the fields); the gateway and the service read at most this. */
  bodyBytes: 4 * 1024 * 1024,
} as const;

/** The ticket's file name per leg (issue 28). */
export const TICKET_FILE: Record<HandoverLeg, string> = { DELIVERY: 'DELIVERY_TICKET.pdf', PICKUP: 'PICKUP_TICKET.pdf' };

/** The order status each leg's hand-over starts from. */
export const HANDOVER_FROM: Record<HandoverLeg, 'OUT_FOR_DELIVERY' | 'FOR_RETURN'> = { DELIVERY: 'OUT_FOR_DELIVERY', PICKUP: 'FOR_RETURN' };

/** Texts of the driver's day and of assigning (the spec is silent). */
export const DRIVER_DAY_MESSAGES = {
  chooseDriver: 'Choose a driver.',
  dayInvalid: 'Choose a day from today on.',
  notWaiting: (orderNumber: string, status: string) =>
    `Order ${orderNumber} is ${status.replaceAll('_', ' ')}: only orders TO SHIP or FOR RETURN are assigned to a driver.`,
  assigned: (orderNumber: string, driver: string, day: string) => `Order ${orderNumber} is assigned to ${driver} for ${day}.`,
  unassigned: (orderNumber: string) => `Order ${orderNumber} is waiting for any driver.`,
  notYourStops: 'List each of your stops once, and only your stops.',
} as const;

/** The statuses in which an order waits for a driver, and staff may assign it to one (issue 28). */
export const DRIVER_WAITING_STATUSES: readonly OrderStatus[] = ['TO_SHIP', 'FOR_RETURN'];

/** The leg an order in this status is at the door for (out for delivery, or a rental to collect); none otherwise. */
export function doorLegOf(status: OrderStatus): HandoverLeg | undefined {
  return HANDOVER_LEGS.find((leg) => HANDOVER_FROM[leg] === status);
}

/** Texts of the hand-over (the spec is silent). */
export const HANDOVER_MESSAGES = {
  recipientRequired: 'Enter the name of the person who signs.',
  relationRequired: "Choose the signer's relation to the patient.",
  signatureRequired: 'Ask them to sign in the box.',
  acknowledgeRequired: 'The signer must confirm the sentence above their signature.',
  reasonRequired: 'Say why the equipment could not be handed over.',
  keyRequired: 'Each hand-over needs its own key.',
  notImage: 'The signature and the photo must be PNG or JPG images.',
  signatureTooLarge: 'The signature image is too large (at most 200 KB).',
  photoTooLarge: 'The photo is too large (at most 1.5 MB). Take it again.',
  signedAtInvalid: 'The time of signing is not valid.',
  signedInFuture: 'The time of signing is in the future: check the phone clock.',
  needsHandover: 'Record the hand-over first: who received the equipment and their signature.',
  handoverNeeded: (orderNumber: string) => `Record the hand-over of ${orderNumber}: who signs, their signature and the serials.`,
  wrongStatus: (leg: HandoverLeg, orderNumber: string, status: string) =>
    leg === 'DELIVERY' ? `Order ${orderNumber} is not out for delivery (it is ${status}).` : `Order ${orderNumber} is not waiting for pick-up (it is ${status}).`,
  serialsMissing: (codes: string[]) => `Confirm every unit handed over: ${codes.join(', ')} missing.`,
  serialsUnknown: (codes: string[]) => `Not on this order: ${codes.join(', ')}.`,
  delivered: (orderNumber: string, name: string) => `Order ${orderNumber} delivered to ${name}.`,
  pickedUp: (orderNumber: string, name: string) => `Order ${orderNumber} picked up from ${name}.`,
  deliveryFailed: (orderNumber: string) => `Delivery of ${orderNumber} not made: the order is back to ship, for another attempt.`,
  pickupFailed: (orderNumber: string) => `Pick-up of ${orderNumber} not made: the attempt is recorded, the rental stays for return.`,
  noTicket: (leg: HandoverLeg) => (leg === 'DELIVERY' ? 'This order has no delivery ticket yet.' : 'This order has no pick-up ticket yet.'),
  noFile: 'This hand-over has no such image.',
} as const;

/** The texts of a scan's Idempotency-Key (a scan queued offline); `inProgress` is worth a retry. */
export const SCAN_KEY_MESSAGES = {
  missing: 'The Idempotency-Key header is missing or too long.',
  mismatch: 'This Idempotency-Key was already used for another scan.',
  inProgress: 'This scan is still being handled. Try again in a moment.',
} as const;

/** A base64 data URL's type and bytes (null when it is not one). Shared by the server's checks. */
export function parseDataUrl(url: string): { mime: string; base64: string } | null {
  const m = /^data:([a-z]+\/[a-z0-9.+-]+);base64,/i.exec(url);
  if (!m) return null;
  return { mime: m[1]!.toLowerCase(), base64: url.slice(m[0].length) };
}
