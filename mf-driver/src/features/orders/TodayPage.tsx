import { lazy, Suspense, useEffect, useRef, useState, type CSSProperties } from 'react';
import { Link } from 'react-router-dom';
import { Button, Tag } from 'antd';
import { formatBusinessDate, isIsoDate } from '@dme/contracts/browser';
import type { DriverDayResponse, DriverStop } from '@dme/contracts';
import { errorMessage, loaded } from '@dme/api-client';
import { EmptyState, LazyErrorState, Loading, PageHeader, RefreshFailed, useFeedback } from '@dme/ui';
import { useDriverDayQuery, useDriverStopOrderMutation } from './api';
import { usePrefetchStops } from '../../pwa';
import { handoverPath, LEG_LABELS, PURPOSE } from './purpose';

// The dialog (antd Modal, the camera scanner) is fetched when the driver opens it.
const ScanDialog = lazy(() => import('./ScanDialog'));

type Stage = DriverStop['stage'];

/** Where a stop stands, in words and colour (STOP_STAGES of the contracts; ours: the spec is silent). */
export const STAGE_LABELS: Record<Stage, string> = {
  TO_TAKE_OUT: 'To take out',
  OUT_FOR_DELIVERY: 'Out for delivery',
  TO_COLLECT: 'To collect',
  COLLECTED: 'Collected',
};
const STAGE_COLORS: Record<Stage, string> = { TO_TAKE_OUT: 'gold', OUT_FOR_DELIVERY: 'cyan', TO_COLLECT: 'purple', COLLECTED: 'green' };

/** Texts of the screen (ours: the spec is silent). */
export const TODAY_TEXTS = {
  title: 'Today',
  empty: 'Nothing planned for you today.',
  emptyHint: 'Scan an order at the warehouse to take it out for delivery.',
  takeOutHint: 'Scan it at the warehouse to take it out.',
  waiting: 'Waiting for a driver',
  waitingHint: 'Orders no driver has yet, by city.',
} as const;

const dayParts = new Intl.DateTimeFormat('en-GB', { timeZone: 'Asia/Manila', weekday: 'long', day: 'numeric', month: 'long', year: 'numeric' });

/** A Manila day "YYYY-MM-DD" as "Saturday, 28 November 2026" (anything else as given). */
export function formatDay(day: string): string {
  if (!isIsoDate(day)) return day;
  const part = Object.fromEntries(dayParts.formatToParts(new Date(`${day}T12:00:00+08:00`)).map((p) => [p.type, p.value]));
  return `${part.weekday}, ${part.day} ${part.month} ${part.year}`;
}

/** The stop's whole address, as a map search reads it. */
export const fullAddress = (s: DriverStop) => [s.address, s.city, [s.state, s.zipcode].filter(Boolean).join(' ')].filter(Boolean).join(', ');
export const mapsUrl = (address: string) => `https://www.google.com/maps/search/?api=1&query=${encodeURIComponent(address)}`;
/** The phone's own navigation app (Android's geo: intent). */
export const geoUrl = (address: string) => `geo:0,0?q=${encodeURIComponent(address)}`;

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;
const moveId = (id: string, dir: 'up' | 'down') => `move-${id}-${dir}`;

/**
 * The driver's day (issue 28), phone first: the stops in the driver's order — to take out and
 * deliver, to collect — each with the customer, the address (a map, the phone's navigation), a
 * tap to call, the items and the note, and its hand-over when it is at the door. The driver
 * reorders the stops (sent whole, shown at once, put back when refused). Work no driver has yet
 * shows as counts per city. Scans and hand-overs refresh the day.
 */
export default function TodayPage() {
  const [scanning, setScanning] = useState(false);
  const q = useDriverDayQuery();

  return (
    <section style={{ maxWidth: 640, margin: '0 auto', overflowWrap: 'anywhere' }}>
      <PageHeader
        title={TODAY_TEXTS.title}
        extra={
          <Button type="primary" size="large" style={TOUCH} onClick={() => setScanning(true)}>
            Scan Order
          </Button>
        }
      />
      {q.data && (
        <p style={{ margin: '-8px 0 16px', fontSize: 16, ...MUTED }}>
          <time dateTime={q.data.day}>{formatDay(q.data.day)}</time>
        </p>
      )}
      {q.isLoading ? (
        <Loading />
      ) : !loaded(q) ? (
        <LazyErrorState title="Your day could not be loaded" message={errorMessage(q.error)} onRetry={() => void q.refetch()} />
      ) : (
        <>
          <RefreshFailed error={q.error} onRetry={() => void q.refetch()} />
          <Stops day={q.data} />
          <Waiting waiting={q.data.waiting} />
        </>
      )}
      {scanning && (
        <Suspense fallback={null}>
          <ScanDialog purpose="DELIVERY" onClose={() => setScanning(false)} />
        </Suspense>
      )}
    </section>
  );
}

