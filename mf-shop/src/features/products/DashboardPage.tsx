import { useEffect, useMemo, useState, type FormEvent, type ReactNode } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import { AVAILABILITY_BATCH_MAX, CATALOG_MESSAGES, formatBusinessDate, formatPriceRange, lastBookableStart, manilaDate } from '@dme/contracts/browser';
import type { ProductAvailability, ProductCard } from '@dme/contracts';
import { errorMessage } from '@dme/api-client';
import { announceScreenReady, FIRST_PICTURE_TIMING, LazyErrorState, PageHeader, PlainEmpty, PlainLoading, uniqueRows } from '@dme/ui';
import { useAvailabilityBatchQuery, useProductCardPagesInfiniteQuery } from '../../lib/catalogApi';
import { useMyNoticesQuery } from './api';
import { DueNotices } from './DueNotices';
import { cardQuery, filtersFromUrl, filtersToUrl, isAmount, isFiltered, NO_FILTERS, priceOrderOk, type ShopFilters, type ShopType } from './filters';

/*
 * The customer's home, kept light on purpose (DESIGN §12: sign-in to dashboard within 250 KB):
 * plain elements and CSS grid instead of antd's Card/Row/Input/Spin/Empty, so the remote's first
 * screen downloads no antd at all.
 */

/**
 * Cards of at least 200 px, but never fewer than two a row (issue 27: on a phone a card filled
 * the screen): below 416 px of width a column is half the row.
 */
const grid = { display: 'grid', gridTemplateColumns: 'repeat(auto-fill, minmax(min(200px, calc(50% - 6px)), 1fr))', gap: 12 } as const;
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
  /** A filter narrows the list (issue 27): the empty state says so and offers to clear them. */
  filtered?: boolean;
  onClear?: () => void;
  /**
   * The cards shown are the last search's while the new one's are on their way: dimmed, and not
   * clickable (inert), so a tap meant for a card never lands on the one that takes its place.
   */
  stale?: boolean;
}

/** What an empty section says: nothing in the shop yet, or nothing matching the search and filters. */
export function emptyText(type: ShopType, search: string, filtered: boolean): string {
  const kind = type === 'FOR_RENT' ? 'rental' : 'sale';
  if (search) return `No ${kind} items match “${search}”${filtered ? ' with these filters' : ''}.`;
  return filtered ? `No ${kind} items match these filters.` : 'No items yet.';
}

/**
 * A grid of 100 cards; "Load more" brings the next 100 while the shop has more. Plain props: the
 * page renders it from its queries, the gateway's server-rendered first screen from the same
 * answers (first-screen.tsx), so both draw the same markup.
 */
