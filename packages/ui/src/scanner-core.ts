/** SPEC §9: one second between two camera reads ("scan delay 1 s"). */
export const SCAN_DELAY_MS = 1000;

/** What the Scanner says when the camera cannot be used; the typed field still works then. */
export const SCANNER_MESSAGES = {
  noCamera: 'No camera was found on this device. Type the code, or use a handheld scanner, in the field below.',
  denied: 'Camera access was refused. Allow the camera for this site in the browser settings, or type the code in the field below.',
  busy: 'The camera is in use by another application. Close it and try again, or type the code in the field below.',
  insecure: 'The camera can only be used on a secure (https) address. Type the code in the field below.',
  failed: 'The camera could not be started. Try again, or type the code in the field below.',
  loadFailed: 'The camera scanner could not be loaded. Try again, or type the code in the field below.',
  starting: 'Starting the camera…',
  scanning: 'Point the camera at the QR code.',
} as const;

/**
 * Lets a camera read through at most once every `delayMs`: the camera sees the same label many
 * times a second, and each read that passes is checked (and may be refused as a repeat).
 */
export function createReadGate(delayMs: number = SCAN_DELAY_MS, now: () => number = Date.now): () => boolean {
  let last = Number.NEGATIVE_INFINITY;
  return () => {
    const t = now();
    if (t - last < delayMs) return false;
    last = t;
    return true;
  };
}

/**
 * A person's explanation of why the camera did not start. html5-qrcode rejects with strings such
 * as "Error getting userMedia, error = NotAllowedError: Permission denied"; getUserMedia itself
 * with DOMExceptions (name NotAllowedError, NotFoundError, NotReadableError...).
 */
export function cameraErrorMessage(error: unknown): string {
  const text =
    typeof error === 'string'
      ? error
      : error && typeof error === 'object'
        ? `${String((error as { name?: unknown }).name ?? '')} ${String((error as { message?: unknown }).message ?? '')}`
        : String(error);
  if (/NotAllowedError|PermissionDenied|Permission denied|permission|SecurityError/i.test(text)) return SCANNER_MESSAGES.denied;
  if (/NotReadableError|TrackStartError|Could not start video source/i.test(text)) return SCANNER_MESSAGES.busy;
  if (/NotFoundError|DevicesNotFound|OverconstrainedError|Requested device not found|not supported|mediaDevices/i.test(text)) return SCANNER_MESSAGES.noCamera;
  return SCANNER_MESSAGES.failed;
}

/** Whether this browser can open a camera at all (getUserMedia exists only on https or localhost). */
export function cameraSupport(): 'ok' | 'insecure' | 'none' {
  if (typeof navigator === 'undefined' || typeof window === 'undefined') return 'none';
  if (navigator.mediaDevices && typeof navigator.mediaDevices.getUserMedia === 'function') return 'ok';
  return window.isSecureContext === false ? 'insecure' : 'none';
}
