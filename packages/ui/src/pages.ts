/**
 * The rows of a list loaded page by page ("Load more"), each shown once: when an item changes
 * between the loading of two pages the offsets shift, and the same item can come twice.
 */
export function uniqueRows<T extends { id: string }>(pages: ReadonlyArray<{ items: T[] }> | undefined): T[] {
  const seen = new Set<string>();
  return (pages ?? []).flatMap((p) => p.items).filter((x) => (seen.has(x.id) ? false : (seen.add(x.id), true)));
}

/** The next offset of a list loaded page by page, while the server has more ({ items, total }). */
export function nextOffset(last: { items: unknown[]; total: number }, _all: unknown, lastOffset: number): number | undefined {
  const next = lastOffset + last.items.length;
  return last.items.length > 0 && next < last.total ? next : undefined;
}
