import { z } from 'zod';
import { HANDOVER_LEGS, HANDOVER_MESSAGES, HANDOVER_OUTCOMES, HANDOVER_RELATIONS } from './handover-constants';
import { optionalText } from './text';

/** A recorded hand-over as orders show it (issue 28): the images are read by their own routes. */
export const Handover = z.object({
  id: z.string().uuid(),
  leg: z.enum(HANDOVER_LEGS),
  outcome: z.enum(HANDOVER_OUTCOMES),
  /** 1, 2…: the attempts of this leg for the order. */
  attempt: z.number().int(),
  recipientName: z.string(),
  relation: z.enum(HANDOVER_RELATIONS).nullable(),
  reason: z.string(),
  serials: z.array(z.string()),
  acknowledgement: z.string(),
  driverName: z.string(),
  /** When the signer signed (or the attempt was made), on the phone; `recordedAt` when the server got it. */
  signedAt: z.string(),
  recordedAt: z.string(),
  hasSignature: z.boolean(),
  hasPhoto: z.boolean(),
});
export type Handover = z.infer<typeof Handover>;

/** An image as a base64 data URL (PNG or JPG; checked by content on the server). */
const dataUrl = z.string({ error: HANDOVER_MESSAGES.notImage }).startsWith('data:', { error: HANDOVER_MESSAGES.notImage });

/**
 * A hand-over at the door, sent by the driver's phone (online or later from its queue). `key` is
 * the idempotency key the phone made when the driver finished it: the same key again answers the
 * first result and changes nothing.
 */
export const HandoverRequest = z
  .object({
    key: z.string({ error: HANDOVER_MESSAGES.keyRequired }).uuid({ error: HANDOVER_MESSAGES.keyRequired }),
    leg: z.enum(HANDOVER_LEGS, { error: 'Choose delivery or pick-up.' }),
    outcome: z.enum(HANDOVER_OUTCOMES, { error: 'Choose what happened.' }),
    recipientName: optionalText(120),
    relation: z.enum(HANDOVER_RELATIONS, { error: HANDOVER_MESSAGES.relationRequired }).optional(),
    acknowledged: z.boolean().optional(),
    reason: optionalText(500),
    serials: z.array(z.string().trim().max(64)).max(500).default([]),
    signature: dataUrl.optional(),
    photo: dataUrl.optional(),
    /** When it happened on the phone (ISO); the server's time when absent. */
    signedAt: z.string().datetime({ offset: true, error: HANDOVER_MESSAGES.signedAtInvalid }).optional(),
  })
  .superRefine((v, ctx) => {
    const need = (path: string, message: string) => ctx.addIssue({ code: 'custom', path: [path], message });
    if (v.outcome === 'HANDED_OVER') {
      if (!v.recipientName) need('recipientName', HANDOVER_MESSAGES.recipientRequired);
      if (!v.relation) need('relation', HANDOVER_MESSAGES.relationRequired);
      if (!v.signature) need('signature', HANDOVER_MESSAGES.signatureRequired);
      if (v.acknowledged !== true) need('acknowledged', HANDOVER_MESSAGES.acknowledgeRequired);
    } else if (!v.reason) {
      need('reason', HANDOVER_MESSAGES.reasonRequired);
    }
  });
export type HandoverRequest = z.input<typeof HandoverRequest>;

export const HandoverFileParams = z.object({
  id: z.string().uuid({ error: 'Not found.' }),
  handoverId: z.string().uuid({ error: 'Not found.' }),
  file: z.enum(['signature', 'photo'], { error: 'Not found.' }),
});

export const TicketParams = z.object({
  id: z.string().uuid({ error: 'Not found.' }),
  leg: z.enum(['delivery', 'pickup'], { error: 'Not found.' }),
});