/** The stop cards, in the driver's order, each movable up and down. */
function Stops({ day }: { day: DriverDayResponse }) {
  const { notify } = useFeedback();
  const [reorder] = useDriverStopOrderMutation();
  const [moved, setMoved] = useState('');
  /** The button pressed last: it keeps the focus as its card moves (or its neighbour, at an end). */
  const focus = useRef<{ id: string; dir: 'up' | 'down' }>(undefined);
  const { stops } = day;
  // Each stop's order is fetched while online, so its page and hand-over open without signal later.
  usePrefetchStops(stops.map((s) => s.id));

  useEffect(() => {
    const f = focus.current;
    if (!f) return;
    focus.current = undefined;
    const same = document.getElementById(moveId(f.id, f.dir)) as HTMLButtonElement | null;
    const other = document.getElementById(moveId(f.id, f.dir === 'up' ? 'down' : 'up')) as HTMLButtonElement | null;
    (same && !same.disabled ? same : other)?.focus();
  }, [stops]);

  if (stops.length === 0) {
    return (
      <EmptyState description={TODAY_TEXTS.empty}>
        <p style={{ margin: 0, color: 'rgba(0,0,0,0.65)' }}>{TODAY_TEXTS.emptyHint}</p>
      </EmptyState>
    );
  }

  const move = (index: number, dir: 'up' | 'down') => {
    const to = dir === 'up' ? index - 1 : index + 1;
    const stop = stops[index];
    if (!stop || to < 0 || to >= stops.length) return;
    const ids = stops.map((s) => s.id);
    ids.splice(index, 1);
    ids.splice(to, 0, stop.id);
    focus.current = { id: stop.id, dir };
    setMoved(`${stop.orderNumber} is stop ${to + 1} of ${stops.length}.`);
    reorder({ orderIds: ids })
      .unwrap()
      .catch((err: unknown) => {
        setMoved('');
        notify.toastError(errorMessage(err));
      });
  };

  return (
    <>
      <ol aria-label="Stops" style={{ listStyle: 'none', padding: 0, margin: '0 0 24px', display: 'grid', gap: 12 }}>
        {stops.map((s, i) => (
          <li key={s.id}>
            <StopCard stop={s} position={i + 1} today={day.day} first={i === 0} last={i === stops.length - 1} onMove={(dir) => move(i, dir)} />
          </li>
        ))}
      </ol>
      <div role="status" style={VISUALLY_HIDDEN}>
        {moved}
      </div>
    </>
  );
}

interface StopCardProps {
  stop: DriverStop;
  position: number;
  today: string;
  first: boolean;
  last: boolean;
  onMove: (dir: 'up' | 'down') => void;
}

