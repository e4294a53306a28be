import { useLocation, useNavigate } from 'react-router-dom';

/** What a list shows, as kept in the address: its tab, its search and its page. */
export interface ListAddress<K extends string> {
  tab: K;
  search: string;
  page: number;
  /** Shows another tab, search or page; a new tab or search starts at page 1. */
  go(next: { tab?: K; search?: string; page?: number }): void;
  /** The list as it is now, for a detail's Back (pass as the link's `state`). */
  backState: { from: string };
}

/**
 * A list's tab, search and page live in the address (?status=DELIVERED&search=maria&page=2), so
 * reload and Back keep them, and a link can open the list as it should be seen (issue 27: the
 * "needs me now" counts link to filtered lists). `param` names the tab (`status`, `tab`); a tab the
 * list does not have falls back to the first. Each change is a new history entry, so Back walks
 * back through the tabs a person opened.
 */
export function useListAddress<K extends string>(tabs: readonly K[], param = 'tab'): ListAddress<K> {
  const location = useLocation();
  const navigate = useNavigate();
  const params = new URLSearchParams(location.search);
  const asked = params.get(param);
  const tab = tabs.find((t) => t === asked) ?? tabs[0]!;
  const search = (params.get('search') ?? '').trim();
  const n = Number.parseInt(params.get('page') ?? '1', 10);
  const page = Number.isSafeInteger(n) && n > 0 ? n : 1;
  return {
    tab,
    search,
    page,
    go(next) {
      const p = new URLSearchParams({ [param]: next.tab ?? tab });
      const s = next.search ?? search;
      if (s) p.set('search', s);
      if (next.page && next.page > 1) p.set('page', String(next.page));
      navigate({ search: `?${p.toString()}` });
    },
    backState: { from: `${location.pathname}${location.search}` },
  };
}

/** Where a detail's Back goes: the list as it was left (the link's `state.from`), else `fallback`. */
export function useBackTo(fallback: string): string {
  const from = (useLocation().state as { from?: unknown } | null)?.from;
  return typeof from === 'string' && from.startsWith('/') && !from.startsWith('//') ? from : fallback;
}
