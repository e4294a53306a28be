import type { EntityManager } from '@mikro-orm/postgresql';
import type { z } from 'zod';
import {
  HANDOVER_ACKNOWLEDGEMENT,
  HANDOVER_FROM,
  HANDOVER_LIMITS,
  HANDOVER_MESSAGES,
  HANDOVER_OUTCOME_LABELS,
  handoverTransition,
  parseDataUrl,
  sniffImageType,
  type Handover,
  type HandoverLeg,
  type HandoverRelation,
  type HandoverRequest,
  type HandoverResponse,
} from '@dme/contracts';
import { badRequest, HttpProblem, notFound, qualified, unprocessable, type BlobStore, type Principal, newId } from '@dme/platform';
import type { OrderFacts } from '../../process/facts';
import { GUARDS } from '../../process/guards';
import { addTrackerEntry, perform, visibility, type ProcessDeps } from '../../process/transitions';
import { getOrder, lockOrder } from '../orders/read';
import { summaryOf } from '../rentals/drivers';

export interface HandoverDeps {
  process: ProcessDeps;
  /** Where signatures and photos are kept (the order service's `handover_blobs`). */
  blobs: BlobStore;
}

/** How far ahead of the server's clock a phone's time of signing may be (clocks drift). */
const CLOCK_SKEW_MS = 5 * 60_000;

/** A hand-over row as stored. */
export interface HandoverRow {
  id: string;
  order_id: string;
  leg: HandoverLeg;
  outcome: Handover['outcome'];
  attempt: number;
  recipient_name: string;
  relation: HandoverRelation | null;
  reason: string;
  serials: string[];
  acknowledgement: string;
  driver_id: string;
  driver_name: string;
  signature_blob: string | null;
  photo_blob: string | null;
  signed_at: string | Date;
  recorded_at: string | Date;
}

/** A stored hand-over as the API shows it (its images are read by their own routes). */
export function handoverOf(r: HandoverRow): Handover {
  return {
    id: r.id,
    leg: r.leg,
    outcome: r.outcome,
    attempt: r.attempt,
    recipientName: r.recipient_name,
    relation: r.relation,
    reason: r.reason,
    serials: r.serials,
    acknowledgement: r.acknowledgement,
    driverName: r.driver_name,
    signedAt: new Date(r.signed_at).toISOString(),
    recordedAt: new Date(r.recorded_at).toISOString(),
    hasSignature: r.signature_blob !== null,
    hasPhoto: r.photo_blob !== null,
  };
}

/** The SQL (a json array, oldest first) of an order's hand-overs, for the order's detail statement (`o`). */
export function handoversJson(em: EntityManager): string {
  return `coalesce((select json_agg(row_to_json(h) order by h.recorded_at, h.attempt)
                      from (select id, order_id, leg, outcome, attempt, recipient_name, relation, reason, serials, acknowledgement, driver_id, driver_name,
                                   signature_blob, photo_blob, signed_at, recorded_at
                              from ${qualified(em, 'order_handovers')} where order_id = o.id) h), '[]'::json)`;
}

/** What the driver is told after a hand-over. */
function messageOf(orderNumber: string, h: Pick<Handover, 'leg' | 'outcome' | 'recipientName'>): string {
  if (h.outcome === 'HANDED_OVER') return h.leg === 'DELIVERY' ? HANDOVER_MESSAGES.delivered(orderNumber, h.recipientName) : HANDOVER_MESSAGES.pickedUp(orderNumber, h.recipientName);
  return h.leg === 'DELIVERY' ? HANDOVER_MESSAGES.deliveryFailed(orderNumber) : HANDOVER_MESSAGES.pickupFailed(orderNumber);
}

/** An image sent as a data URL: PNG or JPG by its content, at most `cap` bytes; else a clear 400 or 413 naming the field. */
function imageOf(field: 'signature' | 'photo', url: string, cap: number): { data: Buffer; type: 'image/png' | 'image/jpeg' } {
  const parsed = parseDataUrl(url);
  if (!parsed || !/^[A-Za-z0-9+/]*={0,2}$/.test(parsed.base64)) throw badRequest(HANDOVER_MESSAGES.notImage, [{ field, message: HANDOVER_MESSAGES.notImage }]);
  const data = Buffer.from(parsed.base64, 'base64');
  if (data.length > cap) {
    const message = field === 'signature' ? HANDOVER_MESSAGES.signatureTooLarge : HANDOVER_MESSAGES.photoTooLarge;
    throw new HttpProblem(413, message, [{ field, message }]);
  }
  const type = sniffImageType(data.subarray(0, 16));
  if (!type) throw badRequest(HANDOVER_MESSAGES.notImage, [{ field, message: HANDOVER_MESSAGES.notImage }]);
  return { data, type };
}

