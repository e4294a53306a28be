import { openDB, type DBSchema, type IDBPDatabase } from 'idb';
import { SCAN_KEY_MESSAGES } from '@dme/contracts/browser';
import type { DriverScanPurpose, HandoverRequest } from '@dme/contracts';

/**
 * The driver's outbox (issue 28): what the driver did without signal — a scan, a hand-over with
 * its signature and photo — kept in IndexedDB, so a reload or a closed tab loses nothing, and sent
 * in the order it was done when the phone is back online. Each item carries its idempotency key
 * (the scan's Idempotency-Key, the hand-over's `key`): sent twice after a lost answer, the server
 * answers the first result and applies it once. What the server refuses stays, with its reason,
 * until the driver has read it.
 */

/** A scan as the mutation takes it, with the key it is sent with. */
export interface ScanArgs {
  purpose: DriverScanPurpose;
  code: string;
  key: string;
}

/** A hand-over as the mutation takes it (its key is in the body). */
export interface HandoverArgs {
  id: string;
  body: HandoverRequest;
}

export type OutboxItem = {
  /** The order it was done in (IndexedDB's key). */
  seq: number;
  /** The driver who did it: only they send it (another driver on the phone sees nothing of it). */
  user: string;
  /** What the driver reads: "Hand-over of ORD-… (delivery)". */
  label: string;
  /** The order it is about, when known. */
  orderId: string | null;
  createdAt: string;
  state: 'WAITING' | 'REFUSED';
  /** Why the server refused it (REFUSED). */
  problem: string | null;
} & ({ kind: 'scan'; args: ScanArgs } | { kind: 'handover'; args: HandoverArgs });

/** An item before it is stored (seq, state and problem are the outbox's). */
export type NewOutboxItem = Omit<OutboxItem, 'seq' | 'state' | 'problem' | 'createdAt'> & { createdAt?: string };

interface OutboxDb extends DBSchema {
  items: { key: number; value: OutboxItem; indexes: { user: string } };
}

const DB_NAME = 'dme-driver-outbox';
let db: Promise<IDBPDatabase<OutboxDb>> | undefined;

function open(): Promise<IDBPDatabase<OutboxDb>> {
  db ??= openDB<OutboxDb>(DB_NAME, 1, {
    upgrade(d) {
      const store = d.createObjectStore('items', { keyPath: 'seq', autoIncrement: true });
      store.createIndex('user', 'user');
    },
  });
  return db;
}

/** Tells every screen of this tab (and other tabs) that the outbox changed. */
const changes = new EventTarget();
const channel = typeof BroadcastChannel === 'function' ? new BroadcastChannel(DB_NAME) : undefined;
channel?.addEventListener('message', () => changes.dispatchEvent(new Event('change')));
function changed(): void {
  changes.dispatchEvent(new Event('change'));
  channel?.postMessage('change');
}

export function onOutboxChange(listener: () => void): () => void {
  changes.addEventListener('change', listener);
  return () => changes.removeEventListener('change', listener);
}

/** Keeps an action to send later; answers it as stored. */
export async function enqueue(item: NewOutboxItem): Promise<OutboxItem> {
  const d = await open();
  const value = { ...item, createdAt: item.createdAt ?? new Date().toISOString(), state: 'WAITING', problem: null } as Omit<OutboxItem, 'seq'>;
  const seq = await d.add('items', value as OutboxItem);
  changed();
  return { ...value, seq } as OutboxItem;
}

/** The driver's items, oldest first. */
export async function outboxOf(user: string): Promise<OutboxItem[]> {
  const d = await open();
  return (await d.getAllFromIndex('items', 'user', user)).sort((a, b) => a.seq - b.seq);
}

export async function removeItem(seq: number): Promise<void> {
  await (await open()).delete('items', seq);
  changed();
}

export async function refuseItem(seq: number, problem: string): Promise<void> {
  const d = await open();
  const item = await d.get('items', seq);
  if (!item) return;
  await d.put('items', { ...item, state: 'REFUSED', problem });
  changed();
}

/** What an answer means for a queued item: sent, refused for good (with why), or to try again later. */
export type Verdict = { kind: 'sent' } | { kind: 'refused'; problem: string } | { kind: 'retry' };

/**
 * The verdict on a send's error (RTK Query's): no answer (offline, a dropped connection), a server
 * error, too many requests, a session that ended (the shell asks to sign in again; the item waits
 * for its driver) or a scan still being handled by the server are tried again; any other refusal
 * (400, 403, 404, 409, 413, 422…) is final and shown to the driver.
 */
export function verdictOf(error: unknown, message: string): Verdict {
  const status = (error as { status?: unknown } | undefined)?.status;
  if (typeof status !== 'number') return { kind: 'retry' };
  if (status >= 500 || status === 401 || status === 408 || status === 429) return { kind: 'retry' };
  const detail = (error as { data?: { detail?: unknown } }).data?.detail;
  if (status === 409 && detail === SCAN_KEY_MESSAGES.inProgress) return { kind: 'retry' };
  return { kind: 'refused', problem: message };
}

/** Whether the browser says it is offline (a send is then not even tried). */
export const offline = () => typeof navigator !== 'undefined' && navigator.onLine === false;

/**
 * Runs `work` as the only sender of the outbox across this browser's tabs (Web Locks, where the
 * browser has them): two tabs never send the same item at once.
 */
export function asOnlySender(work: () => Promise<void>): Promise<void> {
  const locks = typeof navigator !== 'undefined' ? (navigator as { locks?: { request: (name: string, cb: () => Promise<void>) => Promise<void> } }).locks : undefined;
  return locks ? locks.request(DB_NAME, work) : work();
}
