import { useRef, useState } from 'react';
import type { FormInstance } from 'antd';
import { errorMessage, fieldErrors, newIdempotencyKey } from '@dme/api-client';

/**
 * The submit of a dialog whose request must not be taken twice (the payment form, recording a
 * refund). Mount one per opened dialog: it keeps one Idempotency-Key for every attempt it makes
 * (a double click, or a retry after the answer was lost, cannot do it twice), renewed only after
 * a 400, when nothing was done and the corrected form is a new request. A second submit while one
 * is under way does nothing. A 400's field errors on `fields` go on the form; any other problem is
 * `problem`, for an alert in the dialog.
 *
 * `send` gets the validated values and the key; it sends the request (unwrapped, so that a
 * failure throws) and then says so and closes the dialog.
 */
export function useKeyedSubmit<V>(form: FormInstance<V>, fields: readonly string[], send: (values: V, idempotencyKey: string) => Promise<void>) {
  const key = useRef<string | null>(null);
  key.current ??= newIdempotencyKey();
  const busy = useRef(false);
  const [attempted, setAttempted] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);

  const submit = async () => {
    if (busy.current) return;
    busy.current = true;
    try {
      setAttempted(true);
      const v = await form.validateFields().catch(() => undefined);
      if (!v) return;
      setProblem(null);
      await send(v, key.current!);
    } catch (err) {
      const status = (err as { status?: unknown } | undefined)?.status;
      const found = status === 400 ? fieldErrors(err).filter((f) => fields.includes(f.name)) : [];
      if (status === 400) key.current = newIdempotencyKey();
      if (found.length) form.setFields(found as never);
      else setProblem(errorMessage(err));
    } finally {
      busy.current = false;
    }
  };

  return { submit, attempted, problem };
}
