import { useEffect, useRef } from 'react';
import type { CalendarResponse } from '@dme/contracts';
import { addDays } from '@dme/contracts/browser';

/** What a click on the timeline names: a rental's order, or a downtime. */
export type Picked = { kind: 'RENTAL'; orderID: string } | { kind: 'DOWNTIME'; id: string };

/** The colours of the legend (the timeline's item classes, styled in CalendarPage); white text on them reads at 4.5:1 or more. */
export const KINDS = {
  booking: { label: 'Booked', color: '#0958d9' },
  turnaround: { label: 'Turnaround', color: '#faad14' },
  downtime: { label: 'Downtime', color: '#595959' },
  overdue: { label: 'Overdue', color: '#a8071a' },
} as const;

/**
 * The calendar grid (vis-timeline, Apache-2.0/MIT; its standalone build is loaded with this
 * screen only): one row per unit, one column per day; bookings (order number and customer),
 * their turnaround, downtime and overdue days in their colours. Days are whole Manila days.
 */
export default function Timeline({ data, onPick }: { data: CalendarResponse; onPick: (p: Picked) => void }) {
  const box = useRef<HTMLDivElement>(null);
  const pick = useRef(onPick);
  pick.current = onPick;
  useEffect(() => {
    let alive = true;
    let destroy = () => undefined as void;
    // The standalone build also exports vis-data's DataSet (its declarations leave it out).
    void import('vis-timeline/standalone').then((mod) => {
      const { Timeline: VisTimeline, DataSet } = mod as unknown as typeof mod & { DataSet: new <T>(items: T[]) => T[] & object };
      if (!alive || !box.current) return;
      const groups = new DataSet(data.units.map((u) => ({ id: u.stockItemID, content: `${u.serialCode}${u.level ? ` · ${u.level}` : ''}` })));
      const items: Array<{ id: string; group: string; start: string; end: string; content: string; className: string; title: string }> = [];
      for (const u of data.units) {
        for (const b of u.bookings) {
          if (b.kind === 'DOWNTIME') {
            items.push({ id: `d:${b.id}`, group: u.stockItemID, start: b.start, end: b.end, content: `${b.reason ?? 'Downtime'}`, className: 'cal-downtime', title: `${b.reason} ${b.start} to ${addDays(b.end, -1)}${b.note ? `: ${b.note}` : ''}` });
            continue;
          }
          const who = [b.orderNumber ?? 'Order', b.customerName].filter(Boolean).join(' · ');
          const until = b.overdue ? b.end : b.due;
          items.push({ id: `r:${b.id}:${b.orderID}`, group: u.stockItemID, start: b.start, end: until, content: who, className: b.overdue ? 'cal-overdue' : 'cal-booking', title: `${who}: ${b.start} to ${b.due}${b.overdue ? ' (overdue)' : ''}` });
          if (!b.overdue && b.end > b.due) items.push({ id: `t:${b.id}`, group: u.stockItemID, start: b.due, end: b.end, content: '', className: 'cal-turnaround', title: `Turnaround until ${b.end}` });
        }
      }
      const timeline = new VisTimeline(box.current, new DataSet(items), groups, {
        start: data.from,
        end: addDays(data.to, 1),
        min: data.from,
        max: addDays(data.to, 1),
        moveable: false,
        zoomable: false,
        stack: false,
        selectable: true,
        orientation: 'top',
        timeAxis: { scale: 'day', step: 1 },
        showCurrentTime: false,
        margin: { item: 4 },
      });
      timeline.on('select', (e: { items: Array<string | number> }) => {
        const id = String(e.items[0] ?? '');
        if (id.startsWith('r:')) pick.current({ kind: 'RENTAL', orderID: id.split(':')[2]! });
        else if (id.startsWith('d:')) pick.current({ kind: 'DOWNTIME', id: id.slice(2) });
        timeline.setSelection([]);
      });
      destroy = () => timeline.destroy();
    });
    return () => {
      alive = false;
      destroy();
    };
  }, [data]);
  return <div ref={box} data-testid="calendar-timeline" />;
}
