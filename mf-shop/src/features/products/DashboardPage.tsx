import { useEffect, useMemo, useState, type FormEvent, type ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { AVAILABILITY_BATCH_MAX, formatBusinessDate, formatPriceRange, lastBookableStart, manilaDate } from '@dme/contracts/browser';
import type { ProductAvailability, ProductCard } from '@dme/contracts';
import { errorMessage } from '@dme/api-client';
import { announceScreenReady, FIRST_PICTURE_TIMING, LazyErrorState, PageHeader, PlainEmpty, PlainLoading, uniqueRows } from '@dme/ui';
import { useAvailabilityBatchQuery, useProductCardPagesInfiniteQuery } from '../../lib/catalogApi';
import { useMyNoticesQuery } from './api';
import { DueNotices } from './DueNotices';

/*
 * The customer's home, kept light on purpose (DESIGN §12: sign-in to dashboard within 250 KB):
 * plain elements and CSS grid instead of antd's Card/Row/Input/Spin/Empty, so the remote's first
 * screen downloads no antd at all.
 */

const grid = { display: 'grid', gridTemplateColumns: 'repeat(auto-fill, minmax(200px, 1fr))', gap: 16 } as const;
const card = { border: '1px solid #f0f0f0', borderRadius: 8, overflow: 'hidden', background: '#fff', display: 'flex', flexDirection: 'column' } as const;
/**
 * The product pictures are square (480 px, drawn with a margin): the box is reserved before the
 * picture loads (width/height attributes and aspect-ratio: no layout shift) and nothing is cropped.
 */
const cardImage = { width: '100%', height: 'auto', aspectRatio: '1 / 1', objectFit: 'contain', display: 'block', background: '#f5f5f5' } as const;
/**
 * The first row of the first grid is on screen at once: load it eagerly. Only the very first
 * picture is fetched first (on a phone it is the whole first screen and the LCP element); the
 * others ask for low priority, so they do not share its bandwidth.
 */
export const EAGER_CARDS = 4;

/** A rental card's answer for the chosen day (issue 25): free to start a one-day rental then, or booked and when it is free again. */
export interface DatedCard {
  date: string;
  availability: ProductAvailability | undefined;
}

function stockText(p: ProductCard, dated: DatedCard | undefined): { text: string; ok: boolean } {
  if (!dated) return { text: p.inStock ? 'In-Stock' : 'Sold-Out', ok: p.inStock };
  const a = dated.availability;
  if (!a) return { text: 'Checking dates…', ok: true };
  if (a.days[0]?.startable) return { text: `Free on ${formatBusinessDate(dated.date)}`, ok: true };
  return { text: a.firstStartDate ? `Booked on ${formatBusinessDate(dated.date)} · free from ${formatBusinessDate(a.firstStartDate)}` : `Booked on ${formatBusinessDate(dated.date)}`, ok: false };
}

function Card({ p, eager = false, first = false, dated }: { p: ProductCard; eager?: boolean; first?: boolean; dated?: DatedCard | undefined }) {
  const rent = p.type === 'FOR_RENT';
  const stock = stockText(p, dated);
  return (
    <article style={card} data-testid="product-card">
      <Link to={`/product-description/${p.id}`} tabIndex={-1} aria-hidden="true">
        <img
          src={p.image}
          alt=""
          width={480}
          height={480}
          style={cardImage}
          loading={eager ? 'eager' : 'lazy'}
          decoding="async"
          fetchPriority={first ? 'high' : 'low'}
          // The browser reports when this picture is painted (Element Timing): the shell starts the
          // app after the server-rendered copy's first paint.
          {...(first ? { elementtiming: FIRST_PICTURE_TIMING } : {})}
        />
      </Link>
      <div style={{ padding: 12, display: 'flex', flexDirection: 'column', gap: 4, flex: 1 }}>
        <Link to={`/product-description/${p.id}`} style={{ fontWeight: 600, fontSize: 15 }}>
          {p.name}
        </Link>
        <span style={{ color: 'rgba(0,0,0,0.55)' }}>{p.brand}</span>
        <span style={{ color: stock.ok ? '#237804' : '#cf1322', fontWeight: 500 }} data-testid="card-stock">
          {stock.text}
        </span>
        <span style={{ fontWeight: 600 }}>{formatPriceRange(p.priceMin, p.priceMax, rent)}</span>
        {!rent && <span style={{ color: 'rgba(0,0,0,0.55)' }}>{p.soldQuantity} sold</span>}
      </div>
    </article>
  );
}

const more = { display: 'flex', gap: 12, alignItems: 'center', justifyContent: 'center', marginTop: 16, color: 'rgba(0,0,0,0.6)' } as const;
const plainButton = { padding: '6px 15px', borderRadius: 8, border: '1px solid #d9d9d9', background: '#fff', color: 'rgba(0,0,0,0.88)', cursor: 'pointer', fontSize: 14 } as const;

export interface GridViewProps {
  title: string;
  type: 'FOR_RENT' | 'FOR_SALE';
  search: string;
  eagerCards?: number;
  loading: boolean;
  /** The list's own failure (nothing to show), or a failed "Load more" under the rows shown. */
  error?: string;
  items: ProductCard[];
  total: number;
  hasNextPage: boolean;
  fetching?: boolean;
  fetchingMore?: boolean;
  onRetry?: () => void;
  onMore?: () => void;
  /** Rentals: a day the customer asked about, and per card whether a rental can start then (issue 25). */
  dated?: { date: string; byId: ReadonlyMap<string, ProductAvailability> } | undefined;
  /** Rentals: the "Free on" day picker above the grid. */
  dayPicker?: ReactNode;
}

/**
 * A grid of 100 cards; "Load more" brings the next 100 while the shop has more. Plain props: the
 * page renders it from its queries, the gateway's server-rendered first screen from the same
 * answers (first-screen.tsx), so both draw the same markup.
 */
export function GridView({ title, type, search, eagerCards = 0, loading, error, items, total, hasNextPage, fetching = false, fetchingMore = false, onRetry, onMore, dated, dayPicker }: GridViewProps) {
  return (
    <section aria-labelledby={`${type}-title`} style={{ marginBottom: 32 }}>
      <div style={{ display: 'flex', flexWrap: 'wrap', gap: 12, alignItems: 'center', justifyContent: 'space-between', margin: '8px 0 12px' }}>
        <h2 id={`${type}-title`} style={{ fontSize: 18, margin: 0 }}>
          {title}
        </h2>
        {dayPicker}
      </div>
      {loading ? (
        <PlainLoading />
      ) : error && items.length === 0 ? (
        <LazyErrorState message={error} onRetry={onRetry} />
      ) : items.length === 0 ? (
        <PlainEmpty description={search ? `No ${type === 'FOR_RENT' ? 'rental' : 'sale'} items match “${search}”.` : 'No items yet.'} />
      ) : (
        <>
          <div style={grid}>
            {items.map((p, i) => (
              <Card key={p.id} p={p} eager={i < eagerCards} first={i === 0 && eagerCards > 0} dated={dated ? { date: dated.date, availability: dated.byId.get(p.id) } : undefined} />
            ))}
          </div>
          {error ? (
            <div role="alert" style={more}>
              <span style={{ color: '#cf1322' }}>{error}</span>
              <button type="button" onClick={onRetry} disabled={fetching} aria-busy={fetching} style={plainButton}>
                Retry
              </button>
            </div>
          ) : (
            hasNextPage && (
              <div style={more}>
                <span>
                  Showing {items.length} of {Math.max(total, items.length)}
                </span>
                <button type="button" onClick={onMore} disabled={fetchingMore} aria-busy={fetchingMore} style={plainButton}>
                  {fetchingMore ? 'Loading more…' : 'Load more'}
                </button>
              </div>
            )
          )}
        </>
      )}
    </section>
  );
}

/** One availability request for a page of rental cards (at most AVAILABILITY_BATCH_MAX ids). */
function DayBatch({ ids, date, onAnswer }: { ids: string[]; date: string; onAnswer: (items: ProductAvailability[]) => void }) {
  const q = useAvailabilityBatchQuery({ productIDs: ids, from: date, to: date });
  useEffect(() => {
    if (q.data) onAnswer(q.data.items);
  }, [q.data, onAnswer]);
  return null;
}

/** The rental grid's "Free on" day: a plain date input (the dashboard loads no antd), today up to the booking horizon. */
export function DayPicker({ date, onDate }: { date: string; onDate: (d: string) => void }) {
  const today = manilaDate();
  return (
    <div style={{ display: 'flex', gap: 8, alignItems: 'center', fontSize: 14 }}>
      <label htmlFor="rental-free-on">Free on</label>
      <input
        id="rental-free-on"
        type="date"
        min={today}
        max={lastBookableStart(today)}
        value={date}
        onChange={(e) => onDate(e.target.value)}
        style={{ padding: '4px 8px', border: '1px solid #d9d9d9', borderRadius: 8, fontSize: 14 }}
      />
      {date && (
        <button type="button" onClick={() => onDate('')} style={{ ...plainButton, padding: '4px 10px' }}>
          Any day
        </button>
      )}
    </div>
  );
}

function Grid({ title, type, search, eagerCards = 0 }: { title: string; type: 'FOR_RENT' | 'FOR_SALE'; search: string; eagerCards?: number }) {
  const q = useProductCardPagesInfiniteQuery({ type, ...(search ? { search } : {}) });
  const items = useMemo(() => uniqueRows(q.data?.pages), [q.data]);
  const [date, setDate] = useState('');
  const [answers, setAnswers] = useState<ReadonlyMap<string, ProductAvailability>>(new Map());
  const chunks = useMemo(() => {
    const ids = items.map((p) => p.id);
    const out: string[][] = [];
    for (let i = 0; i < ids.length; i += AVAILABILITY_BATCH_MAX) out.push(ids.slice(i, i + AVAILABILITY_BATCH_MAX));
    return out;
  }, [items]);
  const onAnswer = useMemo(() => (list: ProductAvailability[]) => setAnswers((m) => new Map([...m, ...list.map((a) => [a.productID, a] as const)])), []);
  const chooseDate = (d: string) => {
    setAnswers(new Map());
    setDate(d);
  };
  // A failed "Load more" retries that page; a failed reload of the pages shown reloads them all.
  const retry = () => void (q.isFetchNextPageError ? q.fetchNextPage() : q.refetch());
  const shown = q.error && !q.currentData ? [] : items;
  return (
    <GridView
      title={title}
      type={type}
      search={search}
      eagerCards={eagerCards}
      loading={q.isLoading}
      error={q.error ? errorMessage(q.error) : undefined}
      items={shown}
      total={q.data?.pages.at(-1)?.total ?? 0}
      hasNextPage={q.hasNextPage}
      fetching={q.isFetching}
      fetchingMore={q.isFetchingNextPage}
      onRetry={retry}
      onMore={() => void q.fetchNextPage()}
      dated={type === 'FOR_RENT' && date ? { date, byId: answers } : undefined}
      dayPicker={
        type === 'FOR_RENT' ? (
          <>
            <DayPicker date={date} onDate={chooseDate} />
            {date && chunks.map((ids) => <DayBatch key={`${date}:${ids[0]}`} ids={ids} date={date} onAnswer={onAnswer} />)}
          </>
        ) : undefined
      }
    />
  );
}

export const RENT_TITLE = 'For Rental Items';
export const SALE_TITLE = 'For Sale Items';

/** The dashboard's frame: heading, search, notices, and the two grids (the sale grid once the rentals have theirs). */
export function DashboardView({ text, onText, onSubmit, notices, rentals, sales }: { text: string; onText?: (value: string) => void; onSubmit?: (e: FormEvent) => void; notices: ReactNode; rentals: ReactNode; sales: ReactNode }) {
  return (
    <div>
      <PageHeader
        title="Products"
        extra={
          <form role="search" onSubmit={onSubmit} style={{ display: 'flex', gap: 8 }}>
            <input
              type="search"
              aria-label="Search by name or brand"
              placeholder="Search by name or brand"
              value={text}
              onChange={(e) => onText?.(e.target.value)}
              style={{ padding: '6px 11px', border: '1px solid #d9d9d9', borderRadius: 8, width: 260, fontSize: 14 }}
            />
            <button type="submit" style={{ padding: '6px 15px', borderRadius: 8, border: 'none', background: '#0b6e79', color: '#fff', cursor: 'pointer' }}>
              Search
            </button>
          </form>
        }
      />
      {notices}
      {rentals}
      {sales}
    </div>
  );
}

export function DashboardPage() {
  const [text, setText] = useState('');
  const [search, setSearch] = useState('');
  const args = (type: 'FOR_RENT' | 'FOR_SALE') => ({ type, ...(search ? { search } : {}) });
  const rentals = useProductCardPagesInfiniteQuery(args('FOR_RENT'));
  const sales = useProductCardPagesInfiniteQuery(args('FOR_SALE'));
  const notices = useMyNoticesQuery();
  // The screen has what the server-rendered first screen showed: the shell may hand over to it.
  const settled = !rentals.isLoading && !sales.isLoading && !notices.isLoading;
  useEffect(() => {
    if (settled) announceScreenReady();
  }, [settled]);
  return (
    <DashboardView
      text={text}
      onText={(value) => {
        setText(value);
        if (value === '') setSearch('');
      }}
      onSubmit={(e) => {
        e.preventDefault();
        setSearch(text.trim());
      }}
      notices={<DueNotices />}
      rentals={<Grid title={RENT_TITLE} type="FOR_RENT" search={search} eagerCards={EAGER_CARDS} />}
      /* The sale items are fetched alongside, but shown once the rental grid above has its
         cards: appearing first, they would be pushed down the screen as it fills (layout shift). */
      sales={!rentals.isLoading && <Grid title={SALE_TITLE} type="FOR_SALE" search={search} />}
    />
  );
}
