import { Link, useLocation } from 'react-router-dom';
import { homeOf, workCount, workLabel, workOf, workSources, WORK_SOURCES, type WorkItem } from '@dme/contracts/browser';
import { useWorkCountsQuery } from '../api';

const CSS = `
.dme-work{margin:0 0 20px}
.dme-work h2{margin:0 0 8px;font-size:14px;font-weight:600;color:rgba(0,0,0,.7)}
.dme-work ul{display:grid;grid-template-columns:repeat(auto-fill,minmax(168px,1fr));gap:8px;margin:0;padding:0;list-style:none}
.dme-work a{display:flex;align-items:baseline;gap:8px;height:100%;box-sizing:border-box;padding:10px 12px;border:1px solid #e6e6e6;border-radius:8px;color:inherit;text-decoration:none;background:#fafafa}
.dme-work a:hover{border-color:#0b6e79;background:#f0f7f8}
.dme-work a:focus-visible{outline:2px solid #0b6e79;outline-offset:1px}
.dme-work b{flex:none;min-width:1.5ch;font-size:22px;line-height:1.2;font-weight:600;color:#0b6e79;font-variant-numeric:tabular-nums}
.dme-work a[data-attention=true] b{color:#cf1322}
.dme-work a[data-idle=true] b{color:rgba(0,0,0,.45)}
.dme-work span{line-height:1.3}
@media (max-width:767.98px){.dme-work ul{grid-template-columns:1fr 1fr}.dme-work a{padding:8px 10px}.dme-work b{font-size:18px}}
`;

function Counts({ items }: { items: readonly WorkItem[] }) {
  // One read per list (a role's counts come from a few lists), polled while the window is in use:
  // the remotes' live stream updates their own screens, not the shell's.
  const urls = workSources(items).map((s) => WORK_SOURCES[s]);
  const q = useWorkCountsQuery(urls, { pollingInterval: 30_000, skipPollingIfUnfocused: true, refetchOnMountOrArgChange: true });
  return (
    <ul>
      {items.map((item) => {
        const answer = q.data?.[WORK_SOURCES[item.source]];
        const n = answer === undefined ? undefined : workCount(item, answer);
        const failed = q.isError || (q.data !== undefined && n === undefined);
        return (
          <li key={item.key}>
            <Link to={item.href} data-attention={Boolean(item.attention && n)} data-idle={n === 0} aria-busy={n === undefined && !failed}>
              <b>{n ?? (failed ? '—' : '…')}</b> <span>{n === undefined && failed ? `${item.label} (could not be counted)` : workLabel(item, n)}</span>
            </Link>
          </li>
        );
      })}
    </ul>
  );
}

/**
 * "Needs you now" (issue 27): on a staff member's first screen (their role's home, SPEC §2), the
 * counts of the work waiting for them, each opening the list that holds it, filtered. Space for
 * the counts is kept from the first frame, so nothing below moves when they arrive.
 */
export function NeedsMe({ userType }: { userType: string }) {
  const { pathname } = useLocation();
  const items = workOf(userType);
  if (items.length === 0 || pathname !== homeOf(userType)) return null;
  return (
    <section className="dme-work" aria-labelledby="dme-work-title">
      <style href="dme-work" precedence="dme">
        {CSS}
      </style>
      <h2 id="dme-work-title">Needs you now</h2>
      <Counts items={items} />
    </section>
  );
}
