import { useId, useRef, type KeyboardEvent, type ReactNode } from 'react';

const CSS = `
.dme-tabs{display:flex;flex-wrap:wrap;gap:0 4px;margin:0 0 16px;border-bottom:1px solid #f0f0f0}
.dme-tab{position:relative;padding:10px 12px;border:0;background:none;color:rgba(0,0,0,.88);font:inherit;font-size:14px;line-height:1.5;cursor:pointer;white-space:nowrap}
.dme-tab:hover{color:#0b6e79}
.dme-tab[aria-selected=true]{color:#0b6e79;font-weight:500}
.dme-tab[aria-selected=true]::after{content:'';position:absolute;left:12px;right:12px;bottom:-1px;height:2px;background:#0b6e79}
.dme-tab:focus-visible{outline:2px solid #0b6e79;outline-offset:-2px;border-radius:6px}
`;

export interface FilterTab<K extends string> {
  key: K;
  label: ReactNode;
}

/**
 * Tabs that filter one list (order statuses, payment statuses): a WAI-ARIA tablist whose tabs all
 * control the one panel below them, with arrow keys, Home and End. The tabs wrap onto a second
 * line instead of hiding behind a "more" button (antd's overflow button sits inside the tablist,
 * which assistive technology reads as a broken tab list), so on a phone every tab stays visible.
 */
export function FilterTabs<K extends string>({ label, items, active, onChange, children }: { label: string; items: Array<FilterTab<K>>; active: K; onChange: (key: K) => void; children: ReactNode }) {
  const id = useId();
  const list = useRef<HTMLDivElement>(null);
  const tabId = (key: string) => `${id}-tab-${key}`;
  const panelId = `${id}-panel`;

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
          </button>
        ))}
      </div>
      <div role="tabpanel" id={panelId} aria-labelledby={tabId(active)}>
        {children}
      </div>
    </>
  );
}