/** The time of signing the phone sent (its clock, within CLOCK_SKEW_MS of ours), else now. */
function signedAtOf(sent: string | undefined, now: Date): Date {
  if (!sent) return now;
  const at = new Date(sent);
  if (at.getTime() > now.getTime() + CLOCK_SKEW_MS) throw badRequest(HANDOVER_MESSAGES.signedInFuture, [{ field: 'signedAt', message: HANDOVER_MESSAGES.signedInFuture }]);
  return at;
}

/** The hand-over this driver already sent with this key, if any (a retry from the phone's queue). */
async function byKey(em: EntityManager, driverId: string, key: string): Promise<HandoverRow | undefined> {
  const [row] = await em.execute<HandoverRow[]>(`select * from ${qualified(em, 'order_handovers')} where driver_id = ? and client_key = ?`, [driverId, key]);
  return row;
}

/** The answer to a hand-over (first time or a retry with its key): the order now, the hand-over, what happened. */
async function answerOf(em: EntityManager, who: Principal, row: HandoverRow, orderId: string): Promise<HandoverResponse> {
  if (row.order_id !== orderId) throw unprocessable('This hand-over key was already used for another order.');
  const order = await getOrder(em, row.order_id, who, {});
  const handover = handoverOf(row);
  return { order: summaryOf(order), handover, message: messageOf(order.orderNumber, handover) };
}

/**
 * Every unit packed for the order, and nothing else, is confirmed as handed over (codes matched
 * whatever their case); else a 409 naming what is missing or unknown.
 */
function checkSerials(order: OrderFacts, sent: string[]): string[] {
  const packed = new Map(order.serials.map((s) => [s.serialCode.toUpperCase(), s.serialCode]));
  const confirmed = new Set(sent.map((c) => c.trim().toUpperCase()));
  const unknown = [...confirmed].filter((c) => !packed.has(c));
  if (unknown.length > 0) throw new HttpProblem(409, HANDOVER_MESSAGES.serialsUnknown(unknown), [{ field: 'serials', message: HANDOVER_MESSAGES.serialsUnknown(unknown) }]);
  const missing = [...packed.entries()].filter(([c]) => !confirmed.has(c)).map(([, code]) => code);
  if (missing.length > 0) throw new HttpProblem(409, HANDOVER_MESSAGES.serialsMissing(missing), [{ field: 'serials', message: HANDOVER_MESSAGES.serialsMissing(missing) }]);
  return [...packed.values()];
}

/**
 * A hand-over at the door (issue 28), by the driver who has the order (or takes a pick-up no
 * driver has): recorded with its images, and the step it completes taken in the same transaction
 * through the process table — a delivery made: DELIVERED; refused or nobody home: back to
 * TO_SHIP; a pick-up made: FOR_PICK_UP; a failed pick-up stays FOR_RETURN with the attempt in
 * the tracker. The phone's key makes it idempotent: the same key answers the first result and
 * changes nothing (a queued hand-over sent again after a lost answer).
 */
