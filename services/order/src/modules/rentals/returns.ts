import type { EntityManager } from '@mikro-orm/postgresql';
import { RENTAL_MESSAGES, ReturnSerialReply, type Order, type ReturnSerialRequest, type ReturnStatus } from '@dme/contracts';
import { callRpc, HttpProblem, notFound, qualified, type NatsConnection, type Principal } from '@dme/platform';
import { getOrder, lockOrder } from '../orders/read';

/** What returns need from outside the order service: the catalog's return command. */
export interface ReturnDeps {
  nc: NatsConnection;
  subjects: { returnSerial: string };
}

/**
 * Marks one serial code of a FOR_PICK_UP rental as returned OK, LOST or DAMAGED — once (SPEC §4).
 * The order row and the serial's row are locked; the catalog moves the item in its own
 * transaction through the stock ledger (OK → AVAILABLE and IN, DAMAGED → DAMAGED, LOST → LOST;
 * asking again answers the same), then the mark and its time are written here. Its compensation
 * is forward, not an undo: if this transaction fails after the catalog answered, the serial stays
 * unmarked here and marking again is a retry there (rentals.test.ts fails the write to show it).
 */
export async function returnSerial(
  em: EntityManager,
  orderId: string,
  serialCode: string,
  status: ReturnStatus,
  who: Principal,
  deps: ReturnDeps,
): Promise<Order> {
  const code = serialCode.trim().toUpperCase();
  await em.transactional(async (tem) => {
    const t = (n: string) => qualified(tem, n);
    const order = await lockOrder(tem, { id: orderId });
    if (order.status !== 'FOR_PICK_UP') throw new HttpProblem(409, RENTAL_MESSAGES.notPickingUp);
    const [serial] = await tem.execute<Array<{ id: string; return_status: ReturnStatus | null }>>(
      `select id, return_status from ${t('order_line_serials')} where order_id = ? and serial_code = ? for update`,
      [orderId, code],
    );
    if (!serial) throw notFound(RENTAL_MESSAGES.unknownSerial);
    if (serial.return_status !== null) throw new HttpProblem(409, RENTAL_MESSAGES.alreadyReturned);
    const request: ReturnSerialRequest = { orderId, serialCode: code, status, by: { userId: who.userId, username: who.username } };
    ReturnSerialReply.parse(await callRpc(deps.nc, deps.subjects.returnSerial, request));
    await tem.execute(`update ${t('order_line_serials')} set return_status = ?, returned_at = now() where id = ?`, [status, serial.id]);
  });
  return getOrder(em, orderId, who, {});
}
