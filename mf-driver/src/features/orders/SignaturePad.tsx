import { useEffect, useImperativeHandle, useRef, type Ref } from 'react';
import SignaturePadCore from 'signature_pad';

/** What the hand-over screen asks of the pad (kept tiny: the tests replace this component). */
export interface SignaturePadHandle {
  isEmpty(): boolean;
  /** The signature as a PNG data URL. */
  toDataURL(): string;
  clear(): void;
}

export interface SignaturePadProps {
  ref: Ref<SignaturePadHandle>;
  /** The id of the visible label ("Signature") and of the error under the pad. */
  labelledBy: string;
  describedBy?: string;
  invalid?: boolean;
  /** Called when the signer lifts the pen (a stroke was drawn). */
  onSign?: () => void;
}

/**
 * A signature drawn with a finger or stylus (signature_pad on a canvas). The canvas is sized to
 * its CSS width times devicePixelRatio, so strokes stay sharp on a phone; a width change (the
 * phone turned) redraws what was signed instead of losing it.
 */
export function SignaturePad({ ref, labelledBy, describedBy, invalid, onSign }: SignaturePadProps) {
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const padRef = useRef<SignaturePadCore>(null);
  const onSignRef = useRef(onSign);
  onSignRef.current = onSign;

  useEffect(() => {
    const canvas = canvasRef.current!;
    const pad = new SignaturePadCore(canvas, { penColor: '#111' });
    padRef.current = pad;
    let width = 0;
    const resize = () => {
      // Only a width change: the address bar showing or hiding on a phone changes the height of the window, not the canvas.
      if (canvas.offsetWidth === width) return;
      width = canvas.offsetWidth;
      const ratio = Math.max(window.devicePixelRatio || 1, 1);
      const data = pad.toData();
      canvas.width = canvas.offsetWidth * ratio;
      canvas.height = canvas.offsetHeight * ratio;
      canvas.getContext('2d')?.scale(ratio, ratio);
      pad.clear();
      if (data.length) pad.fromData(data);
    };
    resize();
    const signed = () => onSignRef.current?.();
    pad.addEventListener('endStroke', signed);
    window.addEventListener('resize', resize);
    return () => {
      window.removeEventListener('resize', resize);
      pad.removeEventListener('endStroke', signed);
      pad.off();
      padRef.current = null;
    };
  }, []);

  useImperativeHandle(
    ref,
    () => ({
      isEmpty: () => padRef.current?.isEmpty() ?? true,
      toDataURL: () => padRef.current?.toDataURL('image/png') ?? '',
      clear: () => padRef.current?.clear(),
    }),
    [],
  );

  return (
    <canvas
      ref={canvasRef}
      role="img"
      aria-labelledby={labelledBy}
      aria-describedby={describedBy}
      style={{ display: 'block', width: '100%', height: 200, touchAction: 'none', background: '#fff', border: `1px solid ${invalid ? '#cf1322' : '#8c8c8c'}`, borderRadius: 8 }}
    />
  );
}