export async function recordHandover(
  em: EntityManager,
  who: Principal,
  orderId: string,
  body: z.output<typeof HandoverRequest>,
  deps: HandoverDeps,
): Promise<HandoverResponse> {
  const earlier = await byKey(em, who.userId, body.key);
  if (earlier) return answerOf(em, who, earlier, orderId);

  const now = new Date();
  const signedAt = signedAtOf(body.signedAt, now);
  const made = body.outcome === 'HANDED_OVER';
  const signature = made && body.signature ? imageOf('signature', body.signature, HANDOVER_LIMITS.signatureBytes) : undefined;
  const photo = body.photo ? imageOf('photo', body.photo, HANDOVER_LIMITS.photoBytes) : undefined;

  const from = HANDOVER_FROM[body.leg];
  // The step's target decides what the driver reaches: their own orders, and a pick-up waiting for a driver.
  const scope = visibility(who, body.leg === 'PICKUP' ? 'FOR_PICK_UP' : 'DELIVERED');
  let row: HandoverRow | undefined;
  try {
    await em.transactional(async (tem) => {
      const order = await lockOrder(tem, { id: orderId }, scope);
      // Sent twice at once: the second waited for the lock and finds the first.
      row = await byKey(tem, who.userId, body.key);
      if (row) return;
      if (order.status !== from) throw new HttpProblem(409, HANDOVER_MESSAGES.wrongStatus(body.leg, order.orderNumber, order.status));
      const serials = made ? checkSerials(order, body.serials) : [];
      const caller = { kind: 'person', principal: who } as const;
      const step = handoverTransition(order.type, order.status, body.leg, made);
      const note = made ? undefined : `${HANDOVER_OUTCOME_LABELS[body.outcome]}, ${body.reason}`;
      const input = { handover: { leg: body.leg, outcome: body.outcome, ...(note ? { trackerNote: note } : {}) } };
      if (!step) {
        // A failed pick-up moves nothing; the same rule as the table's failed delivery says who may record it.
        const verdict = GUARDS['attempt-failed']({ order, caller, input, now });
        if (!verdict.ok) throw new HttpProblem(verdict.status, verdict.message, verdict.errors);
      }

      const [{ n } = { n: 0 }] = await tem.execute<Array<{ n: number }>>(
        `select count(*)::int as n from ${qualified(tem, 'order_handovers')} where order_id = ? and leg = ?`,
        [order.id, body.leg],
      );
      const id = newId();
      const names = {
        signature: signature ? `handover/${id}-signature.${signature.type === 'image/png' ? 'png' : 'jpg'}` : null,
        photo: photo ? `handover/${id}-photo.${photo.type === 'image/png' ? 'png' : 'jpg'}` : null,
      };
      if (signature && names.signature) await deps.blobs.put(names.signature, signature.type, signature.data);
      if (photo && names.photo) await deps.blobs.put(names.photo, photo.type, photo.data);
      const [inserted] = await tem.execute<HandoverRow[]>(
        `insert into ${qualified(tem, 'order_handovers')}
           (id, order_id, leg, outcome, attempt, recipient_name, relation, reason, serials, acknowledgement, driver_id, driver_name,
            signature_blob, photo_blob, signed_at, recorded_at, client_key)
         values (?, ?, ?, ?, ?, ?, ?, ?, ?::jsonb, ?, ?, ?, ?, ?, ?, ?, ?) returning *`,
        [
          id,
          order.id,
          body.leg,
          body.outcome,
          n + 1,
          made ? body.recipientName : '',
          made ? (body.relation ?? null) : null,
          made ? '' : body.reason,
          JSON.stringify(serials),
          made ? HANDOVER_ACKNOWLEDGEMENT[body.leg] : '',
          who.userId,
          who.name ?? who.username,
          names.signature,
          names.photo,
          signedAt,
          now,
          body.key,
        ],
      );
      row = inserted;
      if (step) await perform(tem, order, step.to, caller, input, deps.process);
      else await addTrackerEntry(tem, order.id, `Pick-up attempt failed: ${note}`, order.status, now);
    });
  } catch (err) {
    // The same key sent twice at once, where the first released the order (a failed delivery): the
    // second no longer reaches it, but the first's answer is the answer.
    const first = err instanceof HttpProblem && err.status === 404 ? await byKey(em, who.userId, body.key) : undefined;
    if (!first) throw err;
    return answerOf(em, who, first, orderId);
  }
  return answerOf(em, who, row!, orderId);
}

/** One of a hand-over's images, of an order the caller may read (a customer: their own); else 404. */
export async function handoverFile(
  em: EntityManager,
  blobs: BlobStore,
  orderId: string,
  handoverId: string,
  file: 'signature' | 'photo',
  customerId: string | undefined,
): Promise<{ data: Buffer; contentType: string }> {
  const [row] = await em.execute<Array<{ name: string | null }>>(
    `select ${file === 'signature' ? 'h.signature_blob' : 'h.photo_blob'} as name
       from ${qualified(em, 'order_handovers')} h join ${qualified(em, 'orders')} o on o.id = h.order_id
      where h.id = ? and h.order_id = ?${customerId ? ' and o.customer_id = ?' : ''}`,
    customerId ? [handoverId, orderId, customerId] : [handoverId, orderId],
  );
  if (!row?.name) throw notFound(HANDOVER_MESSAGES.noFile);
  const blob = await blobs.get(row.name);
  if (!blob) throw notFound(HANDOVER_MESSAGES.noFile);
  return { data: blob.data, contentType: blob.contentType };
}
