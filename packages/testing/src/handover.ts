import { randomUUID } from 'node:crypto';
import type { HandoverLeg, HandoverRequest } from '@dme/contracts';
import { TINY_PNG } from './index';

/** A signature as the phone sends it: a PNG data URL. */
export const SIGNATURE = `data:image/png;base64,${TINY_PNG.toString('base64')}`;

/** The serial codes packed for an order, as its detail shows them. */
export function packedSerials(order: { products: Array<{ serialCodes: Array<{ serialCode: string }> }> }): string[] {
  return order.products.flatMap((l) => l.serialCodes.map((s) => s.serialCode));
}

/**
 * A completed hand-over at the door (issue 28) of every unit packed for the order: the signer, a
 * signature, the acknowledgement, a new key. `over` changes any field.
 */
export function handoverBody(
  order: { products: Array<{ serialCodes: Array<{ serialCode: string }> }> },
  leg: HandoverLeg = 'DELIVERY',
  over: Partial<HandoverRequest> = {},
): HandoverRequest {
  return {
    key: randomUUID(),
    leg,
    outcome: 'HANDED_OVER',
    recipientName: 'Maria Santos',
    relation: 'PATIENT',
    acknowledged: true,
    serials: packedSerials(order),
    signature: SIGNATURE,
    ...over,
  };
}
