import { useCallback, useEffect, useRef, useState, useSyncExternalStore } from 'react';
import { useStore } from 'react-redux';
import { Alert, Button } from 'antd';
import { parseOrderCode } from '@dme/contracts/browser';
import type { DriverStop, OrderSummary } from '@dme/contracts';
import { errorMessage } from '@dme/api-client';
import { useCurrentUser, useFeedback } from '@dme/ui';
import { driverApi, useDriverHandoverMutation, useDriverScanMutation } from './api';
import { asOnlySender, enqueue, offline, onOutboxChange, outboxOf, refuseItem, removeItem, verdictOf, type NewOutboxItem, type OutboxItem, type Verdict } from './outbox';

/** Texts of the outbox (ours: the spec is silent). */
export const OUTBOX_TEXTS = {
  offline: 'Offline: what you do is kept on this phone and sent when it is back online.',
  queued: (label: string) => `${label} is kept on this phone: it will be sent when the phone is back online.`,
  waiting: (n: number) => (n === 1 ? '1 action waiting to send' : `${n} actions waiting to send`),
  refused: (label: string) => `${label} was refused`,
  handoverWaiting: 'A hand-over of this order is waiting to be sent from this phone.',
  sendNow: 'Send now',
  dismiss: 'Dismiss',
} as const;

/** How often waiting items are tried again while online (each item keeps its key, so a retry is harmless). */
const RETRY_MS = 15_000;

/** Asks the outbox runner to send now (after something was queued, or the driver's "Send now"). */
const flushRequests = new EventTarget();
export const requestFlush = () => flushRequests.dispatchEvent(new Event('flush'));

/** Whether the browser is online, kept current. */
export function useOnline(): boolean {
  return useSyncExternalStore(
    (cb) => {
      window.addEventListener('online', cb);
      window.addEventListener('offline', cb);
      return () => {
        window.removeEventListener('online', cb);
        window.removeEventListener('offline', cb);
      };
    },
    () => !offline(),
    () => true,
  );
}

/** The signed-in driver's outbox, kept current (this tab's and other tabs' changes). */
export function useOutbox(): OutboxItem[] {
  const user = useCurrentUser();
  const [items, setItems] = useState<OutboxItem[]>([]);
  useEffect(() => {
    let live = true;
    const load = () => {
      outboxOf(user.id)
        .then((x) => live && setItems(x))
        .catch(() => undefined);
    };
    load();
    const off = onOutboxChange(load);
    return () => {
      live = false;
      off();
    };
  }, [user.id]);
  return items;
}

/** Keeps an action for later and asks the runner to send it (it goes after what is already waiting). */
export async function keep(item: NewOutboxItem): Promise<void> {
  await enqueue(item);
  requestFlush();
}

/**
 * Sends the driver's outbox in order while online: on start, when the phone comes back online, when
 * something is queued, and every RETRY_MS while something waits. An item that gets no definite
 * answer stops the round (the ones after it wait behind it); a refused one is kept with its reason.
 */
export function OutboxRunner() {
  const user = useCurrentUser();
  const [scan] = useDriverScanMutation();
  const [handOver] = useDriverHandoverMutation();
  const { notify } = useFeedback();
  const running = useRef(false);

  const send = useCallback(
    async (item: OutboxItem): Promise<Verdict & { message?: string }> => {
      try {
        const r = item.kind === 'scan' ? await scan(item.args).unwrap() : await handOver(item.args).unwrap();
        return { kind: 'sent', message: r.message };
      } catch (err) {
        return verdictOf(err, errorMessage(err));
      }
    },
    [scan, handOver],
  );

  const flush = useCallback(async () => {
    if (running.current || offline()) return;
    running.current = true;
    try {
      await asOnlySender(async () => {
        for (const item of await outboxOf(user.id)) {
          if (item.state !== 'WAITING') continue;
          const verdict = await send(item);
          if (verdict.kind === 'retry') return;
          if (verdict.kind === 'sent') {
            await removeItem(item.seq);
            if (verdict.message) notify.success(verdict.message);
          } else {
            await refuseItem(item.seq, verdict.problem);
            notify.toastError(`${OUTBOX_TEXTS.refused(item.label)}: ${verdict.problem}`);
          }
        }
      });
    } catch {
      // IndexedDB unavailable or closed: the next round tries again.
    } finally {
      running.current = false;
    }
  }, [user.id, send, notify]);

  useEffect(() => {
    const go = () => void flush();
    go();
    window.addEventListener('online', go);
    flushRequests.addEventListener('flush', go);
    const timer = window.setInterval(go, RETRY_MS);
    return () => {
      window.removeEventListener('online', go);
      flushRequests.removeEventListener('flush', go);
      window.clearInterval(timer);
    };
  }, [flush]);
  return null;
}

/**
 * What is waiting on this phone, shown on every driver screen: offline, the actions waiting to be
 * sent (with "Send now" when online), and each refused action with the server's reason until the
 * driver dismisses it.
 */
export function OutboxPanel() {
  const items = useOutbox();
  const online = useOnline();
  const waiting = items.filter((i) => i.state === 'WAITING');
  const refused = items.filter((i) => i.state === 'REFUSED');
  if (online && waiting.length === 0 && refused.length === 0) return null;
  return (
    <section aria-label="Waiting to send" style={{ display: 'grid', gap: 8, marginBottom: 16 }}>
      {!online && <Alert type="warning" showIcon title={OUTBOX_TEXTS.offline} />}
      {waiting.length > 0 && (
        <Alert
          type="info"
          showIcon
          title={OUTBOX_TEXTS.waiting(waiting.length)}
          description={
            <ul style={{ margin: 0, paddingLeft: 18 }}>
              {waiting.map((i) => (
                <li key={i.seq}>{i.label}</li>
              ))}
            </ul>
          }
          action={
            online ? (
              <Button style={{ minHeight: 44 }} onClick={requestFlush}>
                {OUTBOX_TEXTS.sendNow}
              </Button>
            ) : undefined
          }
        />
      )}
      {refused.map((i) => (
        <Alert
          key={i.seq}
          type="error"
          showIcon
          role="alert"
          title={OUTBOX_TEXTS.refused(i.label)}
          description={i.problem}
          action={
            <Button style={{ minHeight: 44 }} onClick={() => void removeItem(i.seq)} aria-label={`${OUTBOX_TEXTS.dismiss}: ${i.label}`}>
              {OUTBOX_TEXTS.dismiss}
            </Button>
          }
        />
      ))}
    </section>
  );
}

/** An order the phone already knows (the day's stops, the delivery and pick-up lists), by a scanned code. */
export function useKnownOrder(): (code: string) => Pick<OrderSummary, 'id' | 'orderNumber' | 'status'> | undefined {
  const store = useStore();
  return (code: string) => {
    const { orderId, orderNumber } = parseOrderCode(code);
    const state = store.getState() as Parameters<ReturnType<typeof driverApi.endpoints.driverDay.select>>[0];
    const stops: Array<Pick<DriverStop, 'id' | 'orderNumber' | 'status'>> = driverApi.endpoints.driverDay.select()(state).data?.stops ?? [];
    const listed = (['DELIVERY', 'PICKUP'] as const).flatMap((p) => driverApi.endpoints.driverOrders.select(p)(state).data?.pages.flatMap((page) => page.items) ?? []);
    return [...stops, ...listed].find((o) => (orderId && o.id === orderId) || (orderNumber && o.orderNumber === orderNumber));
  };
}
