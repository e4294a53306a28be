import { useCallback, useMemo, useRef, useState } from 'react';
import { PACKING_MESSAGES } from '@dme/contracts/browser';
import type { OrderLine } from '@dme/contracts';
import { errorMessage } from '@dme/api-client';
import { lineName } from './format';
import { binsOf, isAlreadyScanned, lineHasRoom, scansOf, serialFromScan, type ScanCheck, type Scans } from './packing';
import { usePackingProgressQuery, useScanPackingSerialMutation, useUnscanPackingSerialMutation } from './packingApi';

export interface Packing {
  /** Serial codes scanned so far, per line id, as the server keeps them (a reload or another packer sees the same). */
  scans: Scans;
  /** The bin each scanned code lies in, by code (null when unknown). */
  bins: Readonly<Record<string, string | null>>;
  /** Every line has its quantity of codes (the server says): 'To Ship Order' can be sent. */
  complete: boolean;
  /** The saved progress is being loaded (first time). */
  loading: boolean;
  /** Loading the saved progress failed: its message, and a retry. */
  loadError: string | undefined;
  reload: () => void;
  /** Checks what a scanner read for a line and saves it on the server; resolves with the answer to show. */
  scan: (line: OrderLine, text: string) => Promise<ScanCheck>;
  /** Takes a saved code off a line; resolves with the server's refusal, if any. */
  remove: (lineID: string, serialCode: string) => Promise<ScanCheck | undefined>;
  /** A scan or removal is on its way to the server. */
  checking: boolean;
}

/**
 * The scans of an order being packed, kept on the server per line (issue 22): loaded when the
 * page opens, each scan saved at once (the server checks it: the line's product, AVAILABLE, not
 * scanned already), so nothing is lost on a reload and another packer can continue. Reads are
 * sent one after another (a keyboard-wedge scanner can send codes faster than the server answers),
 * so a code sent twice in a row is answered as a repeat and a line never takes more than its
 * quantity. `enabled` false (the order is not being packed) asks nothing.
 */
export function usePacking(orderId: string, enabled: boolean): Packing {
  const progress = usePackingProgressQuery(orderId, { skip: !enabled, refetchOnMountOrArgChange: true });
  const [save] = useScanPackingSerialMutation();
  const [unsave] = useUnscanPackingSerialMutation();
  const queue = useRef<Promise<unknown>>(Promise.resolve());
  const [pending, setPending] = useState(0);
  const data = progress.data?.packing;
  const scans = useMemo(() => scansOf(data), [data]);
  const bins = useMemo(() => binsOf(data), [data]);
  // The latest progress, read by queued scans when their turn comes (not the one they were made with).
  const latest = useRef<Scans>(scans);
  latest.current = scans;

  const check = useCallback(
    async (line: OrderLine, text: string): Promise<ScanCheck> => {
      const read = serialFromScan(text);
      if (!read.ok) return read;
      const code = read.serialCode;
      if (isAlreadyScanned(code, latest.current)) return { ok: false, message: PACKING_MESSAGES.alreadyScanned };
      if (!lineHasRoom(line, latest.current)) return { ok: false, message: PACKING_MESSAGES.tooMany(lineName(line)) };
      try {
        const answer = await save({ id: orderId, lineID: line.id, serialCode: code }).unwrap();
        latest.current = scansOf(answer.packing);
        return { ok: true, serialCode: code };
      } catch (err) {
        return { ok: false, message: errorMessage(err) };
      }
    },
    [orderId, save],
  );

  const queued = useCallback(<T,>(work: () => Promise<T>): Promise<T> => {
    setPending((n) => n + 1);
    const run = queue.current.then(work).finally(() => setPending((n) => n - 1));
    queue.current = run.catch(() => undefined);
    return run;
  }, []);

  const scan = useCallback((line: OrderLine, text: string) => queued(() => check(line, text)), [queued, check]);

  const remove = useCallback(
    (lineID: string, serialCode: string) =>
      queued(async (): Promise<ScanCheck | undefined> => {
        try {
          const answer = await unsave({ id: orderId, lineID, serialCode }).unwrap();
          latest.current = scansOf(answer.packing);
          return undefined;
        } catch (err) {
          return { ok: false, message: errorMessage(err) };
        }
      }),
    [queued, unsave, orderId],
  );

  const { refetch } = progress;
  const reload = useCallback(() => void refetch(), [refetch]);
  const loadError = progress.isError ? errorMessage(progress.error) : undefined;

  return useMemo(
    () => ({ scans, bins, complete: data?.complete ?? false, loading: progress.isLoading, loadError, reload, scan, remove, checking: pending > 0 }),
    [scans, bins, data, progress.isLoading, loadError, reload, scan, remove, pending],
  );
}
