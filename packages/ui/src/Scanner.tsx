import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { Alert, Button, Input } from 'antd';
import type { Html5Qrcode } from 'html5-qrcode';
import { cameraErrorMessage, cameraSupport, createReadGate, SCAN_DELAY_MS, SCANNER_MESSAGES } from './scanner-core';

export interface ScannerProps {
  /**
   * Called with the text of each code: read by the camera (at most once every `delayMs`) or typed
   * (or sent by a keyboard-wedge scanner) and confirmed with Enter.
   */
  onRead: (text: string) => void;
  /** Label of the text field. */
  inputLabel?: string;
  placeholder?: string;
  /** Time between two camera reads; SPEC §9: 1 s. */
  delayMs?: number;
  /** Use the camera (default); false leaves only the text field. */
  camera?: boolean;
}

type CameraState = { kind: 'starting' } | { kind: 'scanning' } | { kind: 'error'; message: string };

/**
 * A QR scanner: the device's camera (the rear one preferred) through html5-qrcode, fetched only
 * when a Scanner is shown so it is never part of a page's first load, and a text field for a
 * handheld (keyboard-wedge) scanner or a typed code, so it also works without a camera. When the
 * camera cannot be used the Scanner says why and the text field keeps working.
 */
export function Scanner({ onRead, inputLabel = 'Code', placeholder = 'Scan or type the code, then press Enter', delayMs = SCAN_DELAY_MS, camera = true }: ScannerProps) {
  const inputId = `dme-scan-input-${useId().replace(/[^A-Za-z0-9_-]/g, '')}`;
  const [value, setValue] = useState('');
  const readRef = useRef(onRead);
  useEffect(() => {
    readRef.current = onRead;
  });

  const submit = (e?: FormEvent) => {
    e?.preventDefault();
    const text = value.trim();
    if (!text) return;
    setValue('');
    readRef.current(text);
  };

  return (
    <div style={{ display: 'grid', gap: 12 }}>
      {camera && <CameraView onRead={(text) => readRef.current(text)} delayMs={delayMs} />}
      <form onSubmit={submit} style={{ display: 'grid', gap: 4 }}>
        <label htmlFor={inputId}>{inputLabel}</label>
        <div style={{ display: 'flex', gap: 8 }}>
          <Input id={inputId} value={value} onChange={(e) => setValue(e.target.value)} placeholder={placeholder} autoComplete="off" autoFocus maxLength={500} />
          <Button htmlType="submit" disabled={!value.trim()}>
            Add
          </Button>
        </div>
      </form>
    </div>
  );
}

/** Square scan box inside the viewfinder (html5-qrcode wants at least 50 px). */
function qrbox(width: number, height: number) {
  const side = Math.max(50, Math.floor(Math.min(width, height) * 0.7));
  return { width: side, height: side };
}

function CameraView({ onRead, delayMs }: { onRead: (text: string) => void; delayMs: number }) {
  const elementId = `dme-scanner-${useId().replace(/[^A-Za-z0-9_-]/g, '')}`;
  const [state, setState] = useState<CameraState>({ kind: 'starting' });
  const [attempt, setAttempt] = useState(0);
  const readRef = useRef(onRead);
  useEffect(() => {
    readRef.current = onRead;
  });

  useEffect(() => {
    let cancelled = false;
    let started = false;
    let scanner: Html5Qrcode | undefined;
    const gate = createReadGate(delayMs);
    const stop = async () => {
      try {
        await scanner?.stop();
        scanner?.clear();
      } catch {
        // Already stopped: nothing to release.
      }
    };

    void (async () => {
      setState({ kind: 'starting' });
      const support = cameraSupport();
      if (support !== 'ok') {
        setState({ kind: 'error', message: support === 'insecure' ? SCANNER_MESSAGES.insecure : SCANNER_MESSAGES.noCamera });
        return;
      }
      let lib: typeof import('html5-qrcode');
      try {
        lib = await import('html5-qrcode');
      } catch (err) {
        console.error('The QR scanner could not be loaded', err);
        if (!cancelled) setState({ kind: 'error', message: SCANNER_MESSAGES.loadFailed });
        return;
      }
      if (cancelled) return;
      try {
        scanner = new lib.Html5Qrcode(elementId, { verbose: false, formatsToSupport: [lib.Html5QrcodeSupportedFormats.QR_CODE] });
        await scanner.start(
          { facingMode: 'environment' },
          { fps: 10, qrbox },
          (text) => {
            if (gate()) readRef.current(text);
          },
          () => {
            // A frame without a readable code: normal while the camera looks for one.
          },
        );
        started = true;
        if (cancelled) {
          await stop();
          return;
        }
        setState({ kind: 'scanning' });
      } catch (err) {
        if (!cancelled) setState({ kind: 'error', message: cameraErrorMessage(err) });
      }
    })();

    return () => {
      cancelled = true;
      if (started) void stop();
    };
  }, [elementId, delayMs, attempt]);

  return (
    <div style={{ display: 'grid', gap: 8 }}>
      <div id={elementId} data-testid="scanner-camera" style={{ width: '100%', maxWidth: 360 }} />
      {state.kind === 'error' ? (
        <Alert
          type="warning"
          showIcon
          title={state.message}
          action={
            <Button size="small" onClick={() => setAttempt((n) => n + 1)}>
              Try camera again
            </Button>
          }
        />
      ) : (
        <div role="status" style={{ color: 'rgba(0,0,0,0.65)' }}>
          {state.kind === 'starting' ? SCANNER_MESSAGES.starting : SCANNER_MESSAGES.scanning}
        </div>
      )}
    </div>
  );
}
