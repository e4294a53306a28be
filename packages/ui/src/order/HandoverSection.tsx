import { useState, type CSSProperties } from 'react';
import { Button, Space, Tag } from 'antd';
import { formatManilaDateTime, HANDOVER_OUTCOME_LABELS, HANDOVER_RELATION_LABELS, TICKET_FILE } from '@dme/contracts/browser';
import type { Handover, HandoverLeg, Order } from '@dme/contracts';
import { SectionTitle } from '../SectionTitle';
import { useFeedback } from '../feedback';
import { downloadFile } from './qr';

export interface HandoverSectionProps {
  order: Pick<Order, 'id' | 'handovers'>;
  /** The routes the order is read under: the staff's or the customer's (own orders). */
  base: '/api/orders' | '/api/my/orders';
}

const LEG_LABELS: Record<HandoverLeg, string> = { DELIVERY: 'Delivery', PICKUP: 'Pick-up' };
const TICKET_LABELS: Record<HandoverLeg, string> = { DELIVERY: 'Delivery ticket', PICKUP: 'Pick-up ticket' };
const TICKET_PATH: Record<HandoverLeg, string> = { DELIVERY: 'delivery', PICKUP: 'pickup' };
const OUTCOME_COLORS: Record<Handover['outcome'], string> = { HANDED_OVER: 'green', REFUSED: 'red', NOBODY_HOME: 'orange' };
const LEGS: HandoverLeg[] = ['DELIVERY', 'PICKUP'];

const CARD: CSSProperties = { border: '1px solid #f0f0f0', borderRadius: 8, padding: 12, minWidth: 0 };
const FIELDS: CSSProperties = { display: 'grid', gridTemplateColumns: 'max-content minmax(0, 1fr)', gap: '4px 12px', margin: '8px 0 0' };
const LABEL: CSSProperties = { color: 'rgba(0,0,0,0.6)' };
const VALUE: CSSProperties = { margin: 0, overflowWrap: 'anywhere' };
const SIGNATURE: CSSProperties = { display: 'block', maxHeight: 80, maxWidth: '100%', background: '#fff', border: '1px solid #f0f0f0', borderRadius: 4 };

/** Fetches a leg's ticket with the session and saves it under its TICKET_FILE name; a failure is told and logged. */
function TicketButton({ leg, src }: { leg: HandoverLeg; src: string }) {
  const { notify } = useFeedback();
  const [saving, setSaving] = useState(false);
  const download = async () => {
    setSaving(true);
    try {
      await downloadFile(src, TICKET_FILE[leg]);
    } catch (err) {
      console.error('Hand-over ticket download failed', err);
      notify.toastError(`The ${TICKET_LABELS[leg].toLowerCase()} could not be downloaded. Please try again.`);
    } finally {
      setSaving(false);
    }
  };
  return (
    <Button onClick={() => void download()} loading={saving}>
      {TICKET_LABELS[leg]}
    </Button>
  );
}

function HandoverCard({ h, src }: { h: Handover; src: string }) {
  const title = `${LEG_LABELS[h.leg]}, attempt ${h.attempt}`;
  const titleId = `handover-${h.id}`;
  const made = h.outcome === 'HANDED_OVER';
  const who = made ? (h.leg === 'DELIVERY' ? 'Received by' : 'Handed back by') : 'At the door';
  const person = [h.recipientName, h.relation && HANDOVER_RELATION_LABELS[h.relation]].filter(Boolean).join(', ');
  return (
    <article aria-labelledby={titleId} style={CARD} data-testid="handover">
      <div style={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 8 }}>
        <h3 id={titleId} style={{ fontSize: '1em', fontWeight: 600, margin: 0 }}>
          {title}
        </h3>
        <Tag color={OUTCOME_COLORS[h.outcome]}>{HANDOVER_OUTCOME_LABELS[h.outcome]}</Tag>
      </div>
      <dl style={FIELDS}>
        {person && (
          <>
            <dt style={LABEL}>{who}</dt>
            <dd style={VALUE}>{person}</dd>
          </>
        )}
        {!made && h.reason && (
          <>
            <dt style={LABEL}>Reason</dt>
            <dd style={VALUE}>{h.reason}</dd>
          </>
        )}
        {h.serials.length > 0 && (
          <>
            <dt style={LABEL}>Serial codes</dt>
            <dd style={{ ...VALUE, display: 'flex', flexWrap: 'wrap', gap: 4 }}>
              {h.serials.map((s) => (
                <Tag key={s} style={{ marginInlineEnd: 0 }}>
                  {s}
                </Tag>
              ))}
            </dd>
          </>
        )}
        <dt style={LABEL}>Driver</dt>
        <dd style={VALUE}>{h.driverName || '—'}</dd>
        <dt style={LABEL}>{made ? 'Signed' : 'Attempted'}</dt>
        <dd style={VALUE}>{formatManilaDateTime(h.signedAt)}</dd>
      </dl>
      {(h.hasSignature || h.hasPhoto) && (
        <div style={{ display: 'flex', flexWrap: 'wrap', alignItems: 'flex-end', gap: 12, marginTop: 8 }}>
          {h.hasSignature && <img alt={`Signature of ${h.recipientName || 'the recipient'}`} src={`${src}/signature`} loading="lazy" style={SIGNATURE} />}
          {h.hasPhoto && (
            <a href={`${src}/photo`} target="_blank" rel="noopener noreferrer" aria-label={`Photo of ${title.toLowerCase()} (opens in a new tab)`}>
              Photo
            </a>
          )}
        </div>
      )}
    </article>
  );
}

/**
 * Proof of delivery (issue 28): the order's hand-overs at the door, oldest first — who received
 * (or handed back) the equipment, their signature, the serials, the driver and when; the failed
 * attempts with their reason. The ticket of a leg is offered once it was handed over. Nothing
 * before the first hand-over.
 */
export function HandoverSection({ order, base }: HandoverSectionProps) {
  // Older servers leave the list out.
  const handovers = order.handovers ?? [];
  if (handovers.length === 0) return null;
  const tickets = LEGS.filter((leg) => handovers.some((h) => h.leg === leg && h.outcome === 'HANDED_OVER'));
  return (
    <section aria-label="Proof of delivery" style={{ minWidth: 0 }}>
      <SectionTitle>Proof of delivery</SectionTitle>
      {tickets.length > 0 && (
        <Space wrap style={{ marginBottom: 12 }}>
          {tickets.map((leg) => (
            <TicketButton key={leg} leg={leg} src={`${base}/${order.id}/tickets/${TICKET_PATH[leg]}`} />
          ))}
        </Space>
      )}
      <div style={{ display: 'grid', gridTemplateColumns: 'repeat(auto-fill, minmax(min(100%, 260px), 1fr))', gap: 12 }}>
        {handovers.map((h) => (
          <HandoverCard key={h.id} h={h} src={`${base}/${order.id}/handovers/${h.id}`} />
        ))}
      </div>
    </section>
  );
}
