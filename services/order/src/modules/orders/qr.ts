import type { EntityManager } from '@mikro-orm/postgresql';
import { notFound, qrCodePng, qualified } from '@dme/platform';

/** The order's QR payload (SPEC §3): its id and number. */
export function orderQrPayload(order: { id: string; order_number: string }): string {
  return JSON.stringify({ orderID: order.id, orderNumber: order.order_number });
}

/** An order's QR code as a PNG (a customer's own orders only; another's answers 404). */
export async function orderQrPng(em: EntityManager, id: string, scope: { customerId?: string }): Promise<Buffer> {
  const [row] = await em.execute<Array<{ id: string; order_number: string }>>(
    `select id, order_number from ${qualified(em, 'orders')} where id = ?${scope.customerId ? ' and customer_id = ?' : ''}`,
    scope.customerId ? [id, scope.customerId] : [id],
  );
  if (!row) throw notFound('Order not found.');
  return qrCodePng(orderQrPayload(row));
}
