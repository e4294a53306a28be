import { Tag } from 'antd';
import { formatManilaDateTime, orderStatusColor } from '@dme/contracts/browser';

/*
 * How the staff screens show an order's dates and statuses, shared by the orders and the ongoing
 * rentals features.
 */

/** A due date may come as a calendar day ("2026-11-24") or an instant. */
export const dateText = (v: string) => (/^\d{4}-\d{2}-\d{2}$/.test(v) ? v : formatManilaDateTime(v));

/** "FOR_PICK_UP" → "FOR PICK UP" (tags). */
export const statusText = (s: string) => s.replace(/_/g, ' ');

/** Where the ongoing rental screens live (SPEC §2). */
export const ONGOING_BASE = '/admin/ongoing-rentals';

export { rentalDisplayStatus } from '@dme/contracts/browser';

/** A status tag as the ongoing rentals show it: a DELIVERED rental is ON GOING, green like delivered (SPEC §4). */
export function DisplayStatusTag({ status }: { status: string }) {
  return <Tag color={orderStatusColor(status)}>{statusText(status)}</Tag>;
}
