import { useMemo, useRef, useState, type ChangeEvent, type CSSProperties, type ReactNode } from 'react';
import { Link, useNavigate, useParams } from 'react-router-dom';
import { Alert, Button } from 'antd';
import { HANDOVER_ACKNOWLEDGEMENT, HANDOVER_FROM, HANDOVER_LIMITS, HANDOVER_MESSAGES, HANDOVER_OUTCOME_LABELS, HANDOVER_RELATION_LABELS, HANDOVER_RELATIONS } from '@dme/contracts/browser';
import type { HandoverLeg, HandoverRelation, HandoverRequest, Order } from '@dme/contracts';
import { errorMessage, fieldErrors, loaded, newIdempotencyKey } from '@dme/api-client';
import { LazyErrorState, LazyInfoResult, Loading, PageHeader, RefreshFailed, useCurrentUser, useFeedback } from '@dme/ui';
import { useDriverHandoverMutation, useDriverOrderQuery } from './api';
import { dataUrlBytes, downscalePhoto, PhotoError, PHOTO_MESSAGES } from './photo';
import { offline } from './outbox';
import { keep, OUTBOX_TEXTS, useOutbox } from './Outbox';
import { LEG_LABELS, PURPOSE } from './purpose';
import { SignaturePad, type SignaturePadHandle } from './SignaturePad';

/** The form's fields, named as the request's (so the server's field errors land under them). */
const FIELDS = ['serials', 'recipientName', 'relation', 'acknowledged', 'signature', 'photo', 'outcome', 'reason'] as const;
type Field = (typeof FIELDS)[number];
type Errors = Partial<Record<Field, string>>;
type FailedOutcome = 'REFUSED' | 'NOBODY_HOME';
const FAILED_OUTCOMES: FailedOutcome[] = ['REFUSED', 'NOBODY_HOME'];

/** Texts of the screen (ours: the spec is silent). */
export const HANDOVER_TEXTS = {
  chooseOutcome: 'Choose what happened.',
  serialsHint: { DELIVERY: 'Check each unit as you hand it over', PICKUP: 'Check each unit as you take it back' },
  noSerials: 'No serial codes are packed on this order.',
} as const;

/** The DOM id of a field's input (the first one of a group), its error and its hint. */
const idOf = (f: Field) => `handover-${f}`;
const errorId = (f: Field) => `handover-${f}-error`;

/**
 * The hand-over at the door (issue 28), phone first: the serials handed over, who signs and their
 * relation to the patient, the sentence they confirm, their signature and an optional photo; or
 * a failed attempt (refused, nobody home) with a reason. One idempotency key per visit: a retry
 * after a lost answer sends the same key, and the server answers the first result.
 */
export default function HandoverPage({ leg }: { leg: HandoverLeg }) {
  const { id = '' } = useParams();
  // Another order is another visit (a new key, an empty form).
  return <HandoverScreen key={id} id={id} leg={leg} />;
}

function HandoverScreen({ id, leg }: { id: string; leg: HandoverLeg }) {
  const texts = PURPOSE[leg];
  const q = useDriverOrderQuery(id);
  // Made once per visit of this screen (not per press): see the doc comment.
  const [key] = useState(newIdempotencyKey);
  const backToList = <Link to={texts.base}>Back to {texts.title}</Link>;
  // A hand-over of this order kept on the phone and not sent yet: not a second one (issue 28).
  const queued = useOutbox().some((i) => i.kind === 'handover' && i.state === 'WAITING' && i.args.id === id && i.args.body.leg === leg);

  if (q.isLoading) return <Loading />;
  if (q.error && (q.error as { status?: unknown }).status === 404) {
    return (
      <section>
        <LazyInfoResult title="Order not found" subTitle="There is no such order, or it is not one you deliver or pick up." />
        <p style={{ textAlign: 'center' }}>{backToList}</p>
      </section>
    );
  }
  if (!loaded(q)) return <LazyErrorState title="This order could not be loaded" message={errorMessage(q.error)} onRetry={() => void q.refetch()} />;
  const o = q.data.order;

  return (
    <article style={{ maxWidth: 560, margin: '0 auto', overflowWrap: 'anywhere' }}>
      <RefreshFailed error={q.error} onRetry={() => void q.refetch()} />
      <PageHeader title={`Hand-over ${o.orderNumber}`} extra={
          <Link to={`${texts.base}/${encodeURIComponent(o.id)}`} style={{ display: 'inline-flex', alignItems: 'center', minHeight: 44 }}>
            Back to the order
          </Link>
        } />
      <OrderAtTheDoor order={o} leg={leg} />
      {queued ? (
        <Alert type="info" showIcon title={OUTBOX_TEXTS.handoverWaiting} action={backToList} />
      ) : o.status === HANDOVER_FROM[leg] ? (
        <HandoverForm order={o} leg={leg} idempotencyKey={key} />
      ) : (
        <Alert type="info" showIcon title={HANDOVER_MESSAGES.wrongStatus(leg, o.orderNumber, o.status)} action={backToList} />
      )}
    </article>
  );
}

