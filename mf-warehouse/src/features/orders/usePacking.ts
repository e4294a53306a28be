import { useCallback, useMemo, useRef, useState } from 'react';
import { PACKING_MESSAGES } from '@dme/contracts/browser';
import type { OrderLine } from '@dme/contracts';
import { errorMessage } from '@dme/api-client';
import { useLazyStockBySerialQuery } from '../../api';
import { lineName } from './format';
import { checkItem, isAlreadyScanned, lineHasRoom, serialFromScan, type ScanCheck, type Scans } from './packing';

export interface Packing {
  /** Serial codes scanned so far, per line id (kept while the order's page is open). */
  scans: Scans;
  /** Checks what a scanner read for a line and adds it when it fits; resolves with the answer to show. */
  scan: (line: OrderLine, text: string) => Promise<ScanCheck>;
  remove: (lineID: string, serialCode: string) => void;
  clear: () => void;
  /** A scan is being checked against the stock. */
  checking: boolean;
}

function isNotFound(error: unknown): boolean {
  return !!error && typeof error === 'object' && (error as { status?: unknown }).status === 404;
}

/**
 * The scans of an order being packed. Reads are checked one after another (a keyboard-wedge
 * scanner can send codes faster than the stock answers), so a code sent twice in a row is refused
 * as a repeat and a line never takes more than its quantity.
 */
export function usePacking(): Packing {
  const [scans, setScans] = useState<Scans>({});
  const current = useRef<Scans>({});
  const queue = useRef<Promise<unknown>>(Promise.resolve());
  const [pending, setPending] = useState(0);
  const [lookup] = useLazyStockBySerialQuery();

  const commit = useCallback((next: Scans) => {
    current.current = next;
    setScans(next);
  }, []);

  const check = useCallback(
    async (line: OrderLine, text: string): Promise<ScanCheck> => {
      const read = serialFromScan(text);
      if (!read.ok) return read;
      const code = read.serialCode;
      if (isAlreadyScanned(code, current.current)) return { ok: false, message: PACKING_MESSAGES.alreadyScanned };
      if (!lineHasRoom(line, current.current)) return { ok: false, message: PACKING_MESSAGES.tooMany(lineName(line)) };
      let found;
      try {
        found = await lookup(code).unwrap();
      } catch (err) {
        return { ok: false, message: isNotFound(err) ? PACKING_MESSAGES.unknownCode(code) : errorMessage(err) };
      }
      const verdict = checkItem(found.item, line);
      if (!verdict.ok) return verdict;
      // A code removed or added while the stock answered: check again against the latest scans.
      if (isAlreadyScanned(verdict.serialCode, current.current)) return { ok: false, message: PACKING_MESSAGES.alreadyScanned };
      if (!lineHasRoom(line, current.current)) return { ok: false, message: PACKING_MESSAGES.tooMany(lineName(line)) };
      commit({ ...current.current, [line.id]: [...(current.current[line.id] ?? []), verdict.serialCode] });
      return verdict;
    },
    [commit, lookup],
  );

  const scan = useCallback(
    (line: OrderLine, text: string) => {
      setPending((n) => n + 1);
      const run = queue.current.then(() => check(line, text)).finally(() => setPending((n) => n - 1));
      queue.current = run.catch(() => undefined);
      return run;
    },
    [check],
  );

  const remove = useCallback(
    (lineID: string, serialCode: string) => commit({ ...current.current, [lineID]: (current.current[lineID] ?? []).filter((c) => c !== serialCode) }),
    [commit],
  );
  const clear = useCallback(() => commit({}), [commit]);

  return useMemo(() => ({ scans, scan, remove, clear, checking: pending > 0 }), [scans, scan, remove, clear, pending]);
}
