import { Fragment, useState, type CSSProperties, type HTMLAttributes, type Key, type ReactNode } from 'react';
import type { TableProps } from 'antd';
import type { ColumnType } from 'antd/es/table';
import { PlainEmpty } from './plain';
import { theme } from './theme-config';

/*
 * The lists of every screen: a plain HTML table (issue 27, part 5: antd's Table, with the filter,
 * selection, tree, select and virtual list it imports whatever a screen uses, was 130 KB gzip of
 * every staff first screen), styled like antd's, with its own pager. On a phone (under 768 px, the
 * layout's breakpoint) each row is a card: every column's value on a line of its own under the
 * column's name, the row's actions last, nothing off-screen and nothing to scroll sideways. CSS
 * alone decides, so the first paint is already right and a rotated phone turns cards into rows.
 * While a list reloads (a live update's refetch) its rows stay at full contrast under the spinner,
 * not faded as antd's were: a faded table failed axe's colour contrast when an audit met a refetch.
 */
const PRIMARY = theme.token!.colorPrimary!;
const CSS = `
.dme-table{position:relative;max-width:100%;min-width:0;font-size:14px;color:rgba(0,0,0,.88)}
.dme-table-scroll{overflow-x:auto}
.dme-table table{width:100%;border-collapse:separate;border-spacing:0;text-align:left}
.dme-table th,.dme-table td{padding:16px;border-bottom:1px solid #f0f0f0;overflow-wrap:break-word}
.dme-table-middle th,.dme-table-middle td{padding:12px 8px}
.dme-table-small th,.dme-table-small td{padding:8px}
.dme-table th{background:#fafafa;font-weight:600;white-space:nowrap}
.dme-table thead tr:first-child th:first-child{border-top-left-radius:8px}
.dme-table thead tr:first-child th:last-child{border-top-right-radius:8px}
.dme-table-row:hover>td{background:#fafafa}
.dme-table-ellipsis{max-width:0;overflow:hidden;white-space:nowrap;text-overflow:ellipsis}
.dme-table-expanded>td{background:#fbfbfb}
.dme-table-expand{display:inline-flex;align-items:center;justify-content:center;width:17px;height:17px;padding:0;border:1px solid #d9d9d9;border-radius:4px;background:#fff;color:inherit;font:inherit;line-height:1;cursor:pointer}
.dme-table-expand:focus-visible,.dme-pager button:focus-visible{outline:2px solid ${PRIMARY};outline-offset:1px}
.dme-table-empty>td{text-align:center}
.dme-table-summary>td{text-align:right;background:#fafafa}
.dme-table-busy .dme-table-scroll{pointer-events:none}
.dme-table-mask{position:absolute;inset:0;display:flex;align-items:center;justify-content:center;min-height:64px}
.dme-table-mask>span{width:24px;height:24px;border-radius:50%;border:3px solid #d9eef0;border-top-color:${PRIMARY};animation:dme-spin .8s linear infinite}
@keyframes dme-spin{to{transform:rotate(360deg)}}
.dme-pager{display:flex;flex-wrap:wrap;justify-content:flex-end;gap:8px;margin:16px 0 0;padding:0;list-style:none}
.dme-pager button{min-width:32px;height:32px;padding:0 6px;border:1px solid transparent;border-radius:6px;background:transparent;color:inherit;font:inherit;cursor:pointer}
.dme-pager button:hover:not(:disabled){background:rgba(0,0,0,.06)}
.dme-pager button[aria-current=page]{border-color:${PRIMARY};color:${PRIMARY};font-weight:600;background:#fff}
.dme-pager button:disabled{color:rgba(0,0,0,.25);cursor:not-allowed}
.dme-pager-total{margin-right:8px}
.dme-pager li[aria-hidden],.dme-pager-total{display:flex;align-items:center;color:rgba(0,0,0,.45)}
@media (max-width:767.98px){
.dme-table-scroll{overflow:visible}
.dme-table table{display:block;width:100%}
.dme-table thead{display:none}
.dme-table tbody{display:block}
.dme-table tbody>tr{display:block;margin:0 0 12px;padding:6px 0;border:1px solid #f0f0f0;border-radius:8px;background:#fff}
.dme-table tbody>tr>td,.dme-table-small tbody>tr>td,.dme-table-middle tbody>tr>td{display:flex;align-items:center;justify-content:space-between;gap:12px;min-height:32px;padding:4px 12px;border:0;white-space:normal;overflow-wrap:anywhere;text-align:right;background:none}
.dme-table tbody>tr>td::before{content:attr(data-label);flex:none;max-width:45%;color:rgba(0,0,0,.62);text-align:left}
.dme-table tbody>tr>td[data-label=""]::before{content:none}
.dme-table tbody>tr>td[data-label=""]{justify-content:flex-end;flex-wrap:wrap}
.dme-table tbody>tr.dme-table-empty,.dme-table tbody>tr.dme-table-expanded{border:0;padding:0}
.dme-table tbody>tr.dme-table-empty>td,.dme-table tbody>tr.dme-table-expanded>td{display:block;text-align:center;padding:0}
.dme-table tbody>tr.dme-table-expanded>td{text-align:left}
.dme-table tfoot,.dme-table tfoot>tr{display:block}
.dme-table tfoot>tr>td{display:block;padding:8px 12px;border:0;white-space:normal;text-align:right}
.dme-table-ellipsis{max-width:none}
.dme-pager{justify-content:center}
}
`;

