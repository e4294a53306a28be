import type { EntityManager } from '@mikro-orm/postgresql';
import { badRequest, HttpProblem, notFound, qualified, recordEvent, type Principal, newId } from '@dme/platform';
import { acceptsRequests, EVENTS, RENTAL_MESSAGES, REQUEST_NEXT, type CreateRequestBody, type OrderRequest, type StaffRequestBody } from '@dme/contracts';
import type { z } from 'zod';
import { SOURCE } from '../../events';
import { lockOrder } from '../orders/read';
import { requestOf, requestsJson, type RequestRow } from './request-rows';

/**
 * A customer files a fix or replace request for products of their own ongoing (DELIVERED)
 * rental (SPEC §2, §5): another's order answers 404; other statuses 409; the products must be
 * lines of the order. Recorded with `dme.request.changed` in the same transaction.
 */
export async function createRequest(em: EntityManager, orderId: string, who: Principal, body: z.output<typeof CreateRequestBody>): Promise<OrderRequest> {
  return fileRequest(em, orderId, { where: 'and customer_id = ?', params: [who.userId] }, body.type, body.note, async (tem) => {
    const lineIds = [...new Set(body.lineIDs)];
    const lines = await tem.execute<Array<{ id: string }>>(`select id from ${qualified(tem, 'order_lines')} where order_id = ? and id = any(?::uuid[])`, [orderId, `{${lineIds.join(',')}}`]);
    if (lines.length !== lineIds.length) throw badRequest(RENTAL_MESSAGES.unknownLine, [{ field: 'lineIDs', message: RENTAL_MESSAGES.unknownLine }]);
    return lineIds;
  });
}

/**
 * Staff file a request on a customer's ongoing rental (issue 26: a recalled unit to replace),
 * naming its units by serial code: the lines those units were packed for.
 */
export async function createRequestAsStaff(em: EntityManager, orderId: string, body: z.output<typeof StaffRequestBody>): Promise<OrderRequest> {
  return fileRequest(em, orderId, undefined, body.type, body.note, async (tem) => {
    const codes = [...new Set(body.serialCodes.map((c) => c.trim().toUpperCase()))];
    const rows = await tem.execute<Array<{ line_id: string; serial_code: string }>>(
      `select line_id, serial_code from ${qualified(tem, 'order_line_serials')} where order_id = ? and serial_code = any(?::text[])`,
      [orderId, `{${codes.join(',')}}`],
    );
    if (rows.length !== codes.length) throw badRequest(RENTAL_MESSAGES.unknownSerial, [{ field: 'serialCodes', message: RENTAL_MESSAGES.unknownSerial }]);
    return [...new Set(rows.map((r) => r.line_id))];
  });
}

/** Files a request on an ongoing rental (within `scope`: another's answers 404) for the lines `linesOf` answers, with its event. */
async function fileRequest(
  em: EntityManager,
  orderId: string,
  scope: { where: string; params: unknown[] } | undefined,
  type: 'FIX' | 'REPLACE',
  note: string,
  linesOf: (tem: EntityManager) => Promise<string[]>,
): Promise<OrderRequest> {
  const id = newId();
  await em.transactional(async (tem) => {
    const order = await lockOrder(tem, { id: orderId }, scope);
    if (!acceptsRequests(order)) throw new HttpProblem(409, RENTAL_MESSAGES.requestNotOngoing);
    const lineIds = await linesOf(tem);
    await tem.execute(`insert into ${qualified(tem, 'order_requests')} (id, order_id, customer_id, type, status, user_note, line_ids) values (?, ?, ?, ?, 'PENDING', ?, ?::uuid[])`, [
      id,
      orderId,
      order.customerId,
      type,
      note,
      `{${lineIds.join(',')}}`,
    ]);
    recordEvent(tem, SOURCE, {
      type: EVENTS.request.changed,
      aggregateId: orderId,
      data: { requestId: id, orderId, orderNumber: order.orderNumber, customerId: order.customerId, type, status: 'PENDING' },
    });
    await tem.flush();
  });
  return loadRequest(em, orderId, id);
}

/** Staff move a request on: PENDING → ON_PROGRESS ('Mark as On Progress') → DONE ('Mark as Done'); anything else 409. */
export async function updateRequest(em: EntityManager, orderId: string, requestId: string, to: 'ON_PROGRESS' | 'DONE'): Promise<OrderRequest> {
  await em.transactional(async (tem) => {
    const t = (n: string) => qualified(tem, n);
    const [row] = await tem.execute<Array<{ status: string; type: 'FIX' | 'REPLACE'; customer_id: string; order_number: string }>>(
      `select q.status, q.type, q.customer_id, o.order_number from ${t('order_requests')} q join ${t('orders')} o on o.id = q.order_id
        where q.id = ? and q.order_id = ? for update of q`,
      [requestId, orderId],
    );
    if (!row) throw notFound('Request not found.');
    if (REQUEST_NEXT[row.status] !== to) throw new HttpProblem(409, RENTAL_MESSAGES.requestStep(row.status, to));
    await tem.execute(`update ${t('order_requests')} set status = ?, updated_at = now() where id = ?`, [to, requestId]);
    recordEvent(tem, SOURCE, {
      type: EVENTS.request.changed,
      aggregateId: orderId,
      data: { requestId, orderId, orderNumber: row.order_number, customerId: row.customer_id, type: row.type, status: to },
    });
    await tem.flush();
  });
  return loadRequest(em, orderId, requestId);
}

async function loadRequest(em: EntityManager, orderId: string, requestId: string): Promise<OrderRequest> {
  const [row] = await em.execute<Array<{ requests: RequestRow[] }>>(
    `select ${requestsJson(em, 'q.order_id = o.id and q.id = ?')} as requests from ${qualified(em, 'orders')} o where o.id = ?`,
    [requestId, orderId],
  );
  const request = row?.requests[0];
  if (!request) throw notFound('Request not found.');
  return requestOf(request);
}