/** Whose door: the customer, their number (a tap calls) and the delivery address. */
function OrderAtTheDoor({ order: o, leg }: { order: Order; leg: HandoverLeg }) {
  const name = o.customerName || [o.customer?.firstName, o.customer?.lastName].filter(Boolean).join(' ') || '—';
  const address = [o.deliveryAddress, o.deliveryCity, [o.deliveryState, o.deliveryZipcode].filter(Boolean).join(' ')].filter(Boolean).join(', ');
  return (
    <section aria-label="Customer" style={{ marginBottom: 16, lineHeight: 1.6 }}>
      <div>
        {LEG_LABELS[leg]} · <strong>{name}</strong>
      </div>
      <div>{address}</div>
      {o.customer?.contactNumber && (
        <div>
          <a href={`tel:${o.customer.contactNumber}`} style={{ display: 'inline-block', minHeight: 44, lineHeight: '44px' }}>
            {o.customer.contactNumber}
          </a>
        </div>
      )}
      {o.note && <div style={{ color: 'rgba(0,0,0,0.65)' }}>Note: {o.note}</div>}
    </section>
  );
}

function HandoverForm({ order, leg, idempotencyKey }: { order: Order; leg: HandoverLeg; idempotencyKey: string }) {
  const navigate = useNavigate();
  const user = useCurrentUser();
  const { notify } = useFeedback();
  const [send, { isLoading: sending }] = useDriverHandoverMutation();
  const serials = useMemo(() => order.products.flatMap((l) => l.serialCodes.map((s) => ({ code: s.serialCode, product: l.productName }))), [order.products]);
  const [checked, setChecked] = useState<Record<string, boolean>>({});
  const [recipientName, setRecipientName] = useState('');
  const [relation, setRelation] = useState<HandoverRelation | ''>('');
  const [acknowledged, setAcknowledged] = useState(false);
  const [photo, setPhoto] = useState<string>();
  const [photoBusy, setPhotoBusy] = useState(false);
  const [failing, setFailing] = useState(false);
  const [outcome, setOutcome] = useState<FailedOutcome | ''>('');
  const [reason, setReason] = useState('');
  const [errors, setErrors] = useState<Errors>({});
  const [problem, setProblem] = useState<string>();
  const [pressed, setPressed] = useState<'HANDED_OVER' | 'FAILED'>();
  const pad = useRef<SignaturePadHandle>(null);
  const top = useRef<HTMLDivElement>(null);
  /** Guards a double tap before `sending` re-renders. */
  const busy = useRef(false);

  const unchecked = serials.filter((s) => !checked[s.code]);
  // The error names the units missing: the hint is not needed beside it.
  const showHint = unchecked.length > 0 && !errors.serials;
  const clearError = (f: Field) => setErrors((e) => (e[f] ? { ...e, [f]: undefined } : e));
  const describedBy = (f: Field, ...more: Array<string | false | undefined>) => [...more, errors[f] && errorId(f)].filter(Boolean).join(' ') || undefined;

  /** Shows the first invalid field, focused where it can be (in a group: its first unchecked box). */
  const reveal = (found: Errors) => {
    const first = FIELDS.find((f) => found[f]);
    if (!first) return;
    const el = document.getElementById(idOf(first)) ?? document.getElementById(errorId(first));
    el?.scrollIntoView?.({ block: 'center' });
    const input = el?.matches('input, select, textarea') ? el : el?.querySelector<HTMLElement>('input:not(:checked)');
    input?.focus();
  };

  const submit = async (body: HandoverRequest, found: Errors, kind: 'HANDED_OVER' | 'FAILED') => {
    setErrors(found);
    if (Object.values(found).some(Boolean)) {
      setProblem(undefined);
      // After the re-render that shows the messages.
      setTimeout(() => reveal(found));
      return;
    }
    busy.current = true;
    setPressed(kind);
    /** Without signal (issue 28): kept on the phone with its key, and sent in turn when back online. */
    const keepForLater = async () => {
      const label = `Hand-over of ${order.orderNumber} (${leg === 'DELIVERY' ? 'delivery' : 'pick-up'})`;
      await keep({ user: user.id, kind: 'handover', label, orderId: order.id, args: { id: order.id, body } });
      notify.info(OUTBOX_TEXTS.queued(label));
      navigate(PURPOSE[leg].base);
    };
    try {
      if (offline()) {
        await keepForLater();
        return;
      }
      const r = await send({ id: order.id, body }).unwrap();
      notify.success(r.message);
      navigate(PURPOSE[leg].base);
    } catch (err) {
      // No answer at all (the signal dropped on the way): kept with the same key, like offline.
      if (typeof (err as { status?: unknown }).status !== 'number') {
        try {
          await keepForLater();
          return;
        } catch {
          // The phone could not keep it either: shown below, nothing typed is lost.
        }
      }
      // What was typed stays; the same key goes again on the next press.
      setProblem(errorMessage(err));
      const byField: Errors = {};
      for (const { name, errors: messages } of fieldErrors(err)) {
        const f = name.split('.')[0] as Field;
        if (FIELDS.includes(f) && !byField[f]) byField[f] = messages[0];
      }
      setErrors(byField);
      top.current?.scrollIntoView?.({ block: 'start' });
    } finally {
      busy.current = false;
    }
  };

  const confirm = () => {
    if (busy.current) return;
    const signedAt = new Date().toISOString();
    const found: Errors = {};
    if (unchecked.length) found.serials = HANDOVER_MESSAGES.serialsMissing(unchecked.map((s) => s.code));
    if (!recipientName.trim()) found.recipientName = HANDOVER_MESSAGES.recipientRequired;
    if (!relation) found.relation = HANDOVER_MESSAGES.relationRequired;
    if (!acknowledged) found.acknowledged = HANDOVER_MESSAGES.acknowledgeRequired;
    let signature: string | undefined;
    if (!pad.current || pad.current.isEmpty()) found.signature = HANDOVER_MESSAGES.signatureRequired;
    else {
      signature = pad.current.toDataURL();
      if (dataUrlBytes(signature) > HANDOVER_LIMITS.signatureBytes) found.signature = HANDOVER_MESSAGES.signatureTooLarge;
    }
    const body: HandoverRequest = {
      key: idempotencyKey,
      leg,
      outcome: 'HANDED_OVER',
      recipientName: recipientName.trim(),
      relation: relation || undefined,
      acknowledged,
      serials: serials.map((s) => s.code),
      signature,
      ...(photo ? { photo } : {}),
      signedAt,
    };
    void submit(body, found, 'HANDED_OVER');
  };

  const recordFailure = () => {
    if (busy.current) return;
    const signedAt = new Date().toISOString();
    const found: Errors = {};
    if (!outcome) found.outcome = HANDOVER_TEXTS.chooseOutcome;
    if (!reason.trim()) found.reason = HANDOVER_MESSAGES.reasonRequired;
    const body: HandoverRequest = { key: idempotencyKey, leg, outcome: outcome || 'NOBODY_HOME', reason: reason.trim(), serials: [], ...(photo ? { photo } : {}), signedAt };
    void submit(body, found, 'FAILED');
  };

  const onPhoto = async (e: ChangeEvent<HTMLInputElement>) => {
    const input = e.currentTarget;
    const file = input.files?.[0];
    if (!file) return;
    setPhotoBusy(true);
    clearError('photo');
    try {
      setPhoto(await downscalePhoto(file));
    } catch (err) {
      setPhoto(undefined);
      setErrors((x) => ({ ...x, photo: err instanceof PhotoError ? err.message : PHOTO_MESSAGES.unreadable }));
    } finally {
      setPhotoBusy(false);
      // The same photo may be chosen again after "Remove photo".
      input.value = '';
    }
  };

  return (
    <form noValidate onSubmit={(e) => e.preventDefault()}>
      <div ref={top}>{problem && <Alert type="error" showIcon title={problem} style={{ marginBottom: 16 }} />}</div>

      <fieldset id={idOf('serials')} style={FIELDSET} aria-describedby={describedBy('serials', showHint && 'handover-serials-hint')}>
        <legend style={LEGEND}>Serials handed over</legend>
        {serials.length === 0 && <p style={HINT}>{HANDOVER_TEXTS.noSerials}</p>}
        {serials.map((s) => (
          <label key={s.code} style={CHECK_ROW}>
            <input
              type="checkbox"
              style={CHECKBOX}
              checked={!!checked[s.code]}
              onChange={(e) => {
                const on = e.currentTarget.checked;
                setChecked((c) => ({ ...c, [s.code]: on }));
                clearError('serials');
              }}
            />
            <span>
              {s.product} <strong>{s.code}</strong>
            </span>
          </label>
        ))}
        {showHint && (
          <p id="handover-serials-hint" style={HINT}>
            {HANDOVER_TEXTS.serialsHint[leg]}: {serials.length - unchecked.length} of {serials.length} checked.
          </p>
        )}
        <FieldError field="serials" errors={errors} />
      </fieldset>

      <div style={FIELD}>
        <label htmlFor={idOf('recipientName')} style={LABEL}>
          Name of the person signing
        </label>
        <input
          id={idOf('recipientName')}
          type="text"
          autoComplete="off"
          maxLength={120}
          style={INPUT}
          value={recipientName}
          aria-invalid={!!errors.recipientName || undefined}
          aria-describedby={describedBy('recipientName')}
          onChange={(e) => {
            setRecipientName(e.currentTarget.value);
            clearError('recipientName');
          }}
        />
        <FieldError field="recipientName" errors={errors} />
      </div>

      <div style={FIELD}>
        <label htmlFor={idOf('relation')} style={LABEL}>
          Relation to the patient
        </label>
        <select
          id={idOf('relation')}
          style={INPUT}
          value={relation}
          aria-invalid={!!errors.relation || undefined}
          aria-describedby={describedBy('relation')}
          onChange={(e) => {
            setRelation(e.currentTarget.value as HandoverRelation | '');
            clearError('relation');
          }}
        >
          <option value="">Choose…</option>
          {HANDOVER_RELATIONS.map((r) => (
            <option key={r} value={r}>
              {HANDOVER_RELATION_LABELS[r]}
            </option>
          ))}
        </select>
        <FieldError field="relation" errors={errors} />
      </div>

      <div style={FIELD}>
        <p id="handover-acknowledgement" style={{ margin: '0 0 4px', padding: '8px 12px', background: '#f5f5f5', borderLeft: '4px solid #0b6e79', borderRadius: 4 }}>
          {HANDOVER_ACKNOWLEDGEMENT[leg]}
        </p>
        <label style={CHECK_ROW}>
          <input
            id={idOf('acknowledged')}
            type="checkbox"
            style={CHECKBOX}
            checked={acknowledged}
            aria-invalid={!!errors.acknowledged || undefined}
            aria-describedby={describedBy('acknowledged', 'handover-acknowledgement')}
            onChange={(e) => {
              setAcknowledged(e.currentTarget.checked);
              clearError('acknowledged');
            }}
          />
          <span>They confirm this</span>
        </label>
        <FieldError field="acknowledged" errors={errors} />
      </div>

      <div style={FIELD}>
        <div style={{ display: 'flex', justifyContent: 'space-between', alignItems: 'center', gap: 12, marginBottom: 4 }}>
          <span id="handover-signature-label" style={{ ...LABEL, marginBottom: 0 }}>
            Signature
          </span>
          <Button style={TOUCH} onClick={() => pad.current?.clear()}>
            Clear
          </Button>
        </div>
        <SignaturePad ref={pad} labelledBy="handover-signature-label" describedBy={describedBy('signature')} invalid={!!errors.signature} onSign={() => clearError('signature')} />
        <FieldError field="signature" errors={errors} />
      </div>

      <div style={FIELD}>
        <label htmlFor={idOf('photo')} style={LABEL}>
          Photo (optional)
        </label>
        <input id={idOf('photo')} type="file" accept="image/*" capture="environment" style={{ ...INPUT, padding: 8 }} aria-describedby={describedBy('photo')} onChange={(e) => void onPhoto(e)} />
        {photoBusy && <p role="status" style={HINT}>Preparing the photo…</p>}
        {photo && (
          <div style={{ display: 'flex', alignItems: 'center', gap: 12, marginTop: 8, flexWrap: 'wrap' }}>
            <img src={photo} alt="The photo to send" style={{ maxWidth: 120, maxHeight: 120, borderRadius: 4, border: '1px solid #d9d9d9' }} />
            <Button style={TOUCH} onClick={() => setPhoto(undefined)}>
              Remove photo
            </Button>
          </div>
        )}
        <FieldError field="photo" errors={errors} />
      </div>

      <Button type="primary" size="large" block style={BIG} loading={sending && pressed === 'HANDED_OVER'} disabled={photoBusy || (sending && pressed !== 'HANDED_OVER')} onClick={confirm}>
        Confirm hand-over
      </Button>

      <div style={{ marginTop: 32, paddingTop: 16, borderTop: '1px solid #f0f0f0' }}>
        <Button size="large" block style={BIG} aria-expanded={failing} aria-controls="handover-failed" onClick={() => setFailing((f) => !f)}>
          Could not hand over
        </Button>
        {failing && (
          <section id="handover-failed" aria-label="Could not hand over" style={{ marginTop: 16 }}>
            <fieldset id={idOf('outcome')} style={FIELDSET} aria-describedby={describedBy('outcome')}>
              <legend style={LEGEND}>What happened</legend>
              {FAILED_OUTCOMES.map((v) => (
                <label key={v} style={CHECK_ROW}>
                  <input
                    type="radio"
                    name="handover-outcome"
                    value={v}
                    style={CHECKBOX}
                    checked={outcome === v}
                    onChange={() => {
                      setOutcome(v);
                      clearError('outcome');
                    }}
                  />
                  <span>{HANDOVER_OUTCOME_LABELS[v]}</span>
                </label>
              ))}
              <FieldError field="outcome" errors={errors} />
            </fieldset>
            <div style={FIELD}>
              <label htmlFor={idOf('reason')} style={LABEL}>
                Reason
              </label>
              <textarea
                id={idOf('reason')}
                rows={3}
                maxLength={500}
                style={{ ...INPUT, minHeight: 88, resize: 'vertical' }}
                value={reason}
                aria-invalid={!!errors.reason || undefined}
                aria-describedby={describedBy('reason')}
                onChange={(e) => {
                  setReason(e.currentTarget.value);
                  clearError('reason');
                }}
              />
              <FieldError field="reason" errors={errors} />
            </div>
            <Button danger size="large" block style={BIG} loading={sending && pressed === 'FAILED'} disabled={photoBusy || (sending && pressed !== 'FAILED')} onClick={recordFailure}>
              Record failed attempt
            </Button>
          </section>
        )}
      </div>
    </form>
  );
}

