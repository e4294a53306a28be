import { useRef, useState } from 'react';
import type { DriverScanPurpose, HandoverLeg, OrderSummary } from '@dme/contracts';
import { errorMessage } from '@dme/api-client';
import { useFeedback } from '@dme/ui';
import { useDriverScanMutation } from './api';
import { REPEAT_SCAN_MS } from './purpose';

export type ScanAnswer = { ok: true; text: string; order: OrderSummary } | { ok: false; text: string };

/**
 * Sends each read of the scanner to POST /api/driver/scan and keeps the server's answer: its
 * message on success (also as a toast), its problem detail on refusal. A code is not sent again
 * while it is being sent; after a refusal not for REPEAT_SCAN_MS; after a success not at all while
 * this scanner is open (see REPEAT_SCAN_MS). An answer with `handover` (the order is at the
 * customer's door, issue 28) did not move the order: `onHandover` opens the hand-over screen.
 */
export function useOrderScan(purpose: DriverScanPurpose, onHandover?: (leg: HandoverLeg, order: OrderSummary) => void) {
  const { notify } = useFeedback();
  const [scan] = useDriverScanMutation();
  const [answer, setAnswer] = useState<ScanAnswer>();
  const [pending, setPending] = useState(0);
  /** Code → when its answer came (Infinity while it is being sent). */
  const recent = useRef(new Map<string, number>());

  const read = async (raw: string) => {
    const code = raw.trim();
    if (!code) return;
    const sent = recent.current.get(code);
    if (sent !== undefined && Date.now() - sent < REPEAT_SCAN_MS) return;
    recent.current.set(code, Number.POSITIVE_INFINITY);
    setPending((n) => n + 1);
    try {
      const r = await scan({ purpose, code }).unwrap();
      setAnswer({ ok: true, text: r.message, order: r.order });
      if (r.handover) {
        notify.info(r.message);
        onHandover?.(r.handover, r.order);
        return;
      }
      notify.success(r.message);
      // Stays Infinity: never sent again while this scanner is open.
    } catch (err) {
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
