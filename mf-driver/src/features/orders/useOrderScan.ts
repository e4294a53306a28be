import { useRef, useState } from 'react';
import type { DriverScanPurpose, HandoverLeg, OrderSummary } from '@dme/contracts';
import { doorLegOf } from '@dme/contracts/browser';
import { errorMessage, newIdempotencyKey } from '@dme/api-client';
import { useCurrentUser, useFeedback } from '@dme/ui';
import { useDriverScanMutation } from './api';
import { offline, outboxOf } from './outbox';
import { keep, OUTBOX_TEXTS, useKnownOrder } from './Outbox';
import { REPEAT_SCAN_MS } from './purpose';

/** A scan's answer: the server's (with the order), its refusal, or kept on the phone to send later (no order yet). */
export type ScanAnswer = { ok: true; text: string; order?: Pick<OrderSummary, 'id'> } | { ok: false; text: string };

/**
 * Sends each read of the scanner to POST /api/driver/scan and keeps the server's answer: its
 * message on success (also as a toast), its problem detail on refusal. A code is not sent again
 * while it is being sent; after a refusal not for REPEAT_SCAN_MS; after a success not at all while
 * this scanner is open (see REPEAT_SCAN_MS). An answer with `handover` (the order is at the
 * customer's door, issue 28) did not move the order: `onHandover` opens the hand-over screen.
 */
export function useOrderScan(purpose: DriverScanPurpose, onHandover?: (leg: HandoverLeg, order: Pick<OrderSummary, 'id'>) => void) {
  const { notify } = useFeedback();
  const user = useCurrentUser();
  const known = useKnownOrder();
  const [scan] = useDriverScanMutation();
  const [answer, setAnswer] = useState<ScanAnswer>();
  const [pending, setPending] = useState(0);
  /** Code → when its answer came (Infinity while it is being sent). */
  const recent = useRef(new Map<string, number>());

  /**
   * Without signal (issue 28): an order the phone knows at the door opens its hand-over, as the
   * server would answer; anything else (an order to take out, an unknown one) is kept with its key
   * and sent in turn when the phone is back online.
   */
  const later = async (code: string, key: string) => {
    const order = known(code);
    const leg = order && doorLegOf(order.status);
    if (order && leg) {
      setAnswer({ ok: true, text: order.orderNumber, order });
      onHandover?.(leg, order);
      return;
    }
    const label = `Scan of ${order?.orderNumber ?? code}`;
    await keep({ user: user.id, kind: 'scan', label, orderId: order?.id ?? null, args: { purpose, code, key } });
    const text = OUTBOX_TEXTS.queued(label);
    setAnswer({ ok: true, text });
    notify.info(text);
  };

  const read = async (raw: string) => {
    const code = raw.trim();
    if (!code) return;
    const sent = recent.current.get(code);
    if (sent !== undefined && Date.now() - sent < REPEAT_SCAN_MS) return;
    recent.current.set(code, Number.POSITIVE_INFINITY);
    setPending((n) => n + 1);
    const key = newIdempotencyKey();
    try {
      // Offline, or with actions still waiting to be sent (this one goes after them).
      const waiting = offline() || (await outboxOf(user.id).catch(() => [])).some((i) => i.state === 'WAITING');
      if (waiting) {
        await later(code, key);
        return;
      }
      const r = await scan({ purpose, code, key }).unwrap();
      setAnswer({ ok: true, text: r.message, order: r.order });
      if (r.handover) {
        notify.info(r.message);
        onHandover?.(r.handover, r.order);
        return;
      }
      notify.success(r.message);
      // Stays Infinity: never sent again while this scanner is open.
    } catch (err) {
      // No answer at all (the signal dropped on the way): kept, with this key, like offline.
      if (typeof (err as { status?: unknown }).status !== 'number') {
        await later(code, key).catch(() => undefined);
        return;
      }
      const text = errorMessage(err);
      setAnswer({ ok: false, text });
      notify.toastError(text);
      recent.current.set(code, Date.now());
    } finally {
      setPending((n) => n - 1);
    }
  };

  return { read, answer, checking: pending > 0 };
}
