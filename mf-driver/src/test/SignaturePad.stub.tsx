import { useImperativeHandle } from 'react';
import type { SignaturePadProps } from '../features/orders/SignaturePad';

/**
 * The signature pad in unit tests (happy-dom draws nothing on a canvas), through
 * `vi.mock('./SignaturePad', () => import('../../test/SignaturePad.stub'))`: a test "signs" with
 * `PAD.signed = true`; Clear unsigns; toDataURL answers PAD.dataUrl.
 */
export const PAD = { signed: false, dataUrl: 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==' };

export function SignaturePad({ ref, labelledBy, describedBy }: SignaturePadProps) {
  useImperativeHandle(
    ref,
    () => ({
      isEmpty: () => !PAD.signed,
      toDataURL: () => PAD.dataUrl,
      clear: () => {
        PAD.signed = false;
      },
    }),
    [],
  );
  return <div role="img" aria-labelledby={labelledBy} aria-describedby={describedBy} />;
}