/** What a screen may pass: antd Table's props that lists use (others are a type error, not ignored). */
export type ResponsiveTableProps<T> = Pick<TableProps<T>, 'columns' | 'dataSource' | 'rowKey' | 'loading' | 'pagination' | 'locale' | 'size' | 'scroll' | 'expandable' | 'onRow' | 'className' | 'style'> & {
  /** The table's accessible name. */
  'aria-label'?: string;
  /** A last row under the rows, across every column, aligned right (a total). */
  summary?: ReactNode;
};

/** The label a cell shows before its value on a phone: the column's title when it is text; none for actions. */
function labelOf<T>(c: ColumnType<T>): string {
  if (typeof c.title !== 'string') return '';
  return c.title === 'Action' || c.title === 'Actions' ? '' : c.title;
}

function valueAt(record: object, dataIndex: unknown): unknown {
  if (dataIndex === undefined || dataIndex === null) return undefined;
  const path: unknown[] = Array.isArray(dataIndex) ? dataIndex : [dataIndex];
  let v: unknown = record;
  for (const k of path) v = v == null ? undefined : (v as Record<string | number, unknown>)[k as string | number];
  return v;
}

function keyOf<T>(record: T, index: number, rowKey: TableProps<T>['rowKey']): Key {
  if (typeof rowKey === 'function') return rowKey(record, index) as Key;
  const k = (record as Record<string, unknown>)[(rowKey as string | undefined) ?? 'key'];
  return (k as Key | undefined) ?? index;
}

/** Page numbers to offer: the first, the last, and two either side of the current one; gaps (of two or more pages) as null. */
export function pagesToShow(current: number, last: number): Array<number | null> {
  const shown = new Set<number>([1, last]);
  for (let d = -2; d <= 2; d++) if (current + d >= 1 && current + d <= last) shown.add(current + d);
  // A gap of one page shows that page instead.
  for (let p = 2; p < last; p++) if (!shown.has(p) && shown.has(p - 1) && shown.has(p + 1)) shown.add(p);
  const out: Array<number | null> = [];
  for (let p = 1; p <= last; p++) {
    if (shown.has(p)) out.push(p);
    else if (out[out.length - 1] !== null) out.push(null);
  }
  return out;
}

interface PagerProps {
  current: number;
  pageSize: number;
  total: number;
  onChange: (page: number, pageSize: number) => void;
  showTotal?: (total: number, range: [number, number]) => ReactNode;
}

function Pager({ current, pageSize, total, onChange, showTotal }: PagerProps) {
  const last = Math.max(1, Math.ceil(total / pageSize));
  return (
    <nav aria-label="Pages">
      <ul className="dme-pager">
        {showTotal && <li className="dme-pager-total">{showTotal(total, [Math.min(total, (current - 1) * pageSize + 1), Math.min(total, current * pageSize)])}</li>}
        <li>
          <button type="button" title="Previous Page" aria-label="Previous page" disabled={current <= 1} onClick={() => onChange(current - 1, pageSize)}>
            ‹
          </button>
        </li>
        {pagesToShow(current, last).map((p, i) =>
          p === null ? (
            <li key={`gap${i}`} aria-hidden="true">
              •••
            </li>
          ) : (
            <li key={p}>
              <button type="button" title={String(p)} aria-label={`Page ${p}`} aria-current={p === current ? 'page' : undefined} onClick={() => p !== current && onChange(p, pageSize)}>
                {p}
              </button>
            </li>
          ),
        )}
        <li>
          <button type="button" title="Next Page" aria-label="Next page" disabled={current >= last} onClick={() => onChange(current + 1, pageSize)}>
            ›
          </button>
        </li>
      </ul>
    </nav>
  );
}

/**
 * A list as a table that becomes cards on a phone (issue 27: the cart hid quantity, price and
 * Remove off-screen; order lists hid Status and View). Takes antd Table's props for what lists use:
 * columns (title, dataIndex, key, render, width, align, ellipsis, onCell), rows and their key,
 * loading, a pager (`pagination`: the server's page, or the rows paged here when there are more
 * than a page), the empty text, expandable rows and row handlers. Columns are shown whole on a
 * phone, so a column hidden there (`responsive`) shows again in its card.
 */
