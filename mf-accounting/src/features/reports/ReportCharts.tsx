import { Bar, BarChart, CartesianGrid, Tooltip, XAxis, YAxis } from 'recharts';
import type { ReactNode } from 'react';
import type { ReportName, ReportResponse } from '@dme/contracts';
import { CHART_TITLES } from './columns';
import { cents, formatDay, formatShortDay, moneyCents } from './format';

/*
 * recharts is imported here and only here (features/reports): this module belongs to the lazy
 * reports screen's chunk, so no other screen or role downloads it.
 */

const COLOR = '#1677ff';

interface Point {
  label: string;
  cents: number;
}

/** What a chart says, in words, for screen readers (the chart itself is an image to them). */
export function byDaySummary(title: string, points: ReadonlyArray<{ day: string; cents: number }>): string {
  const total = points.reduce((a, p) => a + p.cents, 0);
  if (points.length === 0 || total === 0) return `${title}: nothing in this period.`;
  const best = points.reduce((a, p) => (p.cents > a.cents ? p : a));
  return `${title}, ${formatDay(points[0]!.day)} to ${formatDay(points.at(-1)!.day)}: ${moneyCents(total)} in all; highest ${moneyCents(best.cents)} on ${formatDay(best.day)}.`;
}

export function topSummary(title: string, points: readonly Point[]): string {
  if (points.length === 0) return `${title}: none in this period.`;
  return `${title}: ${points.map((p) => `${p.label} ${moneyCents(p.cents)}`).join('; ')}.`;
}

function ChartFigure({ id, title, summary, children }: { id: string; title: string; summary: string; children: ReactNode }) {
  return (
    <figure aria-labelledby={id} style={{ margin: 0, minWidth: 0 }}>
      <h2 id={id} style={{ margin: '0 0 8px', fontSize: 16, fontWeight: 600 }}>
        {title}
      </h2>
      <div role="img" aria-label={summary} style={{ width: '100%', height: 260 }}>
        {children}
      </div>
    </figure>
  );
}

/** Money per Manila day (bars) and the top rows by money (horizontal bars), amounts in cents. */
export function ReportCharts({ report, chart }: { report: ReportName; chart: ReportResponse['chart'] }) {
  const titles = CHART_TITLES[report];
  const byDay = chart.byDay.map((d) => ({ day: d.day, label: formatShortDay(d.day), cents: cents(d.amount) }));
  const top = chart.top.map((t) => ({ label: t.name, cents: cents(t.amount) }));
  return (
    <div style={{ display: 'grid', gridTemplateColumns: 'repeat(auto-fit, minmax(320px, 1fr))', gap: 24, marginBottom: 24 }}>
      <ChartFigure id={`${report}-by-day`} title={titles.byDay} summary={byDaySummary(titles.byDay, byDay)}>
        <BarChart responsive accessibilityLayer={false} data={byDay} style={{ width: '100%', height: '100%' }} margin={{ top: 8, right: 16, bottom: 8, left: 8 }}>
          <CartesianGrid strokeDasharray="3 3" vertical={false} />
          <XAxis dataKey="label" tick={{ fontSize: 12 }} minTickGap={8} />
          <YAxis tickFormatter={moneyCents} allowDecimals={false} width={96} tick={{ fontSize: 12 }} />
          <Tooltip formatter={(v) => moneyCents(Number(v))} />
          <Bar dataKey="cents" name="Amount" fill={COLOR} isAnimationActive={false} />
        </BarChart>
      </ChartFigure>
      <ChartFigure id={`${report}-top`} title={titles.top} summary={topSummary(titles.top, top)}>
        <BarChart responsive accessibilityLayer={false} layout="vertical" data={top} style={{ width: '100%', height: '100%' }} margin={{ top: 8, right: 24, bottom: 8, left: 8 }}>
          <CartesianGrid strokeDasharray="3 3" horizontal={false} />
          <XAxis type="number" tickFormatter={moneyCents} allowDecimals={false} tick={{ fontSize: 12 }} />
          <YAxis type="category" dataKey="label" width={140} tick={{ fontSize: 12 }} />
          <Tooltip formatter={(v) => moneyCents(Number(v))} />
          <Bar dataKey="cents" name="Amount" fill={COLOR} isAnimationActive={false} />
        </BarChart>
      </ChartFigure>
    </div>
  );
}