export function GridView({ title, type, search, eagerCards = 0, loading, error, items, total, hasNextPage, fetching = false, fetchingMore = false, onRetry, onMore, dated, dayPicker, filtered = false, onClear, stale = false }: GridViewProps) {
  return (
    <section aria-labelledby={`${type}-title`} style={{ marginBottom: 32, scrollMarginTop: 56 }} id={`${type}-section`}>
      <div style={{ display: 'flex', flexWrap: 'wrap', gap: 12, alignItems: 'center', justifyContent: 'space-between', margin: '8px 0 12px' }}>
        <h2 id={`${type}-title`} tabIndex={-1} style={{ fontSize: 18, margin: 0 }}>
          {title}
        </h2>
        {dayPicker}
      </div>
      {loading ? (
        <PlainLoading />
      ) : error && items.length === 0 ? (
        <LazyErrorState message={error} onRetry={onRetry} />
      ) : items.length === 0 ? (
        <PlainEmpty description={emptyText(type, search, filtered)}>
          {(search || filtered) && onClear && (
            <button type="button" onClick={onClear} style={plainButton}>
              {CATALOG_MESSAGES.search.clear}
            </button>
          )}
        </PlainEmpty>
      ) : (
        <div inert={stale} aria-busy={stale || undefined} style={stale ? { opacity: 0.5 } : undefined}>
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
        </div>
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

interface GridProps {
  title: string;
  type: ShopType;
  filters: ShopFilters;
  eagerCards?: number;
  /** Pages of cards to show (the URL's `page`, Back and reload keep it); "Load more" asks for one more. */
  onPages: (pages: number) => void;
  onClear: () => void;
}

function Grid({ title, type, filters, eagerCards = 0, onPages, onClear }: GridProps) {
  const q = useProductCardPagesInfiniteQuery(cardQuery(type, filters));
  const items = useMemo(() => uniqueRows(q.data?.pages), [q.data]);
  const loaded = q.data?.pages.length ?? 0;
  // Back or reload onto `page=N`: load the pages shown then, one after another.
  useEffect(() => {
    if (loaded > 0 && loaded < filters.page && q.hasNextPage && !q.isFetching && !q.isError) void q.fetchNextPage();
  }, [loaded, filters.page, q]);
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
  // Cards of other filters, shown while this search's first page loads (not a reload of the same).
  const stale = q.isFetching && !q.isFetchingNextPage && !q.currentData && shown.length > 0;
  return (
    <GridView
      title={title}
      type={type}
      search={filters.search}
      filtered={isFiltered({ ...filters, search: '' })}
      onClear={onClear}
      eagerCards={eagerCards}
      loading={q.isLoading}
      error={q.error ? errorMessage(q.error) : undefined}
      items={shown}
      total={q.data?.pages.at(-1)?.total ?? 0}
      hasNextPage={q.hasNextPage}
      fetching={q.isFetching}
      fetchingMore={q.isFetchingNextPage}
      stale={stale}
      onRetry={retry}
      onMore={() => {
        onPages(loaded + 1);
        if (loaded >= filters.page) void q.fetchNextPage();
      }}
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

const field = { padding: '6px 11px', border: '1px solid #d9d9d9', borderRadius: 8, fontSize: 14, background: '#fff' } as const;
const SEARCH_FORM = 'shop-search';

/** The filters' values as typed: prices apply with the search (Search or Enter), type and stock at once. */
export interface FilterBarProps {
  filters: ShopFilters;
  minPrice: string;
  maxPrice: string;
  onMinPrice?: (v: string) => void;
  onMaxPrice?: (v: string) => void;
  onFilters?: (patch: Partial<ShopFilters>) => void;
  onClear?: () => void;
  /** A price bound the API would refuse (shown under the prices). */
  priceError?: string | undefined;
}

const TYPE_CHOICES: ReadonlyArray<readonly [ShopFilters['type'], string]> = [['', 'All'], ['FOR_RENT', 'For Rent'], ['FOR_SALE', 'For Sale']];

/** Type, price range and "In stock only" (issue 27), plain elements (the dashboard loads no antd). */
function FilterBar({ filters, minPrice, maxPrice, onMinPrice, onMaxPrice, onFilters, onClear, priceError }: FilterBarProps) {
  return (
    <div role="group" aria-label="Filters" style={{ display: 'flex', flexWrap: 'wrap', gap: 12, alignItems: 'center', margin: '0 0 16px', fontSize: 14 }}>
      <div role="group" aria-label="Type" style={{ display: 'flex', gap: 4 }}>
        {TYPE_CHOICES.map(([value, label]) => (
          <button key={label} type="button" aria-pressed={filters.type === value} onClick={() => onFilters?.({ type: value })}
            style={{ ...plainButton, ...(filters.type === value ? { background: '#e6f4f5', border: '1px solid #0b6e79', color: '#064a52', fontWeight: 600 } : {}) }}>
            {label}
          </button>
        ))}
      </div>
      <span style={{ display: 'flex', gap: 6, alignItems: 'center' }}>
        <label htmlFor="shop-min-price">Price from</label>
        <input id="shop-min-price" form={SEARCH_FORM} inputMode="decimal" placeholder="0.00" value={minPrice} onChange={(e) => onMinPrice?.(e.target.value)}
          aria-invalid={priceError ? true : undefined} aria-describedby={priceError ? 'shop-price-error' : undefined} style={{ ...field, width: 90 }} />
        <label htmlFor="shop-max-price">to</label>
        <input id="shop-max-price" form={SEARCH_FORM} inputMode="decimal" placeholder="any" value={maxPrice} onChange={(e) => onMaxPrice?.(e.target.value)}
          aria-invalid={priceError ? true : undefined} aria-describedby={priceError ? 'shop-price-error' : undefined} style={{ ...field, width: 90 }} />
      </span>
      <label style={{ display: 'flex', gap: 6, alignItems: 'center' }}>
        <input type="checkbox" checked={filters.available} onChange={(e) => onFilters?.({ available: e.target.checked })} style={{ width: 16, height: 16 }} />
        In stock only
      </label>
      {isFiltered(filters) && (
        <button type="button" onClick={onClear} style={plainButton}>
          {CATALOG_MESSAGES.search.clear}
        </button>
      )}
      {priceError && (
        <span id="shop-price-error" role="alert" style={{ color: '#cf1322', flexBasis: '100%' }}>
          {priceError}
        </span>
      )}
    </div>
  );
}

const jumpBar = 'dme-shop-jump';
/** On a phone (< 768 px) a bar stays at the top with the two sections one tap apart (issue 27). */
const JUMP_CSS = `.${jumpBar}{display:none}@media (max-width:767.98px){.${jumpBar}{display:flex;position:sticky;top:0;z-index:5;gap:8px;padding:8px 0;margin:0 0 8px;background:#fff;border-bottom:1px solid #f0f0f0}}`;

function jumpTo(type: ShopType) {
  const section = document.getElementById(`${type}-section`);
  section?.scrollIntoView({ block: 'start' });
  document.getElementById(`${type}-title`)?.focus({ preventScroll: true });
}

/** The For Rent / For Sale jump bar (shown on a phone only). */
function JumpBar() {
  return (
    <nav aria-label="Sections" className={jumpBar}>
      <style>{JUMP_CSS}</style>
      <button type="button" onClick={() => jumpTo('FOR_RENT')} style={{ ...plainButton, flex: 1 }}>
        For Rent
      </button>
      <button type="button" onClick={() => jumpTo('FOR_SALE')} style={{ ...plainButton, flex: 1 }}>
        For Sale
      </button>
    </nav>
  );
}

export interface DashboardViewProps {
  text: string;
  onText?: (value: string) => void;
  onSubmit?: (e: FormEvent) => void;
  notices: ReactNode;
  rentals: ReactNode;
  sales: ReactNode;
  /** The filters (issue 27); the server-rendered first screen draws them unset. */
  filterBar?: FilterBarProps;
}

/** The dashboard's frame: heading, search and filters, notices, and the two grids (the sale grid once the rentals have theirs). */
export function DashboardView({ text, onText, onSubmit, notices, rentals, sales, filterBar = { filters: NO_FILTERS, minPrice: '', maxPrice: '' } }: DashboardViewProps) {
  return (
    <div>
      <PageHeader
        title="Products"
        extra={
          <form id={SEARCH_FORM} role="search" onSubmit={onSubmit} style={{ display: 'flex', gap: 8, maxWidth: '100%' }}>
            <input
              type="search"
              aria-label="Search products"
              placeholder="Name, brand or description"
              value={text}
              onChange={(e) => onText?.(e.target.value)}
              style={{ ...field, width: 260, maxWidth: 'calc(100vw - 140px)' }}
            />
            <button type="submit" style={{ padding: '6px 15px', borderRadius: 8, border: 'none', background: '#0b6e79', color: '#fff', cursor: 'pointer' }}>
              Search
            </button>
          </form>
        }
      />
      <FilterBar {...filterBar} />
      {/* One section shown (a type chosen): nothing to jump to. */}
      {!filterBar.filters.type && <JumpBar />}
      {notices}
      {rentals}
      {sales}
    </div>
  );
}

export function DashboardPage() {
  const [params, setParams] = useSearchParams();
  const filters = useMemo(() => filtersFromUrl(params), [params]);
  const [text, setText] = useState(filters.search);
  const [minPrice, setMinPrice] = useState(filters.minPrice);
  const [maxPrice, setMaxPrice] = useState(filters.maxPrice);
  const [priceError, setPriceError] = useState<string>();
  // Back, Forward or a link changed the URL: the boxes show what is applied.
  useEffect(() => {
    setText(filters.search);
    setMinPrice(filters.minPrice);
    setMaxPrice(filters.maxPrice);
    setPriceError(undefined);
  }, [filters.search, filters.minPrice, filters.maxPrice]);
  /** A new search or filter starts again at page 1 (a new history entry); "Load more" replaces the entry. */
  const apply = (patch: Partial<ShopFilters>, replace = false) => setParams(filtersToUrl({ ...filters, page: 1, ...patch }), { replace });
  const rentOn = filters.type !== 'FOR_SALE';
  const saleOn = filters.type !== 'FOR_RENT';
  const rentals = useProductCardPagesInfiniteQuery(cardQuery('FOR_RENT', filters), { skip: !rentOn });
  const sales = useProductCardPagesInfiniteQuery(cardQuery('FOR_SALE', filters), { skip: !saleOn });
  const notices = useMyNoticesQuery();
  // The screen has what the server-rendered first screen showed: the shell may hand over to it.
  const settled = !rentals.isLoading && !sales.isLoading && !notices.isLoading;
  useEffect(() => {
    if (settled) announceScreenReady();
  }, [settled]);
  const clear = () => {
    setParams(filtersToUrl(NO_FILTERS));
  };
  const onPages = (pages: number) => apply({ page: Math.max(filters.page, pages) }, true);
  return (
    <DashboardView
      text={text}
      onText={(value) => {
        setText(value);
        if (value === '' && filters.search) apply({ search: '' });
      }}
      onSubmit={(e) => {
        e.preventDefault();
        const min = minPrice.trim();
        const max = maxPrice.trim();
        if ((min && !isAmount(min)) || (max && !isAmount(max))) return setPriceError(CATALOG_MESSAGES.product.badMoney);
        if (!priceOrderOk(min, max)) return setPriceError(CATALOG_MESSAGES.search.priceOrder);
        setPriceError(undefined);
        apply({ search: text.trim(), minPrice: min, maxPrice: max });
      }}
      filterBar={{ filters, minPrice, maxPrice, onMinPrice: setMinPrice, onMaxPrice: setMaxPrice, onFilters: (patch) => apply(patch), onClear: clear, priceError }}
      notices={<DueNotices />}
      rentals={rentOn && <Grid title={RENT_TITLE} type="FOR_RENT" filters={filters} eagerCards={EAGER_CARDS} onPages={onPages} onClear={clear} />}
      /* The sale items are fetched alongside, but shown once the rental grid above has its
         cards: appearing first, they would be pushed down the screen as it fills (layout shift). */
      sales={saleOn && (!rentOn || !rentals.isLoading) && <Grid title={SALE_TITLE} type="FOR_SALE" filters={filters} eagerCards={rentOn ? 0 : EAGER_CARDS} onPages={onPages} onClear={clear} />}
    />
  );
}