export function ResponsiveTable<T extends object>(props: ResponsiveTableProps<T>) {
  const { columns = [], dataSource = [], rowKey, loading, pagination, locale, size, expandable, onRow, className, style, summary } = props;
  const cols = columns as ColumnType<T>[];
  const labels = cols.map((c) => labelOf(c));
  const [ownPage, setOwnPage] = useState(1);
  const [open, setOpen] = useState<ReadonlySet<Key>>(new Set());

  const paging = pagination === false ? undefined : (pagination ?? {});
  const pageSize = paging?.pageSize ?? 10;
  const asked = paging?.current ?? ownPage;
  // More rows than a page: they are paged here (antd's rule); otherwise the rows are the page.
  const pagedHere = !!paging && dataSource.length > pageSize;
  // Rows paged here that became fewer (a filter) show their last page, not an empty one.
  const current = pagedHere ? Math.min(asked, Math.ceil(dataSource.length / pageSize)) : asked;
  const rows = pagedHere ? dataSource.slice((current - 1) * pageSize, current * pageSize) : dataSource;
  const total = paging ? (paging.total ?? dataSource.length) : 0;
  const showPager = !!paging && total > 0 && !(paging.hideOnSinglePage && total <= pageSize);
  const busy = typeof loading === 'object' ? !!loading.spinning : !!loading;
  const canExpand = (r: T) => !!expandable?.expandedRowRender && (expandable.rowExpandable ? expandable.rowExpandable(r) : true);
  const span = cols.length + (expandable ? 1 : 0);

  const change = (page: number, size: number) => {
    setOwnPage(page);
    paging?.onChange?.(page, size);
  };
  const toggle = (k: Key) =>
    setOpen((s) => {
      const next = new Set(s);
      if (next.has(k)) next.delete(k);
      else next.add(k);
      return next;
    });
  const cellStyle = (c: ColumnType<T>): CSSProperties | undefined =>
    c.width !== undefined || c.align ? { width: c.width, textAlign: c.align === 'center' ? 'center' : c.align === 'right' ? 'right' : undefined } : undefined;

  return (
    <div
      className={['dme-table', size === 'small' ? 'dme-table-small' : size === 'middle' ? 'dme-table-middle' : '', busy ? 'dme-table-busy' : '', className ?? ''].filter(Boolean).join(' ')}
      style={style}
      aria-busy={busy || undefined}
    >
      <style href="dme-table" precedence="dme">
        {CSS}
      </style>
      <div className="dme-table-scroll">
        <table aria-label={props['aria-label']}>
          <thead>
            <tr>
              {expandable && <th scope="col" aria-label="Expand" style={{ width: 48 }} />}
              {cols.map((c, j) => (
                <th key={String(c.key ?? c.dataIndex ?? j)} scope="col" style={cellStyle(c)} className={c.className}>
                  {typeof c.title === 'function' ? null : (c.title as ReactNode)}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {rows.length === 0 && (
              <tr className="dme-table-empty">
                <td colSpan={span}>{busy ? <div style={{ minHeight: 96 }} /> : (locale?.emptyText as ReactNode) ?? <PlainEmpty description="No data" />}</td>
              </tr>
            )}
            {rows.map((r, i) => {
              const k = keyOf(r, i, rowKey);
              const expanded = open.has(k);
              const rowProps = (onRow?.(r, i) ?? {}) as HTMLAttributes<HTMLTableRowElement>;
              return (
                <Fragment key={k}>
                  <tr {...rowProps} className={rowProps.className ? `dme-table-row ${rowProps.className}` : 'dme-table-row'} data-row-key={String(k)}>
                    {expandable && (
                      <td data-label="">
                        {canExpand(r) && (
                          <button type="button" className="dme-table-expand" aria-label={expanded ? 'Collapse row' : 'Expand row'} aria-expanded={expanded} onClick={() => toggle(k)}>
                            {expanded ? '−' : '+'}
                          </button>
                        )}
                      </td>
                    )}
                    {cols.map((c, j) => {
                      const value = valueAt(r, c.dataIndex);
                      const content = (c.render ? c.render(value, r, i) : value) as ReactNode;
                      const cell = (c.onCell?.(r, i) ?? {}) as HTMLAttributes<HTMLTableCellElement>;
                      return (
                        <td
                          key={String(c.key ?? c.dataIndex ?? j)}
                          {...cell}
                          data-label={labels[j]}
                          style={{ ...cellStyle(c), ...cell.style }}
                          className={[c.className ?? '', c.ellipsis ? 'dme-table-ellipsis' : '', cell.className ?? ''].filter(Boolean).join(' ') || undefined}
                        >
                          {content}
                        </td>
                      );
                    })}
                  </tr>
                  {expandable && expanded && canExpand(r) && (
                    <tr className="dme-table-expanded">
                      <td colSpan={span}>{expandable.expandedRowRender!(r, i, 1, true)}</td>
                    </tr>
                  )}
                </Fragment>
              );
            })}
          </tbody>
          {summary != null && summary !== false && (
            <tfoot>
              <tr className="dme-table-summary">
                <td colSpan={span}>{summary}</td>
              </tr>
            </tfoot>
          )}
        </table>
      </div>
      {busy && (
        <div className="dme-table-mask" role="status" aria-label="Loading">
          <span aria-hidden="true" />
        </div>
      )}
      {showPager && <Pager current={current} pageSize={pageSize} total={total} onChange={change} showTotal={paging?.showTotal} />}
    </div>
  );
}
