import type { DriverScanPurpose } from '@dme/contracts';

/** What changes between the two driver screens (SPEC §2 DRIVER): For Delivery and For Pickup. */
export interface PurposeTexts {
  title: string;
  base: string;
  empty: string;
  /** What a scan does on this screen (ours: the spec is silent). */
  scanHelp: string;
  /** The status shown in the list (SPEC §2): the driver's OUT_FOR_DELIVERY or FOR_PICK_UP orders. */
  listLabel: string;
}

export const PURPOSE: Record<DriverScanPurpose, PurposeTexts> = {
  DELIVERY: {
    title: 'For Delivery',
    base: '/admin/for-delivery',
    empty: 'No orders out for delivery.',
    scanHelp: "Scan an order TO SHIP to take it out for delivery; scan it again at the customer's door to record the hand-over.",
    listLabel: 'Orders out for delivery',
  },
  PICKUP: {
    title: 'For Pickup',
    base: '/admin/for-pickup',
    empty: 'No orders for pickup.',
    scanHelp: "Scan a rental FOR RETURN at the customer's door to record the pick-up.",
    listLabel: 'Orders for pickup',
  },
};

/** The scanner's text field, for a typed order number or a handheld (keyboard-wedge) scanner. */
export const SCAN_INPUT_LABEL = 'Order QR or order number';

/**
 * A refused code is not sent again for this long (the camera reads the label in view once a
 * second). A code that moved an order is not sent again while the scanner stays open: a second
 * read of the order just taken out would open its hand-over at once. Delivering is a new scan.
 */
export const REPEAT_SCAN_MS = 5000;

/** The hand-over screen of an order (issue 28): where the driver records who received (or gave back) the equipment. */
export const handoverPath = (leg: DriverScanPurpose, id: string) => `${PURPOSE[leg].base}/${encodeURIComponent(id)}/handover`;

/** A hand-over's leg, in a sentence. */
export const LEG_LABELS: Record<DriverScanPurpose, string> = { DELIVERY: 'Delivery', PICKUP: 'Pick-up' };