function FieldError({ field, errors }: { field: Field; errors: Errors }): ReactNode {
  const text = errors[field];
  return text ? (
    <p id={errorId(field)} style={ERROR}>
      {text}
    </p>
  ) : null;
}

// Phone first (390 px): full-width fields, 16 px text (no zoom on focus), touch targets ≥ 44 px.
const FIELD: CSSProperties = { marginBottom: 20 };
const FIELDSET: CSSProperties = { border: 0, padding: 0, margin: '0 0 20px', minWidth: 0 };
const LEGEND: CSSProperties = { fontWeight: 600, fontSize: 16, marginBottom: 4, padding: 0 };
const LABEL: CSSProperties = { display: 'block', fontWeight: 600, fontSize: 16, marginBottom: 4 };
const INPUT: CSSProperties = { display: 'block', width: '100%', boxSizing: 'border-box', minHeight: 44, fontSize: 16, padding: '8px 12px', border: '1px solid #8c8c8c', borderRadius: 8, background: '#fff', color: 'inherit', fontFamily: 'inherit' };
const CHECK_ROW: CSSProperties = { display: 'flex', alignItems: 'center', gap: 12, minHeight: 44, fontSize: 16, cursor: 'pointer' };
const CHECKBOX: CSSProperties = { width: 22, height: 22, margin: 0, flex: 'none' };
const HINT: CSSProperties = { margin: '4px 0 0', color: 'rgba(0,0,0,0.65)' };
const ERROR: CSSProperties = { margin: '4px 0 0', color: '#cf1322' };
const TOUCH: CSSProperties = { minHeight: 44, minWidth: 44 };
const BIG: CSSProperties = { minHeight: 48 };
