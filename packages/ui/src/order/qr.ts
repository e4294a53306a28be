import { RENTAL_ORDER_STATUSES, type OrderStatus } from '@dme/contracts/browser';

const TO_SHIP = RENTAL_ORDER_STATUSES.indexOf('TO_SHIP');

/**
 * An order carries a QR code once it is packed: TO_SHIP and every later step (SPEC §2); never
 * before, and not once cancelled.
 */
export function showsOrderQr(status: OrderStatus): boolean {
  return RENTAL_ORDER_STATUSES.indexOf(status as (typeof RENTAL_ORDER_STATUSES)[number]) >= TO_SHIP;
}

/** Saves `src` (fetched with the session) as `fileName`. */
export async function downloadFile(src: string, fileName: string): Promise<void> {
  const res = await fetch(src, { credentials: 'same-origin' });
  if (!res.ok) throw new Error(`QR answer ${res.status}`);
  const url = URL.createObjectURL(await res.blob());
  const a = document.createElement('a');
  a.href = url;
  a.download = fileName;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