/** One stop: what, whose, where (map, navigation, call), the items and note, and what to do. */
function StopCard({ stop: s, position, today, first, last, onMove }: StopCardProps) {
  const headingId = `stop-${s.id}`;
  const address = fullAddress(s);
  const atDoor = s.stage === 'OUT_FOR_DELIVERY' || s.stage === 'TO_COLLECT';
  return (
    <article aria-labelledby={headingId} style={CARD}>
      <h2 id={headingId} style={{ margin: '0 0 4px', fontSize: 18, fontWeight: 600, lineHeight: 1.4 }}>
        {position}. {s.orderNumber}
      </h2>
      <div style={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 8, marginBottom: 8 }}>
        <Tag color={STAGE_COLORS[s.stage]} style={{ margin: 0 }}>
          {STAGE_LABELS[s.stage]}
        </Tag>
        <span>{LEG_LABELS[s.leg]}</span>
        {s.day && s.day !== today && <span style={MUTED}>Planned for {formatBusinessDate(s.day)}</span>}
      </div>
      <div>
        <strong>{s.customerName || '—'}</strong> · {s.customerNumber}
      </div>
      <address style={{ fontStyle: 'normal' }}>{address}</address>
      <div style={ROW}>
        {address && (
          <>
            <a href={mapsUrl(address)} target="_blank" rel="noopener noreferrer" style={TOUCH_LINK}>
              Open in Maps
            </a>
            <a href={geoUrl(address)} style={TOUCH_LINK}>
              Navigate
            </a>
          </>
        )}
        {s.contactNumber && (
          <a href={`tel:${s.contactNumber.replace(/[^\d+]/g, '')}`} style={TOUCH_LINK}>
            Call {s.contactNumber}
          </a>
        )}
      </div>
      {s.items.length > 0 && (
        <ul aria-label={`Items of ${s.orderNumber}`} style={{ margin: '4px 0', paddingLeft: 20 }}>
          {s.items.map((it, j) => (
            <li key={`${it.name}-${j}`}>
              {it.quantity} × {it.name}
            </li>
          ))}
        </ul>
      )}
      {s.note && <p style={{ margin: '4px 0', ...MUTED }}>Note: {s.note}</p>}
      {s.stage === 'TO_TAKE_OUT' && <p style={{ margin: '4px 0', ...MUTED }}>{TODAY_TEXTS.takeOutHint}</p>}
      <div style={{ ...ROW, marginTop: 8 }}>
        {atDoor && (
          <Link to={handoverPath(s.leg, s.id)} style={PRIMARY_LINK}>
            Hand-over
          </Link>
        )}
        <Link to={`${PURPOSE[s.leg].base}/${encodeURIComponent(s.id)}`} style={TOUCH_LINK}>
          Details
        </Link>
        <span style={{ display: 'inline-flex', gap: 8, marginLeft: 'auto' }}>
          <Button id={moveId(s.id, 'up')} style={TOUCH} aria-label={`Move ${s.orderNumber} up`} disabled={first} onClick={() => onMove('up')}>
            <span aria-hidden="true">↑</span> Up
          </Button>
          <Button id={moveId(s.id, 'down')} style={TOUCH} aria-label={`Move ${s.orderNumber} down`} disabled={last} onClick={() => onMove('down')}>
            <span aria-hidden="true">↓</span> Down
          </Button>
        </span>
      </div>
    </article>
  );
}

/** Work no driver has yet, as counts per city (no customer details); nothing when there is none. */
function Waiting({ waiting }: { waiting: DriverDayResponse['waiting'] }) {
  if (waiting.length === 0) return null;
  return (
    <section aria-labelledby="waiting-title">
      <h2 id="waiting-title" style={{ margin: '0 0 4px', fontSize: 18, fontWeight: 600 }}>
        {TODAY_TEXTS.waiting}
      </h2>
      <p style={{ margin: '0 0 8px', ...MUTED }}>{TODAY_TEXTS.waitingHint}</p>
      <ul aria-label={TODAY_TEXTS.waiting} style={{ listStyle: 'none', padding: 0, margin: 0 }}>
        {waiting.map((w) => (
          <li key={w.city} style={{ padding: '8px 0', borderBottom: '1px solid #f0f0f0' }}>
            <strong>{w.city || '—'}</strong>: {plural(w.deliveries, 'delivery', 'deliveries')}, {plural(w.pickups, 'pick-up', 'pick-ups')}
          </li>
        ))}
      </ul>
    </section>
  );
}

// Phone first (390 px): cards the screen's width, links and buttons ≥ 44 px, wrapping rows.
const CARD: CSSProperties = { border: '1px solid #f0f0f0', borderRadius: 8, padding: 12, background: '#fff', lineHeight: 1.6, minWidth: 0 };
const ROW: CSSProperties = { display: 'flex', flexWrap: 'wrap', alignItems: 'center', columnGap: 16, rowGap: 4 };
const MUTED: CSSProperties = { color: 'rgba(0,0,0,0.65)' };
const TOUCH: CSSProperties = { minHeight: 44, minWidth: 44 };
const TOUCH_LINK: CSSProperties = { display: 'inline-flex', alignItems: 'center', minHeight: 44, minWidth: 44 };
/** A link drawn as the primary button (the theme's colour), 44 px high. */
const PRIMARY_LINK: CSSProperties = {
  display: 'inline-flex',
  alignItems: 'center',
  justifyContent: 'center',
  minHeight: 44,
  padding: '0 16px',
  borderRadius: 8,
  background: '#0b6e79',
  color: '#fff',
  fontWeight: 500,
  textDecoration: 'none',
};
const VISUALLY_HIDDEN: CSSProperties = { position: 'absolute', width: 1, height: 1, margin: -1, padding: 0, overflow: 'hidden', clip: 'rect(0 0 0 0)', whiteSpace: 'nowrap', border: 0 };
