import { useEffect, useId, useRef, type KeyboardEvent, type ReactNode } from 'react';

const CSS = `
.dme-tabs{display:flex;flex-wrap:nowrap;gap:0 2px;margin:0 0 16px;border-bottom:1px solid #f0f0f0;overflow-x:auto;overscroll-behavior-x:contain;scrollbar-width:thin}
.dme-tab{position:relative;flex:none;padding:10px 10px;border:0;background:none;color:rgba(0,0,0,.88);font:inherit;font-size:14px;line-height:1.5;cursor:pointer;white-space:nowrap}
.dme-tab:hover{color:#0b6e79}
.dme-tab[aria-selected=true]{color:#0b6e79;font-weight:500}
.dme-tab[aria-selected=true]::after{content:'';position:absolute;left:12px;right:12px;bottom:-1px;height:2px;background:#0b6e79}
.dme-tab:focus-visible{outline:2px solid #0b6e79;outline-offset:-2px;border-radius:6px}
.dme-tab-count{display:inline-block;min-width:20px;margin-left:2px;padding:0 6px;border-radius:10px;background:#f0f0f0;color:rgba(0,0,0,.7);font-size:12px;line-height:20px;text-align:center;font-weight:400}
.dme-tab-count[data-attention=true]{background:#cf1322;color:#fff}
`;

export interface FilterTab<K extends string> {
  key: K;
  label: ReactNode;
  /** How many rows the tab holds (from the server), shown beside its label once known. */
  count?: number | undefined;
  /** The count asks for attention (red) while above zero: work that is late or owed. */
  attention?: boolean;
}

/**
 * Tabs that filter one list (order statuses, payment statuses): a WAI-ARIA tablist whose tabs all
 * control the one panel below them, with arrow keys, Home and End, each with its count once the
 * server has said it. The tabs stay on one line that scrolls sideways (issue 27: eleven rental
 * tabs wrapped onto two lines, four on a phone) instead of hiding behind a "more" button (antd's
 * overflow button sits inside the tablist, which assistive technology reads as a broken tab
 * list); the chosen tab is scrolled into view, and every tab is a button, so the strip is reached
 * by keyboard.
 */
export function FilterTabs<K extends string>({ label, items, active, onChange, children }: { label: string; items: Array<FilterTab<K>>; active: K; onChange: (key: K) => void; children: ReactNode }) {
  const id = useId();
  const list = useRef<HTMLDivElement>(null);
  const tabId = (key: string) => `${id}-tab-${key}`;
  const panelId = `${id}-panel`;

  // The chosen tab in view (a tab chosen from the address may sit past the strip's right edge).
  useEffect(() => {
    const strip = list.current;
    const tab = strip?.ownerDocument.getElementById(tabId(active));
    if (!strip || !tab || strip.scrollWidth <= strip.clientWidth) return;
    const left = tab.offsetLeft - strip.offsetLeft;
    if (left < strip.scrollLeft || left + tab.offsetWidth > strip.scrollLeft + strip.clientWidth) strip.scrollLeft = Math.max(0, left - 24);
  }, [active, id]);

  const onKeyDown = (e: KeyboardEvent<HTMLButtonElement>, index: number) => {
    const last = items.length - 1;
    const next = { ArrowRight: index === last ? 0 : index + 1, ArrowLeft: index === 0 ? last : index - 1, Home: 0, End: last }[e.key];
    if (next === undefined) return;
    e.preventDefault();
    const item = items[next]!;
    onChange(item.key);
    list.current?.ownerDocument.getElementById(tabId(item.key))?.focus();
  };

  return (
    <>
      <style href="dme-filter-tabs" precedence="dme">
        {CSS}
      </style>
      <div ref={list} role="tablist" aria-label={label} className="dme-tabs">
        {items.map((t, i) => (
          <button
            key={t.key}
            type="button"
            role="tab"
            id={tabId(t.key)}
            className="dme-tab"
            aria-selected={t.key === active}
            aria-controls={panelId}
            tabIndex={t.key === active ? 0 : -1}
            onClick={() => t.key !== active && onChange(t.key)}
            onKeyDown={(e) => onKeyDown(e, i)}
          >
            {t.label}
            {t.count !== undefined && ' '}
            {t.count !== undefined && (
              <span className="dme-tab-count" data-attention={Boolean(t.attention && t.count > 0)}>
                {t.count}
              </span>
            )}
          </button>
        ))}
      </div>
      <div role="tabpanel" id={panelId} aria-labelledby={tabId(active)}>
        {children}
      </div>
    </>
  );
}

